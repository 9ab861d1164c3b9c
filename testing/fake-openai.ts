// A scripted OpenAI-compatible server for tests: real HTTP on loopback, the real wire format (streamed
// and non-streamed Chat Completions with tool_calls, JSON structured output, audio transcriptions, embeddings).
// Each request takes the next scripted reply; every request is recorded, and so is an aborted one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ScriptedReply =
  | { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }
  | { text: string; chunks?: number; delayMs?: number }
  | { json: unknown }
  /** An error answer; `headers` beside it (a provider's Retry-After on its 429). */
  | { status: number; error: string; headers?: Record<string, string> }
  /** Streams some text, then drops the connection (a provider failure mid-stream). */
  | { textThenFail: string }
  /** Streams text slowly forever, until the client goes away. */
  | { hang: true };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  raw: string;
  aborted: boolean;
}

/** A reply, or a function that makes one from the request body (e.g. to echo what it was sent). */
export type Reply = ScriptedReply | ((body: any) => ScriptedReply);

export interface FakeOpenAI {
  url: string;
  requests: RecordedRequest[];
  script(...replies: Reply[]): void;
  /** A reply for requests after the script runs out (default: a short text answer). */
  fallback: Reply;
  transcript: string;
  /** The vector `/embeddings` answers for a text (default: words hashed into 64 dimensions, deterministic). */
  embed: (text: string) => number[];
  /** When set, `/embeddings` answers this status with an error (a provider outage). */
  embedStatus?: number;
  close(): Promise<void>;
}

/** Deterministic vectors: each word (lower case, accents folded) adds 1 to a dimension chosen by its hash. */
export function hashedWords(text: string, dims = 64): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    vector[(h >>> 0) % dims]! += 1;
  }
  return vector;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const fake: Partial<FakeOpenAI> = {
    requests,
    fallback: { text: 'The profile does not say.' },
    transcript: 'What did Noa build at Orbitale?',
    embed: (text) => hashedWords(text),
  };

  // Each request takes the next reply; the handler is async, and node:http does not await it.
  const server: Server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('latin1');
    const record: RecordedRequest = { path: req.url ?? '', headers: req.headers, body: undefined, raw, aborted: false };
    try {
      record.body = JSON.parse(raw);
    } catch {
      // a multipart upload (audio): kept as raw
    }
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
    });

    if (req.url?.endsWith('/audio/transcriptions')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ text: fake.transcript, language: 'english', duration: 1.2 }));
      return;
    }
    if (req.url?.endsWith('/embeddings') && fake.embedStatus) {
      res.writeHead(fake.embedStatus, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'the embeddings model is unavailable', type: 'server_error' } }));
      return;
    }
    if (req.url?.endsWith('/embeddings')) {
      const input: string[] = typeof record.body?.input === 'string' ? [record.body.input] : (record.body?.input ?? []);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: fake.embed!(text) })),
          model: record.body?.model ?? 'fake',
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        }),
      );
      return;
    }
    if (!req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      return;
    }
    const next = queue.shift() ?? fake.fallback!;
    const reply = typeof next === 'function' ? next(record.body) : next;
    const id = `chatcmpl-${++counter}`;
    const model = record.body?.model ?? 'fake';
    const created = Math.floor(Date.now() / 1000);
    const base = { id, object: 'chat.completion.chunk', created, model };

    if ('status' in reply) {
      res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
      res.end(JSON.stringify({ error: { message: reply.error, type: 'server_error' } }));
      return;
    }
    if (!record.body?.stream) {
      const message =
        'toolCalls' in reply
          ? {
              role: 'assistant',
              content: null,
              tool_calls: reply.toolCalls.map((c, i) => ({
                id: `call_${counter}_${i}`,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : { role: 'assistant', content: 'json' in reply ? JSON.stringify(reply.json) : 'text' in reply ? reply.text : '' };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message, finish_reason: 'toolCalls' in reply ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
      return;
    }

    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    if ('toolCalls' in reply) {
      reply.toolCalls.forEach((c, i) => {
        const args = JSON.stringify(c.arguments);
        send({
          ...base,
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: i, id: `call_${counter}_${i}`, type: 'function', function: { name: c.name, arguments: '' } }] },
              finish_reason: null,
            },
          ],
        });
        const half = Math.ceil(args.length / 2);
        for (const part of [args.slice(0, half), args.slice(half)])
          send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: part } }] }, finish_reason: null }] });
      });
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
    } else if ('hang' in reply) {
      while (!res.destroyed) {
        send({ ...base, choices: [{ index: 0, delta: { content: '… ' }, finish_reason: null }] });
        await sleep(50);
      }
      return;
    } else {
      const text = 'text' in reply ? reply.text : 'json' in reply ? JSON.stringify(reply.json) : reply.textThenFail;
      const parts = 'text' in reply ? Math.max(1, reply.chunks ?? 4) : 2;
      const size = Math.ceil(text.length / parts);
      for (let i = 0; i < text.length; i += size) {
        send({ ...base, choices: [{ index: 0, delta: { content: text.slice(i, i + size) }, finish_reason: null }] });
        if ('delayMs' in reply && reply.delayMs) await sleep(reply.delayMs);
      }
      if ('textThenFail' in reply) {
        await sleep(100); // let the client receive the beginning, so the failure is really mid-stream
        res.destroy();
        return;
      }
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    }
    send({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    res.end('data: [DONE]\n\n');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    script: (...replies: Reply[]) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  }) as FakeOpenAI;
}
