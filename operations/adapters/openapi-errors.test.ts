// /openapi.json lists exactly the errors each operation answers with: those its definition declares and those the
// rest of its definition implies (`answeredErrors`), no more and no fewer, each under its own status.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answeredErrors } from '../contract/define.ts';
import { errorTable, type ErrorCode } from '../contract/errors.ts';
import { operations } from '../contract/index.ts';
import { createOpenApiDocument } from './openapi.ts';

const doc = createOpenApiDocument('https://vitae.example');

/** The error codes an operation's responses name (each description says `code`: summary), by status. */
function documented(responses: Record<string, { description: string }>): Map<ErrorCode, string[]> {
  const codes = new Map<ErrorCode, string[]>();
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) < 400) continue;
    for (const [, code] of response.description.matchAll(/`([a-z_]+)`:/g)) {
      if (code! in errorTable) codes.set(code as ErrorCode, [...(codes.get(code as ErrorCode) ?? []), status]);
    }
  }
  return codes;
}

describe('the errors of /openapi.json', () => {
  it('are exactly those each operation declares or implies, each under its status', () => {
    for (const op of operations) {
      const codes = documented(doc.paths[op.rest.path][op.rest.method.toLowerCase()].responses);
      assert.deepEqual([...codes.keys()].sort(), [...answeredErrors(op)].sort(), op.name);
      for (const [code, statuses] of codes) {
        // A repository's refusal is 502, or 409 when the branch moved under the request.
        const expected = code === 'repo_error' ? ['409', '502'] : [String(errorTable[code].status)];
        assert.deepEqual(statuses.sort(), expected, `${op.name} ${code}`);
      }
    }
  });

  it('lists the declared ones and the implied ones: the admin write, refused for its role, its credentials or its body', () => {
    const write = operations.find((op) => op.name === 'admin_write_file')!;
    const codes = documented(doc.paths[write.rest.path][write.rest.method.toLowerCase()].responses);
    for (const code of [
      'unauthorized',
      'forbidden',
      'forbidden_path',
      'invalid',
      'rate_limited',
      'payload_too_large',
      'unsupported_media_type',
      'internal',
    ] as const)
      assert.ok(codes.has(code), code);
    assert.ok(!codes.has('not_found'), 'a write names no resource by its path');
  });
});
