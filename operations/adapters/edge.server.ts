// The HTTP edge: one route table for every endpoint the service answers — the operations' REST routes
// and the few endpoints that are not operations (health, OpenAPI, chat, transcription, console sign-in,
// MCP) — with one method check, one CORS policy, one body reader and one error writer. What no route
// claims goes to the web app (the Remix site). Works on node's request/response directly: this is the
// hot path, and most answers are cached bytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, type ErrorBody } from '../contract/errors.ts';
import type { HttpMethod } from '../contract/define.ts';
import type { Branch } from '../contract/shared.ts';
import { clientIp } from './client-ip.server.ts';

export interface EdgeRequest {
  req: IncomingMessage;
  res: ServerResponse;
  branch: Branch;
  method: string;
  pathname: string;
  /** The query string without "?". */
  query: string;
  /** Path parameters, still percent-encoded. */
  params: Record<string, string>;
  /** Client address for rate limits, resolved per TRUST_PROXY. */
  ip: string;
}

export interface Endpoint {
  /** Methods answered here; HEAD is answered wherever GET is. */
  methods: readonly HttpMethod[];
  /** Path template with `{param}` placeholders. */
  path: string;
  /** Public: any origin may read GET answers and error bodies, and preflights are answered. */
  cors?: boolean;
  handle(request: EdgeRequest): void | Promise<void>;
  /** How an endpoint that is not an operation appears in the OpenAPI document (the path item's operation). */
  openapi?: Record<string, unknown>;
}

export type WebHandler = (req: IncomingMessage, res: ServerResponse, branch: Branch) => void;

export const JSON_TYPE = 'application/json; charset=utf-8';
export const MAX_BODY = 1024 * 1024;
export const PUBLIC_CORS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, RateLimit, RateLimit-Policy, Retry-After',
};

interface Route {
  endpoint: Endpoint;
  pattern: RegExp;
  params: string[];
}

/** Paths that belong to the service rather than to the site: unknown ones answer JSON, never a page. */
const servicePath = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/') || pathname === '/openapi.json';
const adminPath = (pathname: string) => pathname.startsWith('/api/admin');

export function createEdge(endpoints: readonly Endpoint[], options: { trustProxy: boolean; web: WebHandler }) {
  const routes = endpoints.map(compile);

  return function handle(req: IncomingMessage, res: ServerResponse, branch: Branch): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    const allowed = new Set<string>();
    let match: { route: Route; values: RegExpExecArray } | undefined;
    for (const route of routes) {
      const values = route.pattern.exec(pathname);
      if (!values) continue;
      route.endpoint.methods.forEach((m) => allowed.add(m));
      if (!match && (route.endpoint.methods.includes(method as HttpMethod) || (method === 'HEAD' && route.endpoint.methods.includes('GET'))))
        match = { route, values };
    }
    if (!allowed.size && !servicePath(pathname)) return options.web(req, res, branch);

    const cors = match?.route.endpoint.cors ?? (allowed.size ? routes.some((r) => r.endpoint.cors && r.pattern.test(pathname)) : !adminPath(pathname));
    const errorHeaders = cors ? PUBLIC_CORS : {};
    const run = async () => {
      if (method === 'OPTIONS') return preflight(res, pathname, cors);
      if (!match) {
        if (allowed.size) {
          const list = [...allowed];
          throw new AppError('method_not_allowed', `${pathname} does not accept ${method}; use ${list.join(' or ')}.`, { headers: { Allow: list.join(', ') } });
        }
        throw new AppError('not_found', `No route ${method} ${pathname}. The routes are listed in /openapi.json.`);
      }
      const { route, values } = match;
      const params = Object.fromEntries(route.params.map((name, i) => [name, values[i + 1]!]));
      await route.endpoint.handle({
        req,
        res,
        branch,
        method,
        pathname,
        query: q === -1 ? '' : url.slice(q + 1),
        params,
        ip: clientIp(req, options.trustProxy),
      });
    };
    run().catch((error) => sendError(req, res, error, errorHeaders));
  };
}

function compile(endpoint: Endpoint): Route {
  const params: string[] = [];
  const source = endpoint.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { endpoint, pattern: new RegExp(`^${source}/?$`), params };
}

function preflight(res: ServerResponse, pathname: string, cors: boolean): void {
  if (!cors) throw new AppError('forbidden', `${pathname} does not accept cross-origin requests.`);
  res.writeHead(204, {
    ...PUBLIC_CORS,
    'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Accept, Content-Type, If-None-Match',
    'Access-Control-Max-Age': '86400',
  });
  res.end();
}

// ---------------------------------------------------------------------------------------------------
// Reading requests and writing answers, shared by every endpoint.

/** The body as bytes, refusing more than `limit` (413) whether or not Content-Length said so. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY): Promise<Buffer> {
  const tooLarge = () => new AppError('payload_too_large', `The request body is larger than ${Math.round(limit / 1024)} kB.`);
  if (Number(req.headers['content-length']) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The body as JSON (or a urlencoded form, for HTML forms). `undefined` when there is no body at all, so a
 * caller can tell "no body" from "an empty object".
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY): Promise<unknown> {
  const text = (await readBody(req, limit)).toString('utf8').trim();
  if (!text) return undefined;
  if (String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) return Object.fromEntries(parseQuery(text));
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('bad_request', `The request body is not valid JSON: ${(error as Error).message}`, {
      errors: [{ pointer: '', message: 'malformed JSON' }],
    });
  }
}

export function decodeComponent(value: string, what: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new AppError('bad_request', `Malformed percent-encoding in ${what}.`, {
      errors: [{ pointer: `/${what}`, message: `${what} has malformed percent-encoding` }],
    });
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
      const name = decodeComponent(rawName.replace(/\+/g, ' '), 'the query string');
      return [name, decodeComponent(rawValue.replace(/\+/g, ' '), name)];
    });
}

/** One request header as a string (repeated headers joined), for code that also reads Fetch requests. */
export const headerOf =
  (req: IncomingMessage) =>
  (name: string): string | undefined => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };

export function sendBody(req: IncomingMessage, res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...headers, 'Content-Length': String(bytes.length), 'X-Content-Type-Options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendBody(req, res, status, JSON.stringify(value), { 'Content-Type': JSON_TYPE, ...headers });
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end();
}

/** The status, error body and headers of anything thrown: AppErrors as they are, anything else as a 500 that says nothing. */
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

/** Answers with 304 when the request's If-None-Match names `etag`. */
export function notModified(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
