// authorOf: the account that makes a call is the author of its commits, but for the owner (the service's identity).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authorOf } from './author.server.ts';
import type { CallContext } from './implement.server.ts';

const call = (principal: unknown): CallContext => ({ branch: 'dev', ip: '127.0.0.1', principal: principal as CallContext['principal'] });

describe('authorOf', () => {
  it('is the editor’s name and address', () => {
    const account = { id: 'ed_1', name: 'Ada Lovelace', email: 'ada@example.test', role: 'editor' };
    assert.deepEqual(authorOf(call({ kind: 'admin', via: 'session', account })), { name: 'Ada Lovelace', email: 'ada@example.test' });
  });

  it('is nobody for the owner, a principal without an account, or no context', () => {
    assert.equal(authorOf(call({ kind: 'admin', via: 'bearer', account: { id: 'owner', name: 'Owner', email: 'o@x', role: 'publisher' } })), undefined);
    assert.equal(authorOf(call({ kind: 'admin', via: 'bearer' })), undefined);
    assert.equal(authorOf(call({ kind: 'admin', via: 'bearer', account: null })), undefined);
    assert.equal(authorOf(call({ kind: 'admin', via: 'bearer', account: { id: 'ed_2', name: ' ', email: 'a@b' } })), undefined);
    assert.equal(authorOf(call({ kind: 'anonymous', account: { id: 'ed_1', name: 'A', email: 'a@b' } })), undefined);
    assert.equal(authorOf(undefined), undefined);
  });
});
