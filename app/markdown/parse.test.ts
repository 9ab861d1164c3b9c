import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { excerpt, markdownToText, parseInline, parseMarkdown, safeHref } from './parse.ts';
import { Markdown } from './Markdown.tsx';

const html = (source: string, options: Record<string, unknown> = {}) => renderToStaticMarkup(createElement(Markdown, { source, ...options }));

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

describe('blocks', () => {
  it('parses headings, paragraphs, rules and block quotes', () => {
    const blocks = parseMarkdown('# Title\n\nOne\nline two\n\n---\n\n> **Note.** quoted\ncontinued');
    assert.deepEqual(blocks.map((b) => b.type), ['heading', 'paragraph', 'hr', 'blockquote']);
    assert.equal(html('## Positioning'), '<div class="prose"><h2>Positioning</h2></div>');
    assert.equal(html('> **Fictional.** Not real.'), '<div class="prose"><blockquote><p><strong>Fictional.</strong> Not real.</p></blockquote></div>');
  });

  it('renders tight lists without paragraphs and loose lists with them, nested lists included', () => {
    assert.equal(html('- a\n- b'), '<div class="prose"><ul><li>a</li><li>b</li></ul></div>');
    assert.equal(html('1. a\n\n2. b'), '<div class="prose"><ol><li><p>a</p></li><li><p>b</p></li></ol></div>');
    assert.equal(html('3. three\n4. four'), '<div class="prose"><ol start="3"><li>three</li><li>four</li></ol></div>');
    assert.equal(html('- a\n  - a1\n  - a2\n- b'), '<div class="prose"><ul><li>a<ul><li>a1</li><li>a2</li></ul></li><li>b</li></ul></div>');
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
  it('parses emphasis, strong, code, strikethrough and escapes', () => {
    assert.equal(html('**bold** and *em* and _em_ and `code` and ~~gone~~ and \\*literal\\*'),
      '<div class="prose"><p><strong>bold</strong> and <em>em</em> and <em>em</em> and <code>code</code> and <del>gone</del> and *literal*</p></div>');
    assert.equal(html('***both***'), '<div class="prose"><p><strong><em>both</em></strong></p></div>');
  });

  it('leaves unmatched markers and intraword underscores alone (a half-streamed answer stays readable)', () => {
    assert.deepEqual(parseInline('snake_case_name'), [{ type: 'text', value: 'snake_case_name' }]);
    assert.deepEqual(parseInline('**not closed'), [{ type: 'text', value: '**not closed' }]);
    assert.deepEqual(parseInline('2 * 3 * 4'), [{ type: 'text', value: '2 * 3 * 4' }]);
  });

  it('links safe targets, and shows unsafe ones as their text only', () => {
    assert.equal(html('[Copilot](/entries/concierge-copilot)'), '<div class="prose"><p><a href="/entries/concierge-copilot">Copilot</a></p></div>');
    assert.equal(html('[click](javascript:alert(1))'), '<div class="prose"><p>click</p></div>');
    assert.equal(html('[mail](mailto:a@b.c)'), '<div class="prose"><p>mail</p></div>');
    assert.equal(html('[x](https://example.com/a_(b) "title")', { externalRel: 'nofollow' }), '<div class="prose"><p><a href="https://example.com/a_(b)" rel="nofollow">x</a></p></div>');
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
  ]) {
    it(`escapes ${attack}`, () => {
      const out = html(attack);
      assert.doesNotMatch(out, /<(script|img|iframe|svg)\b/i);
      assert.doesNotMatch(out, /href="javascript/i);
    });
  }
});

describe('plain text', () => {
  it('extracts readable text for descriptions', () => {
    assert.equal(markdownToText('## Head\n\n**Noa** builds [things](/x).\n\n- one\n- two'), 'Head Noa builds things. one two');
  });

  it('cuts long text at a word boundary', () => {
    assert.equal(excerpt('one two three four', 12), 'one two…');
    assert.equal(excerpt('short', 12), 'short');
  });
});
