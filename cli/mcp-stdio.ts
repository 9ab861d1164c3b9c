// `vitae mcp [--admin]`: the MCP server built from the operation list, over stdio, forwarding every tool
// call to the REST API through the HTTP client; the public one also serves the resources and prompts
// defined beside the operations, read through the same calls. stdout carries only JSON-RPC; notes go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ApiError, createClient, NetworkError } from '../operations/adapters/client.ts';
import { createMcpServer, plainErrors, serverInfoOf, type McpServerInfo } from '../operations/adapters/mcp.ts';
import { operations, type OutputOf } from '../operations/contract/index.ts';
import { isAppError } from '../operations/contract/errors.ts';
import { parseOperationInput } from '../operations/contract/issues.ts';
import { getSite } from '../operations/contract/public.ts';
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
    info: await serverInfo(client, options.admin),
    ops,
    // Arguments are checked here, as invoke checks them over HTTP: a refusal is answered without a round trip.
    call: (op, input) => client.call(op, parseOperationInput(op, input) as Record<string, unknown>),
    errorBody: (error) => {
      if (error instanceof ApiError) return error.body;
      // Arguments that address nothing (parsed here, as invoke parses them over HTTP).
      if (isAppError(error)) return error.toBody();
      if (error instanceof NetworkError)
        return { code: 'unavailable', message: `${error.message}. Is the service running? Set SITE_URL (or --url) to its address.` };
      return undefined;
    },
    ...(options.admin ? {} : { resources, prompts }),
  });
  await server.connect(plainErrors(new StdioServerTransport()));
}

/** What the site's own MCP server says of itself, so the client shows the same; the name "vitae" alone if the service is unreachable. */
async function serverInfo(client: ReturnType<typeof createClient>, admin: boolean): Promise<McpServerInfo> {
  try {
    return serverInfoOf(await client.call<OutputOf<typeof getSite>>(getSite, {}, { signal: AbortSignal.timeout(3000) }), admin);
  } catch {
    // The service may start after the MCP client launches us; tool calls report the failure then.
    return { name: 'vitae' };
  }
}
