// What an error body and a list of problems may hold: the lengths the contract states (limits.ts), whatever was said.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError, clipped, listedProblems } from './errors.ts';
import { limits } from './limits.ts';
import { ErrorBodySchema } from './shared.ts';

describe('answers keep to the lengths the contract states', () => {
  it('cuts a long message with an ellipsis, never between the two halves of a character', () => {
    assert.equal(clipped('short', 10), 'short');
    assert.equal(clipped('abcdefghijk', 10), 'abcdefghi…');
    const emoji = `${'a'.repeat(8)}😀😀`; // the cut would fall inside the first 😀
    assert.equal(clipped(emoji, 10), `${'a'.repeat(8)}…`);
  });

  it('lists at most limits.problems problems, the last saying how many more there are', () => {
    const many = Array.from({ length: limits.problems + 41 }, (_, i) => ({ path: 'content/brief.md', message: `problem ${i}` }));
    const listed = listedProblems(many);
    assert.equal(listed.length, limits.problems);
    assert.equal(listed.at(-2)!.message, `problem ${limits.problems - 2}`);
    assert.equal(listed.at(-1)!.message, '… and 42 more problems, not listed');
    assert.deepEqual(listedProblems(many.slice(0, 3)), many.slice(0, 3));
  });

  it('gives an error body that matches the Error schema however long its message and its problems', () => {
    const body = new AppError('repo_error', `git failed: ${'x'.repeat(100_000)}`, {
      errors: [{ path: `content/${'p'.repeat(400)}.md`, pointer: '/title', message: 'y'.repeat(5000), line: 3 }],
    }).toBody();
    assert.equal(body.message.length, limits.message);
    assert.ok(ErrorBodySchema.safeParse(body).success);
  });
});
