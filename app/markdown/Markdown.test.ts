// The site's Markdown rendering: trees parsed on the server (as loaders send them) rendered as React
// elements, and the chat's in-browser variant giving the same markup.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { markdownTree } from '../../operations/content/markdown.ts';
import { Markdown } from './Markdown.tsx';
import { MarkdownText } from './MarkdownText.tsx';

const html = (source: string, options: Record<string, unknown> = {}) =>
  renderToStaticMarkup(createElement(Markdown, { tree: markdownTree(source), ...options }));

describe('blocks', () => {
  it('renders headings, paragraphs, rules and block quotes', () => {
    assert.equal(html('# Title\n\nOne\nline two\n\n---'), '<div class="prose"><h1>Title</h1><p>One\nline two</p><hr/></div>');
    assert.equal(html('## Positioning'), '<div class="prose"><h2>Positioning</h2></div>');
    assert.equal(html('> **Fictional.** Not real.'), '<div class="prose"><blockquote><p><strong>Fictional.</strong> Not real.</p></blockquote></div>');
    assert.equal(html('> **Note.** quoted\ncontinued'), '<div class="prose"><blockquote><p><strong>Note.</strong> quoted\ncontinued</p></blockquote></div>');
  });

  it('renders tight lists without paragraphs and loose lists with them, nested lists included', () => {
    assert.equal(html('- a\n- b'), '<div class="prose"><ul><li>a</li><li>b</li></ul></div>');
    assert.equal(html('1. a\n\n2. b'), '<div class="prose"><ol><li><p>a</p></li><li><p>b</p></li></ol></div>');
    assert.equal(html('3. three\n4. four'), '<div class="prose"><ol start="3"><li>three</li><li>four</li></ol></div>');
    assert.equal(html('- a\n  - a1\n  - a2\n- b'), '<div class="prose"><ul><li>a<ul><li>a1</li><li>a2</li></ul></li><li>b</li></ul></div>');
    assert.equal(html('- [ ] open\n- [x] done'), '<div class="prose"><ul><li>[ ] open</li><li>[x] done</li></ul></div>');
  });

  it('renders GFM tables with a scrollable, labelled wrapper', () => {
    const out = html('| Capability | Evidence |\n|---|:--:|\n| Evals | ragcheck |\n| RAG | Copilot \\| ragcheck |');
    assert.match(out, /<div class="table-wrap" role="region" aria-label="Capability, Evidence" tabindex="0"><table>/);
    assert.match(out, /<th scope="col">Capability<\/th><th scope="col" style="text-align:center">Evidence<\/th>/);
    assert.match(out, /<td>RAG<\/td><td style="text-align:center">Copilot \| ragcheck<\/td>/);
  });

  it('keeps fenced code verbatim', () => {
    assert.equal(html('```js\nconst a = "<b>";\n```'), '<div class="prose"><pre><code>const a = &quot;&lt;b&gt;&quot;;</code></pre></div>');
  });

  it('shifts heading levels on request', () => {
    assert.equal(html('# Answer', { headingOffset: 2 }), '<div class="prose"><h3>Answer</h3></div>');
  });
});

describe('inline', () => {
  it('renders emphasis, strong, code, strikethrough and escapes', () => {
    assert.equal(
      html('**bold** and *em* and _em_ and `code` and ~~gone~~ and \\*literal\\*'),
      '<div class="prose"><p><strong>bold</strong> and <em>em</em> and <em>em</em> and <code>code</code> and <del>gone</del> and *literal*</p></div>',
    );
    assert.equal(html('***both***'), '<div class="prose"><p><em><strong>both</strong></em></p></div>');
  });

  it('leaves unmatched markers and intraword underscores alone (a half-streamed answer stays readable)', () => {
    assert.equal(html('snake_case_name and **not closed and 2 * 3 * 4'), '<div class="prose"><p>snake_case_name and **not closed and 2 * 3 * 4</p></div>');
  });

  it('links safe targets, and shows unsafe ones as their text only', () => {
    assert.equal(html('[Copilot](/entries/concierge-copilot)'), '<div class="prose"><p><a href="/entries/concierge-copilot">Copilot</a></p></div>');
    assert.equal(html('[click](javascript:alert(1))'), '<div class="prose"><p>click</p></div>');
    assert.equal(html('[mail](mailto:a@b.c)'), '<div class="prose"><p>mail</p></div>');
    assert.equal(
      html('[x](https://example.com/a_(b) "title")', { externalRel: 'nofollow' }),
      '<div class="prose"><p><a href="https://example.com/a_(b)" rel="nofollow">x</a></p></div>',
    );
    assert.equal(html('[ref][r]\n\n[r]: javascript:alert(1)'), '<div class="prose"><p>ref</p></div>');
  });

  it('links autolinks and bare URLs without trailing punctuation', () => {
    assert.equal(html('<https://example.com>'), '<div class="prose"><p><a href="https://example.com/">https://example.com</a></p></div>');
    assert.equal(html('See https://example.com/x.'), '<div class="prose"><p>See <a href="https://example.com/x">https://example.com/x</a>.</p></div>');
    assert.equal(html('(https://example.com/y)'), '<div class="prose"><p>(<a href="https://example.com/y">https://example.com/y</a>)</p></div>');
  });

  it('never shows images, only their description', () => {
    assert.equal(html('![a tracking pixel](https://evil.example/p.gif)'), '<div class="prose"><p>a tracking pixel</p></div>');
  });

  it('turns two trailing spaces or a backslash into a line break', () => {
    assert.equal(html('one  \ntwo\\\nthree'), '<div class="prose"><p>one<br/>two<br/>three</p></div>');
  });
});

describe('raw HTML is text, never markup', () => {
  for (const attack of [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '[<img src=x onerror=alert(1)>](https://example.com)',
    '**<svg onload=alert(1)>**',
    '<div>\n<script>alert(1)</script>\n</div>',
    '[x](<javascript:alert(1)>)',
  ]) {
    it(`escapes ${attack}`, () => {
      const out = html(attack);
      assert.doesNotMatch(out, /<(script|img|iframe|svg)\b|<div>/i);
      assert.doesNotMatch(out, /href="javascript/i);
    });
  }
});

describe('parsed in the browser (the chat)', () => {
  it('gives the same markup as a tree parsed on the server', () => {
    const source = '## Answer\n\nNoa built **Concierge Copilot** ([concierge-copilot](/entries/concierge-copilot)).\n\n- one\n- two';
    assert.equal(renderToStaticMarkup(createElement(MarkdownText, { source, headingOffset: 1 })), html(source, { headingOffset: 1 }));
  });
});
