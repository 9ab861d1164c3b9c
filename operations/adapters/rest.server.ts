// The REST adapter: every operation of the list at its route. Input comes from the path, the query and the
// JSON body and goes through `invoke` like every other door; answers of pure operations are kept as bytes
// per build and revalidated with ETags.
import type { AnyOperation } from '../contract/define.ts';
import { AppError } from '../contract/errors.ts';
import { branches } from '../contract/shared.ts';
import { anonymous, authorize, type Implementation, type Principal } from '../server/implement.server.ts';
import type { Corpus } from '../server/services.server.ts';
import {
  Body,
  decodeComponent,
  JSON_TYPE,
  notModified,
  parseQuery,
  PUBLIC_CORS,
  readJsonBody,
  sendBody,
  sendEmpty,
  type EdgeRequest,
  type Endpoint,
} from './edge.server.ts';
import { BuildCache, keepable } from './build-cache.ts';

export interface RestDeps {
  layer: Implementation;
  corpus: Corpus;
  /** Who is calling (bearer token or console session), for admin operations. */
  authenticate(request: EdgeRequest): Principal | Promise<Principal>;
  /** Runs the first answer of a public pure read (the service-wide work queue, by client address); kept answers skip it. */
  admit?<T>(work: () => Promise<T>, address: string): Promise<T>;
}

export function operationEndpoints({ layer, corpus, authenticate, admit = (work) => work() }: RestDeps): Endpoint[] {
  // Serialised answers of pure operations, by operation, representation and declared input.
  const cache = new BuildCache<{ body: Body; type: string }>('rest', (answer) => answer.body.bytes.length);

  async function handle(op: AnyOperation, request: EdgeRequest): Promise<void> {
    const { req, res, branch } = request;
    const principal = op.auth === 'admin' ? await authenticate(request) : anonymous;
    // Checked before the body is read: nobody without credentials gets a request body parsed.
    if (op.auth === 'admin') authorize(principal);
    // Every answer of a public operation may be read from any origin, a POST's (ask) too: its preflight allows it, its
    // errors already said so, and its rate-limit headers are exposed for browsers to read.
    const cors = op.auth === 'public' ? PUBLIC_CORS : {};
    const raw = await rawInput(request, op);
    const wantsText = op.rest.text !== undefined && !acceptsJson(req.headers.accept ?? '');
    const options = { names: op.rest.rename, addresses: Object.keys(request.params) };
    const render = (output: unknown) =>
      wantsText
        ? { body: Body.of(String((output as Record<string, unknown>)[op.rest.text!.field])), type: op.rest.text!.mediaType }
        : { body: Body.of(JSON.stringify(output)), type: JSON_TYPE };

    if (op.pure) {
      const build = corpus.build(branch);
      const key = `${wantsText ? 't' : 'j'}\0${op.name}\0${declaredKey(op, raw)}`;
      const etag = `"${build.id}${wantsText ? '-t' : ''}"`;
      const headers = { ...cors, ETag: etag, 'Cache-Control': 'public, max-age=0, must-revalidate', ...(op.rest.text ? { Vary: 'Accept' } : {}) };
      let hit = cache.get(build.id, key);
      if (!hit) {
        const steady = keepable(build);
        const invoke = () => layer.invoke(op, raw, { branch, ip: request.ip, principal }, options);
        hit = render((await (op.auth === 'public' ? admit(invoke, request.ip) : invoke())).output);
        // An answer made without the build's embeddings model is not the build's answer: neither kept here nor
        // given its ETag, which a client revalidating it later would be told is current.
        if (!steady())
          return sendBody(req, res, 200, hit.body, {
            'Content-Type': hit.type,
            ...cors,
            'Cache-Control': 'no-store',
            ...(op.rest.text ? { Vary: 'Accept' } : {}),
          });
        cache.set(
          build.id,
          key,
          hit,
          branches.map((b) => corpus.build(b).id),
        );
      }
      if (notModified(req, etag)) return sendEmpty(res, 304, headers);
      return sendBody(req, res, 200, hit.body, { 'Content-Type': hit.type, ...headers });
    }

    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const ctx = { branch, ip: request.ip, principal, signal: controller.signal };
    if (op.streams && acceptsLines(req.headers.accept ?? '')) return streamLines(op, raw, request, { ...ctx, options, cors });
    const { output, headers } = await layer.invoke(op, raw, ctx, options);
    const { body, type } = render(output);
    sendBody(req, res, 200, body, { 'Content-Type': type, ...cors, ...headers, ...(wantsText ? {} : { 'Cache-Control': 'no-store' }) });
  }

  /**
   * An operation that `streams`, asked for JSON lines: each progress event is a line as it happens, then
   * `{"type":"done","output":…}`. Until the first event nothing is sent, so a refusal (a bad input, a spent budget)
   * is the usual error answer with its status; a failure after it is a last `{"type":"error",…}` line.
   */
  async function streamLines(
    op: AnyOperation,
    raw: Record<string, unknown>,
    { res }: EdgeRequest,
    { options, cors, ...ctx }: Parameters<Implementation['invoke']>[2] & { options: Parameters<Implementation['invoke']>[3]; cors: Record<string, string> },
  ): Promise<void> {
    let started = false;
    let budget: Record<string, string> = {};
    const line = (event: unknown) => {
      if (!started) {
        started = true;
        res.writeHead(200, {
          'Content-Type': 'application/x-ndjson; charset=utf-8',
          'Cache-Control': 'no-store',
          'X-Accel-Buffering': 'no',
          ...cors,
          ...budget,
        });
      }
      if (!res.destroyed) res.write(`${JSON.stringify(event)}\n`);
    };
    try {
      const admitted = (headers: Record<string, string>) => (budget = headers);
      const { output } = await layer.invoke(op, raw, { ...ctx, progress: line, admitted }, options);
      line({ type: 'done', output });
    } catch (error) {
      if (!started) throw error;
      const failure = error instanceof AppError ? error : new AppError('internal', 'Something went wrong on our side; the server log has the details.');
      line({ type: 'error', code: failure.code, message: failure.message, ...(failure.errors ? { errors: failure.errors } : {}) });
    }
    if (!res.destroyed) res.end();
  }

  return layer.operations.map((op) => ({
    methods: [op.rest.method],
    path: op.rest.path,
    cors: op.auth === 'public',
    handle: (request) => handle(op, request),
  }));
}

/**
 * The part of a raw input that can change an answer: the fields the operation declares. A parameter it does not
 * know is dropped by its schema, so it must not make a new cache key either (a stranger's 12 kB of junk per
 * request would be kept until the next build).
 */
function declaredKey(op: AnyOperation, raw: Record<string, unknown>): string {
  const shape = (op.input as { shape?: Record<string, unknown> }).shape;
  if (!shape) return JSON.stringify(raw);
  return JSON.stringify(
    Object.keys(raw)
      .filter((field) => field in shape)
      .sort()
      .map((field) => [field, raw[field]]),
  );
}

/** An operation's raw input from the query string, the JSON body and the path parameters. */
async function rawInput({ req, query, params }: EdgeRequest, op: AnyOperation): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  const fromRest = Object.fromEntries(Object.entries(op.rest.rename ?? {}).map(([field, restName]) => [restName, field]));
  const from = op.rest.from ?? (op.rest.method === 'GET' ? 'query' : 'body');
  if (from !== 'body') {
    for (const [name, value] of parseQuery(query)) {
      const field = fromRest[name] ?? name;
      if (field in input)
        throw new AppError('bad_request', `Query parameter "${name}" is given more than once.`, {
          errors: [{ pointer: `/${name}`, message: `${name} is given more than once` }],
        });
      input[field] = value;
    }
  }
  if (from !== 'query' && op.rest.method !== 'GET') {
    const body = await readJsonBody(req);
    if (body !== undefined) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new AppError('bad_request', 'The request body must be a JSON object.', { errors: [{ pointer: '', message: 'body must be a JSON object' }] });
      }
      Object.assign(input, body);
    }
  }
  for (const [name, value] of Object.entries(params)) input[name] = decodeComponent(value, name);
  return input;
}

/** JSON lines asked for (an operation that streams its progress). */
function acceptsLines(accept: string): boolean {
  return /application\/x-ndjson(?!;\s*q=0(\.0+)?\b)/.test(accept);
}

/** JSON unless the client prefers Markdown (the brief is Markdown first). */
function acceptsJson(accept: string): boolean {
  return accept.includes('application/json') && !/text\/markdown(?!;\s*q=0(\.0+)?\b)/.test(accept.split(',').find((p) => p.includes('text/markdown')) ?? '');
}
