// `vitae mcp [--admin]`: the MCP server built from the operation list, over stdio, forwarding every tool
// call to the REST API through the HTTP client; the public one also serves the resources and prompts
// defined beside the operations, read through the same calls. stdout carries only JSON-RPC; notes go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ApiError, createClient, NetworkError } from '../operations/adapters/client.ts';
import { createMcpServer, plainErrors } from '../operations/adapters/mcp.ts';
import { operations } from '../operations/contract/index.ts';
import { prompts } from '../operations/contract/prompts.ts';
import { resources } from '../operations/contract/resources.ts';
import { userAgent } from './settings.ts';

export interface McpStdioOptions {
  url: string;
  token?: string;
  admin: boolean;
  fetch?: typeof fetch;
}

export async function serveMcpOverStdio(options: McpStdioOptions): Promise<void> {
  const ops = operations.filter((op) => op.auth === (options.admin ? 'admin' : 'public'));
  const client = createClient({ baseUrl: options.url, token: options.admin ? options.token : undefined, fetch: options.fetch, userAgent });
  const server = createMcpServer({
    name: await serverName(options),
    ops,
    call: (op, input) => client.call(op, input),
    errorBody: (error) => {
      if (error instanceof ApiError) return error.body;
      if (error instanceof NetworkError)
        return { code: 'unavailable', message: `${error.message}. Is the service running? Set SITE_URL (or --url) to its address.` };
      return undefined;
    },
    ...(options.admin ? {} : { resources, prompts }),
  });
  await server.connect(plainErrors(new StdioServerTransport()));
}

/** The site's short name from the discovery document, so the client shows the same name as the HTTP server; "vitae" if unreachable. */
async function serverName(options: McpStdioOptions): Promise<string> {
  try {
    const res = await (options.fetch ?? fetch)(`${options.url}/mcp${options.admin ? '/admin' : ''}`, {
      headers: { Accept: 'application/json', 'User-Agent': userAgent, ...(options.admin && options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
      signal: AbortSignal.timeout(3000),
    });
    const doc = (await res.json()) as { name?: unknown };
    if (res.ok && typeof doc.name === 'string' && doc.name) return doc.name;
  } catch {
    // The service may start after the MCP client launches us; tool calls report the failure then.
  }
  return 'vitae';
}
