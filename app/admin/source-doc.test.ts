// The form and the raw view edit one text: reading it gives the value, a change to a field gives the text
// with only that field's bytes changed. Checked on every file of the real content tree, on the shapes the
// tree does not have yet (comments, unknown keys, CRLF), and with random edits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { sameValue, setIn, type Pointer } from './json-values.ts';
import { readSource, withBody, withField } from './source-doc.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const contentFiles = (function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
})(join(root, 'content'))
  .filter((file) => !relative(root, file).startsWith('content/media/')) // images: bytes, not text
  .map((file) => ({ path: relative(root, file), text: readFileSync(file, 'utf8') }))
  .sort((a, b) => a.path.localeCompare(b.path));
const sources = contentFiles.filter((f) => !f.path.startsWith('content/i18n/'));

const entryOrder = ['title', 'organisation', 'location', 'start', 'end', 'featured', 'summary', 'keyResult', 'tags', 'lenses', 'skills', 'contributions'];
const dataOf = (path: string, text: string) => readSource(path, text).data as Record<string, any>;

/** The text of each top-level key's entry (its lines up to the next top-level key), in file order. */
function entries(path: string, text: string): Array<[string, string]> {
  const json = path.endsWith('.json');
  const all = text.split('\n');
  const lines = json ? all.slice(1, all.lastIndexOf('}')) : text.slice(4, text.indexOf('\n---', 3)).split('\n');
  const keyOf = (line: string) => (json ? /^ {2}"([^"]+)":/.exec(line)?.[1] : /^([^\s#-][^:]*):/.exec(line)?.[1]);
  const out: Array<[string, string]> = [];
  for (const line of lines) {
    const key = keyOf(line);
    if (key !== undefined) out.push([key, line]);
    else if (out.length) out[out.length - 1]![1] += `\n${line.replace(/,$/, '')}`;
  }
  return out.map(([k, t]) => [k, t.replace(/,$/, '')]);
}

/** Asserts that `after` differs from `before` only in the entry of `key` (and JSON's comma after it). */
function onlyEntryChanged(path: string, before: string, after: string, key: string) {
  const others = (text: string) => entries(path, text).filter(([k]) => k !== key);
  assert.deepEqual(others(after), others(before), `entries other than ${key} changed in ${path}`);
  assert.equal(readSource(path, after).body, readSource(path, before).body, 'the body changed');
}

describe('reading a file’s text', () => {
  it('reads every file of the content tree: front matter and body, or the JSON object', () => {
    for (const { path, text } of contentFiles) {
      const read = readSource(path, text);
      assert.equal(read.error, undefined, `${path}: ${read.error?.message}`);
      assert.ok(read.data && typeof read.data === 'object', path);
      if (path.endsWith('.json')) assert.deepEqual(read.data, JSON.parse(text));
      else assert.equal(text.endsWith(read.body), true, `${path}: the body is the text after the front matter`);
    }
  });

  it('gives the body exactly as written, blank lines and all', () => {
    const read = readSource('x.md', '---\ntitle: A\n---\n\nFirst\n\n\nLast  \n');
    assert.deepEqual(read.data, { title: 'A' });
    assert.equal(read.body, '\nFirst\n\n\nLast  \n');
    assert.deepEqual(readSource('x.md', '---\n---\n').data, {});
  });

  it('says why a text cannot be read, with the line, and gives no data', () => {
    const yaml = readSource('x.md', '---\ntitle: A\ntags: [a,\n---\nBody\n');
    assert.equal(yaml.data, undefined);
    assert.match(yaml.error!.message, /^YAML: /);
    assert.equal(yaml.body, 'Body\n');
    assert.ok(yaml.error!.line! >= 3);
    assert.deepEqual(readSource('x.md', '---\ntitle: A\ntitle: B\n---\n').error?.line, 3);
    assert.deepEqual(readSource('x.md', 'Just text').error, { message: 'must start with YAML front matter between "---" lines', line: 1 });
    assert.equal(readSource('x.md', '---\ntitle: A\n').error?.message, 'front matter is not closed: add a line with "---" after it');
    assert.equal(readSource('x.md', '---\n- a\n---\n').error?.message, 'YAML: the front matter must be keys with values');
    const json = readSource('x.json', '{\n  "a": 1,\n}\n');
    assert.equal(json.data, undefined);
    assert.equal(json.error?.line, 3);
    assert.match(readSource('x.json', '[1]').error!.message, /one object/);
  });
});

describe('writing a field back into the text', () => {
  it('leaves every content file byte-identical when a field is set to the value it has, and the body likewise', () => {
    for (const { path, text } of contentFiles) {
      const read = readSource(path, text);
      for (const [key, value] of Object.entries(read.data!)) assert.equal(withField(path, text, [key], value), text, `${path} ${key}`);
      if (!path.endsWith('.json')) assert.equal(withBody(text, read.body), text, path);
    }
  });

  it('changes only the changed field’s lines, and changing it back gives the file byte for byte (every source file)', () => {
    for (const { path, text } of sources) {
      for (const [key, value] of Object.entries(dataOf(path, text))) {
        const changed =
          typeof value === 'string'
            ? `${value} (edited)`
            : Array.isArray(value)
              ? [...value, typeof value[0] === 'string' ? 'one more' : value[0]]
              : typeof value === 'boolean'
                ? !value
                : value === null
                  ? '2024-06'
                  : { ...value, added: 'x' };
        const after = withField(path, text, [key], changed);
        assert.ok(sameValue(dataOf(path, after)[key], changed), `${path} ${key}`);
        onlyEntryChanged(path, text, after, key);
        assert.equal(withField(path, after, [key], value), text, `${path} ${key} back`);
      }
    }
  });

  it('sets one list item by its pointer, touching that item’s line only', () => {
    const path = 'content/corpus/projects/concierge-copilot.md';
    const text = contentFiles.find((f) => f.path === path)!.text;
    const after = withField(path, text, ['contributions', 1], 'Designed the retrieval layer.');
    const diff = text.split('\n').flatMap((line, i) => (after.split('\n')[i] === line ? [] : [line]));
    assert.equal(diff.length, 1);
    assert.match(diff[0]!, /^ {2}- Designed the retrieval layer over/);
    assert.equal(dataOf(path, after).contributions[1], 'Designed the retrieval layer.');
    const url = withField(path, text, ['proofLinks', 0, 'url'], 'https://example.com/new');
    assert.equal(url, text.replace('url: https://example.com/orbitale/concierge-copilot', 'url: https://example.com/new'));
  });

  it('adds, removes and moves list items, each kept item keeping its own text', () => {
    const text = '---\nlist:\n  - plain\n  # about the second\n  - "quoted"\n  - \'single\'\ntags: [ai, web3]\n---\nBody\n';
    const add = withField('x.md', text, ['list', 3], 'new one');
    assert.equal(add, text.replace("  - 'single'\n", "  - 'single'\n  - new one\n"));
    const remove = withField('x.md', text, ['list', 1], undefined);
    assert.equal(remove, text.replace('  - "quoted"\n', ''));
    const move = withField('x.md', text, ['list'], ['quoted', 'plain', 'single']);
    assert.equal(move, '---\nlist:\n  - "quoted"\n  - plain\n  # about the second\n  - \'single\'\ntags: [ai, web3]\n---\nBody\n');
    assert.equal(withField('x.md', text, ['tags'], ['web3', 'ai', 'it']), text.replace('[ai, web3]', '[web3, ai, it]'));
    assert.equal(withField('x.md', text, ['tags', 0], undefined), text.replace('[ai, web3]', '[web3]'));
    assert.equal(withField('x.md', text, ['list'], []), text.replace(/list:\n[\s\S]*?(?=tags)/, 'list: []\n'));
    assert.equal(withField('x.md', text.replace('[ai, web3]', '[]'), ['tags'], ['ai']), text.replace('[ai, web3]', '[ai]'));
  });

  it('keeps unknown keys, comments, key order and the quoting of untouched values', () => {
    const text = [
      '---',
      '# Written by hand',
      "title: 'Single quoted'   # a note",
      'custom:',
      '  nested: [1, 2]',
      'start: "2024-01"',
      'summary: >-',
      '  Folded',
      '  text',
      '---',
      'Body',
      '',
    ].join('\n');
    const after = withField('x.md', text, ['title'], 'Renamed');
    assert.equal(after, text.replace("'Single quoted'", "'Renamed'"));
    const removed = withField('x.md', text, ['start'], undefined);
    assert.equal(removed, text.replace('start: "2024-01"\n', ''));
    const summary = withField('x.md', text, ['summary'], 'Other');
    assert.equal(dataOf('x.md', summary).summary, 'Other');
    assert.deepEqual(entries('x.md', summary).slice(0, 3), entries('x.md', text).slice(0, 3));
    assert.ok(summary.includes('# Written by hand') && summary.includes('custom:\n  nested: [1, 2]'));
  });

  it('puts a new top-level key after the nearest key before it in the schema’s order, else before the first after it', () => {
    const text = '---\ntitle: A\nstart: "2024-01"\nsummary: S\nextra: kept\n---\n';
    assert.equal(withField('x.md', text, ['organisation'], 'Org', entryOrder), text.replace('title: A\n', 'title: A\norganisation: Org\n'));
    assert.equal(withField('x.md', text, ['end'], '2024-05', entryOrder), text.replace('start: "2024-01"\n', 'start: "2024-01"\nend: "2024-05"\n'));
    assert.equal(
      withField('x.md', text.replace('title: A\n', ''), ['title'], 'T', entryOrder),
      text.replace('title: A\n', '').replace('---\n', '---\ntitle: T\n'),
    );
    assert.equal(withField('x.md', text, ['unlisted'], true, entryOrder), text.replace('extra: kept\n', 'extra: kept\nunlisted: true\n'));
    assert.equal(withField('x.md', '---\n---\nBody', ['title'], 'T', entryOrder), '---\ntitle: T\n---\nBody');
  });

  it('writes months and days in quotes and multi-line text as YAML allows', () => {
    const text = '---\ntitle: A\n---\n';
    assert.equal(withField('x.md', text, ['start'], '2024-02'), '---\ntitle: A\nstart: "2024-02"\n---\n');
    assert.equal(withField('x.md', text, ['end'], null), '---\ntitle: A\nend: null\n---\n');
    const multi = withField('x.md', text, ['why'], 'Line one\nline two: yes\n');
    assert.equal(dataOf('x.md', multi).why, 'Line one\nline two: yes\n');
    for (const tricky of ['a: b', '# not a comment', "it's", '"quoted"', '- dash', 'yes', 'null', '  padded  ', '[x]', '@at', 'tab\there', 'ümlaut ✓']) {
      assert.equal(dataOf('x.md', withField('x.md', text, ['title'], tricky)).title, tricky, tricky);
    }
  });

  it('writes typed text plainly where quotes were only needed before: an empty item, a trailing space', () => {
    const text = '---\ntitle: A\ncontributions:\n  - First\n  - ""\n---\n';
    assert.equal(withField('x.md', text, ['contributions', 1], 'Second.'), '---\ntitle: A\ncontributions:\n  - First\n  - Second.\n---\n');
    assert.equal(withField('x.md', "---\ntitle: 'A'\n---\n", ['title'], 'B'), "---\ntitle: 'B'\n---\n", 'a quoted value keeps its quotes');
    // Typed a letter at a time: the trailing space needed quotes for a moment, the finished name does not.
    let typed = '---\nname: Photography\n---\n';
    for (const value of ['Photography ', 'Photography (', 'Photography (film and digital)']) typed = withField('x.md', typed, ['name'], value);
    assert.equal(typed, '---\nname: Photography (film and digital)\n---\n');
  });

  it('keeps a CRLF file’s line endings', () => {
    const text = '---\r\ntitle: A\r\nlist:\r\n  - a\r\n---\r\nBody\r\n';
    assert.equal(withField('x.md', text, ['list', 1], 'b'), '---\r\ntitle: A\r\nlist:\r\n  - a\r\n  - b\r\n---\r\nBody\r\n');
  });

  it('replaces the Markdown body and nothing else', () => {
    const text = '---\ntitle: "A"  # note\n---\nOld body\n';
    assert.equal(withBody(text, 'New\n\nbody\n'), '---\ntitle: "A"  # note\n---\nNew\n\nbody\n');
    assert.equal(withBody('---\na: 1\n---', 'B'), '---\na: 1\n---\nB');
  });

  it('refuses to change a field of a text it cannot read', () => {
    assert.throws(() => withField('x.md', '---\ntags: [\n---\n', ['title'], 'A'), /cannot be read/);
  });
});

describe('writing a field back into JSON', () => {
  const site = contentFiles.find((f) => f.path === 'content/site.json')!.text;
  const terms = contentFiles.find((f) => f.path === 'content/search/related-terms.json')!.text;

  it('keeps 2-space indentation, key order, one-line items and the final newline', () => {
    const added = withField('content/site.json', site, ['links', 4], { label: 'Blog', url: 'https://example.com/blog' });
    const end = site.indexOf('\n  ]'); // the end of the links, the last array of the file
    assert.equal(added, `${site.slice(0, end)},\n    { "label": "Blog", "url": "https://example.com/blog" }${site.slice(end)}`);
    const email = withField('content/site.json', site, ['subject', 'email'], undefined);
    assert.equal(email, site.replace(',\n    "email": "noa.castellan@example.com"', ''));
    const order = ['name', 'shortName', 'fictional', 'notice', 'description'];
    const without = withField('content/site.json', site, ['fictional'], undefined);
    assert.equal(withField('content/site.json', without, ['fictional'], true, order), site);
    assert.ok(withField('content/site.json', site, ['name'], 'Other').endsWith('}\n'));
  });

  it('edits related terms group by group, each group on its line', () => {
    const en = dataOf('x.json', terms).groups.en as string[][];
    const path = 'content/search/related-terms.json';
    const term = withField(path, terms, ['groups', 'en', 0, 1], 'helper');
    assert.equal(term, terms.replace('["chatbot", "assistant",', '["chatbot", "helper",'));
    const group = withField(path, terms, ['groups', 'en', en.length], ['cv', 'résumé']);
    assert.equal(
      group,
      terms.replace(`${JSON.stringify(en.at(-1)).replace(/,/g, ', ')}\n`, `${JSON.stringify(en.at(-1)).replace(/,/g, ', ')},\n      ["cv", "résumé"]\n`),
    );
    const locale = withField(path, terms, ['groups', 'de'], [['KI', 'künstliche Intelligenz']]);
    assert.ok(locale.endsWith('    ],\n    "de": [\n      ["KI", "künstliche Intelligenz"]\n    ]\n  }\n}\n'));
  });
});

describe('setIn', () => {
  it('sets, removes, appends and makes missing parents', () => {
    assert.deepEqual(setIn({ a: 1 }, ['b'], 2), { a: 1, b: 2 });
    assert.deepEqual(setIn({ a: 1, b: 2 }, ['a'], undefined), { b: 2 });
    assert.deepEqual(setIn({ l: ['x', 'y'] }, ['l', 0], undefined), { l: ['y'] });
    assert.deepEqual(setIn({ l: ['x'] }, ['l', 1], 'y'), { l: ['x', 'y'] });
    assert.deepEqual(setIn({}, ['o', 'p'], 1), { o: { p: 1 } });
    assert.deepEqual(setIn({}, ['l', 0], 'x'), { l: ['x'] });
    assert.throws(() => setIn({ l: [] }, ['l', 2], 'x'), RangeError);
  });
});

// ---- random edits --------------------------------------------------------------------------------------

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    'a: b',
    '# hash',
    "it's",
    '"q"',
    '- item',
    'true',
    'null',
    '2024-05',
    ' lead',
    'trail ',
    'two\nlines',
    'x\n\n  y\n',
    '{a}',
    '[b]',
    '*star',
    '&amp',
  ),
);

/** A random change to one top-level field of a file, as the form makes it: a field, an item, or a whole list. */
function arbitraryEdit(data: Record<string, unknown>) {
  const keys = Object.keys(data);
  return fc.oneof(
    fc.record({ key: fc.constantFrom(...keys), value: text }).map(({ key, value }) => ({ key, pointer: [key] as Pointer, value })),
    fc.record({ key: fc.constantFrom(...keys), remove: fc.constant(true) }).map(({ key }) => ({ key, pointer: [key] as Pointer, value: undefined })),
    fc.record({ key: fc.constantFrom('brandNew', 'zzz'), value: fc.oneof(text, fc.array(text, { minLength: 1, maxLength: 3 })) }).map(({ key, value }) => ({
      key,
      pointer: [key] as Pointer,
      value,
    })),
    ...(keys.some((k) => Array.isArray(data[k]) && (data[k] as unknown[]).length)
      ? [
          fc
            .record({
              key: fc.constantFrom(...keys.filter((k) => Array.isArray(data[k]) && (data[k] as unknown[]).length)),
              op: fc.constantFrom('set', 'remove', 'add', 'move'),
              at: fc.nat(),
              value: text,
            })
            .map(({ key, op, at, value }) => {
              const list = data[key] as unknown[];
              const i = at % list.length;
              if (op === 'set' && typeof list[i] === 'string') return { key, pointer: [key, i] as Pointer, value };
              if (op === 'remove') return { key, pointer: [key, i] as Pointer, value: undefined };
              if (op === 'move' && list.length > 1) {
                const moved = list.slice();
                const [item] = moved.splice(i, 1);
                moved.splice((i + 1) % list.length, 0, item);
                return { key, pointer: [key] as Pointer, value: moved };
              }
              return { key, pointer: [key, list.length] as Pointer, value: typeof list[0] === 'string' ? value : list[0] };
            }),
        ]
      : []),
  );
}

describe('random edits of real files', () => {
  it('give the value asked for and change no other field’s lines, nor the body', () => {
    const files = [...sources.filter((f) => f.path.endsWith('.md')), ...contentFiles.filter((f) => f.path.startsWith('content/i18n/fr/'))];
    fc.assert(
      fc.property(
        fc.constantFrom(...files).chain((file) => fc.tuple(fc.constant(file), arbitraryEdit(dataOf(file.path, file.text)))),
        ([{ path, text: before }, edit]) => {
          const after = withField(path, before, edit.pointer, edit.value, entryOrder);
          assert.ok(sameValue(dataOf(path, after), setIn(dataOf(path, before), edit.pointer, edit.value)));
          onlyEntryChanged(path, before, after, edit.key);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('in JSON too', () => {
    const path = 'content/site.json';
    const before = contentFiles.find((f) => f.path === path)!.text;
    fc.assert(
      fc.property(arbitraryEdit(dataOf(path, before)), (edit) => {
        const after = withField(path, before, edit.pointer, edit.value);
        assert.ok(sameValue(dataOf(path, after), setIn(dataOf(path, before), edit.pointer, edit.value)));
        onlyEntryChanged(path, before, after, edit.key);
        assert.ok(after.endsWith('}\n'));
      }),
      { numRuns: 200 },
    );
  });
});
