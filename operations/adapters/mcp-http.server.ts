// `/mcp` and `/mcp/admin`: stateless Streamable HTTP with JSON responses, and the discovery documents
// around them (the GET discovery document, SEP-2127 server cards, the `/.well-known` catalog).
//
// Speed: one SDK server per surface and site name is prepared once and kept; each POST is handed to it
// through an in-process transport under a fresh internal id (so two clients that both send `"id": 1`
// never meet), with the caller's context (branch, client IP, principal) in the request's `authInfo`, and
// the answer is written straight to the Node response: no server, transport, `Request` or `Response` per
// call. Whatever depends only on the build and the params (a pure tool's call, a resource, a prompt, the
// lists) is answered once per build through the SDK and then from its bytes, kept in invoke's per-build memo, without
// entering it; the outputs of pure operations are kept there too, for every surface.
//
// Guards: browser Origin must be the site's own (DNS rebinding), Host must be ours when bound to loopback,
// bodies are size-limited, batches are refused, an MCP-Protocol-Version that is not one of ours is refused
// (each request's header says which version's rules answer it), and the admin server needs the bearer
// token, checked under the failure budgets of every credential. Tool calls go through the same `invoke` pipeline as REST.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { offeredOn, type AnyOperation } from '../contract/define.ts';
import { AppError } from '../contract/errors.ts';
import { prompts } from '../contract/prompts.ts';
import { resources } from '../contract/resources.ts';
import type { Branch } from '../contract/shared.ts';
import { operationNamed, type OutputOf } from '../contract/index.ts';
import type { getSite } from '../contract/public.ts';
import { anonymous, type Implementation, type Principal } from '../server/implement.server.ts';
import type { SiteUrls } from '../server/services.server.ts';
import { decodeUtf8, JSON_TYPE, parseJson, PUBLIC_CORS, readBody, requireJsonType, sendJson, type EdgeRequest, type Endpoint } from './edge.server.ts';
import {
  appErrorBody,
  createMcpServer,
  describeTools,
  isMcpProtocolVersion,
  mcpCapabilities,
  MCP_PROTOCOL_VERSION,
  MCP_PROTOCOL_VERSIONS,
  MCP_SERVER_VERSION,
  withoutErrorPrefix,
  serverInfoOf,
  type McpRequestExtra,
  type McpServerInfo,
} from './mcp.ts';

/** The largest JSON-RPC message read: 1 MB, or more where a tool of the surface takes more over REST (an image upload), and the envelope. */
const MAX_MCP_BODY = 1024 * 1024;
const bodyLimitOf = (ops: readonly AnyOperation[]) =>
  Math.max(MAX_MCP_BODY, ...ops.filter((op) => offeredOn(op, 'mcp')).map((op) => (op.rest.maxBody ?? 0) + 16 * 1024));
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, id: unknown = null) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export interface McpDeps {
  layer: Implementation;
  urls: SiteUrls;
  /** The account of the request's bearer token; throws 401 without a live one, 429 once its address or token has failed too often. */
  requireBearer(request: EdgeRequest): Promise<Principal>;
  /** The address the service listens on; on loopback, requests must name a loopback host or the site's. */
  host: string;
}

interface Surface {
  path: '/mcp' | '/mcp/admin';
  admin: boolean;
  ops: readonly AnyOperation[];
  byName: ReadonlyMap<string, AnyOperation>;
  /** The largest request body read (only once the admin surface has checked the token). */
  maxBody: number;
}

/** What the HTTP edge knows about a call, handed to the prepared server in `authInfo.extra`. */
interface CallScope {
  branch: Branch;
  ip: string;
  principal: Principal;
}

export function mcpEndpoints({ layer, urls, requireBearer, host: listenHost }: McpDeps): Endpoint[] {
  const surface = (path: Surface['path'], admin: boolean): Surface => {
    const ops = layer.operations.filter((op) => op.auth === (admin ? 'admin' : 'public'));
    return { path, admin, ops, byName: new Map(ops.map((op) => [op.name, op])), maxBody: bodyLimitOf(ops) };
  };
  const publicSurface = surface('/mcp', false);
  const adminSurface = surface('/mcp/admin', true);

  // Every tool call goes through invoke, which keeps a pure operation's answer per build for every surface.
  const call = async (op: AnyOperation, input: unknown, extra: McpRequestExtra): Promise<unknown> => {
    const scope = extra.authInfo?.extra?.scope as CallScope | undefined;
    if (!scope) throw new Error('An MCP request reached a handler without its HTTP context.');
    return (await layer.invoke(op, input, { ...scope, door: 'mcp', signal: extra.signal })).output;
  };

  // One prepared server per surface and what it says of itself (which changes only with the content's site.json).
  const prepared = new Map<string, Dispatcher>();
  /**
   * What a surface says of itself on a branch, kept in invoke's memo for the build (uncounted: not an answer): the
   * site as the build has it (get_site: the servers' names and words) and the server prepared with its name. Read
   * once per build, so a call that is not kept and a discovery document cost no get_site call.
   */
  async function selfOf(s: Surface, branch: Branch, ip: string): Promise<Self> {
    const base = urls.of(branch);
    const key = `mcp-self\0${s.path}\0${base}`;
    const kept = layer.memo.get<Self>(branch, key);
    if (kept) return kept;
    const keep = layer.memo.keeper(branch);
    const scope = { branch, ip, principal: anonymous, door: 'mcp', uncounted: true } as const;
    const { output: site } = await layer.invoke(operationNamed('get_site'), {}, scope);
    const self: Self = { site, dispatcher: await dispatcherFor(s, serverInfo(s, site, base)) };
    keep(key, self, key.length + JSON.stringify(site).length);
    return self;
  }
  async function dispatcherFor(s: Surface, info: McpServerInfo): Promise<Dispatcher> {
    const key = `${s.path}\0${JSON.stringify(info)}`;
    let dispatcher = prepared.get(key);
    if (!dispatcher) {
      const server: Server = createMcpServer({
        info,
        ops: s.ops,
        call,
        errorBody: appErrorBody,
        ...(s.admin ? {} : { resources, prompts }),
      });
      dispatcher = new Dispatcher();
      server.onerror = (error) => dispatcher!.reportError(error);
      prepared.set(key, dispatcher);
      await server.connect(dispatcher);
    }
    return dispatcher;
  }

  /** Checks the request's host and origin, and on the admin surface its token: the principal its calls run as. */
  async function guard(s: Surface, request: EdgeRequest): Promise<Principal> {
    const { req, branch } = request;
    const siteOrigin = new URL(urls.of(branch)).origin;
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (LOOPBACK.has(listenHost) && !LOOPBACK.has(host) && host !== new URL(siteOrigin).hostname) {
      throw new AppError('forbidden', `Host "${host}" is not this server; MCP requests must address it by its own name.`);
    }
    const origin = req.headers.origin;
    if (origin && origin !== siteOrigin && origin !== `http://${req.headers.host}` && origin !== `https://${req.headers.host}`) {
      throw new AppError('forbidden', `Cross-origin MCP requests are not allowed (Origin ${origin}).`);
    }
    return s.admin ? await requireBearer(request) : anonymous;
  }

  async function handle(s: Surface, request: EdgeRequest): Promise<void> {
    const { req, res, branch, method, ip } = request;
    const principal = await guard(s, request);

    if (method === 'GET' || method === 'HEAD') {
      if (String(req.headers.accept ?? '').includes('text/event-stream')) {
        throw new AppError('method_not_allowed', 'This MCP server is stateless and has no server-to-client stream; POST JSON-RPC requests instead.', {
          headers: { Allow: 'GET, POST' },
        });
      }
      return sendJson(req, res, 200, discoveryDocument(s, (await selfOf(s, branch, ip)).site, urls.of(branch)), { 'Cache-Control': 'no-store' });
    }

    const headerVersion = req.headers['mcp-protocol-version'];
    if (headerVersion !== undefined && !isMcpProtocolVersion(headerVersion)) {
      return jsonRpcError(res, 400, -32600, `Unsupported MCP-Protocol-Version "${headerVersion}"; this server speaks ${MCP_PROTOCOL_VERSIONS.join(' and ')}.`);
    }
    try {
      requireJsonType(req);
    } catch (error) {
      return jsonRpcError(res, 415, -32000, (error as AppError).message);
    }
    const bytes = await readSmallBody(req, s.maxBody);
    let message: unknown;
    try {
      message = parseJson(decodeUtf8(bytes));
    } catch (error) {
      // Not UTF-8, not JSON, or nested too deep: a parse error, never a stack overflow further in.
      return jsonRpcError(res, 400, -32700, `Parse error: ${(error as AppError).message}`);
    }
    if (Array.isArray(message)) {
      return jsonRpcError(res, 400, -32600, 'JSON-RPC batches are not supported (MCP 2025-06-18 and later); send one request per POST.');
    }

    // A repeated read (a pure tool, a resource, a prompt, a list): the answer kept for this build and these params.
    const cacheKey = buildPureKey(s, message);
    if (cacheKey) {
      const kept = layer.memo.get<Buffer>(branch, cacheKey, 'mcp');
      if (kept !== undefined)
        return writeAnswer(res, Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify((message as JSONRPCRequest).id)}`), kept]));
    }

    const extra: MessageExtraInfo = {
      requestInfo: { headers: req.headers }, // the request's MCP-Protocol-Version says which version's rules answer it
      authInfo: { token: '', clientId: s.admin ? 'admin' : 'anonymous', scopes: [], extra: { scope: { branch, ip, principal } } },
    };
    const { dispatcher } = await selfOf(s, branch, ip);
    if (isRequestShape(message)) {
      const gone = new AbortController();
      res.on('close', () => gone.abort());
      const keep = layer.memo.keeper(branch);
      const answer = await dispatcher.request(message, extra, gone.signal);
      if (!answer) return; // the client went away; the handler was told to stop
      if (cacheKey && isJSONRPCResultResponse(answer) && answer.result.isError !== true) {
        const bytes = Buffer.from(`,"result":${JSON.stringify(answer.result)}}`);
        keep(cacheKey, bytes, bytes.length);
      }
      return writeAnswer(res, Buffer.from(JSON.stringify(answer)));
    }
    if (isJSONRPCNotification(message)) {
      dispatcher.notify(message, extra);
      return void res.writeHead(202).end();
    }
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      return void res.writeHead(202).end(); // nothing of ours awaits an answer: this server never asks the client
    }
    // JSON, but not a JSON-RPC 2.0 message: an invalid request, not a parse error.
    return jsonRpcError(
      res,
      400,
      -32600,
      'Invalid Request: send one JSON-RPC 2.0 message, an object with "jsonrpc": "2.0", an "id" (a string or an integer) and a "method" (or a result or error).',
    );
  }

  async function sendCard(s: Surface, request: EdgeRequest) {
    const { req, res, branch, ip } = request;
    if (s.admin) await requireBearer(request);
    const type = String(req.headers.accept ?? '').includes(SERVER_CARD_TYPE) ? SERVER_CARD_TYPE : JSON_TYPE;
    sendJson(req, res, 200, serverCard(s, (await selfOf(s, branch, ip)).site, urls.of(branch)), { ...discoveryHeaders(s.admin), 'Content-Type': type });
  }

  const cardEndpoint = (path: string, s: Surface): Endpoint => ({
    methods: ['GET'],
    path,
    cors: !s.admin,
    handle: (request) => sendCard(s, request),
  });

  return [
    ...[publicSurface, adminSurface].map((s) => ({ methods: ['GET', 'POST'] as const, path: s.path, handle: (request: EdgeRequest) => handle(s, request) })),
    cardEndpoint('/mcp/server-card', publicSurface),
    cardEndpoint('/mcp/admin/server-card', adminSurface),
    cardEndpoint('/.well-known/mcp/server-card.json', publicSurface),
    cardEndpoint('/.well-known/mcp.json', publicSurface),
    {
      methods: ['GET'],
      path: '/.well-known/mcp/catalog.json',
      cors: true,
      handle: async ({ req, res, branch, ip }) =>
        sendJson(req, res, 200, catalog(publicSurface, (await selfOf(publicSurface, branch, ip)).site, urls.of(branch)), discoveryHeaders(false)),
    },
  ];
}

/** The site as the servers describe it (the get_site operation's answer). */
type Site = OutputOf<typeof getSite>;
/** A surface's own description on a branch, for a build: the site and the server prepared with its name. */
interface Self {
  site: Site;
  dispatcher: Dispatcher;
}
/** What a server says of itself, from the site and its address. */
const serverInfo = (s: Surface, site: Site, base: string) => serverInfoOf({ ...site, url: base }, s.admin);

function discoveryDocument(s: Surface, site: Site, base: string) {
  return {
    name: site.shortName,
    version: MCP_SERVER_VERSION,
    // SPEC's version, which every client of 2025-06-18 or later is answered with; the newer one on request.
    protocolVersion: MCP_PROTOCOL_VERSION,
    supportedProtocolVersions: MCP_PROTOCOL_VERSIONS,
    transport: 'streamable-http',
    endpoint: `${base}${s.path}`,
    auth: s.admin ? 'bearer' : 'none',
    tools: describeTools(s.ops).map(({ name: tool, description, inputSchema }) => ({ name: tool, description, inputSchema })),
  };
}

/** The SEP-2127 server card of a surface, from the same facts as its discovery document. */
function serverCard(s: Surface, site: Site, base: string) {
  const discovery = discoveryDocument(s, site, base);
  const info = serverInfo(s, site, base);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${reverseDns(new URL(base).hostname)}/${info.name}${s.admin ? '-admin' : ''}`,
    version: MCP_SERVER_VERSION,
    title: clip(info.title, 100),
    description: clip(info.description, 100),
    websiteUrl: base,
    remotes: [
      {
        type: 'streamable-http',
        url: discovery.endpoint,
        supportedProtocolVersions: MCP_PROTOCOL_VERSIONS,
        ...(s.admin
          ? {
              headers: [
                {
                  name: 'Authorization',
                  description: 'The admin bearer token of the site (ADMIN_TOKEN).',
                  isRequired: true,
                  isSecret: true,
                  value: 'Bearer {token}',
                  variables: { token: { description: 'The admin token', isRequired: true, isSecret: true } },
                },
              ],
            }
          : {}),
      },
    ],
    _meta: {
      'vitae/discovery': {
        endpoint: discovery.endpoint,
        auth: discovery.auth,
        protocolVersion: MCP_PROTOCOL_VERSION,
        capabilities: s.admin ? mcpCapabilities(false, false) : mcpCapabilities(resources.length > 0, prompts.length > 0),
        tools: discovery.tools.map((t) => t.name),
      },
    },
  };
}

/**
 * The `/.well-known/mcp/catalog.json` of the site: the public server, by its card's URL. Not the admin one:
 * its card needs the bearer like every admin call, and a catalog read anonymously would point
 * at a card that answers 401. The admin, who holds the token, finds it at `/mcp/admin/server-card`.
 */
function catalog(publicSurface: Surface, site: Site, base: string) {
  const { name, title } = serverInfo(publicSurface, site, base);
  return {
    specVersion: 'draft',
    entries: [
      {
        identifier: `urn:air:${new URL(base).hostname}:${name}`,
        displayName: title,
        type: SERVER_CARD_TYPE,
        url: `${base}${publicSurface.path}/server-card`,
      },
    ],
  };
}

const discoveryHeaders = (admin: boolean) =>
  admin ? { 'Cache-Control': 'no-store' } : { ...PUBLIC_CORS, 'Access-Control-Allow-Methods': 'GET', 'Cache-Control': 'public, max-age=300' };

/**
 * The body of a JSON-RPC POST: usually one small chunk, so read with events rather than an async iterator
 * (the iterator costs several promise turns per request on this hot path); the edge's reader, with its
 * limit and its 413, when the body is large or announced as such.
 */
function readSmallBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const announced = Number(req.headers['content-length']);
  if (!(announced > 0 && announced <= 64 * 1024)) return readBody(req, limit);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= announced) chunks.push(chunk);
    });
    req.on('end', () =>
      size === announced
        ? resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
        : reject(new AppError('bad_request', 'The request body does not match its Content-Length.')),
    );
    req.on('error', reject);
  });
}

function writeAnswer(res: ServerResponse, body: Buffer): void {
  res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': body.length });
  res.end(body);
}

/** Methods whose answer depends only on their params and the live build (a tools/call only for a pure tool). */
const BUILD_PURE_METHODS = new Set(['tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/list', 'prompts/get']);
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const MAX_KEY = 2048;

/** The cache key of a request whose answer is the same for everyone on this build (its method and params), or undefined. */
function buildPureKey(s: Surface, message: unknown): string | undefined {
  if (!isRequestShape(message) || !BUILD_PURE_METHODS.has(message.method)) return undefined;
  const params = (message.params ?? {}) as Record<string, unknown>;
  if (message.method === 'tools/call' && !(typeof params.name === 'string' && s.byName.get(params.name)?.pure)) return undefined;
  const key = `${s.path}\0${message.method}\0${JSON.stringify(params)}`;
  return key.length <= MAX_KEY ? key : undefined; // a pasted job description is asked for once, not kept
}

/**
 * A JSON-RPC request as the SDK's (strict) request schema has it: `"jsonrpc": "2.0"`, a string or integer
 * id, a method, params an object if any, nothing else. Checked by hand because it runs on every call; the
 * SDK checks the same again as it takes the message in.
 */
function isRequestShape(message: unknown): message is JSONRPCRequest {
  if (!message || typeof message !== 'object') return false;
  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string' || !(typeof m.id === 'string' || Number.isSafeInteger(m.id))) return false;
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) return false;
  for (const key in m) if (!REQUEST_KEYS.has(key)) return false;
  return true;
}

/**
 * The prepared server's transport: each request goes in under a fresh internal id and its answer comes back
 * to the one caller waiting for that id, with the client's own id restored. A caller that goes away cancels
 * its request (`notifications/cancelled`), which aborts the handler's signal.
 */
class Dispatcher implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly waiting = new Map<number, (message: JSONRPCMessage) => void>();
  private nextId = 0;
  private refuse?: (error: Error) => void;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Notifications and requests to the client have no stream to go to in a stateless server.
    if (!('id' in message) || typeof message.id !== 'number' || 'method' in message) return;
    const answer = this.waiting.get(message.id);
    if (!answer) return;
    this.waiting.delete(message.id);
    answer(withoutErrorPrefix(message));
  }

  request(message: JSONRPCRequest, extra: MessageExtraInfo, gone: AbortSignal): Promise<JSONRPCMessage | undefined> {
    if (this.nextId >= Number.MAX_SAFE_INTEGER) this.nextId = 0;
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.waiting.set(id, (answer) => resolve({ ...answer, id: message.id }));
      gone.addEventListener(
        'abort',
        () => {
          if (!this.waiting.delete(id)) return;
          this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'The client closed the connection.' } });
          resolve(undefined);
        },
        { once: true },
      );
      // The SDK checks the message against its schema as it takes it in; one it cannot classify is reported
      // through `onerror` at once and never answered, so it is answered here.
      let refused: Error | undefined;
      this.refuse = (error) => (refused = error);
      try {
        this.onmessage?.({ ...message, id }, extra);
      } finally {
        this.refuse = undefined;
      }
      if (refused && this.waiting.delete(id)) {
        resolve({ jsonrpc: '2.0', id: message.id, error: { code: -32600, message: `Invalid Request: ${refused.message}` } });
      }
    });
  }

  /** Errors the SDK server reports; one raised while a message is being taken in refuses that message. */
  reportError(error: Error): void {
    this.refuse?.(error);
  }

  notify(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    // A client's cancellation names its own id, which the server never saw: ignored (closing the request cancels it).
    if ('method' in message && message.method === 'notifications/cancelled') return;
    this.onmessage?.(message, extra);
  }
}

function reverseDns(hostname: string): string {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/[^a-zA-Z0-9.-]/g, '-');
  return /^[\d.]+$/.test(host) ? host : host.split('.').reverse().join('.');
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
