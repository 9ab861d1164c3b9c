import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createStreamParser, retryAfterSeconds, type StreamPart } from './stream.ts';
import { keepRecent, requestMessages, MAX_MESSAGES } from './history.ts';
import { audioMimeType, classifyMediaError } from './voice.ts';

const RS = '\u001e';
const textOf = (parts: StreamPart[]) => parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('');
const eventsOf = (parts: StreamPart[]) => parts.filter((p) => p.type === 'event').map((p) => (p as { event: unknown }).event);

describe('the chat stream parser', () => {
  const stream = `${RS}{"type":"tool","name":"search_subject","input":{"query":"Orbitale"}}\n${RS}{"type":"tool-result","name":"search_subject","sources":["concierge-copilot"]}\nNoa built **Concierge Copilot** (concierge-copilot).${RS}{"type":"done","sources":["concierge-copilot"]}\n`;

  it('separates answer text from status lines', () => {
    const parser = createStreamParser();
    const parts = [...parser.push(stream), ...parser.end()];
    assert.equal(textOf(parts), 'Noa built **Concierge Copilot** (concierge-copilot).');
    assert.deepEqual(eventsOf(parts), [
      { type: 'tool', name: 'search_subject', input: { query: 'Orbitale' } },
      { type: 'tool-result', name: 'search_subject', sources: ['concierge-copilot'] },
      { type: 'done', sources: ['concierge-copilot'] },
    ]);
  });

  it('gives the same result however the stream is cut into chunks', () => {
    for (const size of [1, 2, 3, 7, 40]) {
      const parser = createStreamParser();
      const parts: StreamPart[] = [];
      for (let i = 0; i < stream.length; i += size) parts.push(...parser.push(stream.slice(i, i + size)));
      parts.push(...parser.end());
      assert.equal(textOf(parts), 'Noa built **Concierge Copilot** (concierge-copilot).', `chunks of ${size}`);
      assert.equal(eventsOf(parts).length, 3, `chunks of ${size}`);
    }
  });

  it('reports errors, ignores unknown or malformed status lines, and drops a status line cut off by the end', () => {
    const parser = createStreamParser();
    const parts = [
      ...parser.push(`Partial${RS}{"type":"error","message":"The model provider failed"}\n${RS}{"type":"mystery"}\n${RS}not json\n${RS}{"type":"do`),
      ...parser.end(),
    ];
    assert.equal(textOf(parts), 'Partial');
    assert.deepEqual(eventsOf(parts), [{ type: 'error', message: 'The model provider failed' }]);
  });

  it('passes a plain answer (no events) through untouched', () => {
    const parser = createStreamParser();
    assert.equal(textOf([...parser.push('Hello '), ...parser.push('world'), ...parser.end()]), 'Hello world');
  });
});

describe('Retry-After', () => {
  it('reads seconds or an HTTP date, with a fallback', () => {
    assert.equal(retryAfterSeconds('17'), 17);
    assert.equal(retryAfterSeconds('2.2'), 3);
    assert.equal(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1)), 30);
    assert.equal(retryAfterSeconds(null), 60);
    assert.equal(retryAfterSeconds('soon', 0, 42), 42);
  });
});

describe('conversation limits', () => {
  it('sends at most 16 messages, starting with a question', () => {
    const history = Array.from({ length: 30 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `m${i}` }));
    const messages = requestMessages(history, 'latest?');
    assert.ok(messages.length <= MAX_MESSAGES);
    assert.equal(messages[0]!.role, 'user');
    assert.deepEqual(messages.at(-1), { role: 'user', content: 'latest?' });
  });

  it('drops turns without content and cuts content at 2000 characters', () => {
    const messages = requestMessages([{ role: 'user', content: 'a' }, { role: 'assistant', content: '  ' }], 'x'.repeat(2500));
    assert.deepEqual(messages.map((m) => m.content.length), [1, 2000]);
  });

  it('keeps the last 16 messages on screen and says when some were dropped', () => {
    assert.deepEqual(keepRecent([1, 2, 3], 2), { messages: [2, 3], trimmed: true });
    assert.deepEqual(keepRecent([1, 2], 2), { messages: [1, 2], trimmed: false });
  });
});

describe('voice input problems', () => {
  it('tells a denied permission from a missing microphone', () => {
    assert.equal(classifyMediaError(new DOMException('no', 'NotAllowedError')), 'denied');
    assert.equal(classifyMediaError(new DOMException('no', 'SecurityError')), 'denied');
    assert.equal(classifyMediaError(new DOMException('none', 'NotFoundError')), 'no-mic');
    assert.equal(classifyMediaError(new DOMException('busy', 'NotReadableError')), 'no-mic');
    assert.equal(classifyMediaError(new TypeError('no mediaDevices')), 'unsupported');
    assert.equal(classifyMediaError(new Error('?')), 'failed');
  });

  it('sends a plain audio mime type', () => {
    assert.equal(audioMimeType('audio/webm;codecs=opus'), 'audio/webm');
    assert.equal(audioMimeType('video/webm'), 'audio/webm');
  });
});

describe('sources named by slug', async () => {
  const { fallbackSource, linkSlugs } = await import('./sources.ts');
  const known = new Map([
    ['concierge-copilot', { slug: 'concierge-copilot', title: 'Concierge Copilot', href: '/fr/entries/concierge-copilot' }],
    ['head-of-ai', { slug: 'head-of-ai', title: 'Head of [AI]', href: '/fr/lenses/head-of-ai' }],
  ]);

  it('links "(slug)" and "(a, b)" when every slug exists, and leaves other parentheses alone', () => {
    assert.equal(linkSlugs('Built it (concierge-copilot).', known), 'Built it ([Concierge Copilot](/fr/entries/concierge-copilot)).');
    assert.equal(linkSlugs('See (concierge-copilot, head-of-ai)', known), 'See ([Concierge Copilot](/fr/entries/concierge-copilot), [Head of AI](/fr/lenses/head-of-ai))');
    assert.equal(linkSlugs('(unknown-slug) and (in 2021)', known), '(unknown-slug) and (in 2021)');
  });

  it('knows where each kind of slug lives before the titles arrive', () => {
    assert.equal(fallbackSource('ja', 'capabilities').href, '/ja/documents/capabilities');
    assert.equal(fallbackSource('en', 'hospitality').href, '/lenses/hospitality');
    assert.equal(fallbackSource('en', 'concierge-copilot').href, '/entries/concierge-copilot');
  });
});
