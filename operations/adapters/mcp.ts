// MCP servers generated from the operation list. The same builder serves `/mcp` and `/mcp/admin` over
// stateless Streamable HTTP (calling handlers in process) and `vitae mcp [--admin]` over stdio
// (forwarding calls to the REST API). No tool is written by hand; the public server also offers the
// resources and prompts defined beside the operations (contract/resources.ts, contract/prompts.ts),
// read through the same caller as the tools.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type JSONRPCMessage,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { AnyOperation } from '../contract/define.ts';
import { AppError, type ErrorBody } from '../contract/errors.ts';
import { parseInput, type InputError } from '../contract/issues.ts';
import type { PromptDef } from '../contract/prompts.ts';
import { matchUri, ResourceNotFound, type ReadOperation, type ResourceDef } from '../contract/resources.ts';
import { describeTools } from '../contract/tools.ts';

export { describeTools };

export const MCP_PROTOCOL_VERSION = '2025-06-18';
export const MCP_SERVER_VERSION = '1.1.0';
/**
 * Header versions accepted after initialisation: every version the SDK supports, over HTTP and stdio alike.
 * Initialisation always negotiates MCP_PROTOCOL_VERSION (SPEC), whatever the client asks for.
 */
export const MCP_ACCEPTED_HEADER_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
/** JSON-RPC code for a resource URI that names nothing (MCP specification, resources). */
export const RESOURCE_NOT_FOUND = -32002;

/** What a handler of the SDK server is told about the request: its abort signal, and over HTTP the caller's context (`authInfo`). */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Runs an operation with input its schema accepted; throws errors that carry an error body. */
export type ToolCaller = (op: AnyOperation, input: Record<string, unknown>, extra: McpRequestExtra) => Promise<unknown>;

/** Turns whatever a caller threw into the error body of DESIGN.md (AppError, or the client's ApiError). */
export type ErrorBodyOf = (error: unknown) => ErrorBody | undefined;

export interface McpServerOptions {
  name: string;
  ops: readonly AnyOperation[];
  call: ToolCaller;
  errorBody: ErrorBodyOf;
  /** Resources and prompts offered beside the tools (the public server's). */
  resources?: readonly ResourceDef[];
  prompts?: readonly PromptDef[];
}

// The validator (an Ajv instance) is costly to build, so every server shares one.
const sharedValidator = new AjvJsonSchemaValidator();

export function createMcpServer(options: McpServerOptions): Server {
  const byName = new Map(options.ops.map((op) => [op.name, op]));
  const tools = describeTools(options.ops);
  const resources = options.resources ?? [];
  const prompts = options.prompts ?? [];
  const serverInfo = { name: options.name, version: MCP_SERVER_VERSION };
  const capabilities = {
    tools: { listChanged: false },
    ...(resources.length ? { resources: { listChanged: false } } : {}),
    ...(prompts.length ? { prompts: { listChanged: false } } : {}),
    ...(resources.length || prompts.length ? { completions: {} } : {}),
  };
  const server = new Server(serverInfo, { capabilities, jsonSchemaValidator: sharedValidator });

  // One protocol version on every transport: whatever a client asks for, initialisation answers with ours.
  server.setRequestHandler(InitializeRequestSchema, async () => ({
    protocolVersion: MCP_PROTOCOL_VERSION,
    capabilities,
    serverInfo,
  }));

  /** Runs an operation for a resource or a prompt: input checked like a tool's, errors as JSON-RPC errors. */
  const readFor =
    (extra: McpRequestExtra, notFound: (message: string) => Error): ReadOperation =>
    async (op, raw) => {
      const input = checkedInput(op, raw);
      try {
        return (await options.call(op, input, extra)) as never;
      } catch (error) {
        const body = options.errorBody(error);
        if (!body) throw error;
        if (body.code === 'not_found') throw notFound(body.message);
        if (body.code === 'bad_request') throw invalidParams(body.message, body);
        throw rpcError(ErrorCode.InternalError, body.message, body);
      }
    };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const op = byName.get(request.params.name);
    if (!op) throw invalidParams(`Unknown tool "${request.params.name}". Call tools/list for the tools of this server.`);
    const input = checkedInput(op, request.params.arguments ?? {});
    try {
      const output = (await options.call(op, input, extra)) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    } catch (error) {
      const body = options.errorBody(error);
      if (!body) throw error;
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
  });

  if (resources.length) {
    const resourceNotFound = (message: string) => rpcError(RESOURCE_NOT_FOUND, message);
    server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
      const read = readFor(extra, resourceNotFound);
      const lists = await Promise.all(resources.map(async (def) => (await def.list(read)).map((r) => ({ ...r, mimeType: def.mimeType }))));
      return { resources: lists.flat() };
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: resources.map(({ name, title, description, uriTemplate, mimeType }) => ({ name, title, description, uriTemplate, mimeType })),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const { uri } = request.params;
      for (const def of resources) {
        const vars = matchUri(def.uriTemplate, uri);
        if (!vars) continue;
        try {
          const text = await def.read(vars, readFor(extra, resourceNotFound));
          return { contents: [{ uri, mimeType: def.mimeType, text }] };
        } catch (error) {
          if (error instanceof ResourceNotFound) throw resourceNotFound(error.message);
          throw error;
        }
      }
      throw resourceNotFound(`No resource at ${uri}. Call resources/templates/list for the URI templates of this server.`);
    });
  }

  if (prompts.length) {
    const byPrompt = new Map(prompts.map((p) => [p.name, p]));
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: prompts.map(({ name, title, description, arguments: args }) => ({
        name,
        title,
        description,
        arguments: Object.entries(args.shape).map(([argument, schema]) => ({
          name: argument,
          description: (schema as z.ZodType).description,
          required: !(schema as z.ZodType).safeParse(undefined).success,
        })),
      })),
    }));
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const prompt = byPrompt.get(request.params.name);
      if (!prompt) throw invalidParams(`Unknown prompt "${request.params.name}". Call prompts/list for the prompts of this server.`);
      let args: Record<string, unknown>;
      try {
        args = parseInput<z.ZodType<Record<string, unknown>>>(prompt.arguments, request.params.arguments ?? {});
      } catch (error) {
        const { message, problems } = error as InputError;
        throw invalidParams(message, { code: 'bad_request', errors: problems });
      }
      const messages = await prompt.render(
        args,
        readFor(extra, (message) => invalidParams(message, { code: 'not_found', message })),
      );
      return { description: prompt.description, messages };
    });
  }

  if (resources.length || prompts.length) {
    // Completion of the fixed vocabularies (locales, lens ids, document names) for prompt arguments and URI template variables.
    server.setRequestHandler(CompleteRequestSchema, async (request) => {
      const { ref, argument } = request.params;
      let values: readonly string[] = [];
      if (ref.type === 'ref/prompt') {
        const schema = byPromptName(prompts, ref.name)?.arguments.shape[argument.name] as z.ZodType | undefined;
        values = schema ? enumValues(schema) : [];
      } else if (ref.type === 'ref/resource') {
        values = resources.find((def) => def.uriTemplate === ref.uri)?.values?.[argument.name] ?? [];
      }
      const matching = values.filter((value) => value.startsWith(argument.value));
      return { completion: { values: matching.slice(0, 100), total: matching.length, hasMore: matching.length > 100 } };
    });
  }

  reportSchemaErrorsAsInvalidParams(server);
  return server;

  function checkedInput(op: AnyOperation, raw: unknown): Record<string, unknown> {
    try {
      return parseInput<z.ZodType<Record<string, unknown>>>(op.input, raw ?? {});
    } catch (error) {
      const { message, problems } = error as InputError;
      throw invalidParams(message, { code: 'bad_request', errors: problems });
    }
  }
}

const byPromptName = (prompts: readonly PromptDef[], name: string) => prompts.find((p) => p.name === name);

/** The options of a string enum, also through optional/default wrappers; none for other schemas. */
function enumValues(schema: z.ZodType): readonly string[] {
  let inner: unknown = schema;
  for (let i = 0; i < 5 && inner; i++) {
    const def = (inner as { def?: { type?: string; innerType?: unknown; entries?: Record<string, string> } }).def;
    if (def?.type === 'enum' && def.entries) return Object.values(def.entries);
    inner = def?.innerType;
  }
  return [];
}

/**
 * The SDK parses each request against its method's schema before the handler runs and lets a failure out
 * as a ZodError, which the protocol layer answers as -32603 (internal error). A malformed request is the
 * caller's: -32602 with the fields named. (Protocol keeps its handlers in `_requestHandlers`; the SDK version
 * is pinned in package.json, and the tests fail loudly should the field go away.)
 */
function reportSchemaErrorsAsInvalidParams(server: Server): void {
  type Handler = (request: unknown, extra: unknown) => Promise<unknown>;
  const handlers = (server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('@modelcontextprotocol/sdk: Protocol._requestHandlers is gone; update reportSchemaErrorsAsInvalidParams');
  for (const [method, handler] of handlers) {
    // The SDK's wrapper parses synchronously: start from a promise so that a throw there is caught too.
    handlers.set(method, (request, extra) =>
      Promise.resolve()
        .then(() => handler(request, extra))
        .catch((error: unknown) => {
          const issues = (error as { name?: string; issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
          if (!/^\$?ZodError$/.test((error as Error)?.name ?? '') || !Array.isArray(issues)) throw error;
          const fields = issues.map((issue) => `${issue.path.map(String).join('.') || '(request)'}: ${issue.message}`);
          throw invalidParams(`Invalid params for ${method}: ${fields.join('; ')}`);
        }),
    );
  }
}

/**
 * A JSON-RPC error. Not an McpError: its constructor prefixes "MCP error -32602:" to the message, and
 * clients prefix it again, so a person would read the code twice.
 */
function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data ? { data } : {}) });
}

const invalidParams = (message: string, data?: unknown) => rpcError(ErrorCode.InvalidParams, message, data);

const MCP_ERROR_PREFIX = /^(?:MCP error -?\d+: )+/;

/** An outgoing message with any "MCP error <code>: " prefix the SDK put in an error message taken off (the client adds its own). */
export function withoutErrorPrefix<M extends JSONRPCMessage>(message: M): M {
  if (!('error' in message) || !MCP_ERROR_PREFIX.test(message.error.message)) return message;
  return { ...message, error: { ...message.error, message: message.error.message.replace(MCP_ERROR_PREFIX, '') } };
}

/** A transport whose outgoing error messages carry no "MCP error …" prefix (the stdio server's). */
export function plainErrors<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(withoutErrorPrefix(message), options);
  return transport;
}

export const appErrorBody: ErrorBodyOf = (error) => (error instanceof AppError ? error.toBody() : undefined);
