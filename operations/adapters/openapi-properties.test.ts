// Property-based conformance to /openapi.json, the way Schemathesis checks a service: for every operation of
// the document, requests are generated from its declared parameters and body (fast-check), valid ones and
// ones broken on purpose, sent through real HTTP, and each answer is checked against the document: its
// status is one the operation declares, never a 5xx it does not, and its body matches the declared schema
// (the `Error` schema for errors). Invalid input must be refused with a documented 4xx.
// Seeded: a failure prints its seed and path; FC_SEED=<seed> reproduces it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { startTestService, type TestService } from '../../testing/service.ts';
import { contentGit } from '../../testing/content-git.ts';

type Json = Record<string, any>;

const TOKEN = 'properties-suite-token-0a1b2c3d4e5f';
const SEED = Number(process.env.FC_SEED ?? 20_261_124);
const RUNS = 12; // per operation and kind of request: the whole file stays within a few seconds

let service: TestService;
let doc: Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv); // formats (uri, date-time, email, int32) are checked, not ignored

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
  doc = await SwaggerParser.dereference(await (await service.get('/openapi.json')).json());
});
after(() => service.stop());

interface Operation {
  id: string;
  method: string;
  path: string;
  spec: Json;
  parameters: Json[];
  body?: Json;
}

const operationsOf = (document: Json): Operation[] =>
  Object.entries<Json>(document.paths).flatMap(([path, methods]) =>
    Object.entries<Json>(methods)
      .filter(([, spec]) => spec.operationId && spec['x-mcp-tool'])
      .map(([method, spec]) => ({
        id: spec.operationId as string,
        method: method.toUpperCase(),
        path,
        spec,
        parameters: (spec.parameters ?? []) as Json[],
        body: spec.requestBody?.content?.['application/json']?.schema as Json | undefined,
      })),
  );

/** Values a schema accepts: its enum, bounded integers, strings from its examples or of plain characters. */
function valid(schema: Json, examples: unknown[] = []): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...(choices as Json[]).filter((s) => s.type !== 'null').map((s) => valid(s, examples)));
  switch (schema.type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'boolean':
      return fc.boolean();
    case 'string': {
      if (schema.pattern || schema.format) return examples.length ? fc.constantFrom(...examples) : fc.constant('x');
      const plain = fc.stringMatching(/^[a-z0-9]{1,12}$/).filter((s) => s.length >= (schema.minLength ?? 0));
      return examples.length ? fc.oneof(fc.constantFrom(...examples), plain) : plain;
    }
    default:
      return fc.constant(undefined);
  }
}

/** A value the schema refuses, for a field that must be a string, integer or enum member. */
function invalid(schema: Json): fc.Arbitrary<string> {
  if (schema.enum) return fc.stringMatching(/^[A-Z]{1,8}$/).filter((s) => !(schema.enum as unknown[]).includes(s));
  if (schema.type === 'integer')
    return fc.constantFrom('0x10', '+5', '05', '-1', '1e1', '2.5', 'ten', String((schema.maximum ?? 1000) + 1), String((schema.minimum ?? 0) - 1));
  return fc.constant(''); // strings: an empty value where one is required is refused below only when minLength > 0
}

interface Generated {
  query: Record<string, string>;
  path: Record<string, string>;
  body?: unknown;
  /** What was broken on purpose, if anything. */
  broken?: string;
}

/** Requests that fit the document: every required parameter, some optional ones, values from the schemas. */
function validRequest(op: Operation): fc.Arbitrary<Generated> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of op.parameters) {
    const examples = Object.values<Json>(p.examples ?? {}).map((e) => e.value);
    const value = valid(p.schema as Json, examples).map((v) => (v === undefined ? undefined : String(v)));
    fields[`${p.in}:${p.name}`] = p.required ? value : fc.option(value, { nil: undefined });
  }
  return fc.record(fields).map((values) => {
    const request: Generated = { query: {}, path: {} };
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      const [where, name] = key.split(':') as ['query' | 'path', string];
      request[where][name] = value as string;
    }
    return request;
  });
}

/** Requests that break the document in one place: a bad value, a missing required parameter, a body of the wrong shape. */
function invalidRequest(op: Operation): fc.Arbitrary<Generated> | undefined {
  const breakable = op.parameters.filter((p) => p.in === 'query' && (p.schema.enum || p.schema.type === 'integer'));
  const required = op.parameters.filter((p) => p.in === 'query' && p.required);
  const options: Array<fc.Arbitrary<Generated>> = [];
  for (const p of breakable) {
    options.push(
      fc
        .tuple(validRequest(op), invalid(p.schema as Json))
        .map(([request, bad]) => ({ ...request, query: { ...request.query, [p.name]: bad }, broken: `${p.name}=${bad}` })),
    );
  }
  for (const p of required) {
    options.push(
      validRequest(op).map((request) => {
        const query = { ...request.query };
        delete query[p.name];
        return { ...request, query, broken: `no ${p.name}` };
      }),
    );
  }
  if (op.body) {
    const properties = Object.entries<Json>(op.body.properties ?? {});
    const requiredFields = (op.body.required ?? []) as string[];
    // A body that is not an object, or an object whose one field has a value of the wrong type: both are
    // refused whatever else the body holds, so no generated write can ever be carried out.
    options.push(fc.constantFrom<unknown>([], 'text', 42, null).map((body) => ({ query: {}, path: {}, body, broken: `body ${JSON.stringify(body)}` })));
    if (requiredFields.length && properties.length)
      options.push(
        fc.constantFrom(...properties.map(([name]) => name)).map((name) => ({
          query: {},
          path: {},
          body: { [name]: { not: 'this' } },
          broken: `${name} is an object, and ${requiredFields.join(', ')} may be missing`,
        })),
      );
  }
  return options.length ? fc.oneof(...options) : undefined;
}

async function send(op: Operation, request: Generated): Promise<{ status: number; body: unknown; text: string }> {
  let path = op.path;
  for (const p of op.parameters.filter((q) => q.in === 'path')) path = path.replace(`{${p.name}}`, encodeURIComponent(request.path[p.name] ?? 'x'));
  const query = new URLSearchParams(request.query).toString();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (op.spec.security) headers.Authorization = `Bearer ${TOKEN}`;
  let body: string | undefined;
  if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  const res = await fetch(`${service.url}${path}${query ? `?${query}` : ''}`, { method: op.method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: checked against the declared media type below
  }
  return { status: res.status, body: parsed, text };
}

/** The answer is one the operation declares, with a body of the declared schema. */
function conforms(op: Operation, request: Generated, answer: { status: number; body: unknown; text: string }): void {
  const what = `${op.method} ${op.path} ${JSON.stringify(request)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  assert.ok(answer.status < 500 || op.spec.responses[answer.status], `no undeclared 5xx: ${what}`);
  const declared = op.spec.responses[answer.status] ?? op.spec.responses.default;
  assert.ok(declared, `status ${answer.status} is declared: ${what}`);
  const schema = declared.content?.['application/json']?.schema as Json | undefined;
  if (!schema) return;
  const validate = ajv.compile(schema);
  assert.ok(validate(answer.body), `body matches the declared schema: ${what}\n${JSON.stringify(validate.errors)}`);
}

describe('every operation of /openapi.json answers as the document declares (property-based)', () => {
  it('for valid requests of every read operation, and the only write that changes nothing (validate)', async () => {
    const reads = operationsOf(doc).filter((op) => op.method === 'GET');
    assert.ok(reads.length >= 10, `${reads.length} read operations`);
    for (const op of reads) {
      await fc.assert(
        fc.asyncProperty(validRequest(op), async (request) => conforms(op, request, await send(op, request))),
        { seed: SEED, numRuns: RUNS },
      );
    }
    const validateOp = operationsOf(doc).find((op) => op.id === 'admin_validate')!;
    const validBody = fc.record({
      path: fc.constantFrom('content/skills/python.md', 'content/skills/new-skill.md', 'content/corpus/projects/concierge-copilot.md', 'content/site.json'),
      content: fc.oneof(fc.constant('---\nname: Python\ncategory: engineering\n---\nText.\n'), fc.string({ maxLength: 200 })),
    });
    await fc.assert(
      fc.asyncProperty(validBody, async (body) => {
        const request = { query: {}, path: {}, body };
        conforms(validateOp, request, await send(validateOp, request));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('refuses invalid requests to every operation with a documented 4xx and the Error body, and writes nothing', async () => {
    const head = contentGit(service.dataDir).head();
    const devHead = contentGit(service.dataDir).head('dev');
    let checked = 0;
    for (const op of operationsOf(doc)) {
      const requests = invalidRequest(op);
      if (!requests) continue;
      checked++;
      await fc.assert(
        fc.asyncProperty(requests, async (request) => {
          const answer = await send(op, request);
          conforms(op, request, answer);
          assert.ok(answer.status >= 400 && answer.status < 500, `refused (${request.broken}): ${answer.status} ${answer.text.slice(0, 200)}`);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
    assert.ok(checked >= 10, `${checked} operations have invalid requests to try`);
    assert.equal(contentGit(service.dataDir).head(), head, 'nothing was committed on main');
    assert.equal(contentGit(service.dataDir).head('dev'), devHead, 'nothing was committed on dev');
  });
});
