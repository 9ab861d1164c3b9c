// Several editors with RATE_LIMIT_STORE=redis://: two instances of the service on one real redis-server and one
// GitHub emulator (the same ADMIN_TOKEN and SESSION_SECRET) are one set of accounts. An editor added on A works on
// B (and commits there as themselves); a role change on one applies on the other at its next request; revoking a
// token on A ends the console session opened with it on B; removing an editor on B ends everything of theirs on A;
// both instances read and write one audit trail; nothing of it is kept under either DATA_DIR.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startServiceOn, type BackendService } from '../../testing/backend-service.ts';
import { startGitHubEmulator, type GitHubEmulator } from '../../testing/github-emulator.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { skillFile } from '../../testing/content-git.ts';
import { startRedis, type TestRedis } from '../../testing/redis-server.ts';
import { addEditor, auditSince, call, expectForbidden, expectStatus, newestAuditId, signIn } from '../../testing/accounts-http.ts';

const OWNER = 'editors-shared-owner-token-6d2b8f0a4c';
const SESSION_SECRET = 'editors-shared-secret-9a7c5e3b1d';
const tokenIdOf = (token: string) => token.split('_')[1]!;

let redis: TestRedis;
let emulator: GitHubEmulator;
let a: BackendService;
let b: BackendService;
const issued: string[] = [OWNER];

before(async () => {
  redis = await startRedis();
  emulator = await startGitHubEmulator({ seedDir: englishOnlyContent() });
  const env = { ADMIN_TOKEN: OWNER, SESSION_SECRET, RATE_LIMIT_STORE: redis.url, CONTENT_DIR: englishOnlyContent() };
  a = await startServiceOn('github', env, { emulator });
  b = await startServiceOn('github', env, { emulator });
});
after(async () => {
  await a?.stop();
  await b?.stop();
  await emulator?.close();
  await redis?.stop();
});

const whoami = (base: string, credential: { token?: string; cookie?: string }) => call(base, 'GET', '/api/admin/whoami', credential);

describe('editors shared by two instances through Redis', () => {
  it('an editor added on A signs in and commits on B as themselves; a role change on B applies on A', async () => {
    const ada = await addEditor(a.url, OWNER, { name: 'Ada Lovelace', email: 'ada@example.org', role: 'editor' });
    issued.push(ada.token);
    const me = expectStatus(await whoami(b.url, { token: ada.token }), 200);
    assert.deepEqual(me, { authenticated: true, via: 'bearer', id: ada.id, name: 'Ada Lovelace', email: 'ada@example.org', role: 'editor' });
    const listed = expectStatus(await call(b.url, 'GET', '/api/admin/editors', { token: OWNER }), 200);
    assert.deepEqual(
      listed.editors.map((e: any) => e.id),
      ['owner', ada.id],
    );

    const body = { path: 'content/skills/ada-shared.md', content: skillFile('ada-shared'), message: 'Ada writes on B', branch: 'dev' };
    const sha = expectStatus(await call(b.url, 'PUT', '/api/admin/file', { token: ada.token, body }), 200).commit.sha;
    const stored = await (
      await fetch(`${emulator.url}/repos/${emulator.repository}/git/commits/${sha}`, { headers: { Authorization: `token ${emulator.token}` } })
    ).json();
    assert.equal(stored.message, 'Ada writes on B\n\nCo-authored-by: Ada Lovelace <ada@example.org>');
    expectForbidden(await call(a.url, 'POST', '/api/admin/promote', { token: ada.token, body: {} }));

    expectStatus(await call(b.url, 'PATCH', `/api/admin/editors/${ada.id}`, { token: OWNER, body: { role: 'publisher' } }), 200);
    expectStatus(await call(a.url, 'GET', '/api/admin/editors', { token: ada.token }), 200);
    expectStatus(await call(a.url, 'PATCH', `/api/admin/editors/${ada.id}`, { token: OWNER, body: { role: 'editor' } }), 200);
    expectForbidden(await call(b.url, 'GET', '/api/admin/editors', { token: ada.token }));

    for (const service of [a, b]) {
      for (const file of ['editors.json', 'audit.jsonl', 'sessions.json']) assert.equal(existsSync(join(service.dataDir, file)), false, file);
    }
  });

  it('revoking a token on A ends the console session opened with it on B at its next request, and only that one', async () => {
    const grace = await addEditor(b.url, OWNER, { name: 'Grace Hopper', email: 'grace@example.org' });
    const second = expectStatus(await call(a.url, 'PATCH', `/api/admin/editors/${grace.id}`, { token: OWNER, body: { newToken: true } }), 200).token;
    issued.push(grace.token, second);
    const onB = await signIn(b.url, second);
    const keptOnB = await signIn(b.url, grace.token);
    const onA = await signIn(a.url, second);
    for (const [base, cookie] of [
      [b.url, onB],
      [a.url, onB],
      [a.url, onA],
      [b.url, keptOnB],
    ]) {
      assert.equal(expectStatus(await whoami(base!, { cookie }), 200).id, grace.id);
    }

    expectStatus(await call(a.url, 'PATCH', `/api/admin/editors/${grace.id}`, { token: OWNER, body: { revokeToken: tokenIdOf(second) } }), 200);
    expectStatus(await whoami(b.url, { cookie: onB }), 401, 'unauthorized');
    expectStatus(await whoami(b.url, { cookie: onA }), 401, 'unauthorized');
    expectStatus(await whoami(a.url, { cookie: onA }), 401, 'unauthorized');
    expectStatus(await whoami(b.url, { token: second }), 401, 'unauthorized');
    assert.equal(expectStatus(await whoami(b.url, { cookie: keptOnB }), 200).id, grace.id, 'the session of her other token lives on');
    expectStatus(await call(b.url, 'POST', '/api/admin/login', { body: { token: second } }), 401, 'unauthorized');

    // Removing her on B ends the rest, on A too.
    const keptOnA = await signIn(a.url, grace.token);
    expectStatus(await call(b.url, 'DELETE', `/api/admin/editors/${grace.id}`, { token: OWNER }), 200);
    expectStatus(await whoami(a.url, { cookie: keptOnA }), 401, 'unauthorized');
    expectStatus(await whoami(a.url, { token: grace.token }), 401, 'unauthorized');
    expectStatus(await whoami(b.url, { cookie: keptOnB }), 401, 'unauthorized');
    expectStatus(await call(a.url, 'DELETE', `/api/admin/editors/${grace.id}`, { token: OWNER }), 404, 'not_found');
  });

  it('keeps one audit trail for both instances: each event once, in the order it happened, whichever instance reads it', async () => {
    const mark = await newestAuditId(a.url, OWNER);
    assert.equal(await newestAuditId(b.url, OWNER), mark);
    const linus = await addEditor(a.url, OWNER, { name: 'Linus Publisher', email: 'linus@example.org', role: 'publisher' });
    issued.push(linus.token);
    const cookie = await signIn(b.url, linus.token);
    issued.push(cookie.split('=')[1]!.split('.')[0]!);
    const body = { path: 'content/skills/linus-shared.md', content: skillFile('linus-shared'), message: 'Linus writes on A', branch: 'main' };
    const sha = expectStatus(await call(a.url, 'PUT', '/api/admin/file', { cookie, body }), 200).commit.sha as string;
    expectStatus(await call(b.url, 'POST', '/api/admin/login', { body: { token: 'vitae_nobody00_not-anyones-token' } }), 401);
    expectStatus(await call(b.url, 'PATCH', `/api/admin/editors/${linus.id}`, { token: OWNER, body: { role: 'editor' } }), 200);
    expectStatus(await call(a.url, 'DELETE', `/api/admin/editors/${linus.id}`, { token: OWNER }), 200);

    const fromA = await auditSince(a.url, OWNER, mark, 2);
    const fromB = await auditSince(b.url, OWNER, mark, 5);
    assert.deepEqual(fromB, fromA, 'one trail, whichever instance answers');
    const actor = (e: { actor: { id: string } | null }) => e.actor?.id ?? null;
    assert.deepEqual(fromA.map((e) => [e.action, actor(e)]).reverse(), [
      ['editor-added', 'owner'],
      ['sign-in', linus.id],
      ['commit', linus.id],
      ['sign-in-failed', null],
      ['editor-updated', 'owner'],
      ['editor-removed', 'owner'],
    ]);
    assert.match(fromA.find((e) => e.action === 'commit')!.detail, new RegExp(`^main ${sha.slice(0, 7)} "Linus writes on A"`));
    const whole = await auditSince(b.url, OWNER, 0, 50);
    assert.equal(whole.length, Number(whole[0]!.id), 'every event of both instances once, numbered without a gap');
    const text = JSON.stringify(whole);
    for (const secret of issued) assert.ok(!text.includes(secret), `the trail holds ${secret.slice(0, 12)}…`);

    // In Redis: the list of events, and accounts whose tokens are kept only as digests.
    const client = new Redis(redis.url);
    try {
      assert.equal(await client.llen('vitae:audit'), whole.length);
      const stored = JSON.stringify(await client.hgetall('vitae:editors')) + JSON.stringify(await client.hgetall('vitae:editor-tokens'));
      for (const secret of issued) assert.ok(!stored.includes(secret), 'Redis holds no token');
    } finally {
      client.disconnect();
    }
  });
});
