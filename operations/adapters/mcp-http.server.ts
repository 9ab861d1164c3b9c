// `/mcp` and `/mcp/admin`: stateless Streamable HTTP, a new server and transport per request, JSON responses.
// Guards: browser Origin must be the site's own (DNS rebinding), Host must be ours when bound to loopback,
// bodies are size-limited, batches are refused, and the admin server needs the bearer token. Tool calls go
// through the same `invoke` pipeline as REST.
import type { ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AppError } from '../contract/errors.ts';
import { requireBearer } from '../server/auth.server.ts';
import type { Implementation } from '../server/implement.server.ts';
import type { Corpus, SiteUrls } from '../server/services.server.ts';
import { decodeUtf8, parseJson, readBody, requireJsonType, sendJson, type EdgeRequest, type Endpoint } from './edge.server.ts';
import { appErrorBody, createMcpServer, describeTools, MCP_ACCEPTED_HEADER_VERSIONS, MCP_PROTOCOL_VERSION, MCP_SERVER_VERSION } from './mcp.ts';

const MAX_MCP_BODY = 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, id: unknown = null) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export interface McpDeps {
  layer: Implementation;
  corpus: Corpus;
  urls: SiteUrls;
  adminToken: string;
  /** The address the service listens on; on loopback, requests must name a loopback host or the site's. */
  host: string;
}

export function mcpEndpoints({ layer, corpus, urls, adminToken, host: listenHost }: McpDeps): Endpoint[] {
  const surfaces = [
    { path: '/mcp', admin: false, ops: layer.operations.filter((op) => op.auth === 'public') },
    { path: '/mcp/admin', admin: true, ops: layer.operations.filter((op) => op.auth === 'admin') },
  ];

  async function handle(surface: (typeof surfaces)[number], { req, res, branch, method, ip }: EdgeRequest): Promise<void> {
    const siteOrigin = new URL(urls.of(branch)).origin;
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (LOOPBACK.has(listenHost) && !LOOPBACK.has(host) && host !== new URL(siteOrigin).hostname) {
      throw new AppError('forbidden', `Host "${host}" is not this server; MCP requests must address it by its own name.`);
    }
    const origin = req.headers.origin;
    if (origin && origin !== siteOrigin && origin !== `http://${req.headers.host}` && origin !== `https://${req.headers.host}`) {
      throw new AppError('forbidden', `Cross-origin MCP requests are not allowed (Origin ${origin}).`);
    }
    if (surface.admin) requireBearer(req.headers.authorization, adminToken);
    const name = corpus.build(branch).model.site.shortName;

    if (method === 'GET' || method === 'HEAD') {
      if (String(req.headers.accept ?? '').includes('text/event-stream')) {
        throw new AppError('method_not_allowed', 'This MCP server is stateless and has no server-to-client stream; POST JSON-RPC requests instead.', {
          headers: { Allow: 'GET, POST' },
        });
      }
      sendJson(
        req,
        res,
        200,
        {
          name,
          version: MCP_SERVER_VERSION,
          protocolVersion: MCP_PROTOCOL_VERSION,
          transport: 'streamable-http',
          endpoint: `${urls.of(branch)}${surface.path}`,
          auth: surface.admin ? 'bearer' : 'none',
          tools: describeTools(surface.ops).map(({ name: tool, description, inputSchema }) => ({ name: tool, description, inputSchema })),
        },
        { 'Cache-Control': 'no-store' },
      );
      return;
    }

    const headerVersion = req.headers['mcp-protocol-version'];
    if (typeof headerVersion === 'string' && !MCP_ACCEPTED_HEADER_VERSIONS.includes(headerVersion)) {
      return jsonRpcError(res, 400, -32600, `Unsupported MCP-Protocol-Version "${headerVersion}"; this server speaks ${MCP_PROTOCOL_VERSION}.`);
    }
    try {
      requireJsonType(req);
    } catch (error) {
      return jsonRpcError(res, 415, -32000, (error as AppError).message);
    }
    const bytes = await readBody(req, MAX_MCP_BODY);
    let message: unknown;
    try {
      message = parseJson(decodeUtf8(bytes));
    } catch (error) {
      // Not UTF-8, not JSON, or nested too deep: a parse error, never a stack overflow further in.
      return jsonRpcError(res, 400, -32700, `Parse error: ${(error as AppError).message}`);
    }
    if (Array.isArray(message)) {
      return jsonRpcError(res, 400, -32600, 'JSON-RPC batches are not supported (MCP 2025-06-18); send one request per POST.');
    }
    if (!isJsonRpc(message)) {
      // JSON, but not a JSON-RPC 2.0 message: an invalid request, not a parse error.
      return jsonRpcError(
        res,
        400,
        -32600,
        'Invalid Request: send one JSON-RPC 2.0 message, an object with "jsonrpc": "2.0" and a "method" (or a result or error).',
      );
    }
    // We speak one protocol version: whatever a client asks for, initialisation answers with ours.
    const body = message as { method?: string; params?: { protocolVersion?: string } };
    if (body?.method === 'initialize' && body.params && typeof body.params === 'object') body.params.protocolVersion = MCP_PROTOCOL_VERSION;

    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const principal = surface.admin ? ({ kind: 'admin', via: 'bearer' } as const) : ({ kind: 'anonymous' } as const);
    const server = createMcpServer({
      name,
      ops: surface.ops,
      errorBody: appErrorBody,
      call: async (op, input) => (await layer.invoke(op, input, { branch, ip, principal, signal: controller.signal })).output,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
      headers.set('accept', 'application/json, text/event-stream'); // stateless JSON mode; clients may omit one of the two
      headers.set('content-type', 'application/json');
      const request = new Request(`http://localhost${surface.path}`, { method: 'POST', headers, body: JSON.stringify(message) });
      const response = await transport.handleRequest(request, { parsedBody: message });
      const out = Buffer.from(await response.arrayBuffer());
      const outHeaders: Record<string, string> = {};
      response.headers.forEach((value, key) => (outHeaders[key] = value));
      res.writeHead(response.status, { ...outHeaders, 'Content-Length': String(out.length) });
      res.end(out);
    } finally {
      await transport.close();
    }
  }

  return surfaces.map((surface) => ({ methods: ['GET', 'POST'], path: surface.path, handle: (request: EdgeRequest) => handle(surface, request) }));
}

/** A JSON-RPC 2.0 request, notification or response, by its shape. */
function isJsonRpc(message: unknown): boolean {
  if (!message || typeof message !== 'object') return false;
  const m = message as Record<string, unknown>;
  return m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'result' in m || 'error' in m);
}
