// `/mcp` and `/mcp/admin`: stateless Streamable HTTP, a new server and transport per request, JSON responses.
// Guards: browser Origin must be the site's own (DNS rebinding), Host must be ours when bound to loopback,
// bodies are size-limited, batches are refused, and the admin server needs the bearer token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AppError } from '../contract/errors.ts';
import { operations } from '../contract/index.ts';
import type { Branch } from '../contract/shared.ts';
import { handlers } from '../server/handlers.server.ts';
import { requireBearer } from '../server/auth.server.ts';
import type { Runtime } from '../server/runtime.server.ts';
import { clientIp } from './client-ip.server.ts';
import { readBody, sendError, sendJson } from './http.server.ts';
import { appErrorBody, createMcpServer, describeTools, MCP_ACCEPTED_HEADER_VERSIONS, MCP_PROTOCOL_VERSION, MCP_SERVER_VERSION } from './mcp.ts';

const MAX_MCP_BODY = 1024 * 1024;

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, id: unknown = null) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function createMcpHandler(runtime: Runtime, branch: Branch) {
  const siteOrigin = new URL(runtime.siteUrl(branch)).origin;
  const surfaces = {
    '/mcp': { admin: false, ops: operations.filter((op) => op.auth === 'public') },
    '/mcp/admin': { admin: true, ops: operations.filter((op) => op.auth === 'admin') },
  } as const;

  return async function handleMcp(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    const surface = surfaces[pathname.replace(/\/$/, '') as keyof typeof surfaces];
    if (!surface) return false;
    try {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      if (LOOPBACK.has(runtime.config.HOST) && !LOOPBACK.has(host) && host !== new URL(siteOrigin).hostname) {
        throw new AppError('forbidden', `Host "${host}" is not this server; MCP requests must address it by its own name.`);
      }
      const origin = req.headers.origin;
      if (origin && origin !== siteOrigin && origin !== `http://${req.headers.host}` && origin !== `https://${req.headers.host}`) {
        throw new AppError('forbidden', `Cross-origin MCP requests are not allowed (Origin ${origin}).`);
      }
      if (surface.admin) requireBearer(req, runtime.adminToken);

      const method = req.method ?? 'GET';
      if (method === 'GET') {
        if (String(req.headers.accept ?? '').includes('text/event-stream')) {
          throw new AppError('method_not_allowed', 'This MCP server is stateless and has no server-to-client stream; POST JSON-RPC requests instead.', { headers: { Allow: 'GET, POST' } });
        }
        sendJson(req, res, 200, {
          name: runtime.build(branch).model.site.shortName,
          version: MCP_SERVER_VERSION,
          protocolVersion: MCP_PROTOCOL_VERSION,
          transport: 'streamable-http',
          endpoint: `${runtime.siteUrl(branch)}${pathname.replace(/\/$/, '')}`,
          auth: surface.admin ? 'bearer' : 'none',
          tools: describeTools(surface.ops).map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        }, { 'Cache-Control': 'no-store' });
        return true;
      }
      if (method !== 'POST') throw new AppError('method_not_allowed', `${pathname} accepts GET (discovery) and POST (JSON-RPC).`, { headers: { Allow: 'GET, POST' } });

      const headerVersion = req.headers['mcp-protocol-version'];
      if (typeof headerVersion === 'string' && !MCP_ACCEPTED_HEADER_VERSIONS.includes(headerVersion)) {
        jsonRpcError(res, 400, -32600, `Unsupported MCP-Protocol-Version "${headerVersion}"; this server speaks ${MCP_PROTOCOL_VERSION}.`);
        return true;
      }
      let message: unknown;
      try {
        message = JSON.parse((await readBody(req, MAX_MCP_BODY)).toString('utf8'));
      } catch (error) {
        if (error instanceof AppError) throw error;
        jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
        return true;
      }
      if (Array.isArray(message)) {
        jsonRpcError(res, 400, -32600, 'JSON-RPC batches are not supported (MCP 2025-06-18); send one request per POST.');
        return true;
      }
      // We speak one protocol version: whatever a client asks for, initialisation answers with ours.
      const body = message as { method?: string; params?: { protocolVersion?: string } };
      if (body?.method === 'initialize' && body.params && typeof body.params === 'object') body.params.protocolVersion = MCP_PROTOCOL_VERSION;

      const ctx = { runtime, branch, clientIp: clientIp(req, runtime.config.TRUST_PROXY) };
      const server = createMcpServer({
        name: runtime.build(branch).model.site.shortName,
        ops: surface.ops,
        errorBody: appErrorBody,
        call: async (op, input) => {
          // The same budget as REST: one client IP, one bucket, whichever door the call comes through.
          if (op.rateLimit) await runtime.rateLimits.consume(op.rateLimit, ctx.clientIp);
          return handlers[op.name]!(input, { ...ctx, build: runtime.build(branch) });
        },
      });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        const headers = new Headers();
        for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
        headers.set('accept', 'application/json, text/event-stream'); // stateless JSON mode; clients may omit one of the two
        headers.set('content-type', 'application/json');
        const request = new Request(`http://localhost${pathname}`, { method: 'POST', headers, body: JSON.stringify(message) });
        const response = await transport.handleRequest(request, { parsedBody: message });
        const out = Buffer.from(await response.arrayBuffer());
        const outHeaders: Record<string, string> = {};
        response.headers.forEach((value, key) => (outHeaders[key] = value));
        res.writeHead(response.status, { ...outHeaders, 'Content-Length': String(out.length) });
        res.end(out);
      } finally {
        await transport.close();
      }
      return true;
    } catch (error) {
      sendError(req, res, error);
      return true;
    }
  };
}
