// The REST adapter: every operation of the list at its route. Input comes from the path, the query and the
// JSON body and goes through `invoke` like every other door; answers of pure operations are kept per build by
// invoke, their bytes beside them, and revalidated with ETags.
import type { z } from 'zod';
import type { AnyOperation } from '../contract/define.ts';
import type { OperationsLayer } from '../server/handlers.server.ts';
import { AppError } from '../contract/errors.ts';
import { anonymous, authorize, type Implementation, type Principal } from '../server/implement.server.ts';
import {
  Body,
  decodeComponent,
  JSON_TYPE,
  namesType,
  notModified,
  parseQuery,
  PUBLIC_CORS,
  qualities,
  mediaTypeOf,
  readBody,
  readJsonBody,
  sendBody,
  sendEmpty,
  type EdgeRequest,
  type Endpoint,
} from './edge.server.ts';
import { refuseWhileStopping, streamLines, streamTextEvents } from './streams.server.ts';

export interface RestDeps {
  /** The operations' implementation; `unconfigured` (the service's layer has it) refuses what cannot run here before a large body is read. */
  layer: Pick<Implementation, 'operations' | 'invoke'> & Partial<Pick<OperationsLayer, 'unconfigured'>>;
  /** Who is calling (bearer token or console session), for admin operations. */
  authenticate(request: EdgeRequest): Principal | Promise<Principal>;
  /** Aborted when the service is stopping: open streams end with their last lines, and no new one starts. */
  shutdown?: AbortSignal;
}

export function operationEndpoints({ layer, authenticate, shutdown }: RestDeps): Endpoint[] {
  async function handle(op: AnyOperation, request: EdgeRequest): Promise<void> {
    const { req, res, branch, query } = request;
    const principal = op.auth === 'admin' ? await authenticate(request) : anonymous;
    // Checked before the body is read: nobody without credentials gets a request body parsed.
    if (op.auth === 'admin') authorize(principal);
    // Every answer of a public operation may be read from any origin, a POST's (ask) too: its preflight allows it, its
    // errors already said so, and its rate-limit headers are exposed for browsers to read.
    const cors = op.auth === 'public' ? PUBLIC_CORS : {};
    // A change is made as asked or not at all: a query parameter it does not take (`?dry=1`) is refused, not ignored.
    if (op.auth === 'admin' && op.rest.method !== 'GET') refuseUnknownQuery(op, query, layer.operations);
    // A feature this service lacks is refused before a large body (a recording of megabytes) is read; a small one is
    // read and checked first (invoke), so a bad request hears what is wrong with it whatever the configuration.
    if (Number(req.headers['content-length'] ?? 0) > REFUSED_UNREAD) {
      const refusal = layer.unconfigured?.(op);
      if (refusal) throw refusal;
    }
    const stream = op.rest.stream === 'text-events' ? streamTextEvents : op.streams && acceptsLines(req.headers.accept ?? '') ? streamLines : undefined;
    if (stream) refuseWhileStopping(shutdown);
    const raw = await rawInput(request, op);
    const wantsText = op.rest.text !== undefined && !acceptsJson(req.headers.accept ?? '');
    const options = { names: op.rest.rename };
    const render = (output: unknown) =>
      wantsText
        ? { body: Body.of(String((output as Record<string, unknown>)[op.rest.text!.field])), type: op.rest.text!.mediaType }
        : { body: Body.of(JSON.stringify(output)), type: JSON_TYPE };

    if (op.pure) {
      // Kept per build by invoke, for every surface; the bytes of this representation beside it, made once.
      const answer = await layer.invoke(op, raw, { branch, ip: request.ip, principal, door: 'rest' }, options);
      const body = answer.encoded(wantsText ? 'rest-text' : 'rest-json', (output) => render(output).body);
      const type = wantsText ? op.rest.text!.mediaType : JSON_TYPE;
      const vary: Record<string, string> = op.rest.text ? { Vary: 'Accept' } : {};
      // An answer that is not its build's own (see Invocation.build) is neither kept nor given a validator.
      if (!answer.build) return sendBody(req, res, 200, body, { 'Content-Type': type, ...cors, 'Cache-Control': 'no-store', ...vary });
      const etag = `"${answer.build}${wantsText ? '-t' : ''}"`;
      const headers = { ...cors, ETag: etag, 'Cache-Control': 'public, max-age=0, must-revalidate', ...vary };
      if (notModified(req, etag)) return sendEmpty(res, 304, headers);
      return sendBody(req, res, 200, body, { 'Content-Type': type, ...headers });
    }

    const ctx = { branch, ip: request.ip, principal, door: 'rest' as const };
    if (stream) return stream({ layer, op, raw, ctx, options, headers: cors, shutdown }, res);
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const { output, headers } = await layer.invoke(op, raw, { ...ctx, signal: controller.signal }, options);
    const { body, type } = render(output);
    sendBody(req, res, 200, body, { 'Content-Type': type, ...cors, ...headers, ...(wantsText ? {} : { 'Cache-Control': 'no-store' }) });
  }

  return layer.operations.map((op) => ({
    methods: [op.rest.method],
    path: op.rest.path,
    cors: op.auth === 'public',
    handle: (request) => handle(op, request),
  }));
}

/** A body declared larger than this is not read for an operation that cannot run here (see handle). */
const REFUSED_UNREAD = 64 * 1024;

/** The query parameters an operation reads (by their REST names): its input fields when it reads the query, else none. */
function queryNames(op: AnyOperation): string[] {
  const from = op.rest.from ?? (op.rest.method === 'GET' ? 'query' : 'body');
  if (from === 'body') return [];
  const addressed = new Set([...op.rest.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name));
  return Object.keys(op.input.shape)
    .filter((field) => !addressed.has(field))
    .map((field) => op.rest.rename?.[field] ?? field);
}

/**
 * Refuses (400) a query parameter the operation does not read, naming what it accepts and, for a change that has
 * one, how to see what it would do without doing it: a change never runs with part of what its caller asked ignored.
 */
function refuseUnknownQuery(op: AnyOperation, query: string, list: readonly AnyOperation[]): void {
  const accepted = queryNames(op);
  const unknown = [...new Set(parseQuery(query).map(([name]) => name))].filter((name) => !accepted.includes(name));
  if (!unknown.length) return;
  const route = `${op.rest.method} ${op.rest.path}`;
  const takes = accepted.length
    ? `it accepts only ${accepted.map((name) => `"${name}"`).join(', ')}`
    : `it takes no query parameters (its input is the JSON body)`;
  const names = unknown.map((name) => `"${name}"`).join(', ');
  const dryRun = op.dryRun && list.find((candidate) => candidate.name === op.dryRun!.operation);
  const asCli = op.cli ? `, as \`vitae ${op.cli} --dry-run\` does` : '';
  const preview = !dryRun
    ? ''
    : dryRun.rest.method === 'GET'
      ? ` There is no dry run of this call: GET ${dryRun.rest.path}${op.dryRun!.input ? `?${new URLSearchParams(op.dryRun!.input)}` : ''} shows what it would change${asCli}.`
      : ` There is no dry run of this call: ${dryRun.rest.method} ${dryRun.rest.path} with the same body checks it without writing${asCli}.`;
  throw new AppError('bad_request', `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names} for ${route}: ${takes}. Nothing was done.${preview}`, {
    errors: unknown.map((name) => ({ pointer: `/${name}`, message: `unknown query parameter "${name}"` })),
  });
}

/** An operation's raw input from the query string, the JSON body and the path parameters. */
async function rawInput({ req, query, params }: EdgeRequest, op: AnyOperation): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  const fromRest = Object.fromEntries(Object.entries(op.rest.rename ?? {}).map(([field, restName]) => [restName, field]));
  const from = op.rest.from ?? (op.rest.method === 'GET' ? 'query' : 'body');
  if (from !== 'body') {
    const given = parseQuery(query);
    for (const [name, value] of given) {
      // A field REST names otherwise (`query` is `q`) is not taken by its own name too: it is an unknown parameter.
      if (!(name in fromRest) && op.rest.rename?.[name]) continue;
      const field = fromRest[name] ?? name;
      if (field in input)
        throw new AppError('bad_request', `Query parameter "${name}" is given more than once.`, {
          errors: [{ pointer: `/${name}`, message: `${name} is given more than once` }],
        });
      input[field] = value;
    }
    refuseMisnamed(op, given, input);
  }
  if (op.rest.multipart && mediaTypeOf(req) === 'multipart/form-data') Object.assign(input, await readMultipart(req, op.rest.multipart, op.rest.maxBody));
  else if (from !== 'query' && op.rest.method !== 'GET') {
    const body = await readJsonBody(req, op.rest.maxBody);
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

/**
 * A field sent only under its tool argument name (`?query=hotel` where REST calls it `q`): refused naming
 * the parameter that carries it, rather than ignored and then reported missing without a word about the one sent.
 */
function refuseMisnamed(op: AnyOperation, given: Array<[string, string]>, input: Record<string, unknown>): void {
  for (const [field, restName] of Object.entries(op.rest.rename ?? {})) {
    if (field in input || !given.some(([name]) => name === field)) continue;
    const required = !(op.input.shape[field] as z.ZodType).safeParse(undefined).success;
    const message = `${required ? `${restName} is required` : `unknown query parameter "${field}"`} (the query parameter is "${restName}"; "${field}" is not its name)`;
    throw new AppError('bad_request', `${message}.`, { errors: [{ pointer: `/${restName}`, message }] });
  }
}

/**
 * A `multipart/form-data` body as an operation's input: each text part a field (given once), the one file part named
 * `part` read into the field `into` as base64, under the operation's body limit. Decoded here; checked by the schema.
 */
async function readMultipart(req: EdgeRequest['req'], { part, into }: { part: string; into: string }, limit?: number): Promise<Record<string, unknown>> {
  const bytes = await readBody(req, limit);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { 'Content-Type': String(req.headers['content-type']) } }).formData();
  } catch (error) {
    throw new AppError(
      'bad_request',
      `The multipart/form-data body cannot be read (${(error as Error).message}); send the fields as text parts and the image as the part "${part}".`,
      {
        errors: [{ pointer: '', message: 'malformed multipart body' }],
      },
    );
  }
  const input: Record<string, unknown> = {};
  for (const [name, value] of form) {
    const given = (why: string) => new AppError('bad_request', `Part "${name}" ${why}.`, { errors: [{ pointer: `/${name}`, message: why }] });
    if (name in input || (name === part && into in input)) throw given('is given more than once');
    if (typeof value === 'string') {
      if (name === part || name === into) throw given(`must be a file (the image), not text`);
      input[name] = value;
    } else {
      if (name !== part) throw given(`is a file; only "${part}" is`);
      input[into] = Buffer.from(await value.arrayBuffer()).toString('base64');
    }
  }
  if (!(into in input))
    throw new AppError('bad_request', `Send the image as the file part "${part}" of the form.`, {
      errors: [{ pointer: `/${part}`, message: `${part} is required` }],
    });
  return input;
}

/** JSON lines asked for (an operation that streams its progress). */
function acceptsLines(accept: string): boolean {
  return namesType(accept, 'application/x-ndjson');
}

/** JSON when the client asks for it above Markdown (the brief is Markdown first, and so on a tie). */
function acceptsJson(accept: string): boolean {
  const weights = qualities(accept);
  return (weights.get('application/json') ?? 0) > (weights.get('text/markdown') ?? 0);
}
