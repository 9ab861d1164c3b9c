// The HTTP edge: one route table for every endpoint the service answers — the operations' REST routes
// and the few endpoints that are not operations (health, OpenAPI, console sign-in,
// MCP) — with one method check, one CORS policy, one body reader and one error writer. What no route
// claims goes to the web app (the Remix site). Works on node's request/response directly: this is the
// hot path, and most answers are cached bytes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { ownedBytes } from '../corpus/owned-bytes.ts';
import helmet from 'helmet';
import type { Duplex } from 'node:stream';
import { AppError, type ErrorBody, type ErrorCode } from '../contract/errors.ts';
import type { HttpMethod } from '../contract/define.ts';
import type { Branch } from '../contract/shared.ts';
import { clientIp } from './client-ip.server.ts';
import type { PageCacheFigures } from '../server/health.server.ts';
import { noteErrorCode, noteUnexpectedError } from '../server/log.server.ts';

// Reading requests lives beside the edge; every endpoint imports it from here, with the writing of answers.
export * from './http-read.server.ts';

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

export interface WebHandler {
  (req: IncomingMessage, res: ServerResponse, branch: Branch): void;
  /** What the web app's page cache holds, when it has one (reported by /api/health). */
  pageCache?: () => PageCacheFigures;
  /** The route template that answers a site path (its label in /metrics), when the web app knows its routes. */
  pageRoute?: (pathname: string) => string;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const PUBLIC_CORS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, RateLimit, RateLimit-Policy, Retry-After',
};

/**
 * Security headers of every answer the service gives itself (JSON, Markdown, plain text, event streams):
 * nothing here is a document to run, frame or sniff. The site's pages get their own policy (server.ts).
 */
const serviceHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'cross-origin' }, // the public API is read from any origin (CORS)
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false, // sent with the site's pages, where a browser arrives first
  xFrameOptions: { action: 'deny' },
});

interface Route {
  endpoint: Endpoint;
  pattern: RegExp;
  params: string[];
}

/**
 * What a path is, decided here once for every listener: the service's own (the route table below; an unknown one
 * answers JSON, never a page), the console (one editor's pages: never kept by the page cache nor a shared cache), or
 * the site (static files and pages, which the web app tells apart by its files).
 */
export type PathKind = 'service' | 'console' | 'site';
const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

export function pathKind(pathname: string): PathKind {
  if (under(pathname, '/api') || pathname === '/openapi.json' || under(pathname, '/mcp')) return 'service';
  // Case-blind, as the web app's router is: "/ADMIN/edit" is the console too.
  if (under(pathname.toLowerCase(), '/admin')) return 'console';
  return 'site';
}

export const servicePath = (pathname: string) => pathKind(pathname) === 'service';
export const consolePath = (pathname: string) => pathKind(pathname) === 'console';
const adminPath = (pathname: string) => pathname.startsWith('/api/admin');

/** Told of every request once its route is known (the path template, `page` for the site, undefined for none): the request id and log line. */
export type EdgeObserver = (req: IncomingMessage, res: ServerResponse, branch: Branch, route: string | undefined) => void;

export function createEdge(endpoints: readonly Endpoint[], options: { trustProxy: boolean; web: WebHandler; observe?: EdgeObserver }) {
  const routes = endpoints.map(compile);
  // The first path segments any route can match: a page's path ("/entries/x") goes to the web app without
  // trying every route's pattern.
  const heads = new Set(endpoints.map((endpoint) => endpoint.path.split('/')[1]!));
  const anyHead = [...heads].some((head) => head.startsWith('{'));

  return function handle(req: IncomingMessage, res: ServerResponse, branch: Branch): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    if (!anyHead && !heads.has(pathname.split('/', 2)[1]!) && !servicePath(pathname)) {
      options.observe?.(req, res, branch, 'page');
      return options.web(req, res, branch);
    }
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
    options.observe?.(req, res, branch, match?.route.endpoint.path ?? (allowed.size || servicePath(pathname) ? undefined : 'page'));
    if (!allowed.size && !servicePath(pathname)) return options.web(req, res, branch);
    serviceHeaders(req, res, () => {});

    const cors = match?.route.endpoint.cors ?? (allowed.size ? routes.some((r) => r.endpoint.cors && r.pattern.test(pathname)) : !adminPath(pathname));
    const errorHeaders = cors ? PUBLIC_CORS : {};
    const run = async () => {
      if (method === 'OPTIONS') return preflight(res, pathname, cors);
      if (!match) {
        if (allowed.size) {
          // (a GET route answers HEAD too, as RFC 9110 has it: Allow says so)
          const list = allowed.has('GET') && !allowed.has('HEAD') ? [...allowed, 'HEAD'] : [...allowed];
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
// Writing answers, shared by every endpoint (reading requests: http-read.server.ts, re-exported here).

/** Bodies smaller than this are sent as they are: compressing them saves less than its headers cost. */
export const COMPRESS_MIN = 1024;
type Coding = 'br' | 'gzip';

/**
 * The q-value of each value an Accept-style header names (Accept, Accept-Encoding): lower case, without its other
 * parameters; the first mention counts; a value without `q` weighs 1. The one parser of such headers.
 */
export function qualities(header: string | string[] | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';');
    const value = name.trim().toLowerCase();
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (value && !weights.has(value)) weights.set(value, Number.isFinite(weight) ? weight : 0);
  }
  return weights;
}

/** Whether an Accept header names `type` itself with a q-value above 0 (wildcards do not count: they ask for nothing in particular). */
export function namesType(accept: string | string[] | undefined, type: string): boolean {
  return (qualities(accept).get(type) ?? 0) > 0;
}

/** The content coding the client prefers among br and gzip (by q-value, br on a tie), if it accepts either. */
export function preferredCoding(header: string | string[] | undefined): Coding | undefined {
  const weights = qualities(header);
  const br = weights.get('br') ?? 0;
  const gzip = weights.get('gzip') ?? 0;
  if (!(br > 0) && !(gzip > 0)) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

/** Whether the client accepts `coding` (named, or `*`) with a q-value above 0. */
export function accepts(header: string | string[] | undefined, coding: Coding): boolean {
  const weights = qualities(header);
  return (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
}

function compress(bytes: Buffer, coding: Coding): Buffer {
  return coding === 'br'
    ? brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
    : gzipSync(bytes, { level: 6 });
}

/** A body sent many times (a cached answer): its bytes, and each compressed form made once, on first use. */
export class Body {
  private readonly encoded: Partial<Record<Coding, Buffer>> = {};
  /** Only its own bytes: a body is kept in a cache for as long as its build is served. */
  readonly bytes: Buffer;
  constructor(bytes: Buffer) {
    this.bytes = ownedBytes(bytes);
  }
  static of(text: string): Body {
    return new Body(Buffer.from(text, 'utf8'));
  }
  encode(coding: Coding): Buffer {
    return (this.encoded[coding] ??= ownedBytes(compress(this.bytes, coding)));
  }
}

/**
 * Sends a complete answer, br- or gzip-compressed when the client accepts it and the body is worth it (a
 * compressed answer's ETag is weak: the same entity, other bytes).
 */
export function sendBody(req: IncomingMessage, res: ServerResponse, status: number, body: string | Buffer | Body, headers: Record<string, string>): void {
  const kept = body instanceof Body ? body : undefined;
  const bytes = kept ? kept.bytes : typeof body === 'string' ? Buffer.from(body, 'utf8') : (body as Buffer);
  let out = bytes;
  const extra: Record<string, string> = { 'X-Content-Type-Options': 'nosniff' };
  if (bytes.length >= COMPRESS_MIN) {
    extra.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding';
    const coding = preferredCoding(req.headers['accept-encoding']);
    if (coding) {
      out = kept ? kept.encode(coding) : compress(bytes, coding);
      extra['Content-Encoding'] = coding;
      if (headers.ETag && !headers.ETag.startsWith('W/')) extra.ETag = `W/${headers.ETag}`;
    }
  }
  res.writeHead(status, { ...headers, ...extra, 'Content-Length': String(out.length) });
  res.end(req.method === 'HEAD' ? undefined : out);
}

export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendBody(req, res, status, JSON.stringify(value), { 'Content-Type': JSON_TYPE, ...headers });
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end();
}

/**
 * The status, error body and headers of anything thrown: AppErrors as they are, anything else as a 500 that says
 * nothing (the error itself goes to the log, on the request's line).
 */
export function errorResponse(error: unknown, req?: IncomingMessage): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) {
    if (req) noteErrorCode(req, error.code);
    // An operation's unexpected failure, already worded for the caller: its cause goes on the request's log line.
    if (error.code === 'internal' && error.cause !== undefined && req) noteUnexpectedError(req, error.cause);
    return { status: error.status, body: error.toBody(), headers: error.headers ?? {} };
  }
  if (req) {
    noteErrorCode(req, 'internal');
    noteUnexpectedError(req, error);
  } else console.error('[vitae] unexpected error:', error);
  return { status: 500, body: { code: 'internal', message: 'Something went wrong on our side; the server log has the details.' }, headers: {} };
}

export function sendError(req: IncomingMessage, res: ServerResponse, error: unknown, headers: Record<string, string> = {}): void {
  const { status, body, headers: extra } = errorResponse(error, req);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // A body left unread (refused before or while reading it) is not waited for: the connection closes after the
  // answer, so a client sending 100 MB stops at once instead of having the rest read and thrown away.
  const unread: Record<string, string> = hasBody(req) && !req.readableEnded && !req.complete ? { Connection: 'close' } : {};
  sendJson(req, res, status, body, { ...headers, ...extra, ...unread, 'Cache-Control': 'no-store' });
}

/** Whether a request carries a body (a length above zero, or chunks). */
export const hasBody = (req: IncomingMessage) => Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding'] !== undefined;

/** True when the request's If-None-Match names one of `etags` (weak comparison) or is `*`: answer 304. */
export function notModified(req: IncomingMessage, ...etags: string[]): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => etags.includes(tag.trim().replace(/^W\//, '')));
}

// ---------------------------------------------------------------------------------------------------
// Requests node refuses before any handler sees them (malformed request line or headers, headers too large,
// a bad Content-Length): answered like every other error, never with an empty body.

const CLIENT_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'request_header_fields_too_large',
    message: 'The request’s headers are too large; send fewer or shorter headers (cookies included).',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: 'payload_too_large', message: 'The request’s chunk extensions are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'bad_request', message: 'The request took too long to arrive.' },
};

const reason: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' };

/** A small page for the site's paths: node refused the request before the web app could render its own. */
function clientErrorPage(status: number, message: string): string {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${status} ${reason[status]}</title></head><body><main><p>${status}</p><h1>${reason[status]}</h1><p>${escape(message)}</p><p><a href="/">Home</a></p></main></body></html>\n`;
}

/**
 * `server.on('clientError', answerClientError)`: the service's JSON error body on its own paths (`/api`, `/mcp`,
 * `/openapi.json`), an HTML page on the site's; then the connection is closed (its framing cannot be trusted).
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
  log?: (fields: { reqId: string; status: number; code: string; refused: string }) => void,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const known = CLIENT_ERRORS[error.code ?? ''] ?? {
    status: 400,
    code: 'bad_request' as const,
    message: 'The request is malformed (its request line or headers cannot be read).',
  };
  const head = error.rawPacket?.toString('latin1', 0, 8192) ?? '';
  const target = /^[A-Z]+ (\S+) HTTP\/1\.[01]\r?\n/.exec(head)?.[1];
  const pathname = target?.split('?')[0];
  const html = pathname ? !servicePath(pathname) : /^accept:[^\r\n]*text\/html/im.test(head);
  const body = html ? clientErrorPage(known.status, known.message) : JSON.stringify({ code: known.code, message: known.message } satisfies ErrorBody);
  const type = html ? 'text/html; charset=utf-8' : JSON_TYPE;
  const reqId = randomUUID(); // the request's own id cannot be read: its headers are what failed
  log?.({ reqId, status: known.status, code: known.code, refused: error.code ?? 'unknown' });
  const headers = [
    `HTTP/1.1 ${known.status} ${reason[known.status]}`,
    `Content-Type: ${type}`,
    `X-Request-Id: ${reqId}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    ...(html ? ["Content-Security-Policy: default-src 'none'; frame-ancestors 'none'"] : []),
    'Connection: close',
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}
