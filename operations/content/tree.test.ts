// Whole-tree validation: every problem is found, located (path, pointer, line) and explained.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { readContentDir } from '../repo/local-repo.server.ts';
import fc from 'fast-check';
import { checkCounts, formatProblem, loadContent, locate, problemsAfter, problemsOfContent } from './tree.ts';
import { rememberParses } from './kept-parses.ts';
import { noPause } from './pause.ts';
import { sourceHash, sourceHashOfText } from './source-hash.ts';
import type { Problem } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import { lensIds, tags } from '../contract/shared.ts';

const seed = await readContentDir(resolve('content'));
const withFiles = (changes: Record<string, string | null>) => {
  const files = new Map(seed);
  for (const [path, text] of Object.entries(changes)) {
    if (text === null) files.delete(path);
    else files.set(path, text);
  }
  return files;
};
const entryPath = 'content/corpus/projects/concierge-copilot.md';
const original = seed.get(entryPath)!;

describe('the demo content', () => {
  it('is valid and rich enough to show every feature', () => {
    const { model, problems } = loadContent(seed);
    assert.deepEqual(problems.map(formatProblem), []);
    assert.ok(model!.entries.size >= 24);
    assert.deepEqual(new Set([...model!.entries.values()].map((e) => e.kind)), new Set(['experience', 'education', 'community', 'project']));
    const usedTags = new Set([...model!.entries.values()].flatMap((e) => e.fields.tags));
    const usedLenses = new Set([...model!.entries.values()].flatMap((e) => e.fields.lenses));
    assert.deepEqual([...tags].filter((t) => !usedTags.has(t)), []);
    assert.deepEqual([...lensIds].filter((l) => !usedLenses.has(l)), []);
    assert.equal(model!.lenses.size, 11);
    assert.ok(model!.skills.size >= 20);
    assert.equal(model!.documents.size, 5);
    assert.equal(model!.site.fictional, true);
  });

  it('has every translation the product promises, and exactly one stale one', () => {
    const { model } = loadContent(seed);
    const sources = [
      model!.brief.path,
      ...[...model!.entries.values()].map((e) => e.path),
      ...[...model!.lenses.values()].map((l) => l.path),
      ...[...model!.skills.values()].map((s) => s.path),
      ...[...model!.documents.values()].map((d) => d.path),
    ];
    for (const path of sources) {
      for (const locale of ['zh', 'zh-hant', 'ja', 'fr', 'es', 'eo'] as const) {
        assert.ok(model!.translations.get(path)?.get(locale), `${locale} translation of ${path}`);
      }
    }
    const stale = [...model!.translations.values()].flatMap((m) => [...m.values()]).filter((t) => t.stale);
    assert.equal(stale.length, 1, stale.map((t) => t.path).join(', '));
  });
});

describe('validation of one file', () => {
  it('reports a bad field with its pointer and line, and names the allowed values', () => {
    const broken = original.replace(/^tags: .*$/m, 'tags: [ai, cooking]');
    const { problems } = loadContent(withFiles({ [entryPath]: broken }));
    assert.equal(problems.length, 1);
    const [p] = problems;
    assert.equal(p!.path, entryPath);
    assert.equal(p!.pointer, '/tags/1');
    assert.equal(p!.line, broken.split('\n').findIndex((l) => l.startsWith('tags:')) + 1);
    assert.match(p!.message, /hospitality/);
  });

  it('reports YAML syntax errors with their line', () => {
    const broken = original.replace(/^title: .*$/m, 'title: [unclosed');
    const { problems } = loadContent(withFiles({ [entryPath]: broken }));
    assert.ok(problems.length >= 1);
    assert.match(problems[0]!.message, /^YAML/);
    assert.ok(problems[0]!.line! >= 2);
  });

  it('reports a missing required field, an unknown field and a missing front matter', () => {
    const missing = loadContent(withFiles({ [entryPath]: original.replace(/^summary: .*$/m, '') })).problems;
    assert.ok(missing.some((p) => p.pointer === '/summary' && /required/.test(p.message)));
    const unknown = loadContent(withFiles({ [entryPath]: original.replace(/^title: /m, 'titel: x\ntitle: ') })).problems;
    assert.ok(unknown.some((p) => /unknown field "titel"/.test(p.message)));
    const bare = loadContent(withFiles({ [entryPath]: 'Just text' })).problems;
    assert.ok(bare.some((p) => /front matter/.test(p.message) && p.line === 1));
  });

  it('reports a repeated key at its line, in a map of any size', () => {
    const repeated = original.replace(/^title: (.*)$/m, 'title: $1\ntitle: again');
    const { problems } = loadContent(withFiles({ [entryPath]: repeated }));
    assert.deepEqual(
      problems.map((p) => [p.message, p.line]),
      [['YAML: Map keys must be unique', repeated.split('\n').indexOf('title: again') + 1]],
    );
    // yaml's own check compared each key with every one before it: 20,000 keys took seconds
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join('\n');
    const many = loadContent(withFiles({ [entryPath]: original.replace(/^title: /m, `${keys}\nk7: again\ntitle: `) })).problems;
    assert.deepEqual(
      many.map((p) => p.message),
      ['YAML: Map keys must be unique'],
    );
  });

  it('reports aliases that would expand into a huge value as a problem, not an error', () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 12 }, (_, i) => `l${i}: &l${i} [${Array(9).fill(i ? `*l${i - 1}` : '*a').join(', ')}]`)].join('\n');
    const { problems } = loadContent(withFiles({ [entryPath]: original.replace(/^title: /m, `${laughs}\ntitle: `) }));
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, /^YAML: Excessive alias count/);
  });

  it('lists at most 50 problems of one file, the last saying how many more there are', () => {
    const broken = original.replace(/^summary: .*$/m, `summary: ${'*a '.repeat(1000)}`);
    const { problems } = loadContent(withFiles({ [entryPath]: broken }));
    assert.equal(problems.length, 51);
    assert.match(problems.at(-1)!.message, /^and \d+ more problems in this file$/);
  });

  it('rejects an end before the start', () => {
    const broken = original.replace(/^end: .*$/m, 'end: "2001-01"');
    const { problems } = loadContent(withFiles({ [entryPath]: broken }));
    assert.ok(problems.some((p) => p.pointer === '/end' && /before start/.test(p.message)));
  });
});

describe('validation of the whole tree', () => {
  it('reports an entry naming a skill that does not exist', () => {
    // The skill's translations go with it: what remains wrong is every entry still naming it.
    const translations = Object.fromEntries(
      [...seed.keys()].filter((path) => /^content\/i18n\/[^/]+\/skills\/typescript\.md$/.test(path)).map((path) => [path, null]),
    );
    const { problems } = loadContent(withFiles({ 'content/skills/typescript.md': null, ...translations }));
    assert.ok(problems.length > 0);
    assert.ok(problems.every((p) => /skill "typescript" does not exist/.test(p.message)));
  });

  it('reports a translation whose source was deleted', () => {
    const { problems } = loadContent(withFiles({ [entryPath]: null }));
    assert.ok(problems.some((p) => p.path === 'content/i18n/fr/corpus/projects/concierge-copilot.md' && /does not exist/.test(p.message)));
  });

  it('reports a duplicate slug across entries, lenses and skills', () => {
    const { problems } = loadContent(withFiles({ 'content/corpus/education/python.md': original }));
    assert.ok(problems.some((p) => /slug "python" is already used/.test(p.message)));
  });

  it('reports two entries of one slug in two folders (the model keys entries by slug: one would be lost)', () => {
    const { problems } = loadContent(withFiles({ 'content/corpus/education/concierge-copilot.md': original }));
    assert.deepEqual(
      problems.map((p) => [p.path, p.message]),
      [['content/corpus/projects/concierge-copilot.md', 'slug "concierge-copilot" is already used by content/corpus/education/concierge-copilot.md; slugs are unique across entries, lenses and skills']],
    );
  });

  it('reports files outside the layout and missing required files', () => {
    const { problems } = loadContent(withFiles({ 'content/notes.txt': 'x', 'content/documents/talks.md': null, 'content/i18n/de/brief.md': 'x' }));
    assert.ok(problems.some((p) => p.path === 'content/notes.txt'));
    assert.ok(problems.some((p) => p.path === 'content/documents/talks.md' && /missing/.test(p.message)));
    assert.ok(problems.some((p) => p.path === 'content/i18n/de/brief.md' && /locale/.test(p.message)));
  });

  it('reports a current translation whose list length differs from the English', () => {
    const path = 'content/i18n/fr/corpus/projects/concierge-copilot.md';
    const text = seed.get(path)!.replace(/^contributions:\n/m, 'contributions:\n  - "Un élément de trop"\n');
    const { problems } = loadContent(withFiles({ [path]: text }));
    assert.ok(problems.some((p) => p.path === path && p.pointer === '/contributions'));
  });
});

describe('translations as a workflow, not a chain', () => {
  const frPath = 'content/i18n/fr/corpus/projects/concierge-copilot.md';
  const oneMore = original.replace(/^contributions:\n/m, 'contributions:\n  - Wrote the runbook the duty managers follow.\n');

  it('an item added to an English list leaves every translation stale, not invalid', async () => {
    const files = withFiles({ [entryPath]: oneMore });
    const { model, problems } = loadContent(files);
    assert.deepEqual(problems, []);
    const translations = [...model!.translations.get(entryPath)!.values()];
    assert.deepEqual(translations.map((t) => t.locale).sort(), ['eo', 'es', 'fr', 'ja', 'zh', 'zh-hant']);
    assert.ok(translations.every((t) => t.stale));
    assert.deepEqual(await problemsAfter(seed, [[entryPath, oneMore]], noPause), [], 'the commit of the English alone is valid');
  });

  it('a stale translation that is itself changed is checked against its source, and told what to do', async () => {
    const files = withFiles({ [entryPath]: oneMore });
    const edited = seed.get(frPath)!.replace(/^title: .*$/m, 'title: "Concierge Copilot : un assistant pour les hôtels"');
    const problems = await problemsAfter(files, [[frPath, edited]], noPause);
    assert.deepEqual(problems, [
      {
        path: frPath,
        pointer: '/contributions',
        message: 'contributions has 4 items but the English has 5: translate the new item, or leave the file stale for the publish run to translate',
        line: edited.split('\n').findIndex((l) => l.startsWith('contributions:')) + 1,
      },
    ]);
    // the same edit beside the English change, with the item translated, is fine
    const lined = edited.replace(/^contributions:\n/m, 'contributions:\n  - "A écrit le guide que suivent les responsables de permanence."\n');
    assert.deepEqual(await problemsAfter(seed, [[entryPath, oneMore], [frPath, lined]], noPause), []);
  });

  it('a list in a changed translation where the English has none is one to remove', async () => {
    const brief = seed.get('content/brief.md')!.replace(/^questions:\n( {2}- .*\n)+/m, '');
    const jaPath = 'content/i18n/ja/brief.md';
    const problems = await problemsAfter(withFiles({ 'content/brief.md': brief }), [[jaPath, seed.get(jaPath)!]], noPause);
    assert.deepEqual(
      problems.map((p) => [p.path, p.pointer, p.message]),
      [[jaPath, '/questions', 'questions has 3 items but the English has none: remove the 3 items the English no longer has, or leave the file stale for the publish run to translate']],
    );
    assert.deepEqual(loadContent(withFiles({ 'content/brief.md': brief })).problems, [], 'unchanged, the stale translation is no problem of the tree');
  });
});

describe('translation staleness', () => {
  it('marks a translation stale when the English it was made from changes', () => {
    const path = 'content/i18n/ja/corpus/projects/concierge-copilot.md';
    assert.equal(loadContent(seed).model!.translations.get(entryPath)!.get('ja')!.stale, false);
    const changed = original.replace(/^keyResult: (.*)$/m, 'keyResult: "A different result"');
    const { model } = loadContent(withFiles({ [entryPath]: changed }));
    assert.equal(model!.translations.get(entryPath)!.get('ja')!.stale, true, path);
  });

  it('hashes only the translatable fields and the body', () => {
    const a = sourceHash('entry', { title: 'T', tags: ['ai'] }, 'Body');
    assert.equal(a, sourceHash('entry', { title: 'T', tags: ['web3'] }, 'Body\n'));
    assert.notEqual(a, sourceHash('entry', { title: 'U', tags: ['ai'] }, 'Body'));
  });
});

describe('parses remembered from a kept model', () => {
  it('are used instead of parsing the same texts again, and give the model a parse gives', async () => {
    const parsed = loadContent(seed).model!;
    const kept = structuredClone(parsed); // as a kept build's model comes back from disk: equal, not the same objects
    // Two other texts of every file push the seed's parses out of the cache (it keeps two per path).
    for (const suffix of ['\n', '\n\n']) loadContent(new Map([...seed].map(([path, text]) => [path, path.endsWith('.md') ? text + suffix : text])));
    await rememberParses(kept, seed, () => {});
    const { model, problems } = loadContent(seed);
    assert.deepEqual(problems, []);
    assert.deepEqual(model, parsed);
    const path = 'concierge-copilot';
    assert.equal(model.entries.get(path)!.fields, kept.entries.get(path)!.fields, 'the remembered parse, not a new one');
    assert.equal(model.translations.get(entryPath)!.get('ja')!.fields, kept.translations.get(entryPath)!.get('ja')!.fields);
    assert.equal(model.documents.get('talks')!.fields, kept.documents.get('talks')!.fields);
    // a text that changed since is parsed
    const changed = loadContent(withFiles({ [entryPath]: original.replace(/^title: .*$/m, 'title: "Changed since"') })).model!;
    assert.equal(changed.entries.get(path)!.fields.title, 'Changed since');
  });
});

describe('locate', () => {
  it('places every kind of path, and explains what has no place', () => {
    assert.deepEqual(locate('content/corpus/projects/x.md'), { kind: 'entry', id: 'x', entryKind: 'project' });
    assert.equal(locate('content/lenses/head-of-ai.md').kind, 'lens');
    assert.equal(locate('content/lenses/chef.md').kind, 'unknown');
    assert.equal(locate('content/i18n/ja/brief.md').kind, 'translation');
    assert.equal(locate('content/i18n/en/brief.md').kind, 'unknown');
    assert.equal(locate('content/corpus/hobbies/x.md').kind, 'unknown');
    assert.equal(locate('content/skills/Bad_Slug.md').kind, 'unknown');
  });
});

describe('a tree checked from the tree before it', () => {
  const paths = [...seed.keys()];
  const sources = paths.filter((p) => /^content\/(corpus\/[^/]+|lenses|skills|documents)\/[^/]+\.md$|^content\/brief\.md$/.test(p));
  const translated = paths.filter((p) => p.startsWith('content/i18n/'));
  const skillPaths = paths.filter((p) => p.startsWith('content/skills/'));
  const listKey = /^(contributions|honestGaps|questions):\n/m;
  const withLists = sources.filter((p) => listKey.test(seed.get(p)!));
  const folders = ['experiences', 'projects', 'community', 'education'];
  // One change to a tree, of the kinds that break or mend whole-tree rules: a file deleted, restored, broken,
  // copied to another slug's place, a translation's list lengthened, a source's list lengthened (its translations
  // go stale), a source's text changed, a file out of place.
  const change = fc.oneof(
    fc.constantFrom(...paths).map((path) => [path, null] as const),
    fc.constantFrom(...paths).map((path) => [path, seed.get(path)!] as const),
    fc.constantFrom(...paths).map((path) => [path, 'no front matter'] as const),
    fc.constantFrom(...skillPaths).map((path) => [path, null] as const),
    fc
      .tuple(fc.constantFrom(...sources), fc.constantFrom(...folders, 'lenses', 'skills'))
      .map(([from, folder]) => {
        const slug = /([^/]+)\.md$/.exec(from)![1]!;
        const to = folder === 'lenses' || folder === 'skills' ? `content/${folder}/${slug}.md` : `content/corpus/${folder}/${slug}.md`;
        return [to, seed.get(from)!] as const;
      }),
    fc.constantFrom(...translated).map((path) => [path, seed.get(path)!.replace(/^(\w+):\n/m, '$1:\n  - "one more"\n')] as const),
    fc.constantFrom(...withLists).map((path) => [path, seed.get(path)!.replace(listKey, '$1:\n  - "One more"\n')] as const),
    fc.constantFrom(...sources).map((path) => [path, seed.get(path)!.replace(/\n*$/, '\n\nOne more line.\n')] as const),
    fc.constant(['content/notes.txt', 'x'] as const),
  );
  // A source's list lengthened and one of its translations changed in the same step (the translation is then stale
  // and checked against its source): too rare among the single changes above for the properties to meet it.
  const translatedWithLists = withLists.filter((p) => seed.has(`content/i18n/fr/${p.slice('content/'.length)}`));
  const linked = fc
    .tuple(fc.constantFrom(...translatedWithLists), fc.constantFrom('zh', 'ja', 'fr', 'eo'), fc.constantFrom('as it was', 'retitled', 'one more'))
    .map(([source, locale, edit]) => {
      const path = `content/i18n/${locale}/${source.slice('content/'.length)}`;
      const text = seed.get(path)!;
      const translated = edit === 'as it was' ? text : edit === 'retitled' ? text.replace(/^title: .*$/m, 'title: "Retitled"') : text.replace(listKey, '$1:\n  - "un de plus"\n');
      return [[source, seed.get(source)!.replace(listKey, '$1:\n  - "One more"\n')] as const, [path, translated] as const];
    });
  const step = fc
    .array(fc.oneof({ weight: 3, arbitrary: change.map((c) => [c]) }, { weight: 1, arbitrary: linked }), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.flat());
  const apply = (files: Map<string, string>, changes: ReadonlyArray<readonly [string, string | null]>) => {
    const next = new Map(files);
    for (const [path, text] of changes) {
      if (text === null) next.delete(path);
      else next.set(path, text);
    }
    return next;
  };
  const same = (a: ReturnType<typeof loadContent>, b: ReturnType<typeof loadContent>) => {
    assert.deepEqual(a.problems, b.problems);
    assert.deepEqual(a.model, b.model);
    if (a.model && b.model) {
      for (const key of ['entries', 'lenses', 'skills', 'documents', 'translations'] as const) assert.deepEqual([...a.model[key].keys()], [...b.model[key].keys()], key);
    }
  };

  it('finds what a check from nothing finds, after any sequence of changes', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), (steps) => {
        let files = new Map(seed);
        loadContent(files, { fresh: true }); // each run from a known tree
        for (const step of steps) {
          files = apply(files, step);
          same(loadContent(files), loadContent(files, { fresh: true }));
        }
      }),
      { numRuns: 60 },
    );
  });

  /**
   * What a stale translation among the changes is told besides the tree's problems: the problems it would have if it
   * said it was made from its English as it is (a current translation's shape is the tree's business).
   */
  const asIfCurrent = (files: Map<string, string>, path: string, text: string | null, whole: readonly Problem[]) => {
    const where = locate(path);
    if (where.kind !== 'translation' || text === null || whole.some((p) => p.path === path)) return [];
    const english = files.get(where.sourcePath);
    const current = english === undefined ? undefined : sourceHashOfText(where.sourcePath, english);
    const recorded = /^source: (\S+)$/m.exec(text)?.[1];
    if (!current || !recorded || recorded === current) return [];
    const made = apply(files, [[path, text.replace(/^source: \S+$/m, `source: ${current}`)]]);
    return loadContent(made, { fresh: true }).problems.filter((p) => p.path === path);
  };

  it('answers a change the way a check of the whole tree after it does', async () => {
    await fc.assert(
      fc.asyncProperty(step, async (step) => {
        const unique = [...new Map(step.map(([path, text]) => [path, text])).entries()];
        const after = apply(seed, unique);
        const whole = loadContent(after, { fresh: true }).problems;
        // the same problems, with each changed stale translation's shape checked too; those about the changed files
        // first, in the order of the change
        const changed = unique.map(([path]) => path);
        const expected = [
          ...unique.flatMap(([path, text]) => [...whole.filter((p) => p.path === path), ...asIfCurrent(after, path, text, whole)]),
          ...whole.filter((p) => !changed.some((path) => path === p.path)),
        ];
        loadContent(seed, { fresh: true });
        assert.deepEqual(await problemsAfter(seed, unique.map(([path, text]) => [path, text ?? undefined] as const), noPause), expected);
      }),
      { numRuns: 60 },
    );
  });

  it('checks the changed file and what refers to it, not the whole tree', async () => {
    const skill = 'content/skills/typescript.md';
    const users = [...loadContent(seed).model!.entries.values()].filter((e) => e.fields.skills.includes('typescript')).length;
    assert.ok(users > 0);
    const before = { ...checkCounts };
    const problems = await problemsAfter(seed, [[skill, undefined]], noPause);
    // the six places of its slug (its own among them), its six translations, and the entries naming it
    assert.equal(checkCounts.files - before.files, 0, 'a deleted file is not parsed, nor any other');
    assert.equal(checkCounts.paths - before.paths, 6 + 6 + users);
    assert.equal(problems.filter((p) => /skill "typescript" does not exist/.test(p.message)).length, users);
    const edit = { ...checkCounts };
    await problemsAfter(seed, [[entryPath, original.replace(/^title: .*$/m, 'title: "Changed"')]], noPause);
    assert.equal(checkCounts.files - edit.files, 1);
    assert.equal(checkCounts.paths - edit.paths, 6 + 6);
  });

  it('checks one tree at a time: a change validated during a check of the whole tree is checked from it', async () => {
    // every file differs from the tree checked last, so checking this tree checks every file
    const touched = new Map([...seed].map(([path, text]) => [path, `${text}\n`]));
    const yielding = () => new Promise<void>((done) => setImmediate(done));
    const before = { ...checkCounts };
    const edited = touched.get(entryPath)!.replace(/^title: .*$/m, 'title: "Validated meanwhile"');
    const [whole, change] = await Promise.all([problemsOfContent(touched, yielding), problemsAfter(touched, [[entryPath, edited]], yielding)]);
    assert.deepEqual(whole, []);
    assert.deepEqual(change, []);
    assert.equal(checkCounts.files - before.files, touched.size + 1, 'the files once, then the changed one');
  });

  it('reports a broken skill as itself, not as missing from every entry that names it', async () => {
    const skill = 'content/skills/typescript.md';
    const broken = seed.get(skill)!.replace(/^category: .*$/m, 'category: nope');
    for (const text of [broken, 'no front matter here\n']) {
      const problems = await problemsAfter(seed, [[skill, text]], noPause);
      assert.ok(problems.length > 0);
      assert.deepEqual(
        problems.filter((p) => p.path !== skill),
        [],
        'the entries naming it name a file that is there',
      );
    }
    assert.ok((await problemsAfter(seed, [[skill, broken]], noPause)).some((p) => p.pointer === '/category'));
    assert.ok(loadContent(withFiles({ [skill]: broken })).problems.every((p) => p.path === skill));
  });
});

describe('the sizes the API states are the content’s', () => {
  it('refuses a file longer than a content file may be, pushed from elsewhere as much as written, without parsing it', () => {
    const long = `${original}\n${'a '.repeat(limits.contentFile / 2)}`;
    const { model, problems } = loadContent(withFiles({ [entryPath]: long }), { fresh: true });
    assert.equal(model, undefined);
    assert.deepEqual(
      problems.filter((p) => p.path === entryPath).map((p) => p.message),
      [`a content file is at most ${limits.contentFile} characters (512 kB); this one has ${long.length}`],
    );
  });

  it('refuses a field or a list longer than its limit, and gives a translation room to run longer than its English', () => {
    const entry = original.replace(/^title: .*$/m, `title: ${'T'.repeat(limits.title + 1)}`);
    assert.match(loadContent(withFiles({ [entryPath]: entry })).problems.map(formatProblem).join('\n'), /title must be at most 160 characters/);
    const french = `content/i18n/fr/${entryPath.slice('content/'.length)}`;
    const translation = seed.get(french)!.replace(/^title: .*$/m, `title: ${'T'.repeat(limits.title + 1)}`);
    assert.deepEqual(loadContent(withFiles({ [french]: translation })).problems.map(formatProblem), []);
  });
});
