// A handler refuses only with the errors its operation answers with (declared, or implied by its definition:
// `answeredErrors`). In development and tests `invoke` turns any other into a logged 500 naming the operation and the
// code, so the test that met it fails; the compiler already refuses one raised through `ctx.refuse`
// (implement.typecheck.test.ts), this catches those from shared code (the repository, the models).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answeredErrors, implicitErrors } from '../contract/define.ts';
import { AppError, type ErrorCode } from '../contract/errors.ts';
import { operations } from '../contract/index.ts';
import { getBrief, getEntry } from '../contract/public.ts';
import { anonymous, implement } from './implement.server.ts';

/** get_brief and get_entry behind `invoke`, each handler throwing `code` (as shared code would). */
function throwing(code: ErrorCode, checkOutputs = true) {
  const logged: string[] = [];
  const fail = () => {
    throw new AppError(code, `a ${code} from below`);
  };
  const implementation = implement(
    [getBrief, getEntry] as const,
    { get_brief: fail, get_entry: fail },
    { rateLimits: { consume: async () => ({ headers: {} }) }, checkOutputs, logError: (message) => logged.push(message) },
  );
  const call = (op: typeof getBrief | typeof getEntry, input: unknown) =>
    implementation.invoke(op, input, { branch: 'main', ip: '127.0.0.1', principal: anonymous }).then(
      () => assert.fail('the call succeeded'),
      (error: AppError) => error,
    );
  return { call, logged };
}

describe('the errors a handler raises', () => {
  it('pass through when the operation declares them, or its definition implies them', async () => {
    const declared = throwing('not_found');
    assert.equal((await declared.call(getEntry, { slug: 'x' })).code, 'not_found');
    const implied = throwing('bad_request');
    assert.equal((await implied.call(getBrief, {})).code, 'bad_request');
    assert.deepEqual([...declared.logged, ...implied.logged], []);
  });

  it('are a logged 500 naming the operation and the code when it does not (development and tests)', async () => {
    const { call, logged } = throwing('repo_error');
    const error = await call(getBrief, {});
    assert.equal(error.code, 'internal');
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /get_brief raised `repo_error`, which its definition does not declare \(errors: bad_request\)/);
    // get_entry declares not_found but not this either.
    assert.equal((await call(getEntry, { slug: 'x' })).code, 'internal');
  });

  it('are left as they are in production (checkOutputs off)', async () => {
    const { call, logged } = throwing('repo_error', false);
    assert.equal((await call(getBrief, {})).code, 'repo_error');
    assert.deepEqual(logged, []);
  });

  it('include what the definition implies, from its auth, role, body, path, limits and model', () => {
    const named = (name: string) => operations.find((op) => op.name === name)!;
    const has = (name: string, codes: ErrorCode[]) => {
      for (const code of codes) assert.ok(implicitErrors(named(name)).includes(code), `${name} implies ${code}`);
    };
    has('get_brief', ['bad_request', 'internal', 'rate_limited', 'unavailable']);
    has('get_entry', ['not_found']);
    has('chat', ['payload_too_large', 'unsupported_media_type', 'rate_limited', 'chat_not_configured', 'unavailable']);
    has('admin_write_file', ['unauthorized', 'forbidden', 'rate_limited', 'payload_too_large']);
    has('admin_list_files', ['unauthorized']);
    assert.ok(!implicitErrors(named('admin_list_files')).includes('forbidden'), 'a read by any account is not refused for its role');
    for (const op of operations) {
      const answered = answeredErrors(op);
      for (const code of [...op.errors, ...implicitErrors(op)]) assert.ok(answered.includes(code), `${op.name} answers ${code}`);
      assert.equal(new Set(answered).size, answered.length, op.name);
    }
  });
});
