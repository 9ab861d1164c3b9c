// The chat as an operation: its stream is made by `invoke` (parse, rate-limit, the handler's events checked against
// the contract's ChatEvent schema) and written by the text-events encoder of the REST adapter, in the wire format the
// site and the CLI read (`stream: 'text-events'` in operations/contract/define.ts). Here the chat operation runs
// through `implement` with scripted handlers over real HTTP, so each rule is seen on the wire without a model.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chat, type ChatEvent } from '../contract/agent.ts';
import { AppError } from '../contract/errors.ts';
import { anonymous, implement, type CallContext, type HandlerOf } from '../server/implement.server.ts';
import { createEdge, sendError } from './edge.server.ts';
import { operationEndpoints } from './rest.server.ts';
import { RESTARTING } from './streams.server.ts';

const RS = '\u001e';
const servers: Server[] = [];
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

interface Scripted {
  /** Called instead of the chat's handler. */
  handler: HandlerOf<typeof chat>;
  shutdown?: AbortSignal;
}

/** The chat operation behind the REST adapter and the HTTP edge, with `handler` as its implementation. */
async function serveChat({ handler, shutdown }: Scripted) {
  const logged: unknown[] = [];
  const calls: Array<{ raw: unknown; ctx: CallContext }> = [];
  const implementation = implement(
    [chat] as const,
    { chat: handler },
    {
      rateLimits: { consume: async () => ({ headers: { RateLimit: 'limit=10, remaining=9, reset=60' } }) },
      checkOutputs: true,
      logError: (_message, error) => logged.push(error),
    },
  );
  // A spy on the one door: what REST hands to invoke.
  const layer = {
    ...implementation,
    invoke: ((op, raw, ctx, options) => {
      calls.push({ raw, ctx });
      return implementation.invoke(op, raw, ctx, options);
    }) as typeof implementation.invoke,
  };
  const endpoints = operationEndpoints({ layer, authenticate: () => anonymous, shutdown });
  const edge = createEdge(endpoints, { trustProxy: false, web: (req, res) => sendError(req, res, new AppError('not_found', 'No page here.')) });
  const server = createServer((req, res) => edge(req, res, 'main'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
  const post = (body: unknown) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { post, calls, logged };
}

/** Answer text and status lines of a text-events body. */
function read(body: string) {
  const pieces = body.split(RS);
  const events = pieces.slice(1).map((piece) => JSON.parse(piece.slice(0, piece.indexOf('\n'))) as Record<string, unknown>);
  const text =
    pieces[0]! +
    pieces
      .slice(1)
      .map((piece) => piece.slice(piece.indexOf('\n') + 1))
      .join('');
  return { text, events };
}

/** Reports one event of the chat's stream, typed by the contract. */
const say = (ctx: CallContext, event: ChatEvent) => ctx.progress?.(event);

const question = { messages: [{ role: 'user', content: 'What did Noa build for hotels?' }] };
const source = { slug: 'concierge-copilot', title: 'Concierge Copilot', url: 'http://vitae.test/entries/concierge-copilot' };

/** A chat handler that reports a tool step, then writes its answer in two pieces. */
const answering: HandlerOf<typeof chat> = async (input, ctx) => {
  say(ctx, { type: 'tool', name: 'search_subject', input: { query: 'hotel' } });
  say(ctx, { type: 'tool-result', name: 'search_subject', sources: ['concierge-copilot'] });
  say(ctx, { type: 'text', text: 'Noa built ' });
  say(ctx, { type: 'text', text: 'a concierge (concierge-copilot).' });
  return { answer: 'Noa built a concierge (concierge-copilot).', locale: input.locale, sources: [source] };
};

describe('the chat operation over REST', () => {
  it('streams the answer as text/plain with U+001E status lines when asked for events, ending with the sources', async () => {
    const { post } = await serveChat({ handler: answering });
    const res = await post({ ...question, events: true });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(res.headers.get('ratelimit'), 'limit=10, remaining=9, reset=60', 'the budget is sent with the head');
    const { text, events } = read(await res.text());
    assert.equal(text, 'Noa built a concierge (concierge-copilot).');
    assert.deepEqual(events, [
      { type: 'tool', name: 'search_subject', input: { query: 'hotel' } },
      { type: 'tool-result', name: 'search_subject', sources: ['concierge-copilot'] },
      { type: 'done', sources: [source] },
    ]);
  });

  it('sends the answer text alone without events', async () => {
    const { post } = await serveChat({ handler: answering });
    assert.equal(await (await post(question)).text(), 'Noa built a concierge (concierge-copilot).');
  });

  it('refuses a bad body with 400 from invoke’s parser, naming the field, before the handler runs', async () => {
    let ran = false;
    const { post, calls } = await serveChat({
      handler: async (input, ctx) => {
        ran = true;
        return answering(input, ctx);
      },
    });
    const res = await post({ messages: [...question.messages, { role: 'assistant', content: 'Hello' }], events: true });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.code, 'bad_request');
    assert.deepEqual(
      body.errors.map((p: { pointer: string }) => p.pointer),
      ['/messages/1/role'],
    );
    assert.match(body.message, /the last message is the visitor’s question/);
    assert.equal(calls.length, 1, 'the request went through invoke');
    assert.equal(ran, false, 'the handler never ran');
  });

  it('checks each event against the contract’s ChatEvent schema: one that breaks it ends the stream with an error line', async () => {
    const { post, logged } = await serveChat({
      handler: async (input, ctx) => {
        say(ctx, { type: 'text', text: 'Noa ' });
        ctx.progress?.({ type: 'tool-result', name: 'search_subject', sources: ['Not A Slug'] } as never);
        return { answer: 'Noa', locale: input.locale, sources: [] };
      },
    });
    const { text, events } = read(await (await post({ ...question, events: true })).text());
    assert.equal(text, 'Noa ', 'the event that broke the schema was never sent');
    assert.deepEqual(
      events.map((e) => e.type),
      ['error', 'done'],
    );
    assert.match(String(events[0]!.message), /went wrong on our side/);
    assert.deepEqual(events[1], { type: 'done', sources: [] });
    assert.match(String((logged[0] as Error).message), /chat reported progress that does not match its schema: \/sources\/0/);
  });

  it('ends a failed answer in order: an error line then done, or the message in brackets without events', async () => {
    const failing: HandlerOf<typeof chat> = async (_input, ctx) => {
      say(ctx, { type: 'text', text: 'Noa worked at' });
      throw new AppError('unavailable', 'The model provider failed: terminated');
    };
    const { post } = await serveChat({ handler: failing });
    const withEvents = read(await (await post({ ...question, events: true })).text());
    assert.deepEqual(withEvents.events, [
      { type: 'error', message: 'The model provider failed: terminated' },
      { type: 'done', sources: [] },
    ]);
    assert.equal(await (await post(question)).text(), 'Noa worked at\n\n[The model provider failed: terminated]');
  });

  it('ends open streams with the restarting error when the service stops, and refuses new ones (503)', async () => {
    const stopping = new AbortController();
    let begun!: () => void;
    const started = new Promise<void>((resolve) => (begun = resolve));
    const { post } = await serveChat({
      shutdown: stopping.signal,
      handler: async (_input, ctx) => {
        say(ctx, { type: 'text', text: 'Noa …' });
        begun();
        await new Promise((_resolve, reject) => ctx.signal!.addEventListener('abort', () => reject(new AppError('unavailable', 'The request was cancelled.'))));
        assert.fail('the stop ends the answer');
      },
    });
    const res = await post({ ...question, events: true });
    await started;
    stopping.abort();
    const { text, events } = read(await res.text());
    assert.equal(text, 'Noa …');
    assert.deepEqual(events, [
      { type: 'error', message: RESTARTING },
      { type: 'done', sources: [] },
    ]);
    const refused = await post(question);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.equal((await refused.json()).message, RESTARTING);
  });
});
