// The OpenAPI 3.1 document, generated from the operation list and the very zod schemas that validate.
import { z } from 'zod';
import { answeredErrors, offeredOn, type AnyOperation, type RateLimitSpec } from '../contract/define.ts';
import { errorTable, type ErrorCode } from '../contract/errors.ts';
import { operations } from '../contract/index.ts';
import { ErrorBodySchema } from '../contract/shared.ts';

type Json = Record<string, any>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const noIds = z.registry();

function strip(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** An integer says its size, as OpenAPI readers expect: int32 when its bounds fit in one, else int64. */
function sized(json: Json): void {
  if (json.type !== 'integer' || json.format) return;
  json.format = json.minimum >= -(2 ** 31) && json.maximum <= 2 ** 31 - 1 ? 'int32' : 'int64';
}

/**
 * An operation's input as JSON Schema, inline (parameters and bodies read best that way): every part keeps its
 * metadata (a description, a text's media type) but not an id, which would make it a reference.
 */
function inputSchema(op: AnyOperation): Json {
  return inlineSchema(op.input, 'input');
}

/** A schema as JSON Schema with every part inline (see inputSchema). */
function inlineSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  return strip(
    z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      metadata: noIds,
      override: ({ zodSchema, jsonSchema }) => {
        const { id: _id, ...meta } = z.globalRegistry.get(zodSchema) ?? {};
        Object.assign(jsonSchema, meta);
        sized(jsonSchema);
      },
    } as Parameters<typeof z.toJSONSchema>[1]),
  );
}

const errorContent = { 'application/json': { schema: ref('Error') } };
const errorAnswer = (code: ErrorCode) => ({ description: `\`${code}\`: ${errorTable[code].summary}`, content: errorContent });

// The headers answers carry, as the edge and the rate limiter send them (edge.server.ts, rate-limit.server.ts).
const corsHeader = {
  'Access-Control-Allow-Origin': { description: 'Any origin may read the answer (CORS)', schema: { type: 'string', const: '*' } },
};
const retryAfterHeader = {
  'Retry-After': {
    description: 'Seconds until a request is accepted again',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86_400 },
  },
};
/** What an answer of a rate-limited operation says about the client's budget (draft-ietf-httpapi-ratelimit-headers). */
const budgetHeaders = (spec: RateLimitSpec) => ({
  RateLimit: {
    description: 'The budget left: requests in the window, those remaining, and seconds until it is whole again',
    schema: { type: 'string', maxLength: 80, pattern: '^limit=\\d+, remaining=\\d+, reset=\\d+$', examples: [`limit=${spec.points}, remaining=3, reset=42`] },
  },
  'RateLimit-Policy': {
    description: `${spec.points} requests per ${spec.windowSeconds} seconds per client address`,
    schema: { type: 'string', const: `${spec.points};w=${spec.windowSeconds}` },
  },
});

/** Endpoints that are not operations, described by their own declarations: path → method → OpenAPI operation. */
export type ExtraPaths = Record<string, Record<string, Json>>;

/** Who answers for the API: the subject of the site (content/site.json). */
export interface ApiContact {
  name: string;
  email?: string;
}

/** A loopback address (the default BASE_URL of a local run), which no reader elsewhere can reach. */
const isLoopback = (url: string) => {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
};

/** A string field's schema as a whole answer's: its description belongs to the field, not to the answer. */
function textSchema(field: Json | undefined): Json {
  const { description: _d, ...schema } = field ?? { type: 'string' };
  return schema;
}

/** A response's headers, when it has any. */
const withHeaders = (headers: Json) => (Object.keys(headers).length ? { headers } : {});

export function createOpenApiDocument(serverUrl: string, title = 'Vitae', extraPaths: ExtraPaths = {}, contact?: ApiContact): Json {
  // A local run (BASE_URL on loopback) names no host: the relative server `/` means "where this document was
  // fetched from", which is right for whoever reads it (a browser, a generator, a linter) and names no
  // localhost. A deployed site names its BASE_URL, so the document stays right when saved elsewhere.
  const local = isLoopback(serverUrl);
  // Every schema with a `meta({ id })` that an answer uses becomes a component, and references between
  // them point into components. (Only what the operations reach: the global registry may hold a second
  // copy of the contract, bundled into the web build.)
  // A text stream's answer is text, its status lines described inline: no JSON answer of it is a component.
  const jsonAnswers = operations.filter((op) => !op.rest.stream);
  const answers = z.object({
    Error: ErrorBodySchema,
    ...Object.fromEntries(jsonAnswers.map((op) => [op.name, op.output])),
    ...Object.fromEntries(jsonAnswers.flatMap((op) => (op.streams ? [[`${op.name}:events`, op.streams]] : []))),
  });
  const { $defs = {} } = z.toJSONSchema(answers, {
    io: 'output',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => sized(jsonSchema),
  }) as Json;
  const schemas: Json = JSON.parse(JSON.stringify($defs).replaceAll('"#/$defs/', '"#/components/schemas/'));
  const paths: Json = {};

  for (const op of operations) {
    const outputId = op.output.meta()?.id;
    if (!outputId) throw new Error(`Operation ${op.name}: its output schema needs meta({ id }) to appear in OpenAPI`);
    // Inputs are inlined; outputs reference components.
    const input = inputSchema(op);
    const required = new Set<string>(input.required ?? []);
    const pathParams = [...op.rest.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const from = op.rest.from ?? (op.rest.method === 'GET' ? 'query' : 'body');
    const parameters: Json[] = [];
    const bodyProps: Json = {};
    const bodyRequired: string[] = [];
    // The contract's valid examples, keyed for OpenAPI's `examples` maps.
    const examples: Array<{ key: string; summary: string; value: Json }> = (op.examples?.valid ?? []).map((example, i) => ({
      key: `example${i + 1}`,
      summary: example.summary,
      value: example.input,
    }));
    const examplesOf = (field: string) => {
      const withField = examples.filter((e) => e.value[field] !== undefined);
      return withField.length ? { examples: Object.fromEntries(withField.map((e) => [e.key, { summary: e.summary, value: e.value[field] }])) } : {};
    };
    for (const [field, schema] of Object.entries<Json>(input.properties ?? {})) {
      const restName = op.rest.rename?.[field] ?? field;
      const { description, ...fieldSchema } = schema;
      if (pathParams.includes(field)) parameters.push({ name: restName, in: 'path', required: true, description, schema: fieldSchema, ...examplesOf(field) });
      else if (from === 'query' || from === 'query+body')
        parameters.push({ name: restName, in: 'query', required: required.has(field), description, schema: fieldSchema, ...examplesOf(field) });
      if (!pathParams.includes(field) && from !== 'query') {
        bodyProps[field] = schema;
        if (required.has(field)) bodyRequired.push(field);
      }
    }

    // Public operations are read from any origin; a rate-limited one tells the client its budget on each success.
    const cors = op.auth === 'public' ? corsHeader : {};
    const budget = op.rateLimit ? budgetHeaders(op.rateLimit) : {};
    const successHeaders = { ...cors, ...budget };
    const responses: Json = {
      200: {
        description: op.summary,
        ...withHeaders(successHeaders),
        content:
          op.rest.stream === 'text-events'
            ? textEventsContent(op, schemas.Error)
            : {
                // The text representation served by default (the brief's Markdown) is the output's field of that name.
                ...(op.rest.text ? { [op.rest.text.mediaType.split(';')[0]!]: { schema: textSchema(schemas[outputId].properties[op.rest.text.field]) } } : {}),
                'application/json': { schema: ref(outputId) },
                ...(op.streams ? { 'application/x-ndjson': streamContent(op, outputId, schemas.Error) } : {}),
              },
      },
    };
    if (op.streams && !op.rest.stream)
      responses[200].description +=
        '. With `Accept: application/x-ndjson`, one JSON object per line as the work goes on, then `{"type":"done","output":…}` (or `{"type":"error",…}` when it fails after the first line).';
    if (op.pure) responses[304] = { description: 'Not modified: the `If-None-Match` ETag is still current.', ...withHeaders(cors) };
    addErrorResponses(op, responses, cors, budget);

    const operation: Json = {
      operationId: op.name,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.auth === 'admin' ? 'admin' : 'public'],
      ...(parameters.length ? { parameters } : {}),
      ...(Object.keys(bodyProps).length && op.rest.method !== 'GET'
        ? {
            requestBody: {
              required: bodyRequired.length > 0,
              content: {
                'application/json': {
                  schema: { type: 'object', properties: bodyProps, ...(bodyRequired.length ? { required: bodyRequired } : {}) },
                  ...(examples.length ? { examples: Object.fromEntries(examples.map((e) => [e.key, { summary: e.summary, value: e.value }])) } : {}),
                },
                ...(op.rest.multipart ? { 'multipart/form-data': multipartContent(op.rest.multipart, bodyProps, bodyRequired) } : {}),
              },
            },
          }
        : {}),
      responses,
      // Public operations say so explicitly (an empty requirement), so no reader has to guess.
      security: op.auth === 'admin' ? [{ bearerAuth: [] }] : [],
      // Where else the operation is offered: an MCP tool of the same name, a command of the CLI.
      ...(offeredOn(op, 'mcp') ? { 'x-mcp-tool': op.name } : {}),
      ...(offeredOn(op, 'cli') && op.cli ? { 'x-cli': `vitae ${op.cli}` } : {}),
    };
    const path = op.rest.path;
    paths[path] ??= {};
    paths[path][op.rest.method.toLowerCase()] = operation;
  }

  // Endpoints beside the operations describe themselves; what holds for all of them is filled in: they are
  // public unless they say otherwise, and the edge answers 405 (with the error body) for a method they do not accept.
  for (const [path, methods] of Object.entries(extraPaths)) {
    const described: Json = {};
    for (const [method, operation] of Object.entries(methods)) {
      const responses: Json = { ...operation.responses };
      if (!Object.keys(responses).some((status) => status.startsWith('4'))) responses[405] = errorAnswer('method_not_allowed');
      responses[500] ??= errorAnswer('internal');
      described[method] = { security: [], ...operation, responses };
    }
    paths[path] = { ...paths[path], ...described };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: `${title} — Vitae API`,
      version: '1.0.0',
      description:
        'Read the profile, search it and ask about it. Every operation but the site chat’s own (its stream and transcription) is also an MCP tool (`x-mcp-tool`) and a CLI command (`x-cli`).',
      contact: {
        name: contact?.name ?? title,
        ...(local ? {} : { url: serverUrl }),
        ...(contact?.email ? { email: contact.email } : {}),
      },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Every server is the public site (`x-internal: false`, as API inventories ask to be told).
    servers: [
      local ? { url: '/', description: 'The host that served this document (a local run)', 'x-internal': false } : { url: serverUrl, 'x-internal': false },
    ],
    tags: [
      { name: 'public', description: 'Public, read-only profile operations' },
      { name: 'admin', description: 'Content editing (bearer token)' },
      { name: 'service', description: 'Service endpoints' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' } },
    },
  };
}

/** The longest text stream described: its answer and status lines together. */
const TEXT_STREAM_MAX = 1_000_000;

/**
 * The answer of a `text-events` stream (the chat): `text/plain`, the answer as it is written with, when the request asks
 * for `events`, status lines between its pieces. `x-status-line` gives the schema of one status line's JSON object: an
 * event the operation reports (but `text`, which is the answer itself), the error that ends a failed answer, the done line.
 */
function textEventsContent(op: AnyOperation, error: Json): Json {
  if (!op.streams) throw new Error(`Operation ${op.name}: a text-events stream needs the schema of its events (streams)`);
  const events: Json = inlineSchema(op.streams, 'output');
  const statusEvents = (events.oneOf ?? events.anyOf ?? [events]).filter((event: Json) => event.properties?.type?.const !== 'text');
  const sources = inlineSchema((op.output as z.ZodObject).shape.sources as z.ZodType, 'output');
  return {
    'text/plain': {
      schema: {
        type: 'string',
        maxLength: TEXT_STREAM_MAX,
        contentMediaType: 'text/markdown',
        description:
          'The answer (Markdown) as it is written. With `"events": true`, status lines come between its pieces, each U+001E, one JSON object and a line break: ' +
          'the events other than `text` as they happen, `{"type":"error","message":…}` when the answer fails once begun, and last `{"type":"done","sources":[…]}`.',
      },
      'x-status-line': {
        oneOf: [
          ...statusEvents,
          {
            type: 'object',
            properties: { type: { const: 'error' }, message: error.properties.message },
            required: ['type', 'message'],
            additionalProperties: false,
          },
          { type: 'object', properties: { type: { const: 'done' }, sources }, required: ['type', 'sources'], additionalProperties: false },
        ],
      },
    },
  };
}

/** The lines an operation that streams sends: its progress events, then the output (or the error that stopped it). */
function streamContent(op: AnyOperation, outputId: string, error: Json): Json {
  const eventsId = op.streams!.meta()?.id;
  if (!eventsId) throw new Error(`Operation ${op.name}: its streams schema needs meta({ id }) to appear in OpenAPI`);
  return {
    schema: {
      description: 'The schema of each line',
      oneOf: [
        ref(eventsId),
        { type: 'object', properties: { type: { const: 'done' }, output: ref(outputId) }, required: ['type', 'output'], additionalProperties: false },
        {
          type: 'object',
          properties: { type: { const: 'error' }, code: error.properties.code, message: error.properties.message, errors: error.properties.errors },
          required: ['type', 'code', 'message'],
          additionalProperties: false,
        },
      ],
    },
  };
}

/**
 * Exactly the errors an operation answers with (`answeredErrors`: those it declares, and those its definition implies,
 * such as `internal` for any, 429 for a rate-limited one or one that checks a credential), each under its status. A
 * public read answered for the first time waits in the service-wide work queue, which refuses once full (503) and,
 * once half full, a client holding its share of it (429): both say when to retry.
 */
function addErrorResponses(op: AnyOperation, responses: Json, cors: Json, budget: Json): void {
  const queued = op.pure && op.auth === 'public';
  const codes = answeredErrors(op);
  for (const code of codes) {
    const status = errorTable[code].status;
    const { description = '', headers = {} } = responses[status] ?? {};
    responses[status] = {
      description: [description, `\`${code}\`: ${errorTable[code].summary}`].filter(Boolean).join(' '),
      ...withHeaders({
        ...headers,
        ...cors,
        ...(code === 'rate_limited' ? { ...retryAfterHeader, ...budget } : {}),
        ...(code === 'unavailable' && queued ? retryAfterHeader : {}),
      }),
      content: errorContent,
    };
  }
  if (codes.includes('repo_error'))
    responses[409] = {
      description: '`repo_error`: the branch moved under the request (stale sha, conflict).',
      ...withHeaders(cors),
      content: errorContent,
    };
}

/** The same body as a form upload: the fields as text parts, and the base64 field `into` as the file part `part` (its bytes). */
function multipartContent({ part, into }: { part: string; into: string }, bodyProps: Json, bodyRequired: string[]): Json {
  const { [into]: base64, ...fields } = bodyProps;
  const properties = {
    ...fields,
    [part]: {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      // The bytes the base64 field's longest value decodes to.
      ...(base64?.maxLength ? { maxLength: Math.floor((base64.maxLength * 3) / 4) } : {}),
      description: `${base64?.description ?? 'The file'}: here the bytes of a file part, not base64`,
    },
  };
  const required = bodyRequired.map((field) => (field === into ? part : field));
  return { schema: { type: 'object', properties, ...(required.length ? { required } : {}) } };
}
