// Console sessions and the login throttle with RATE_LIMIT_STORE=redis://: two instances of the service on
// one real redis-server (and the same ADMIN_TOKEN and SESSION_SECRET) are one admin surface. A cookie made
// on A works on B, a logout on A ends it on B, a token change revokes it everywhere, and ten failed
// sign-ins spread over both spend the one budget (every credential's, credential-throttle.test.ts). Nothing is written to DATA_DIR/sessions.json.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startTestService, type TestService } from '../../testing/service.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { startRedis, type TestRedis } from '../../testing/redis-server.ts';
import { adminHttp, assertError, assertOk } from '../../testing/admin-http.ts';
import { CREDENTIAL_FAILURES } from '../server/credential-throttle.server.ts';

const TOKEN = 'shared-sessions-token-5c1e9a7b3d';
const SESSION_SECRET = 'shared-sessions-secret-0f2e4d6c8b';
let redis: TestRedis;
const api = adminHttp(() => assert.fail('every call names its instance'), TOKEN);

before(async () => {
  redis = await startRedis();
});
after(async () => {
  for (const text of api.seen) assert.ok(!text.includes(TOKEN), `the token leaked in ${text.slice(0, 200)}`);
  await redis.stop();
});

const start = (env: Record<string, string> = {}) =>
  startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN, SESSION_SECRET, RATE_LIMIT_STORE: redis.url, ...env });

async function login(base: string, token = TOKEN): Promise<string> {
  const answer = await api.call('POST', '/api/admin/login', { auth: false, base, body: { token } });
  assert.equal(answer.status, 204, answer.text);
  return answer.headers.get('set-cookie')!.split(';')[0]!;
}
const whoami = (base: string, cookie: string) => api.call('GET', '/api/admin/whoami', { auth: false, base, headers: { Cookie: cookie } });

describe('console sessions in Redis', () => {
  let a: TestService;
  let b: TestService;
  before(async () => {
    a = await start();
    b = await start();
  });
  after(async () => {
    await a.stop();
    await b.stop();
  });

  it('a session opened on A is honoured on B, and kept out of DATA_DIR', async () => {
    const cookie = await login(a.url);
    assertOk(await whoami(b.url, cookie), 200);
    assert.equal((await whoami(b.url, cookie)).body.via, 'session');
    assert.equal(existsSync(join(a.dataDir, 'sessions.json')), false);
    const client = new Redis(redis.url);
    const keys = await client.keys('vitae:session:*').finally(() => client.disconnect());
    assert.ok(keys.length >= 1);
    assert.ok(!keys.some((key) => cookie.includes(key.slice('vitae:session:'.length))), 'keys are digests, not cookie ids');
  });

  it('logging out on A revokes the cookie on B at once', async () => {
    const cookie = await login(a.url);
    assertOk(await whoami(b.url, cookie), 200);
    const out = await api.call('POST', '/api/admin/logout', { auth: false, base: a.url, headers: { Cookie: cookie, Origin: 'http://vitae.test' } });
    assert.equal(out.status, 204, out.text);
    assertError(await whoami(b.url, cookie), 401, 'unauthorized');
    assertError(await whoami(a.url, cookie), 401, 'unauthorized');
  });

  it('a sign-in on B rotates the session made on A', async () => {
    const first = await login(a.url);
    const answer = await api.call('POST', '/api/admin/login', { auth: false, base: b.url, body: { token: TOKEN }, headers: { Cookie: first } });
    assert.equal(answer.status, 204);
    assertError(await whoami(a.url, first), 401, 'unauthorized');
  });

  it('an instance started with another ADMIN_TOKEN does not honour sessions of the old one', async () => {
    const cookie = await login(a.url);
    const rotated = await start({ ADMIN_TOKEN: 'shared-sessions-rotated-token-77aa' });
    try {
      assertError(await whoami(rotated.url, cookie), 401, 'unauthorized');
    } finally {
      await rotated.stop();
    }
  });
});

describe('login throttle in Redis', () => {
  it('gives one address ten failed sign-ins across both instances together, and a right token gives its attempt back everywhere', async () => {
    const a = await start();
    const b = await start();
    try {
      const attempt = (service: TestService, token: string) => api.call('POST', '/api/admin/login', { auth: false, base: service.url, body: { token } });
      const half = CREDENTIAL_FAILURES / 2;
      for (let i = 0; i < half - 1; i++) assertError(await attempt(a, `wrong-a-${i}-00000000000`), 401, 'unauthorized');
      assert.equal((await attempt(b, TOKEN)).status, 204, 'the right token on B');
      for (let i = 0; i < half - 1; i++) assertError(await attempt(a, `wrong-a-again-${i}-0000000`), 401, 'unauthorized');
      // The tenth failure is still compared: the right token's attempt was given back (on A's count too).
      for (let i = 0; i < 2; i++) assertError(await attempt(b, `wrong-b-${i}-00000000000`), 401, 'unauthorized');
      const eleventh = await attempt(a, 'wrong-eleventh-00000000');
      assertError(eleventh, 429, 'rate_limited');
      const retry = Number(eleventh.headers.get('retry-after'));
      assert.ok(Number.isInteger(retry) && retry > 0 && retry <= 15 * 60, `Retry-After ${retry}`);
      assertError(await attempt(b, TOKEN), 429, 'rate_limited');
    } finally {
      await a.stop();
      await b.stop();
      const client = new Redis(redis.url);
      await client.del(...(await client.keys('vitae:credentials:*')), 'none').finally(() => client.disconnect());
    }
  });

  it('refuses sign-ins with 503 while Redis is unreachable, and honours no cookie unchecked', async () => {
    const lonely = await startRedis();
    const service = await start({ RATE_LIMIT_STORE: lonely.url });
    try {
      const cookie = await login(service.url);
      assertOk(await whoami(service.url, cookie), 200);
      await lonely.stop();
      assertError(await whoami(service.url, cookie), 401, 'unauthorized');
      assertError(await api.call('POST', '/api/admin/login', { auth: false, base: service.url, body: { token: TOKEN } }), 503, 'unavailable');
      // The bearer token does not depend on Redis.
      assertOk(await api.call('GET', '/api/admin/whoami', { base: service.url }), 200);
    } finally {
      await service.stop();
    }
  });
});
