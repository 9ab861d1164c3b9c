import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createStreamParser, readChatStream, retryAfterSeconds, type StreamPart } from './stream.ts';
import { keepRecent, requestMessages, MAX_MESSAGES, type Turn } from './history.ts';
import { audioMimeType, classifyMediaError } from './voice.ts';
import { linkSlugs, sourceLinks } from './sources.ts';
import {
  conversationReducer,
  emptyConversation,
  isStreaming,
  refusal,
  retryOf,
  turnsOf,
  waitSeconds,
  type AssistantMessage,
  type Conversation,
  type ConversationAction,
  type Message,
} from './conversation.ts';

const RS = '\u001e';
const textOf = (parts: StreamPart[]) =>
  parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');
const eventsOf = (parts: StreamPart[]) => parts.filter((p) => p.type === 'event').map((p) => (p as { event: unknown }).event);

describe('the chat stream parser', () => {
  const copilot = {
    slug: 'concierge-copilot',
    title: 'Concierge Copilot: an LLM assistant for hotel guests',
    url: 'https://noa.example/entries/concierge-copilot',
  };
  const stream = `${RS}{"type":"tool","name":"search_subject","input":{"query":"Orbitale"}}\n${RS}{"type":"tool-result","name":"search_subject","sources":["concierge-copilot"]}\nNoa built **Concierge Copilot** (concierge-copilot).${RS}${JSON.stringify({ type: 'done', sources: [copilot] })}\n`;

  it('separates answer text from status lines', () => {
    const parser = createStreamParser();
    const parts = [...parser.push(stream), ...parser.end()];
    assert.equal(textOf(parts), 'Noa built **Concierge Copilot** (concierge-copilot).');
    assert.deepEqual(eventsOf(parts), [
      { type: 'tool', name: 'search_subject', input: { query: 'Orbitale' } },
      { type: 'tool-result', name: 'search_subject', sources: ['concierge-copilot'] },
      { type: 'done', sources: [copilot] },
    ]);
  });

  it('reads the done line’s sources as records, still accepts bare slugs, and skips what is neither', () => {
    const parser = createStreamParser();
    const done = { type: 'done', sources: [copilot, 'head-of-ai', { slug: 'capabilities', title: '' }, { title: 'no slug' }, 42, null, ''] };
    assert.deepEqual(eventsOf(parser.push(`${RS}${JSON.stringify(done)}\n`)), [
      {
        type: 'done',
        sources: [copilot, { slug: 'head-of-ai', title: 'head-of-ai' }, { slug: 'capabilities', title: 'capabilities' }],
      },
    ]);
    assert.deepEqual(eventsOf(parser.push(`${RS}{"type":"done"}\n`)), [{ type: 'done', sources: [] }]);
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

  it('reads a response body to its end, with a character split across chunks', async () => {
    const bytes = new TextEncoder().encode(`Olá — ${stream}`);
    const cut = [0, 2, 6, 40, 90, bytes.length]; // 2 and 6 fall inside "á" and "—"
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 1; i < cut.length; i++) controller.enqueue(bytes.slice(cut[i - 1], cut[i]));
        controller.close();
      },
    });
    const parts: StreamPart[] = [];
    await readChatStream(body, (run) => {
      assert.ok(run.length, 'no empty runs');
      parts.push(...run);
    });
    assert.equal(textOf(parts), 'Olá — Noa built **Concierge Copilot** (concierge-copilot).');
    assert.equal(eventsOf(parts).length, 3);
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
    const history = Array.from({ length: 30 }, (_, i): Turn => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
    const messages = requestMessages(history, 'latest?');
    assert.ok(messages.length <= MAX_MESSAGES);
    assert.equal(messages[0]!.role, 'user');
    assert.deepEqual(messages.at(-1), { role: 'user', content: 'latest?' });
  });

  it('drops turns without content and cuts content at 2000 characters', () => {
    const messages = requestMessages(
      [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '  ' },
      ],
      'x'.repeat(2500),
    );
    assert.deepEqual(
      messages.map((m) => m.content.length),
      [1, 2000],
    );
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

describe('sources of an answer', () => {
  const sources = sourceLinks(
    [
      { slug: 'concierge-copilot', title: 'Concierge Copilot', url: 'https://noa.example/fr/entries/concierge-copilot' },
      { slug: 'head-of-ai', title: 'Head of [AI]', url: 'http://127.0.0.1:3000/fr/lenses/head-of-ai?x=1' },
      { slug: 'capabilities', title: 'capabilities' },
    ],
    'https://noa.example',
  );

  it('links each source to its page as a path on this site, and a bare slug to nothing', () => {
    assert.deepEqual(sources, [
      { slug: 'concierge-copilot', title: 'Concierge Copilot', href: '/fr/entries/concierge-copilot' },
      { slug: 'head-of-ai', title: 'Head of [AI]', href: '/fr/lenses/head-of-ai?x=1' },
      { slug: 'capabilities', title: 'capabilities' },
    ]);
  });

  it('links "(slug)" and "(a, b)" when every slug is a linked source, and leaves other parentheses alone', () => {
    assert.equal(linkSlugs('Built it (concierge-copilot).', sources), 'Built it ([Concierge Copilot](/fr/entries/concierge-copilot)).');
    assert.equal(
      linkSlugs('See (concierge-copilot, head-of-ai)', sources),
      'See ([Concierge Copilot](/fr/entries/concierge-copilot), [Head of AI](/fr/lenses/head-of-ai?x=1))',
    );
    assert.equal(linkSlugs('(unknown-slug) and (in 2021)', sources), '(unknown-slug) and (in 2021)');
    assert.equal(linkSlugs('(capabilities) and (concierge-copilot, capabilities)', sources), '(capabilities) and (concierge-copilot, capabilities)');
    assert.equal(linkSlugs('Built it (concierge-copilot).', []), 'Built it (concierge-copilot).');
  });
});

describe('the conversation', () => {
  const run = (actions: ConversationAction[], from: Conversation = emptyConversation) => actions.reduce(conversationReducer, from);
  const ask = (history: Message[], question: string, id: number): ConversationAction => ({
    type: 'ask',
    history,
    question: { id: id - 1, role: 'user', content: question },
    replyId: id,
  });
  const reply = (state: Conversation, id: number) => state.messages.find((m): m is AssistantMessage => m.id === id && m.role === 'assistant')!;
  const text = (t: string): StreamPart => ({ type: 'text', text: t });
  const event = (e: StreamPart & { type: 'event' }) => e;
  const source = { slug: 'concierge-copilot', title: 'Concierge Copilot', url: 'https://noa.example/entries/concierge-copilot' };

  it('a question adds it and an empty reply that is streaming', () => {
    const state = run([ask([], 'Where?', 2)]);
    assert.deepEqual(state.messages, [
      { id: 1, role: 'user', content: 'Where?' },
      { id: 2, role: 'assistant', content: '', status: 'streaming', steps: [], sources: [] },
    ]);
    assert.equal(isStreaming(state.messages), true);
  });

  it('follows the stream: text appends, a tool step runs until its result, done brings the sources', () => {
    let state = run([ask([], 'What?', 2)]);
    state = run(
      [
        { type: 'stream', id: 2, parts: [event({ type: 'event', event: { type: 'tool', name: 'search_subject', input: { query: 'hotels' } } })] },
        { type: 'stream', id: 2, parts: [event({ type: 'event', event: { type: 'tool', name: 'get_entry', input: { slug: 'x' } } })] },
        { type: 'stream', id: 2, parts: [event({ type: 'event', event: { type: 'tool-result', name: 'search_subject', sources: ['a', 'b'] } })] },
      ],
      state,
    );
    assert.deepEqual(reply(state, 2).steps, [
      { name: 'search_subject', input: { query: 'hotels' }, done: true, found: 2 },
      { name: 'get_entry', input: { slug: 'x' }, done: false },
    ]);
    state = run([{ type: 'stream', id: 2, parts: [text('Noa built '), text('it (concierge-copilot).')] }], state);
    assert.equal(reply(state, 2).content, 'Noa built it (concierge-copilot).');
    assert.equal(reply(state, 2).status, 'streaming');
    state = run(
      [
        { type: 'stream', id: 2, parts: [event({ type: 'event', event: { type: 'done', sources: [source] } })] },
        { type: 'end', id: 2 },
      ],
      state,
    );
    assert.equal(reply(state, 2).status, 'done');
    assert.deepEqual(reply(state, 2).sources, [source]);
    assert.ok(
      reply(state, 2).steps.every((s) => s.done),
      'every step is finished once the answer is',
    );
    assert.equal(isStreaming(state.messages), false);
  });

  it('a stream that ends without a done line is done; an error line stays an error through the done line', () => {
    const ended = run([ask([], 'Q', 2), { type: 'stream', id: 2, parts: [text('Partial')] }, { type: 'end', id: 2 }]);
    assert.equal(reply(ended, 2).status, 'done');
    const failed = run([
      ask([], 'Q', 2),
      {
        type: 'stream',
        id: 2,
        parts: [
          event({ type: 'event', event: { type: 'error', message: 'The model provider failed' } }),
          event({ type: 'event', event: { type: 'done', sources: [] } }),
        ],
      },
      { type: 'end', id: 2 },
    ]);
    assert.equal(reply(failed, 2).status, 'error');
    assert.deepEqual(reply(failed, 2).problem, { kind: 'unavailable', message: 'The model provider failed' });
  });

  it('stop keeps what arrived and finishes the running steps', () => {
    const state = run([
      ask([], 'Q', 2),
      { type: 'stream', id: 2, parts: [event({ type: 'event', event: { type: 'tool', name: 'list_lenses' } }), text('So far')] },
      { type: 'stop', id: 2 },
    ]);
    assert.equal(reply(state, 2).status, 'stopped');
    assert.equal(reply(state, 2).content, 'So far');
    assert.deepEqual(reply(state, 2).steps, [{ name: 'list_lenses', input: undefined, done: true }]);
  });

  it('a failure or search passages replace the streaming state', () => {
    const failed = run([ask([], 'Q', 2), { type: 'fail', id: 2, problem: { kind: 'network' } }]);
    assert.equal(reply(failed, 2).status, 'error');
    assert.deepEqual(reply(failed, 2).problem, { kind: 'network' });
    const passages = [{ title: 'ragcheck', passage: '…', href: '/entries/rag-evaluation-harness' }];
    const searched = run([ask([], 'Q', 2), { type: 'passages', id: 2, passages }]);
    assert.equal(reply(searched, 2).status, 'done');
    assert.deepEqual(reply(searched, 2).passages, passages);
  });

  it('keeps the last 16 messages and remembers that older ones were dropped until a reset', () => {
    let state = emptyConversation;
    for (let i = 1; i <= 9; i++)
      state = run(
        [ask(state.messages, `Question ${i}?`, 2 * i), { type: 'stream', id: 2 * i, parts: [text(`Answer ${i}`)] }, { type: 'end', id: 2 * i }],
        state,
      );
    assert.equal(state.messages.length, 16);
    assert.equal(state.trimmed, true);
    assert.deepEqual(state.messages[0], { id: 3, role: 'user', content: 'Question 2?' });
    state = run([ask(state.messages.slice(-2), 'Again', 100)], state);
    assert.equal(state.trimmed, true, 'a shorter conversation does not forget the note');
    assert.deepEqual(run([{ type: 'reset' }], state), emptyConversation);
  });

  it('leaves alone a reply that is no longer on screen (reset or trimmed away)', () => {
    const state = run([ask([], 'Q', 2), { type: 'reset' }]);
    assert.equal(
      run(
        [
          { type: 'stream', id: 2, parts: [text('late')] },
          { type: 'stop', id: 2 },
        ],
        state,
      ),
      state,
    );
  });

  it('retry asks the question before the reply again, after the messages before that question', () => {
    const state = run([ask([], 'First?', 2), { type: 'end', id: 2 }]);
    const second = run([ask(state.messages, 'Second?', 4), { type: 'fail', id: 4, problem: { kind: 'network' } }], state);
    assert.deepEqual(retryOf(second.messages, 4), { question: 'Second?', history: state.messages });
    assert.equal(retryOf(second.messages, 99), undefined);
    assert.equal(retryOf(second.messages, 1), undefined, 'nothing asked before the first question');
  });

  it('sends earlier questions and answers, but not failed replies or search passages', () => {
    const messages: Message[] = [
      { id: 1, role: 'user', content: 'A?' },
      { id: 2, role: 'assistant', content: 'A.', status: 'done', steps: [], sources: [] },
      { id: 3, role: 'user', content: 'B?' },
      { id: 4, role: 'assistant', content: 'half', status: 'error', steps: [], sources: [], problem: { kind: 'network' } },
      { id: 5, role: 'user', content: 'C?' },
      { id: 6, role: 'assistant', content: '', status: 'done', steps: [], sources: [], passages: [] },
      { id: 7, role: 'user', content: 'D?' },
      { id: 8, role: 'assistant', content: 'Stopped half', status: 'stopped', steps: [], sources: [] },
    ];
    assert.deepEqual(turnsOf(messages), [
      { role: 'user', content: 'A?' },
      { role: 'assistant', content: 'A.' },
      { role: 'user', content: 'B?' },
      { role: 'user', content: 'C?' },
      { role: 'user', content: 'D?' },
      { role: 'assistant', content: 'Stopped half' },
    ]);
  });

  it('counts down the latest 429 in whole seconds', () => {
    const limited = (until: number): Message => ({
      id: 2,
      role: 'assistant',
      content: '',
      status: 'error',
      steps: [],
      sources: [],
      problem: { kind: 'rate', until },
    });
    assert.equal(waitSeconds([], 1000), 0);
    assert.equal(waitSeconds([limited(31_000)], 1000), 30);
    assert.equal(waitSeconds([limited(31_000)], 1500), 30);
    assert.equal(waitSeconds([limited(31_000)], 30_001), 1);
    assert.equal(waitSeconds([limited(31_000)], 31_000), 0);
    assert.equal(waitSeconds([limited(31_000), { ...limited(5000), id: 4 }], 1000), 4, 'the latest 429 counts');
  });

  it('reads a refused request: no model means search, 429 waits, 400 says why, anything else is unavailable', () => {
    assert.equal(refusal(503, { code: 'chat_not_configured', message: 'Chat is not configured' }, 60, 0), 'search');
    assert.deepEqual(refusal(503, { code: 'unavailable' }, 60, 0), { kind: 'unavailable' });
    assert.deepEqual(refusal(429, { code: 'rate_limited' }, 17, 1000), { kind: 'rate', until: 18_000 });
    assert.deepEqual(refusal(400, { code: 'bad_request', message: 'Too long' }, 60, 0), { kind: 'rejected', message: 'Too long' });
    assert.deepEqual(refusal(400, {}, 60, 0), { kind: 'rejected', message: '' });
    assert.deepEqual(refusal(500, {}, 60, 0), { kind: 'unavailable' });
  });
});
