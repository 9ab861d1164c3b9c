// The operation list is the single source of truth: every surface must agree with it, in both directions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { offeredOn, operations, operationsByName } from './index.ts';
import { describeTool } from './tools.ts';
import type { ErrorCode } from './errors.ts';
import { createOpenApiDocument } from '../adapters/openapi.ts';
import { operationEndpoints } from '../adapters/rest.server.ts';
import { anonymous } from '../server/implement.server.ts';

describe('the operation list', () => {
  it('has unique names, routes and CLI commands', () => {
    const unique = (xs: string[]) => assert.equal(new Set(xs).size, xs.length, `duplicates in ${xs}`);
    unique(operations.map((op) => op.name));
    unique(operations.map((op) => `${op.rest.method} ${op.rest.path}`));
    unique(operations.flatMap((op) => (op.cli ? [op.cli.split(/\s+[<[]/)[0]!] : [])));
  });

  it('offers every operation over REST, and on the CLI exactly when it has a usage there', () => {
    for (const op of operations) {
      assert.ok(offeredOn(op, 'rest'), op.name);
      assert.equal(op.cli !== undefined, offeredOn(op, 'cli'), op.name);
    }
  });

  it('keeps the chat’s stream and transcription for the site: REST only, neither MCP tools nor CLI commands', () => {
    for (const name of ['chat', 'transcribe']) {
      const op = operations.find((o) => o.name === name)!;
      assert.deepEqual(op.surfaces, ['rest'], name);
      assert.ok(op.needsModel && (op.errors as readonly ErrorCode[]).includes(op.needsModel), `${name} declares the error it is refused with`);
    }
  });

  it('names tools in snake_case, as MCP clients expect', () => {
    for (const op of operations) assert.match(op.name, /^[a-z]+(_[a-z]+)*$/);
  });

  it('gives every output schema an id, so OpenAPI can name it', () => {
    for (const op of operations) assert.ok(op.output.meta()?.id, op.name);
  });

  it('says what every change does: an operation behind PUT, DELETE or a commit declares its effect', () => {
    for (const op of operations) {
      if (op.rest.method === 'PUT' || op.rest.method === 'DELETE' || op.output.meta()?.id === 'CommitResult' || op.output.meta()?.id === 'PromoteResult')
        assert.ok(op.effect, `${op.name} changes the content but declares no effect`);
      if (op.rest.method === 'GET') assert.equal(op.effect, undefined, `${op.name} is a GET`);
    }
  });

  it('names, for a change that offers a dry run, an operation that changes nothing and takes the input it is given', () => {
    for (const op of operations) {
      if (!op.dryRun) continue;
      const preview = operationsByName.get(op.dryRun.operation);
      assert.ok(preview, `${op.name}: dry run ${op.dryRun.operation} is no operation`);
      assert.ok(op.effect && !preview.effect, `${op.name}: a dry run of a change changes nothing`);
      for (const field of Object.keys(op.dryRun.input ?? {})) assert.ok(field in preview.input.shape, `${op.name}: ${preview.name} takes ${field}`);
      if (op.dryRun.input) preview.input.parse(op.dryRun.input);
    }
  });

  it('says which answers a model writes: whatever may need a model is answered by one, annotated open-world and not idempotent', () => {
    for (const op of operations) {
      // An operation that cannot answer without a model says so; one that can (match_role's search-only form) need not.
      if ((op.errors as readonly ErrorCode[]).includes('chat_not_configured')) assert.equal(op.answeredByModel, true, op.name);
      const { readOnlyHint, idempotentHint, openWorldHint } = describeTool(op).annotations;
      if (op.answeredByModel)
        assert.deepEqual({ readOnlyHint, idempotentHint, openWorldHint }, { readOnlyHint: !op.effect, idempotentHint: false, openWorldHint: true }, op.name);
    }
  });

  it('binds every path parameter of a route to an input field', () => {
    for (const op of operations) {
      for (const [, name] of op.rest.path.matchAll(/\{(\w+)\}/g)) assert.ok(name! in op.input.shape, `${op.name}: {${name}}`);
    }
  });

  it('is what the REST routes and the OpenAPI paths are made of, and nothing else', () => {
    const layer = { operations, invoke: () => Promise.reject(new Error('not called')) };
    const endpoints = operationEndpoints({ layer, authenticate: () => anonymous });
    const routes = endpoints.flatMap((e) => e.methods.map((m) => `${m} ${e.path}`)).sort();
    const doc = createOpenApiDocument('http://x');
    const documented = Object.entries<any>(doc.paths)
      .flatMap(([path, methods]) => Object.entries<any>(methods).map(([m, o]) => ({ key: `${m.toUpperCase()} ${path}`, id: o.operationId })))
      .filter((o) => o.id !== 'health');
    assert.deepEqual(routes, operations.map((op) => `${op.rest.method} ${op.rest.path}`).sort());
    assert.deepEqual(documented.map((d) => d.key).sort(), routes);
    assert.deepEqual(documented.map((d) => d.id).sort(), operations.map((op) => op.name).sort());
  });
});
