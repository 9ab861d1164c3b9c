// The OpenAPI 3.1 document, generated from the operation list and the very zod schemas that validate.
import { z } from 'zod';
import { errorTable } from '../contract/errors.ts';
import { operations } from '../contract/index.ts';
import { ErrorBodySchema } from '../contract/shared.ts';

type Json = Record<string, any>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const inlineAll = z.registry();

function strip(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

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

export function createOpenApiDocument(serverUrl: string, title = 'Vitae', extraPaths: ExtraPaths = {}, contact?: ApiContact): Json {
  // A local run (BASE_URL on loopback) names no host: the relative server `/` means "where this document was
  // fetched from", which is right for whoever reads it (a browser, a generator, a linter) and names no
  // localhost. A deployed site names its BASE_URL, so the document stays right when saved elsewhere.
  const local = isLoopback(serverUrl);
  // Every schema with a `meta({ id })` that an answer uses becomes a component, and references between
  // them point into components. (Only what the operations reach: the global registry may hold a second
  // copy of the contract, bundled into the web build.)
  const answers = z.object({ Error: ErrorBodySchema, ...Object.fromEntries(operations.map((op) => [op.name, op.output])) });
  const { $defs = {} } = z.toJSONSchema(answers, { io: 'output', unrepresentable: 'any' }) as Json;
  const schemas: Json = JSON.parse(JSON.stringify($defs).replaceAll('"#/$defs/', '"#/components/schemas/'));
  const paths: Json = {};

  for (const op of operations) {
    const outputId = op.output.meta()?.id;
    if (!outputId) throw new Error(`Operation ${op.name}: its output schema needs meta({ id }) to appear in OpenAPI`);
    // Inputs are inlined (parameters and bodies read best that way); outputs reference components.
    const input = strip(z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any', metadata: inlineAll } as Parameters<typeof z.toJSONSchema>[1]));
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

    const responses: Json = {
      200: {
        description: op.summary,
        content: {
          ...(op.rest.text ? { [op.rest.text.mediaType.split(';')[0]!]: { schema: { type: 'string' } } } : {}),
          'application/json': { schema: ref(outputId) },
        },
      },
    };
    if (op.pure) responses[304] = { description: 'Not modified: the `If-None-Match` ETag is still current.' };
    for (const code of op.errors) {
      const status = errorTable[code].status;
      const entry = (responses[status] ??= { description: '', content: { 'application/json': { schema: ref('Error') } } });
      entry.description = [entry.description, `\`${code}\`: ${errorTable[code].summary}`].filter(Boolean).join(' ');
    }
    if (op.errors.includes('repo_error'))
      responses[409] = {
        description: '`repo_error`: the branch moved under the request (stale sha, conflict).',
        content: { 'application/json': { schema: ref('Error') } },
      };

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
              },
            },
          }
        : {}),
      responses,
      // Public operations say so explicitly (an empty requirement), so no reader has to guess.
      security: op.auth === 'admin' ? [{ bearerAuth: [] }] : [],
      'x-mcp-tool': op.name,
      'x-cli': `vitae ${op.cli}`,
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
      if (!Object.keys(responses).some((status) => status.startsWith('4')))
        responses[405] = {
          description: `\`method_not_allowed\`: ${errorTable.method_not_allowed.summary}`,
          content: { 'application/json': { schema: ref('Error') } },
        };
      described[method] = { security: [], ...operation, responses };
    }
    paths[path] = { ...paths[path], ...described };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: `${title} — Vitae API`,
      version: '1.0.0',
      description: 'Read the profile, search it and ask about it. Every operation is also an MCP tool (`x-mcp-tool`) and a CLI command (`x-cli`).',
      contact: {
        name: contact?.name ?? title,
        ...(local ? {} : { url: serverUrl }),
        ...(contact?.email ? { email: contact.email } : {}),
      },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [local ? { url: '/', description: 'The host that served this document (a local run)' } : { url: serverUrl }],
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
