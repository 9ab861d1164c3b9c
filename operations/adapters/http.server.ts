// The REST adapter: serves every operation of the list at its route, plus `/api/health` and `/openapi.json`.
// Input comes from the path, the query and the JSON body and is parsed by the operation's own schema.
// Works on node's request/response directly (no Fetch objects) because this is the hot path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, type ErrorBody } from '../contract/errors.ts';
import { operations, type AnyOperation } from '../contract/index.ts';
import type { Branch } from '../contract/shared.ts';
import type { Build } from '../build/corpus.ts';
import { handlers } from '../server/handlers.server.ts';
import { badRequest, inputProblems } from './input.ts';
import type { Runtime } from '../server/runtime.server.ts';
import type { OperationContext } from '../server/context.server.ts';
import { clientIp } from './client-ip.server.ts';
import { compileRoutes, matchRoute } from './routes.ts';
import { createOpenApiDocument } from './openapi.ts';
import { healthReport } from '../server/health.server.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_BODY = 1024 * 1024;
const PUBLIC_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, RateLimit, RateLimit-Policy, Retry-After',
};

export interface ApiHandlerOptions {
  /** Extra routes mounted by later adapters (MCP, chat…): return true when handled. */
  extra?: Array<(req: IncomingMessage, res: ServerResponse, pathname: string) => boolean | Promise<boolean>>;
  /** Checks admin credentials; throws AppError('unauthorized') when they are missing. */
  authorize?: (req: IncomingMessage, op: AnyOperation) => void | Promise<void>;
}

export type ApiHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export function createApiHandler(runtime: Runtime, branch: Branch, options: ApiHandlerOptions = {}): ApiHandler {
  const routes = compileRoutes(operations);
  let openapi: { buildId: string; body: string } | undefined;
  const cache = new ResponseCache();

  return async function handleApi(req, res) {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const isApi = pathname.startsWith('/api/') || pathname === '/api' || pathname === '/openapi.json';
    if (!isApi) {
      for (const extra of options.extra ?? []) if (await extra(req, res, pathname)) return true;
      return false;
    }
    const method = req.method ?? 'GET';
    const publicPath = !pathname.startsWith('/api/admin');
    try {
      if (method === 'OPTIONS') {
        if (!publicPath) throw new AppError('forbidden', 'The admin API does not accept cross-origin requests.');
        res.writeHead(204, {
          ...PUBLIC_CORS,
          'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
          'Access-Control-Allow-Headers': 'Accept, Content-Type, If-None-Match',
          'Access-Control-Max-Age': '86400',
        });
        res.end();
        return true;
      }
      const build = runtime.build(branch);
      if (pathname === '/api/health' && (method === 'GET' || method === 'HEAD')) {
        sendJson(req, res, 200, healthReport(runtime, branch), { ...PUBLIC_CORS, 'Cache-Control': 'no-store' });
        return true;
      }
      if (pathname === '/openapi.json' && (method === 'GET' || method === 'HEAD')) {
        if (openapi?.buildId !== build.id) openapi = { buildId: build.id, body: JSON.stringify(createOpenApiDocument(runtime.siteUrl(branch), build.model.site.name)) };
        sendBody(req, res, 200, openapi.body, { 'Content-Type': JSON_TYPE, ...PUBLIC_CORS, 'Cache-Control': 'public, max-age=300' });
        return true;
      }
      for (const extra of options.extra ?? []) if (await extra(req, res, pathname)) return true;

      const { match, allowed } = matchRoute(routes, method, pathname);
      if (!match) {
        if (allowed.length) throw new AppError('method_not_allowed', `${pathname} does not accept ${method}; use ${allowed.join(' or ')}.`, { headers: { Allow: allowed.join(', ') } });
        throw new AppError('not_found', `No route ${method} ${pathname}. The routes are listed in /openapi.json.`);
      }
      const { op } = match.route;
      if (op.auth === 'admin') {
        if (!options.authorize) throw new AppError('unauthorized', 'The admin API is not available.');
        await options.authorize(req, op);
      }
      const cors = op.auth === 'public' && (method === 'GET' || method === 'HEAD') ? PUBLIC_CORS : {};
      const raw = await rawInput(req, op, match.rawParams, q === -1 ? '' : url.slice(q + 1));
      const wantsText = op.rest.text !== undefined && !acceptsJson(req);

      if (op.pure) {
        const key = `${wantsText ? 't' : 'j'}\0${op.name}\0${JSON.stringify(raw)}`;
        const etag = `"${build.id}${wantsText ? '-t' : ''}"`;
        const cacheHeaders = { ...cors, ETag: etag, 'Cache-Control': 'public, max-age=0, must-revalidate', ...(op.rest.text ? { Vary: 'Accept' } : {}) };
        let hit = cache.get(build.id, key);
        if (!hit) {
          const output = await run(op, raw, match.route.params, { runtime, branch, build, clientIp: clientIp(req, runtime.config.TRUST_PROXY) });
          hit = wantsText
            ? { body: String((output as Record<string, unknown>)[op.rest.text!.field]), type: op.rest.text!.mediaType }
            : { body: JSON.stringify(output), type: JSON_TYPE };
          cache.set(build.id, key, hit);
        }
        if (ifNoneMatch(req, etag)) {
          res.writeHead(304, cacheHeaders);
          res.end();
          return true;
        }
        sendBody(req, res, 200, hit.body, { 'Content-Type': hit.type, ...cacheHeaders });
        return true;
      }

      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const ip = clientIp(req, runtime.config.TRUST_PROXY);
      let limitHeaders: Record<string, string> = {};
      const output = await run(op, raw, match.route.params, { runtime, branch, build, clientIp: ip, signal: controller.signal }, async () => {
        if (op.rateLimit) limitHeaders = (await runtime.rateLimits.consume(op.rateLimit, ip)).headers;
      });
      if (wantsText) sendBody(req, res, 200, String((output as Record<string, unknown>)[op.rest.text!.field]), { 'Content-Type': op.rest.text!.mediaType, ...cors, ...limitHeaders });
      else sendJson(req, res, 200, output, { ...cors, ...limitHeaders, 'Cache-Control': 'no-store' });
      return true;
    } catch (error) {
      sendError(req, res, error, publicPath ? PUBLIC_CORS : {});
      return true;
    }
  };
}

/** Parses the input (400/404), then runs `beforeHandler` (rate limits: valid requests only), then the handler. */
async function run(op: AnyOperation, raw: Record<string, unknown>, pathParams: string[], ctx: OperationContext, beforeHandler?: () => Promise<void>): Promise<unknown> {
  const result = op.input.safeParse(raw);
  if (!result.success) {
    const errors = inputProblems(result.error, op.rest.rename);
    // A path segment that names nothing valid addresses a resource that does not exist.
    const pathIssue = result.error.issues.find((i) => pathParams.includes(String(i.path[0])));
    if (pathIssue) {
      const name = String(pathIssue.path[0]);
      throw new AppError('not_found', `Nothing at ${op.rest.path.replace(`{${name}}`, String(raw[name]))}: ${errors.find((e) => e.pointer === `/${name}`)?.message ?? 'unknown name'}.`);
    }
    throw badRequest(errors);
  }
  await beforeHandler?.();
  return handlers[op.name]!(result.data, ctx);
}

/** Collects an operation's raw input from path parameters, the query string and the JSON body. */
async function rawInput(req: IncomingMessage, op: AnyOperation, rawParams: Record<string, string>, query: string): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  const fromRest = Object.fromEntries(Object.entries(op.rest.rename ?? {}).map(([field, restName]) => [restName, field]));
  const from = op.rest.from ?? (op.rest.method === 'GET' ? 'query' : 'body');
  if (from !== 'body') {
    for (const [name, value] of parseQuery(query)) {
      const field = fromRest[name] ?? name;
      if (field in input) throw new AppError('bad_request', `Query parameter "${name}" is given more than once.`, { errors: [{ pointer: `/${name}`, message: `${name} is given more than once` }] });
      input[field] = value;
    }
  }
  if (from !== 'query' && op.rest.method !== 'GET') {
    const body = await readJsonBody(req, from === 'query+body');
    if (body !== undefined) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new AppError('bad_request', 'The request body must be a JSON object.', { errors: [{ pointer: '', message: 'body must be a JSON object' }] });
      }
      Object.assign(input, body);
    }
  }
  for (const [name, value] of Object.entries(rawParams)) input[name] = decode(value, name);
  return input;
}

function decode(value: string, what: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new AppError('bad_request', `Malformed percent-encoding in ${what}.`, { errors: [{ pointer: `/${what}`, message: `${what} has malformed percent-encoding` }] });
  }
}

export function parseQuery(query: string): Array<[string, string]> {
  if (!query) return [];
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
      const name = decode(rawName.replace(/\+/g, ' '), 'the query string');
      return [name, decode(rawValue.replace(/\+/g, ' '), name)];
    });
}

export async function readBody(req: IncomingMessage, limit = MAX_BODY): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw new AppError('payload_too_large', `The request body is larger than ${Math.round(limit / 1024)} kB.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new AppError('payload_too_large', `The request body is larger than ${Math.round(limit / 1024)} kB.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readJsonBody(req: IncomingMessage, optional: boolean): Promise<unknown> {
  const buffer = await readBody(req);
  const text = buffer.toString('utf8').trim();
  if (!text) return optional ? undefined : {};
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(parseQuery(text));
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('bad_request', `The request body is not valid JSON: ${(error as Error).message}`, { errors: [{ pointer: '', message: 'malformed JSON' }] });
  }
}

function acceptsJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  return accept.includes('application/json') && !/text\/markdown(?!;\s*q=0(\.0+)?\b)/.test(accept.split(',').find((p) => p.includes('text/markdown')) ?? '');
}

function ifNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function sendBody(req: IncomingMessage, res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { ...headers, 'Content-Length': String(bytes.length), 'X-Content-Type-Options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendBody(req, res, status, JSON.stringify(value), { 'Content-Type': JSON_TYPE, ...headers });
}

export function errorResponse(error: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) return { status: error.status, body: error.toBody(), headers: error.headers ?? {} };
  console.error('[vitae] unexpected error:', error);
  return { status: 500, body: { code: 'internal', message: 'Something went wrong on our side; the server log has the details.' }, headers: {} };
}

export function sendError(req: IncomingMessage, res: ServerResponse, error: unknown, headers: Record<string, string> = {}): void {
  const { status, body, headers: extra } = errorResponse(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(req, res, status, body, { ...headers, ...extra, 'Cache-Control': 'no-store' });
}

/** Serialised answers of pure operations for the live build; dropped wholesale when the build changes. */
class ResponseCache {
  private buildId = '';
  private entries = new Map<string, { body: string; type: string }>();
  private static readonly MAX = 5000;

  get(buildId: string, key: string) {
    return buildId === this.buildId ? this.entries.get(key) : undefined;
  }

  set(buildId: string, key: string, value: { body: string; type: string }) {
    if (buildId !== this.buildId || this.entries.size >= ResponseCache.MAX) {
      this.buildId = buildId;
      this.entries = new Map();
    }
    this.entries.set(key, value);
  }
}

export type { Build };
