// The human formatters and the layout they use, in process: Markdown wrapped to a width with hanging
// indents, tables fitted to a terminal (CJK counted as two columns), problems as path:line: message.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { colours, displayWidth } from './colour.ts';
import { formatProblems, formatters } from './format.ts';
import { renderMarkdown, wrap } from './markdown.ts';
import { renderTable } from './table.ts';

const plain = colours(false);
const strip = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('Markdown for a terminal', () => {
  it('wraps paragraphs and list items to the width, list items with a hanging indent', () => {
    const md = `## Heading\n\n${'word '.repeat(30)}\n\n- ${'item '.repeat(20)}\n- short`;
    const out = renderMarkdown(md, { width: 40, colours: plain }).split('\n');
    for (const line of out) assert.ok(displayWidth(line) <= 40, line);
    assert.equal(out[0], 'Heading');
    const bullet = out.findIndex((l) => l.startsWith('• item'));
    assert.ok(bullet > 0);
    assert.match(out[bullet + 1]!, /^ {2}item/);
    assert.ok(out.includes('• short'));
  });

  it('keeps code blocks and tables as written', () => {
    const md = '```\nconst x = 1;      // long '.padEnd(70, '.') + '\n```\n\n| a | b |\n| --- | --- |';
    const out = renderMarkdown(md, { width: 30, colours: plain });
    assert.ok(out.includes('const x = 1;'.padEnd(10)));
    assert.ok(out.includes('| a | b |'));
  });

  it('styles inline marks only with colour, and keeps the link address', () => {
    const md = 'Some **bold** and `code` and [a link](https://example.com).';
    assert.equal(renderMarkdown(md, { width: 80, colours: plain }), md + '\n');
    const styled = renderMarkdown(md, { width: 80, colours: colours(true) });
    assert.match(styled, /\x1b\[1mbold\x1b\[22m/);
    assert.equal(strip(styled), 'Some bold and code and a link (https://example.com).\n');
  });

  it('breaks CJK text between characters, counting each as two columns', () => {
    const lines = wrap('各ホテル独自のポリシーに基づいて宿泊客の質問に答えます', 20);
    for (const line of lines) assert.ok(displayWidth(line) <= 20, line);
    assert.equal(lines.join(''), '各ホテル独自のポリシーに基づいて宿泊客の質問に答えます');
  });
});

describe('tables', () => {
  const rows = [
    { id: 'a', text: 'x'.repeat(200) },
    { id: 'bb', text: '短い' },
  ];
  const columns = [
    { header: 'ID', value: (r: (typeof rows)[number]) => r.id },
    { header: 'TEXT', value: (r: (typeof rows)[number]) => r.text, flex: true },
  ];

  it('cuts the flexible column to the terminal width', () => {
    const out = renderTable(rows, columns, { width: 50, colours: plain }).trimEnd().split('\n');
    for (const line of out) assert.ok(displayWidth(line) <= 50, line);
    assert.match(out[1]!, /…$/);
  });

  it('prints rows whole without a width (a pipe)', () => {
    const out = renderTable(rows, columns, { colours: plain });
    assert.ok(out.includes('x'.repeat(200)));
  });

  it('wraps the cells instead of leaving a column out when the terminal is too narrow', () => {
    const narrow = [{ id: 'concierge-copilot', text: 'Hotel guests ask in their own language' }];
    const out = renderTable(narrow, columns, { width: 24, colours: plain }).trimEnd().split('\n');
    for (const line of out) assert.ok(displayWidth(line) <= 24, line);
    assert.match(out[0]!, /^ID\s+TEXT$/);
    const at = out[0]!.indexOf('TEXT');
    const text = out
      .slice(1)
      .map((l) => l.slice(at).trim())
      .join(' ');
    assert.equal(text, 'Hotel guests ask in their own language', 'every word of the flexible column is there');
    assert.equal(
      out
        .slice(1)
        .map((l) => l.slice(0, at).trim())
        .join(''),
      'concierge-copilot',
      'the first column wraps too',
    );
  });
});

describe('formatters', () => {
  it('prints problems as path:line: message, falling back to the file given', () => {
    const text = formatProblems(
      [
        { path: 'content/a.md', line: 3, pointer: '/title', message: 'title is required' },
        { pointer: '/tags/0', message: 'tags.0 must be one of: ai' },
      ],
      'content/b.md',
      plain,
    );
    assert.equal(text, 'content/a.md:3: title is required\ncontent/b.md: tags.0 must be one of: ai (/tags/0)');
  });

  it('reports an invalid validation result with exit code 6', () => {
    const result = formatters.ValidationResult!(
      { valid: false, problems: [{ path: 'content/x.md', line: 2, message: 'bad' }] },
      { colours: plain, input: { path: 'content/x.md' } },
    );
    assert.equal(result.out, 'content/x.md:2: bad\n');
    assert.equal(result.exitCode, 6);
  });

  it('says which branch has no runs yet, and where the others are', () => {
    assert.equal(
      formatters.DeployRuns!({ runs: [] }, { colours: plain, input: { branch: 'main' } }).out,
      'No runs yet on main. dev’s: vitae admin deploys --branch dev\n',
    );
    assert.equal(
      formatters.DeployRuns!({ runs: [] }, { colours: plain, input: { branch: 'dev' } }).out,
      'No runs yet on dev. main’s: vitae admin deploys --branch main\n',
    );
  });

  it('prints a commit with each file written or deleted', () => {
    const out = formatters.CommitResult!(
      {
        branch: 'dev',
        commit: { sha: 'abcdef0123456789', message: 'Two changes\n\nbody' },
        files: [
          { path: 'content/a.md', sha: '1' },
          { path: 'content/b.md', sha: null },
        ],
      },
      { colours: plain, input: {} },
    ).out;
    assert.equal(out, 'Committed abcdef0 to dev: Two changes\n  written  content/a.md\n  deleted  content/b.md\n');
  });

  it('prints the raw source of a file untouched, with its sha on stderr', () => {
    const content = '---\ntitle: x\n---\nBody without a final newline';
    const result = formatters.ContentFile!(
      { path: 'content/x.md', sha: 'f'.repeat(40), content, branch: 'main', ref: 'a'.repeat(40) },
      { colours: plain, input: {} },
    );
    assert.equal(result.out, content);
    assert.match(result.note!, /at a{7} · sha f{40}/);
  });

  it('colours an AI edit diff and exits 6 when the proposal has problems', () => {
    const body = {
      path: 'content/x.md',
      proposed: '',
      diff: '--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n',
      problems: [{ line: 1, message: 'bad' }],
      baseSha: null,
    };
    const result = formatters.AiEditProposal!(body, { colours: colours(true), input: {} });
    assert.match(result.out, /\x1b\[31m-old\x1b\[39m/);
    assert.match(result.out, /\x1b\[32m\+new\x1b\[39m/);
    assert.equal(result.exitCode, 6);
  });
});
