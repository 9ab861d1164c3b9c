// Every credential throttled, over real HTTP: the admin bearer token (REST admin API, the CLI, /mcp/admin), the
// /metrics token, console session cookies and the sign-in form spend one failure budget per client address (an
// IPv6 client by its /64) and one per credential — 10 failed checks in any quarter of an hour — in Redis when
// RATE_LIMIT_STORE points at one. A check beyond the budget is refused before its secret is compared (429 with
// Retry-After and the error body; /metrics keeps its 404), and a success gives its count back.
//
// Time is the service's injected clock, moved on by the tests: nothing waits a quarter of an hour. Each test has
// addresses of its own (TRUST_PROXY is on, X-Forwarded-For names the client), so budgets never leak between tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { CREDENTIAL_FAILURES, CREDENTIAL_WINDOW_MS } from '../server/credential-throttle.server.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { startRedis, type TestRedis } from '../../testing/redis-server.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { assertError } from '../../testing/admin-http.ts';
import { runVitaeInProcess } from '../../cli/run-vitae.ts';

const TOKEN = 'credential-throttle-admin-token-4f1c9e';
const METRICS_TOKEN = 'credential-throttle-metrics-token-b27d';
const SESSION_SECRET = 'credential-throttle-session-secret-93aa';
const MINUTE = 60_000;

/**
 * The service's clock for the failure budgets: the time the file started plus however far a test has moved it on,
 * and nothing else. Real time must not move it: on a busy machine the burst below takes seconds, and a clock that
 * ran on would age its first failures out of the window the test reasons about (14:59 after them, not 15:00).
 */
let moved = 0;
const started = Date.now();
const clock = () => started + moved;
const later = (ms: number) => void (moved += ms);

const start = (env: Record<string, string> = {}) =>
  startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN, METRICS_TOKEN, SESSION_SECRET, TRUST_PROXY: '1', ...env }, { clock });

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function call(base: string, path: string, ip: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'X-Forwarded-For': ip, ...init.headers };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(base + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body, text };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const whoami = (base: string, ip: string, token: string) => call(base, '/api/admin/whoami', ip, { headers: bearer(token) });
const signIn = (base: string, ip: string, token: string) => call(base, '/api/admin/login', ip, { method: 'POST', body: { token } });
const mcpAdmin = (base: string, ip: string, token: string) =>
  call(base, '/mcp/admin', ip, {
    method: 'POST',
    headers: { ...bearer(token), Accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
const scrapeAs = (base: string, ip: string, token: string) => call(base, '/metrics', ip, { headers: bearer(token) });

/** A 429 refusal of a credential: the error body, its `retryAfter`, and Retry-After saying the same. */
function assertThrottled(answer: Answer): number {
  assertError(answer, 429, 'rate_limited');
  const retry = Number(answer.headers.get('retry-after'));
  assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= CREDENTIAL_WINDOW_MS / 1000, `Retry-After ${retry}`);
  assert.equal(answer.body.retryAfter, retry);
  return retry;
}

const statuses = (answers: Answer[]) => answers.reduce<Record<number, number>>((count, a) => ({ ...count, [a.status]: (count[a.status] ?? 0) + 1 }), {});
const wrong = (label: string, i: number) => `wrong-${label}-${String(i).padStart(5, '0')}-000000000000`;

describe('every credential throttled', () => {
  let service: TestService;
  before(async () => {
    service = await start();
  });
  after(() => service.stop());

  /** `vitae_throttled_total{kind}` now, read with the metrics token from an address that never fails. */
  async function throttledSoFar(kind: string): Promise<number> {
    const answer = await scrapeAs(service.url, '192.0.2.250', METRICS_TOKEN);
    assert.equal(answer.status, 200);
    const line = answer.text.split('\n').find((l) => l.startsWith(`vitae_throttled_total{kind="${kind}"}`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  it('of 10,000 wrong bearer tokens from one address compares at most 10 in any 15 minutes, and answers the rest 429', async () => {
    // What decides is a log of this address's checks in the last quarter hour, consulted before any token is
    // compared. Twenty times the budget, sent at once (the hard case: none has failed yet when the others
    // arrive), then more across the whole window, show the figure without sending 10,000.
    const ip = '198.51.100.10';
    const before = await throttledSoFar('bearer');
    const burst = await Promise.all(Array.from({ length: 200 }, (_, i) => whoami(service.url, ip, wrong('burst', i))));
    assert.deepEqual(statuses(burst), { 401: CREDENTIAL_FAILURES, 429: 200 - CREDENTIAL_FAILURES });
    for (const answer of burst.filter((a) => a.status === 401)) assertError(answer, 401, 'unauthorized');
    const retry = assertThrottled(burst.find((a) => a.status === 429)!);
    assert.ok(retry > 14 * 60, `the budget comes back a quarter of an hour after the first failure (Retry-After ${retry})`);
    // Not compared: the right token is refused like the rest (compared, it would have been let in).
    assertThrottled(await whoami(service.url, ip, TOKEN));

    // Until the quarter hour since the first failure is over, nothing more is compared.
    later(CREDENTIAL_WINDOW_MS - 1000);
    const late = await Promise.all(Array.from({ length: 50 }, (_, i) => whoami(service.url, ip, wrong('late', i))));
    assert.deepEqual(statuses(late), { 429: 50 });
    assert.equal(Number(late[0]!.headers.get('retry-after')), 1);
    assert.equal((await throttledSoFar('bearer')) - before, 190 + 1 + 50, 'each refusal is counted in vitae_throttled_total{kind="bearer"}');

    // Then the next ten, and no more.
    later(1000);
    const next = await Promise.all(Array.from({ length: 50 }, (_, i) => whoami(service.url, ip, wrong('next', i))));
    assert.deepEqual(statuses(next), { 401: CREDENTIAL_FAILURES, 429: 50 - CREDENTIAL_FAILURES });
  });

  it('counts over a sliding quarter hour, so two windows never add up to 20 in a few minutes', async () => {
    const ip = '198.51.100.20';
    for (let i = 0; i < 5; i++) assert.equal((await whoami(service.url, ip, wrong('slide-a', i))).status, 401);
    later(10 * MINUTE);
    for (let i = 0; i < 5; i++) assert.equal((await whoami(service.url, ip, wrong('slide-b', i))).status, 401);
    const retry = assertThrottled(await whoami(service.url, ip, wrong('slide-c', 0)));
    assert.ok(retry > 4 * 60 && retry <= 5 * 60, `the first five leave the window in five minutes (Retry-After ${retry})`);
    later(5 * MINUTE);
    // The first five have left the quarter hour; the last five are still in it.
    for (let i = 0; i < 5; i++) assert.equal((await whoami(service.url, ip, wrong('slide-d', i))).status, 401);
    const again = assertThrottled(await whoami(service.url, ip, wrong('slide-e', 0)));
    assert.ok(again > 9 * 60 && again <= 10 * 60, `Retry-After ${again}`);
  });

  it('lets the right token in after failures, and gives its own check back (not the failures)', async () => {
    const ip = '198.51.100.30';
    for (let i = 0; i < CREDENTIAL_FAILURES - 1; i++) assertError(await whoami(service.url, ip, wrong('refund', i)), 401, 'unauthorized');
    // One check is left; each success takes it and gives it back, on every surface.
    for (let i = 0; i < 5; i++) {
      assert.equal((await whoami(service.url, ip, TOKEN)).status, 200);
      assert.equal((await mcpAdmin(service.url, ip, TOKEN)).status, 200);
      assert.equal((await call(service.url, '/api/admin/files?branch=dev', ip, { headers: bearer(TOKEN) })).status, 200);
      assert.equal((await scrapeAs(service.url, ip, METRICS_TOKEN)).status, 200);
    }
    // In one process a check and its refund come in one turn of the event loop: concurrent successes never meet.
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => whoami(service.url, ip, TOKEN)));
    assert.deepEqual(statuses(concurrent), { 200: 5 });
    // The failures stay: one more wrong token is compared, the next is not, and then neither is the right one.
    assertError(await whoami(service.url, ip, wrong('refund', 99)), 401, 'unauthorized');
    assertThrottled(await whoami(service.url, ip, wrong('refund', 100)));
    assertThrottled(await whoami(service.url, ip, TOKEN));
  });

  it('gives IPv6 addresses of one /64 one budget, and another /64 its own', async () => {
    const sameNetwork = Array.from({ length: CREDENTIAL_FAILURES }, (_, i) => `2001:db8:40:1::${(i + 1).toString(16)}`);
    sameNetwork[3] = '2001:0db8:0040:0001:ffff:ffff:0000:0004'; // written out in full
    sameNetwork[4] = '2001:DB8:40:1:8000::5';
    for (const [i, ip] of sameNetwork.entries()) assertError(await whoami(service.url, ip, wrong('v6', i)), 401, 'unauthorized');
    assertThrottled(await whoami(service.url, '2001:db8:40:1:abcd:ef01:2345:6789', wrong('v6', 90)));
    assertThrottled(await signIn(service.url, '2001:db8:40:1::ffff', TOKEN));
    // The neighbouring /64 is another client.
    assertError(await whoami(service.url, '2001:db8:40:2::1', wrong('v6', 91)), 401, 'unauthorized');
    assert.equal((await whoami(service.url, '2001:db8:40:2::1', TOKEN)).status, 200);
    // IPv4 addresses are counted one by one, and an IPv4-mapped IPv6 address is its IPv4 address.
    for (let i = 0; i < CREDENTIAL_FAILURES; i++) assert.equal((await whoami(service.url, '203.0.113.40', wrong('v4', i))).status, 401);
    assertThrottled(await whoami(service.url, '::ffff:203.0.113.40', wrong('v4', 90)));
    assert.equal((await whoami(service.url, '203.0.113.41', wrong('v4', 91))).status, 401);
  });

  it('gives one credential one budget, from however many addresses it comes', async () => {
    // A revoked (now wrong) token replayed from a botnet: ten addresses get ten comparisons, then none.
    const revoked = 'a-revoked-token-still-in-use-5d0e2a';
    for (let i = 1; i <= CREDENTIAL_FAILURES; i++) assertError(await whoami(service.url, `198.18.50.${i}`, revoked), 401, 'unauthorized');
    assertThrottled(await whoami(service.url, '198.18.50.99', revoked));
    assertThrottled(await signIn(service.url, '198.18.50.98', revoked));
    // That address has not failed yet: another token from it is compared.
    assertError(await whoami(service.url, '198.18.50.99', wrong('other', 0)), 401, 'unauthorized');
  });

  it('spends one budget across the sign-in form, console cookies, the admin API, /mcp/admin and /metrics', async () => {
    const ip = '198.51.100.60';
    const kinds = ['bearer', 'session', 'login', 'metrics'];
    const before = Object.fromEntries(await Promise.all(kinds.map(async (kind) => [kind, await throttledSoFar(kind)])));
    const session = (await signIn(service.url, '198.51.100.61', TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
    const forged = `vitae_session=${'A'.repeat(43)}.${'B'.repeat(43)}`;

    assertError(await whoami(service.url, ip, wrong('mix', 0)), 401, 'unauthorized');
    assertError(await whoami(service.url, ip, wrong('mix', 1)), 401, 'unauthorized');
    assertError(await call(service.url, '/api/admin/files?branch=dev', ip, { headers: bearer(wrong('mix', 2)) }), 401, 'unauthorized');
    assertError(await mcpAdmin(service.url, ip, wrong('mix', 3)), 401, 'unauthorized');
    assertError(await mcpAdmin(service.url, ip, wrong('mix', 4)), 401, 'unauthorized');
    assertError(await signIn(service.url, ip, wrong('mix', 5)), 401, 'unauthorized');
    assertError(await signIn(service.url, ip, wrong('mix', 6)), 401, 'unauthorized');
    assertError(await call(service.url, '/api/admin/whoami', ip, { headers: { Cookie: forged } }), 401, 'unauthorized');
    assertError(await call(service.url, '/api/admin/whoami', ip, { headers: { Cookie: `${forged}C` } }), 401, 'unauthorized');
    const unknownPath = await call(service.url, '/no-such-page', ip);
    const wrongScrape = await scrapeAs(service.url, ip, wrong('mix', 9));
    assert.deepEqual([wrongScrape.status, wrongScrape.body?.code], [unknownPath.status, unknownPath.body?.code]);

    // Ten failures, whichever door: every credential from this address is now refused without being checked.
    assertThrottled(await whoami(service.url, ip, TOKEN));
    assertThrottled(await call(service.url, '/api/admin/files?branch=dev', ip, { headers: bearer(TOKEN) }));
    assertThrottled(await mcpAdmin(service.url, ip, TOKEN));
    assertThrottled(await call(service.url, '/mcp/admin', ip, { headers: bearer(TOKEN) }));
    assertThrottled(await call(service.url, '/mcp/admin/server-card', ip, { headers: bearer(TOKEN) }));
    assertThrottled(await signIn(service.url, ip, TOKEN));
    assertThrottled(await call(service.url, '/api/admin/whoami', ip, { headers: { Cookie: session } }));
    assertThrottled(await call(service.url, '/api/admin/logout', ip, { method: 'POST', headers: { Cookie: session, Origin: 'http://vitae.test' } }));
    // /metrics keeps its disguise: the answer of a path the site does not have, even to the right token.
    const hidden = await scrapeAs(service.url, ip, METRICS_TOKEN);
    assert.deepEqual([hidden.status, hidden.body?.code], [unknownPath.status, unknownPath.body?.code]);
    // Without a credential nothing is checked, so nothing is refused: the public site and API answer as ever.
    assert.equal((await call(service.url, '/api/v1/entries', ip)).status, 200);
    assert.equal((await call(service.url, '/metrics', ip)).status, unknownPath.status);

    const after = Object.fromEntries(await Promise.all(kinds.map(async (kind) => [kind, (await throttledSoFar(kind)) - before[kind]])));
    assert.deepEqual(after, { bearer: 5, session: 2, login: 1, metrics: 1 });
    // The session itself was never spent: from its own address it still works.
    assert.equal((await call(service.url, '/api/admin/whoami', '198.51.100.61', { headers: { Cookie: session } })).status, 200);
  });

  it('charges a cookie whose session has ended to the cookie, not to the address, so its owner can sign in again', async () => {
    const ip = '198.51.100.70';
    const cookie = (await signIn(service.url, ip, TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
    const out = await call(service.url, '/api/admin/logout', ip, { method: 'POST', headers: { Cookie: cookie, Origin: 'http://vitae.test' } });
    assert.equal(out.status, 204);
    for (let i = 0; i < CREDENTIAL_FAILURES; i++)
      assertError(await call(service.url, '/api/admin/whoami', ip, { headers: { Cookie: cookie } }), 401, 'unauthorized');
    assertThrottled(await call(service.url, '/api/admin/whoami', '198.51.100.71', { headers: { Cookie: cookie } }));
    assert.equal((await signIn(service.url, ip, TOKEN)).status, 204, 'the address has failed nothing');
    assertError(await whoami(service.url, ip, wrong('ended', 0)), 401, 'unauthorized');
  });

  it('refuses the CLI with exit code 8 and the wait once its address has failed too often', async () => {
    // The CLI calls the admin API from 127.0.0.1 (no X-Forwarded-For): that address's budget.
    const vitae = (token: string) => runVitaeInProcess(['admin', 'ls'], { env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: token } });
    for (let i = 0; i < CREDENTIAL_FAILURES; i++) assert.equal((await vitae(wrong('cli', i))).code, 4);
    const refused = await vitae(TOKEN);
    assert.equal(refused.code, 8, refused.stderr);
    assert.match(refused.stderr, /try again in \d+ seconds/i);
    assert.equal(refused.stderr.match(/try again/gi)?.length, 1, `the wait is said once: ${refused.stderr}`);
  });
});

describe('every credential throttled across instances sharing Redis', () => {
  let redis: TestRedis;
  let a: TestService;
  let b: TestService;
  before(async () => {
    redis = await startRedis();
    a = await start({ RATE_LIMIT_STORE: redis.url });
    b = await start({ RATE_LIMIT_STORE: redis.url });
  });
  after(async () => {
    await a.stop();
    await b.stop();
    await redis.stop();
  });

  it('gives an address one budget on both instances, checked and counted in one step', async () => {
    const ip = '198.51.100.80';
    // Sent at once to both: of 100, ten are compared in all.
    const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => whoami(i % 2 ? a.url : b.url, ip, wrong('redis', i))));
    assert.deepEqual(statuses(burst), { 401: CREDENTIAL_FAILURES, 429: 100 - CREDENTIAL_FAILURES });
    assertThrottled(await whoami(a.url, ip, TOKEN));
    assertThrottled(await signIn(b.url, ip, TOKEN));
    assert.equal((await whoami(b.url, '198.51.100.81', TOKEN)).status, 200, 'another address is not refused');
  });

  it('shares the budget of a /64, and of one credential, and a success on one instance refunds on the other', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await whoami(a.url, `2001:db8:80:1::${i + 1}`, wrong('v6-redis', i))).status, 401);
    for (let i = 5; i < 9; i++) assert.equal((await whoami(b.url, `2001:db8:80:1::${i + 1}`, wrong('v6-redis', i))).status, 401);
    for (let i = 0; i < 3; i++) assert.equal((await whoami(a.url, '2001:db8:80:1::77', TOKEN)).status, 200, 'a success gives its check back');
    assert.equal((await whoami(b.url, '2001:db8:80:1::78', wrong('v6-redis', 9))).status, 401);
    assertThrottled(await whoami(a.url, '2001:db8:80:1::79', TOKEN));
    assertThrottled(await mcpAdmin(b.url, '2001:db8:80:1::80', TOKEN));

    const revoked = 'a-revoked-token-replayed-on-both-81c3';
    for (let i = 1; i <= CREDENTIAL_FAILURES; i++) assert.equal((await whoami(i % 2 ? a.url : b.url, `198.18.80.${i}`, revoked)).status, 401);
    assertThrottled(await whoami(b.url, '198.18.80.99', revoked));
  });

  it('keeps no token in Redis: a credential is named by an HMAC', async () => {
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('vitae:credentials:*');
      assert.ok(keys.some((key) => key.startsWith('vitae:credentials:address:2001:db8:80:1::/64')));
      assert.ok(keys.some((key) => key.startsWith('vitae:credentials:credential:')));
      for (const key of keys) assert.ok(!key.includes('wrong-') && !key.includes('revoked') && !key.includes(TOKEN), key);
    } finally {
      client.disconnect();
    }
  });
});
