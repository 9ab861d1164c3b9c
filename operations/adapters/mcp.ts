// MCP servers generated from the operation list. The same builder serves `/mcp` and `/mcp/admin` over
// stateless Streamable HTTP (calling handlers in process) and `vitae mcp [--admin]` over stdio
// (forwarding calls to the REST API). No tool is written by hand.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { AnyOperation } from '../contract/define.ts';
import { AppError, type ErrorBody } from '../contract/errors.ts';
import { parseInput, type InputError } from '../contract/issues.ts';
import { describeTools } from '../contract/tools.ts';

export { describeTools };

export const MCP_PROTOCOL_VERSION = '2025-06-18';
export const MCP_SERVER_VERSION = '1.1.0';
/**
 * Header versions accepted after initialisation: every version the SDK supports, as the stdio server (the
 * SDK's own check) does, so a client is not refused over HTTP what it is allowed over stdio. Initialisation
 * always negotiates MCP_PROTOCOL_VERSION.
 */
export const MCP_ACCEPTED_HEADER_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** Runs an operation with input its schema accepted; throws errors that carry an error body. */
export type ToolCaller = (op: AnyOperation, input: Record<string, unknown>) => Promise<unknown>;

/** Turns whatever a caller threw into the error body of DESIGN.md (AppError, or the client's ApiError). */
export type ErrorBodyOf = (error: unknown) => ErrorBody | undefined;

// A server is made per request (stateless); the validator (an Ajv instance) is costly to build, so all share one.
const sharedValidator = new AjvJsonSchemaValidator();

export function createMcpServer(options: { name: string; ops: readonly AnyOperation[]; call: ToolCaller; errorBody: ErrorBodyOf }): Server {
  const byName = new Map(options.ops.map((op) => [op.name, op]));
  const tools = describeTools(options.ops);
  const server = new Server(
    { name: options.name, version: MCP_SERVER_VERSION },
    { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: sharedValidator },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const op = byName.get(request.params.name);
    if (!op) throw invalidParams(`Unknown tool "${request.params.name}". Call tools/list for the tools of this server.`);
    let input: Record<string, unknown>;
    try {
      input = parseInput<z.ZodType<Record<string, unknown>>>(op.input, request.params.arguments ?? {});
    } catch (error) {
      const { message, problems } = error as InputError;
      throw invalidParams(message, { code: 'bad_request', errors: problems });
    }
    try {
      const output = (await options.call(op, input)) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    } catch (error) {
      const body = options.errorBody(error);
      if (!body) throw error;
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
  });
  return server;
}

/**
 * A JSON-RPC "invalid params" error. Not an McpError: its constructor prefixes "MCP error -32602:" to the
 * message, and clients prefix it again, so a person would read the code twice.
 */
function invalidParams(message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams, ...(data ? { data } : {}) });
}

export const appErrorBody: ErrorBodyOf = (error) => (error instanceof AppError ? error.toBody() : undefined);
