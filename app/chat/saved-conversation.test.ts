import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_MESSAGES } from './history.ts';
import { conversationReducer, emptyConversation, type AssistantMessage, type Conversation, type UserMessage } from './conversation.ts';
import { keepChat, loadChat, parseSavedChat, SAVED_KEY, saveChat } from './saved-conversation.ts';

const question = (id: number, content = `Question ${id}?`): UserMessage => ({ id, role: 'user', content });
const reply = (id: number, more: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content: `Answer ${id}.`,
  status: 'done',
  steps: [],
  sources: [],
  ...more,
});

/** Two questions answered, the first from the profile with a tool step and a source, the second by search passages. */
const twoAnswered: Conversation = {
  trimmed: false,
  messages: [
    question(1, 'What did Noa build at Orbitale?'),
    reply(2, {
      content: 'Noa built **Concierge Copilot** (concierge-copilot).',
      steps: [{ name: 'search_subject', input: { query: 'Orbitale' }, done: true, found: 1 }],
      sources: [{ slug: 'concierge-copilot', title: 'Concierge Copilot', url: 'https://noa.example/entries/concierge-copilot' }],
    }),
    question(3, 'Which languages?'),
    reply(4, { content: '', passages: [{ title: 'Languages', passage: 'Portuguese, English, French.', href: '/documents/languages' }] }),
  ],
};

/** A Storage of one tab, in memory; `full` makes every write fail as a full quota does. */
function memoryStorage(initial: Record<string, string> = {}, full = false) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (full) throw new Error('QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key: string) => void items.delete(key),
  };
}

const roundTrip = (conversation: Conversation, open = true) => parseSavedChat(saveChat({ conversation, open }) ?? null);

describe('the conversation kept for the tab', () => {
  it('reads back as it was kept: messages, ids, steps, sources, passages, problems, and whether the panel was open', () => {
    const withProblems: Conversation = {
      trimmed: true,
      messages: [
        ...twoAnswered.messages,
        question(5),
        reply(6, { content: '', status: 'error', problem: { kind: 'rate', until: 1_700_000_060_000 } }),
        question(7),
        reply(8, { content: '', status: 'error', problem: { kind: 'rejected', message: 'Too long.' } }),
        question(9),
        reply(10, { content: '', status: 'error', problem: { kind: 'unavailable', message: 'upstream' } }),
        question(11),
        reply(12, { content: 'Half', status: 'stopped' }),
      ],
    };
    assert.deepEqual(roundTrip(twoAnswered, true), { conversation: twoAnswered, open: true });
    assert.deepEqual(roundTrip(twoAnswered, false), { conversation: twoAnswered, open: false });
    assert.deepEqual(roundTrip(withProblems), { conversation: withProblems, open: true });
  });

  it('keeps a reply still streaming as far as it came, stopped, as the Stop button leaves it', () => {
    const asking = conversationReducer(twoAnswered, {
      type: 'ask',
      history: twoAnswered.messages,
      question: question(5, 'And then?'),
      replyId: 6,
    });
    const streaming = conversationReducer(asking, {
      type: 'stream',
      id: 6,
      parts: [
        { type: 'event', event: { type: 'tool', name: 'search_subject', input: { query: 'then' } } },
        { type: 'text', text: 'Then she' },
      ],
    });
    const stoppedByHand = conversationReducer(streaming, { type: 'stop', id: 6 });
    const kept = roundTrip(streaming);
    assert.deepEqual(kept?.conversation, stoppedByHand);
    assert.deepEqual(
      kept?.conversation.messages.at(-1),
      reply(6, { content: 'Then she', status: 'stopped', steps: [{ name: 'search_subject', input: { query: 'then' }, done: true }] }),
    );
    // A streaming status found in a kept value (whoever wrote it) is read as stopped too: nothing is resumed.
    const raw = JSON.stringify({ v: 1, open: true, trimmed: false, messages: [question(1), { ...reply(2), status: 'streaming', content: 'Par' }] });
    assert.equal((parseSavedChat(raw)?.conversation.messages[1] as AssistantMessage).status, 'stopped');
  });

  it('keeps nothing for an empty conversation (a new one), so what was kept is removed', () => {
    assert.equal(saveChat({ conversation: emptyConversation, open: true }), undefined);
    const store = memoryStorage({ [SAVED_KEY]: saveChat({ conversation: twoAnswered, open: true })! });
    keepChat(store, { conversation: conversationReducer(twoAnswered, { type: 'reset' }), open: true });
    assert.equal(store.items.has(SAVED_KEY), false);
  });

  it('stays within the 16 messages the conversation keeps: a longer list is not read', () => {
    const many = Array.from({ length: MAX_MESSAGES + 2 }, (_, i) => (i % 2 ? reply(i + 1) : question(i + 1)));
    assert.equal(parseSavedChat(JSON.stringify({ v: 1, open: true, trimmed: true, messages: many })), undefined);
    assert.equal(
      parseSavedChat(JSON.stringify({ v: 1, open: true, trimmed: true, messages: many.slice(-MAX_MESSAGES) }))?.conversation.messages.length,
      MAX_MESSAGES,
    );
  });

  it('reads nothing from a value that is absent, cut short, of another version or shape, or unsafe', () => {
    const good = JSON.parse(saveChat({ conversation: twoAnswered, open: true })!) as { messages: Array<Record<string, any>> };
    const withMessage = (index: number, change: Record<string, unknown>) =>
      JSON.stringify({ ...good, messages: good.messages.map((m, i) => (i === index ? { ...m, ...change } : m)) });
    const bad = [
      null,
      '',
      '{"v":1,"open":true,',
      'not json',
      '[]',
      'null',
      '42',
      JSON.stringify(twoAnswered), // the conversation without the envelope: an older shape
      JSON.stringify({ ...good, v: 2 }),
      JSON.stringify({ ...good, v: undefined }),
      JSON.stringify({ ...good, open: 'yes' }),
      JSON.stringify({ ...good, messages: [] }),
      JSON.stringify({ ...good, messages: {} }),
      withMessage(0, { role: 'system' }),
      withMessage(0, { content: 42 }),
      withMessage(0, { content: 'x'.repeat(2001) }),
      withMessage(0, { id: 0 }),
      withMessage(0, { id: 1.5 }),
      withMessage(0, { id: 2 }), // two messages with one id
      withMessage(1, { status: 'thinking' }),
      withMessage(1, { steps: [{ name: 'search_subject' }] }),
      withMessage(1, { sources: [{ slug: '', title: 'x' }] }),
      withMessage(1, { sources: [{ slug: 'x', title: 'x', url: 'javascript:alert(1)' }] }),
      withMessage(1, { problem: { kind: 'rate' } }),
      withMessage(1, { problem: { kind: 'mystery' } }),
      withMessage(3, { passages: [{ title: 'x', passage: 'y', href: 'javascript:alert(1)' }] }),
      withMessage(3, { passages: [{ title: 'x', passage: 'y', href: '//elsewhere.example/' }] }),
      withMessage(3, { passages: 'none' }),
      withMessage(0, { locale: 'de' }),
      withMessage(1, { locale: 7 }),
    ];
    for (const raw of bad) assert.equal(parseSavedChat(raw), undefined, String(raw));
  });

  it('keeps the language each message was asked in, so it keeps its lang on a page in another language', () => {
    const asked = conversationReducer(emptyConversation, { type: 'ask', history: [], question: { ...question(1), locale: 'ja' }, replyId: 2 });
    assert.equal((asked.messages[1] as AssistantMessage).locale, 'ja', 'the reply is in the language it was asked for');
    const kept = parseSavedChat(saveChat({ conversation: asked, open: true })!)!;
    assert.deepEqual(
      kept.conversation.messages.map((m) => m.locale),
      ['ja', 'ja'],
    );
  });

  it('drops fields it does not know', () => {
    const raw = JSON.stringify({
      v: 1,
      open: false,
      trimmed: false,
      extra: 1,
      messages: [
        { ...question(1), html: '<b>' },
        { ...reply(2), score: 3 },
      ],
    });
    assert.deepEqual(parseSavedChat(raw), { conversation: { trimmed: false, messages: [question(1), reply(2)] }, open: false });
  });
});

describe('the tab’s storage', () => {
  it('loads what was kept, and removes a value it cannot read so it is not read again', () => {
    const store = memoryStorage();
    keepChat(store, { conversation: twoAnswered, open: true });
    assert.deepEqual(loadChat(store), { conversation: twoAnswered, open: true });

    const corrupt = memoryStorage({ [SAVED_KEY]: '{"v":1,"open":tru', other: 'kept' });
    assert.equal(loadChat(corrupt), undefined);
    assert.deepEqual([...corrupt.items.keys()], ['other']);
  });

  it('never throws: no storage, storage that refuses, or a full quota (which removes the older value)', () => {
    assert.equal(loadChat(undefined), undefined);
    keepChat(undefined, { conversation: twoAnswered, open: true });
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    assert.equal(loadChat(refusing), undefined);
    keepChat(refusing, { conversation: twoAnswered, open: true });

    const full = memoryStorage({ [SAVED_KEY]: saveChat({ conversation: { trimmed: false, messages: [question(1), reply(2)] }, open: true })! }, true);
    keepChat(full, { conversation: twoAnswered, open: true });
    assert.equal(full.items.has(SAVED_KEY), false);
  });
});
