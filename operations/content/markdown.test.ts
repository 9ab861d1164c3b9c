// The one Markdown reader: which links survive, what raw HTML and images become, the plain text of a
// text, and what happens to text beyond the bounds that keep hostile input cheap.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { excerpt, markdownLimits, markdownToText, markdownTree, parsedExtent, parseMarkdown, plainText, safeHref } from './markdown.ts';

describe('safeHref: only http(s) and paths on this site', () => {
  it('keeps http(s) URLs and site paths', () => {
    assert.equal(safeHref('https://example.com/a?b=1'), 'https://example.com/a?b=1');
    assert.equal(safeHref('HTTP://Example.com'), 'http://example.com/');
    assert.equal(safeHref('/entries/concierge-copilot'), '/entries/concierge-copilot');
    assert.equal(safeHref('#contact'), '#contact');
  });

  it('refuses every other scheme and the tricks that smuggle one in', () => {
    for (const bad of [
      'javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<b>x</b>',
      'vbscript:x', 'mailto:noa@example.com', 'file:///etc/passwd', '//evil.example/x', '/\\evil.example', 'entries/x', '',
      'https://exa mple.com', 'http://[bad',
    ]) assert.equal(safeHref(bad), null, bad);
  });
});

describe('the safe tree', () => {
  const types = (source: string) => {
    const seen = new Set<string>();
    const walk = (node: { type: string; children?: unknown[] }) => {
      seen.add(node.type);
      for (const child of (node.children ?? []) as Array<{ type: string }>) walk(child);
    };
    walk(markdownTree(source));
    return seen;
  };

  it('holds no raw HTML, images, references, definitions or footnotes', () => {
    const seen = types('<div>x</div>\n\n<b>y</b> ![alt](https://e.example/p.png) [ref][r] [^1]\n\n[r]: https://r.example\n\n[^1]: A note.\n\n- [ ] task');
    for (const type of ['html', 'image', 'imageReference', 'linkReference', 'definition', 'footnoteReference', 'footnoteDefinition']) assert.equal(seen.has(type), false, type);
    assert.equal(seen.has('link'), true);
  });

  it('keeps a link’s written target beside its normalised href', () => {
    const link = (parseMarkdown('<https://example.com>').children[0] as any).children[0];
    assert.equal(link.url, 'https://example.com/');
    assert.equal(link.data.writtenUrl, 'https://example.com');
  });

  it('sends pages a tree without positions or empty fields', () => {
    const json = JSON.stringify(markdownTree('# A\n\n[b](/c "t")\n\n```\nx\n```'));
    assert.doesNotMatch(json, /position|null|"title"|"meta"/);
  });

  it('records positions in the source, also past a cut', () => {
    const source = 'intro\n\n' + `${'*a '.repeat(markdownLimits.chunkMarkers)}\n\n## After`;
    const [intro, plain, heading] = parseMarkdown(source).children;
    assert.equal(source.slice(intro!.position!.start.offset, intro!.position!.end.offset), 'intro');
    assert.equal(plain!.type, 'paragraph');
    assert.equal(heading!.type, 'heading');
    assert.equal(heading!.position!.start.line, 5);
    assert.equal(source.slice(heading!.position!.start.offset, heading!.position!.end.offset), '## After');
  });
});

describe('bounds against hostile input', () => {
  it('keeps a chunk with too many markers as one plain paragraph, and parses the chunks around it', () => {
    const hostile = '*a '.repeat(markdownLimits.chunkMarkers + 1).trim();
    const tree = markdownTree(`**before**\n\n${hostile}\n\n**after**`);
    assert.deepEqual(tree.children.map((c) => c.type), ['paragraph', 'paragraph', 'paragraph']);
    assert.deepEqual(tree.children[1], { type: 'paragraph', children: [{ type: 'text', value: hostile }] });
    assert.equal((tree.children[2] as any).children[0].type, 'strong');
  });

  it('keeps lines that open too many nested quotes or lists as plain text', () => {
    const deep = '> '.repeat(markdownLimits.lineContainers + 1) + 'deep';
    assert.deepEqual(markdownTree(deep).children, [{ type: 'paragraph', children: [{ type: 'text', value: deep }] }]);
    assert.equal(markdownTree('> '.repeat(markdownLimits.lineContainers) + 'fine').children[0]!.type, 'blockquote');
  });

  it('formats the first parsedChars characters and keeps the rest as plain paragraphs', () => {
    const paragraph = '**x** ' + 'word '.repeat(200);
    const source = Array.from({ length: Math.ceil(markdownLimits.parsedChars / paragraph.length) + 5 }, () => paragraph).join('\n\n');
    const children = markdownTree(source).children as any[];
    assert.equal(children[0].children[0].type, 'strong');
    assert.equal(children.at(-1).children[0].type, 'text');
    assert.match(children.at(-1).children[0].value, /^\*\*x\*\*/);
  });

  it('parses a text with many block quotes or list items in pieces, every block still formatted', () => {
    const count = markdownLimits.segmentContainers * 3;
    const source = Array.from({ length: count }, (_, i) => `> quote ${i}`).join('\n\n');
    const tree = parseMarkdown(source);
    assert.equal(tree.children.length, count);
    assert.ok(tree.children.every((c) => c.type === 'blockquote'));
    const last = tree.children.at(-1)!;
    assert.equal(source.slice(last.position!.start.offset, last.position!.end.offset), `> quote ${count - 1}`);
    // two markers a line, so that the markers run out before the lines do
    const many = markdownTree(Array.from({ length: markdownLimits.parsedContainers / 2 + 10 }, (_, i) => `> > quote ${i}`).join('\n\n'));
    assert.equal(many.children.filter((c) => c.type === 'blockquote').length, markdownLimits.parsedContainers / 2);
    assert.equal(many.children.at(-1)!.type, 'paragraph');
  });

  it('gathers short plain chunks into paragraphs of a few hundred characters', () => {
    const hostile = '*a '.repeat(markdownLimits.chunkMarkers + 1);
    const tree = markdownTree(Array.from({ length: 50 }, () => hostile).join('\n\n'));
    assert.equal(tree.children.length, 50); // each is long enough to stand alone
    const filler = Array.from({ length: Math.ceil(markdownLimits.parsedChars / 500) + 1 }, () => 'word '.repeat(100).trim());
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const tail = markdownTree([...filler, ...lines].join('\n\n')).children.filter((c) => /^line/.test(plainText(c)));
    assert.ok(tail.length > 0 && tail.length < 10, String(tail.length));
    assert.match(plainText(tail), /^line 0\n\nline 1\n[\s\S]*line 99$/);
  });

  it('flattens anything nested deeper than treeDepth into its text', () => {
    const depth = (node: any): number => 1 + Math.max(0, ...(node.children ?? []).map(depth));
    const nested = '*'.repeat(200) + 'core' + '*'.repeat(200); // a hundred levels of strong and emphasis
    const tree = markdownTree(nested);
    assert.ok(depth(tree) <= markdownLimits.treeDepth + 2, String(depth(tree)));
    assert.equal(plainText(tree), 'core');
  });

  it('keeps a chunk of more than chunkLines lines as one plain paragraph, and parses the chunks around it', () => {
    const long = Array.from({ length: markdownLimits.chunkLines + 1 }, (_, i) => `| ${i} |`).join('\n');
    const tree = markdownTree(`**before**\n\n${long}\n\n**after**`);
    assert.deepEqual(tree.children[1], { type: 'paragraph', children: [{ type: 'text', value: long }] });
    assert.equal((tree.children[2] as any).children[0].type, 'strong');
  });

  it('gives micromark at most parsedChars characters and parsedLines lines of a text, blank lines between chunks counted', () => {
    // Each line costs micromark 10–100 µs: these shapes stayed inside the other bounds, and a megabyte of blank
    // lines between two words went to micromark whole.
    const MB = 1 << 20;
    const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
    const shapes = {
      'one-letter paragraphs': fill('a\n\n'),
      'lines of one paragraph': fill('a\n'),
      'setext headings': fill('a\n=\n\n'),
      'ATX headings': fill('# a\n'),
      'link definitions': fill('[a]: /b\n\n'),
      'table rows': '|a|b|\n|-|-|\n' + fill('|a|b|\n'),
      'blank lines between two words': `a\n${'\n'.repeat(MB)}b`,
      'runs of blank lines': fill('a\n\n\n\n\n\n\n\n'),
      'white-space lines': fill('a\n \n\t\n'),
      'fences': fill('```\n'),
      'loose lists': fill('- a\n\n'),
    };
    for (const [name, source] of Object.entries(shapes)) {
      const { chars, lines } = parsedExtent(source);
      assert.ok(chars <= markdownLimits.parsedChars, `${name}: ${chars} characters parsed`);
      assert.ok(lines <= markdownLimits.parsedLines, `${name}: ${lines} lines parsed`);
    }
  });

  it('parses every file of the demo content whole: the bounds are far beyond real text', () => {
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    for (const path of files('content').filter((p) => p.endsWith('.md'))) {
      const text = readFileSync(path, 'utf8');
      assert.ok(parsedExtent(text).chars >= text.trim().length, path);
    }
  });

  it('does not count markers inside fenced code, where they are not parsed', () => {
    const code = '```\n' + '*a '.repeat(markdownLimits.chunkMarkers * 2) + '\n```';
    assert.equal(markdownTree(code).children[0]!.type, 'code');
  });
});

describe('plain text', () => {
  it('extracts readable text for descriptions', () => {
    assert.equal(markdownToText('## Head\n\n**Noa** builds [things](/x).\n\n- one\n- two\n\n| a | b |\n|---|---|\n| c | d |'), 'Head Noa builds things. one two a b c d');
  });

  it('cuts long text at a word boundary', () => {
    assert.equal(excerpt('one two three four', 12), 'one two…');
    assert.equal(excerpt('short', 12), 'short');
  });
});
