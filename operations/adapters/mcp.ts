// MCP servers generated from the operation list. The same builder serves `/mcp` and `/mcp/admin` over
// stateless Streamable HTTP (calling handlers in process) and `vitae mcp [--admin]` over stdio
// (forwarding calls to the REST API). No tool is written by hand; the public server also offers the
// resources and prompts defined beside the operations (contract/resources.ts, contract/prompts.ts),
// read through the same caller as the tools. It speaks 2025-06-18, the version the README names, and
// 2025-11-25 to a client that asks for it; errors name tools, never REST routes.
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
  type CallToolResult,
  type JSONRPCMessage,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { offeredOn, type AnyOperation } from '../contract/define.ts';
import { AppError, type ErrorBody } from '../contract/errors.ts';
import { InputError, parseInput } from '../contract/issues.ts';
import type { PromptDef } from '../contract/prompts.ts';
import { matchUri, ResourceNotFound, type ReadOperation, type ResourceDef } from '../contract/resources.ts';
import { rewordRoutes } from '../contract/routes.ts';
import { describeTools as describeEachTool } from '../contract/tools.ts';

/** The tools among `ops`: the operations offered on MCP (`surfaces`: the chat's stream and transcription are not), described. */
export const describeTools = (ops: readonly AnyOperation[]) => describeEachTool(ops.filter((op) => offeredOn(op, 'mcp')));

/** The protocol version the README names ("MCP"): the answer to a client that asks for any version but the newer one. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';
/** The versions this server speaks, newest first; no other is negotiated, nor accepted in MCP-Protocol-Version. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', MCP_PROTOCOL_VERSION] as const;
export type McpProtocolVersion = (typeof MCP_PROTOCOL_VERSIONS)[number];
/** The MCP servers' version, SPEC's (its table of versions): the MCP interface's, not the product's (package.json, /api/health). */
export const MCP_SERVER_VERSION = '1.1.0';

export const isMcpProtocolVersion = (version: unknown): version is McpProtocolVersion => (MCP_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);

/**
 * The version initialisation answers: the one asked for when this server speaks it, else SPEC's. The MCP
 * lifecycle lets a server answer another version it supports (it suggests its latest; SPEC names 2025-06-18,
 * which every client of 2025-06-18 or later speaks); a client that cannot speak it disconnects.
 */
export const negotiatedVersion = (asked: unknown): McpProtocolVersion => (isMcpProtocolVersion(asked) ? asked : MCP_PROTOCOL_VERSION);

/** 2025-11-25 (SEP-1303): arguments a tool refuses are a tool result with `isError`, which the model sees and can correct, not a protocol error its client keeps. */
const inputErrorsAsResults = (version: McpProtocolVersion) => version >= '2025-11-25';
/** JSON-RPC code for a resource URI that names nothing (MCP specification, resources). */
export const RESOURCE_NOT_FOUND = -32002;

/** What a handler of the SDK server is told about the request: its abort signal, and over HTTP the caller's context (`authInfo`). */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Runs an operation with the arguments as the client sent them: the caller parses them once with the operation's
 * schema (`invoke` over HTTP, the stdio server before its request) and throws InputError when they are refused, or
 * errors that carry an error body.
 */
export type ToolCaller = (op: AnyOperation, input: unknown, extra: McpRequestExtra) => Promise<unknown>;

/** Turns whatever a caller threw (AppError, or the client's ApiError) into the error body, `ErrorBody` of contract/errors.ts. */
export type ErrorBodyOf = (error: unknown) => ErrorBody | undefined;

/** What the server says of itself at initialisation (`serverInfo`); `description` and `websiteUrl` from 2025-11-25. */
export interface McpServerInfo {
  name: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
}

/** What the server of a site says of itself: the same words over HTTP and stdio, and in its server card. */
export function serverInfoOf(site: { name: string; shortName: string; url: string }, admin: boolean): Required<McpServerInfo> {
  const description = admin
    ? `Edits the content of ${site.name} through validated commits, and follows deploys.`
    : `The professional profile of ${site.name}: brief, entries, role lenses, documents, search, questions.`;
  return { name: site.shortName, title: admin ? `${site.name} (admin)` : site.name, description, websiteUrl: site.url };
}

/**
 * What a server offers at initialisation (and its card says). `logging`: a client may set the level of the log
 * messages it wants (`logging/setLevel`, which the SDK answers once this is declared); the server has none to
 * send today, which the specification allows (a server MAY send them), and a client that sets a level is not
 * told "method not found".
 */
export function mcpCapabilities(resources: boolean, prompts: boolean) {
  return {
    tools: { listChanged: false },
    logging: {},
    ...(resources ? { resources: { listChanged: false } } : {}),
    ...(prompts ? { prompts: { listChanged: false } } : {}),
    ...(resources || prompts ? { completions: {} } : {}),
  };
}

export interface McpServerOptions {
  info: McpServerInfo;
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
  const byName = new Map(options.ops.filter((op) => offeredOn(op, 'mcp')).map((op) => [op.name, op]));
  const tools = describeTools(options.ops);
  const resources = options.resources ?? [];
  const prompts = options.prompts ?? [];
  const { name, title, description, websiteUrl } = options.info;
  const serverInfo = { name, ...(title ? { title } : {}), version: MCP_SERVER_VERSION };
  const capabilities = mcpCapabilities(resources.length > 0, prompts.length > 0);
  const server = new Server(serverInfo, { capabilities, jsonSchemaValidator: sharedValidator });

  // Over stdio one client holds the process: the version its initialisation negotiated rules the session.
  let sessionVersion: McpProtocolVersion = MCP_PROTOCOL_VERSION;
  /**
   * The version a request is answered under. Over HTTP (the only transport that gives handlers `requestInfo`)
   * clients share this server, so each request names its version in MCP-Protocol-Version, as clients must
   * after initialisation (the edge has refused versions not ours); without it, the rules before 2025-11-25
   * (the transport specification has a server assume 2025-03-26).
   */
  const versionOf = (extra: McpRequestExtra): McpProtocolVersion => {
    if (!extra.requestInfo) return sessionVersion;
    const header = extra.requestInfo.headers['mcp-protocol-version'];
    return isMcpProtocolVersion(header) ? header : MCP_PROTOCOL_VERSION;
  };

  server.setRequestHandler(InitializeRequestSchema, async (request, extra) => {
    const protocolVersion = negotiatedVersion(request.params.protocolVersion);
    if (!extra.requestInfo) sessionVersion = protocolVersion;
    const later = protocolVersion >= '2025-11-25' ? { ...(description ? { description } : {}), ...(websiteUrl ? { websiteUrl } : {}) } : {};
    return { protocolVersion, capabilities, serverInfo: { ...serverInfo, ...later } };
  });

  /** The error body of what a caller threw, in MCP's words: a hint naming a REST route names its tool instead. */
  const bodyOf = (error: unknown): ErrorBody | undefined => {
    const body = options.errorBody(error);
    return body && { ...body, message: rewordRoutes(body.message, ({ op }) => `the \`${op.name}\` tool`) };
  };

  /** Runs an operation for a resource or a prompt: input checked like a tool's, errors as JSON-RPC errors. */
  const readFor =
    (extra: McpRequestExtra, notFound: (message: string) => Error): ReadOperation =>
    async (op, raw) => {
      try {
        return (await options.call(op, raw ?? {}, extra)) as never;
      } catch (error) {
        if (error instanceof InputError) throw asInvalidParams(error);
        const body = bodyOf(error);
        if (!body) throw error;
        if (body.code === 'not_found') throw notFound(body.message);
        if (body.code === 'bad_request') throw invalidParams(body.message, body);
        throw rpcError(ErrorCode.InternalError, body.message, body);
      }
    };
  const toolError = (body: ErrorBody): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const op = byName.get(request.params.name);
    if (!op) throw invalidParams(`Unknown tool "${request.params.name}". Call tools/list for the tools of this server.`);
    try {
      const output = (await options.call(op, request.params.arguments ?? {}, extra)) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    } catch (error) {
      // Arguments the operation's schema refused (parsed once, by whoever carries the call out).
      if (error instanceof InputError) {
        if (inputErrorsAsResults(versionOf(extra))) return toolError(error.toBody());
        throw asInvalidParams(error);
      }
      const body = bodyOf(error);
      if (!body) throw error;
      return toolError(body);
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
    // Completion of prompt arguments and URI template variables: a fixed vocabulary (locales, lens ids, document names)
    // from its schema or template, else the values its template's resources have on this branch (entries' slugs).
    server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
      const { ref, argument } = request.params;
      let values: readonly string[] = [];
      if (ref.type === 'ref/prompt') {
        const prompt = byPromptName(prompts, ref.name);
        const schema = prompt?.arguments.shape[argument.name] as z.ZodType | undefined;
        const listed = prompt?.listedBy?.[argument.name];
        values = listed ? await listedValues(listed.resource, listed.variable, readFor(extra, invalidParams)) : schema ? enumValues(schema) : [];
      } else if (ref.type === 'ref/resource') {
        const def = resources.find((d) => d.uriTemplate === ref.uri);
        const fixed = def?.values?.[argument.name];
        values = fixed ?? (def ? await listedValues(def, argument.name, readFor(extra, invalidParams)) : []);
      }
      const matching = values.filter((value) => value.startsWith(argument.value));
      return { completion: { values: matching.slice(0, 100), total: matching.length, hasMore: matching.length > 100 } };
    });
  }

  reportSchemaErrorsAsInvalidParams(server);
  return server;
}

/** Arguments an operation's schema refused, as -32602 naming each field; any other error as it is. */
const asInvalidParams = (error: unknown) =>
  error instanceof InputError ? invalidParams(error.message, { code: 'bad_request', errors: error.problems }) : error;

const byPromptName = (prompts: readonly PromptDef[], name: string) => prompts.find((p) => p.name === name);

/** The values `variable` takes in the resources `def` lists (each entry's slug), in their order, once each. */
async function listedValues(def: ResourceDef, variable: string, read: ReadOperation): Promise<string[]> {
  const listed = await def.list(read);
  return [...new Set(listed.map((r) => matchUri(def.uriTemplate, r.uri)?.[variable]).filter((v): v is string => v !== undefined && v !== ''))];
}

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
