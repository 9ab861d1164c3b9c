// Admin authentication through real HTTP: the bearer token, the console session cookie (login, logout,
// rotation, revocation by a token change), the Origin check on cookie writes, login throttling, and the
// 503 of a backend that is not usable. The token must never come back in an answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { adminOperations } from '../contract/admin.ts';
import { CREDENTIAL_FAILURES } from '../server/credential-throttle.server.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { contentGit, skillFile } from '../../testing/content-git.ts';
import { adminHttp, assertError, assertOk } from '../../testing/admin-http.ts';

const TOKEN = 'auth-suite-token-93b1f0c27e8d4a55';
let service: TestService;
const api = adminHttp(() => service.url, TOKEN);

before(async () => {
  // TRUST_PROXY: a test that sends many wrong credentials names a client address of its own for each (X-Forwarded-For),
  // so that the failure budgets of credentials (credential-throttle.test.ts) do not turn its 401s into 429s.
  service = await startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN, TRUST_PROXY: '1' });
});
after(async () => {
  for (const text of api.seen) assert.ok(!text.includes(TOKEN), `the token leaked in ${text.slice(0, 200)}`);
  const sessions = await readFile(join(service.dataDir, 'sessions.json'), 'utf8');
  assert.ok(!sessions.includes(TOKEN), 'sessions keep a digest of the token, not the token');
  assert.equal((await stat(join(service.dataDir, 'sessions.json'))).mode & 0o777, 0o600);
  await service.stop();
});

/** Logs in and returns the `name=value` pair of the session cookie and the whole Set-Cookie header. */
async function login(body: string, contentType: string, base = service.url, cookie?: string) {
  const answer = await api.call('POST', '/api/admin/login', {
    auth: false,
    base,
    body,
    headers: { 'Content-Type': contentType, ...(cookie ? { Cookie: cookie } : {}) },
  });
  assert.equal(answer.status, 204, answer.text);
  const setCookie = answer.headers.get('set-cookie')!;
  return { cookie: setCookie.split(';')[0]!, setCookie };
}
const loginJson = (token = TOKEN, base?: string, cookie?: string) => login(JSON.stringify({ token }), 'application/json', base, cookie);

/** A cookie-authenticated request (no bearer token). */
const withCookie = (cookie: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; base?: string } = {}) =>
  api.call(method, path, { ...options, auth: false, headers: { Cookie: cookie, ...options.headers } });

const writeBody = (name: string) => ({ path: `content/skills/${name}.md`, content: skillFile(name), message: `cookie write ${name}` });

describe('401 without credentials', () => {
  const routes = [
    ...adminOperations.map((op) => [op.rest.method, op.rest.path] as const),
    ['GET', '/api/admin/whoami'] as const,
    ['GET', '/mcp/admin'] as const,
    ['POST', '/mcp/admin'] as const,
  ];

  it('answers 401 unauthorized with WWW-Authenticate: Bearer on every admin route, on both listeners', async () => {
    assert.ok(routes.length >= 12);
    for (const base of [service.url, service.devUrl]) {
      for (const [method, path] of routes) {
        const answer = await api.call(method, path, { auth: false, base, body: method === 'GET' ? undefined : {} });
        assert.equal(answer.status, 401, `${method} ${path} on ${base}: ${answer.status} ${answer.text}`);
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer\b/, `${method} ${path}`);
        if (!path.startsWith('/mcp')) assertError(answer, 401, 'unauthorized');
      }
    }
  });

  it('answers 401 for a wrong bearer token, a different scheme, or a forged cookie', async () => {
    const head = contentGit(service.dataDir).head();
    // Each attempt from an address of its own and with a credential of its own: one budget would be spent by ten.
    const attempts: Array<(i: number) => Record<string, string>> = [
      (i) => ({ Authorization: `Bearer wrong-token-${i}-0000000000000000` }),
      (i) => ({ Authorization: `Bearer ${TOKEN}x${i}` }),
      () => ({ Authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` }),
      (i) => ({ Cookie: `vitae_session=forged${i}.signature` }),
    ];
    let i = 0;
    for (const credential of attempts) {
      for (const [method, path] of routes) {
        i++;
        const headers = { ...credential(i), 'X-Forwarded-For': `198.51.100.${i}` };
        const answer = await api.call(method, path, { auth: false, headers, body: method === 'GET' ? undefined : writeBody('never') });
        assert.equal(answer.status, 401, `${JSON.stringify(headers)} ${method} ${path}: ${answer.text}`);
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer\b/);
      }
    }
    assert.equal(contentGit(service.dataDir).head(), head, 'nothing was written');
  });
});

describe('bearer token', () => {
  it('whoami says bearer', async () => {
    assert.deepEqual(assertOk(await api.get('/api/admin/whoami')), {
      authenticated: true,
      via: 'bearer',
      id: 'owner',
      name: 'Owner',
      email: '',
      role: 'publisher',
    });
  });

  it('needs no Origin for writes (scripts and the CLI)', async () => {
    assertOk(await api.put(writeBody('bearer-write')));
  });
});

describe('console session: POST /api/admin/login', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie for the right token (JSON body)', async () => {
    const { cookie, setCookie } = await loginJson();
    assert.match(cookie, /^vitae_session=[\w-]+\.[\w-]+$/);
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /SameSite=Strict/i);
    assert.match(setCookie, /Path=\//);
    assert.doesNotMatch(setCookie, /Secure/i, 'not Secure over plain http');
    assert.ok(!setCookie.includes(TOKEN));
    assert.deepEqual(assertOk(await withCookie(cookie, 'GET', '/api/admin/whoami')), {
      authenticated: true,
      via: 'session',
      id: 'owner',
      name: 'Owner',
      email: '',
      role: 'publisher',
    });
    assertOk(await withCookie(cookie, 'GET', '/api/admin/files?dir=content/lenses'));
  });

  it('accepts a form body too', async () => {
    const { cookie } = await login(`token=${encodeURIComponent(TOKEN)}`, 'application/x-www-form-urlencoded');
    assert.equal(assertOk(await withCookie(cookie, 'GET', '/api/admin/whoami')).via, 'session');
  });

  it('answers 401 for a wrong token and 400 without one, setting no cookie', async () => {
    const wrong = await api.call('POST', '/api/admin/login', { auth: false, body: { token: 'not-the-token-000000' } });
    assertError(wrong, 401, 'unauthorized');
    assert.equal(wrong.headers.get('set-cookie'), null);
    assertError(await api.call('POST', '/api/admin/login', { auth: false, body: {} }), 400, 'bad_request');
    assertError(await api.call('POST', '/api/admin/login', { auth: false, body: '{"token":' }), 400, 'bad_request');
    assertError(await api.call('GET', '/api/admin/login', { auth: false }), 405, 'method_not_allowed');
  });

  it('rotates the session on every login: the old cookie stops working', async () => {
    const first = await loginJson();
    const second = await loginJson(TOKEN, service.url, first.cookie);
    assert.notEqual(second.cookie, first.cookie);
    assertError(await withCookie(first.cookie, 'GET', '/api/admin/whoami'), 401, 'unauthorized');
    assertOk(await withCookie(second.cookie, 'GET', '/api/admin/whoami'));
  });

  it('uses the __Host- prefix and Secure when the site is served over https', async () => {
    const https = await startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN, BASE_URL: 'https://vitae.test' });
    try {
      const { cookie, setCookie } = await loginJson(TOKEN, https.url);
      assert.match(cookie, /^__Host-vitae_session=/);
      assert.match(setCookie, /; Secure/);
      assert.match(setCookie, /Path=\//);
      assert.doesNotMatch(setCookie, /Domain=/i);
    } finally {
      await https.stop();
    }
  });
});

describe('CSRF: cookie-authenticated writes need the site Origin', () => {
  it('refuses a write without Origin or from another origin (403), and writes nothing', async () => {
    const { cookie } = await loginJson();
    const repo = contentGit(service.dataDir);
    const head = repo.head();
    const devHead = repo.head('dev');
    const attempts: Array<Record<string, string>> = [
      {},
      { Origin: 'http://evil.test' },
      { Origin: 'null' },
      { Origin: 'http://vitae.test.evil.test' },
      { Referer: 'http://evil.test/page' },
    ];
    for (const headers of attempts) {
      assertError(await withCookie(cookie, 'PUT', '/api/admin/file', { body: writeBody('csrf'), headers }), 403, 'forbidden');
      assertError(
        await withCookie(cookie, 'POST', '/api/admin/changes', {
          body: { message: 'm', changes: [{ path: 'content/skills/csrf.md', content: skillFile('csrf') }] },
          headers,
        }),
        403,
        'forbidden',
      );
      assertError(await withCookie(cookie, 'DELETE', '/api/admin/file?path=content/skills/python.md&message=m', { headers }), 403, 'forbidden');
      assertError(await withCookie(cookie, 'POST', '/api/admin/promote', { body: {}, headers }), 403, 'forbidden');
    }
    // The dev listener's site is DEV_URL: the main site's origin is foreign there.
    assertError(
      await withCookie(cookie, 'PUT', '/api/admin/file', {
        base: service.devUrl,
        body: { ...writeBody('csrf'), branch: 'dev' },
        headers: { Origin: 'http://vitae.test' },
      }),
      403,
      'forbidden',
    );
    assert.equal(repo.head(), head);
    assert.equal(repo.head('dev'), devHead);
    assert.equal(repo.show('main', 'content/skills/csrf.md'), undefined);
  });

  it('accepts a write from the site origin (BASE_URL) and reads without Origin', async () => {
    const { cookie } = await loginJson();
    assertOk(await withCookie(cookie, 'PUT', '/api/admin/file', { body: writeBody('from-site'), headers: { Origin: 'http://vitae.test' } }));
    assertOk(await withCookie(cookie, 'PUT', '/api/admin/file', { body: writeBody('from-referer'), headers: { Referer: 'http://vitae.test/admin/edit' } }));
    assertOk(
      await withCookie(cookie, 'PUT', '/api/admin/file', {
        base: service.devUrl,
        body: { ...writeBody('on-dev'), branch: 'dev' },
        headers: { Origin: 'http://dev.vitae.test' },
      }),
    );
    assertOk(await withCookie(cookie, 'GET', '/api/admin/file?slug=python'));
    const repo = contentGit(service.dataDir);
    for (const name of ['from-site', 'from-referer']) assert.ok(repo.show('main', `content/skills/${name}.md`));
    assert.ok(repo.show('dev', 'content/skills/on-dev.md'));
  });

  it('does not trust the Host header: an Origin matching the host it was reached at, not BASE_URL, is refused', async () => {
    const { cookie } = await loginJson();
    const repo = contentGit(service.dataDir);
    // service.url is the loopback address the request is sent to, so Origin equals `http://${Host}`.
    assertError(await withCookie(cookie, 'PUT', '/api/admin/file', { body: writeBody('from-host'), headers: { Origin: service.url } }), 403, 'forbidden');
    const forged = await rawRequest(service.url, 'PUT', '/api/admin/file', {
      headers: { Cookie: cookie, Host: 'evil.test', Origin: 'http://evil.test', 'Content-Type': 'application/json' },
      body: JSON.stringify(writeBody('from-forged-host')),
    });
    assert.equal(forged.status, 403, forged.text);
    assert.equal(repo.show('main', 'content/skills/from-host.md'), undefined);
    assert.equal(repo.show('main', 'content/skills/from-forged-host.md'), undefined);
  });

  it('refuses cross-origin preflights on the admin API', async () => {
    assertError(
      await api.call('OPTIONS', '/api/admin/file', { auth: false, headers: { Origin: 'http://evil.test', 'Access-Control-Request-Method': 'PUT' } }),
      403,
      'forbidden',
    );
  });
});

describe('POST /api/admin/logout', () => {
  it('revokes the session server-side and clears the cookie', async () => {
    const { cookie } = await loginJson();
    assertError(await withCookie(cookie, 'POST', '/api/admin/logout', { headers: { Origin: 'http://evil.test' } }), 403, 'forbidden');
    assertOk(await withCookie(cookie, 'GET', '/api/admin/whoami'), 200);
    const out = await withCookie(cookie, 'POST', '/api/admin/logout', { headers: { Origin: 'http://vitae.test' } });
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /^vitae_session=;.*Max-Age=0/);
    // Replaying the old cookie is refused: the record is gone, not just the browser's copy.
    assertError(await withCookie(cookie, 'GET', '/api/admin/whoami'), 401, 'unauthorized');
    assertError(await withCookie(cookie, 'GET', '/api/admin/schema'), 401, 'unauthorized');
    assertError(
      await withCookie(cookie, 'PUT', '/api/admin/file', { body: writeBody('after-logout'), headers: { Origin: 'http://vitae.test' } }),
      401,
      'unauthorized',
    );
  });

  it('answers 204 without a session', async () => {
    assert.equal((await api.call('POST', '/api/admin/logout', { auth: false })).status, 204);
  });
});

describe('restarts and token changes', () => {
  it('keeps sessions across a restart with the same token, revokes them all when the token changes', async () => {
    const first = await startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN });
    const dataDir = first.dataDir;
    let restarted: TestService | undefined;
    try {
      const { cookie } = await loginJson(TOKEN, first.url);
      // Concurrent logins each get a session, and every one of them is on disk.
      const many = await Promise.all(Array.from({ length: 10 }, () => loginJson(TOKEN, first.url)));
      await first.close();

      restarted = await startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN, DATA_DIR: dataDir });
      assertOk(await withCookie(cookie, 'GET', '/api/admin/whoami', { base: restarted.url }), 200);
      for (const session of many) assertOk(await withCookie(session.cookie, 'GET', '/api/admin/whoami', { base: restarted.url }), 200);
      await restarted.close();

      const NEW = 'auth-suite-rotated-token-1a2b3c4d5e';
      restarted = await startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: NEW, DATA_DIR: dataDir });
      assertError(await withCookie(cookie, 'GET', '/api/admin/whoami', { base: restarted.url }), 401, 'unauthorized');
      assertError(await withCookie(cookie, 'GET', '/api/admin/schema', { base: restarted.url }), 401, 'unauthorized');
      assertError(await api.call('GET', '/api/admin/whoami', { base: restarted.url }), 401, 'unauthorized'); // the old bearer token
      const fresh = await api.call('GET', '/api/admin/whoami', { auth: false, base: restarted.url, headers: { Authorization: `Bearer ${NEW}` } });
      assert.equal(fresh.status, 200);
    } finally {
      await restarted?.close();
      await first.stop().catch(() => {});
      const { rm } = await import('node:fs/promises');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('generates a token once when ADMIN_TOKEN is unset: 32 random bytes, mode 0600, the same after a restart', async () => {
    const generated = await startTestService({ CONTENT_DIR: englishOnlyContent() });
    const dataDir = generated.dataDir;
    try {
      assert.equal(generated.services.secrets.adminTokenGenerated, true);
      const file = join(dataDir, 'secrets', 'admin-token');
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const token = (await readFile(file, 'utf8')).trim();
      assert.equal(Buffer.from(token, 'base64url').length, 32);
      assert.equal(token, generated.services.secrets.adminToken);
      const health = await (await fetch(`${generated.url}/api/health`)).text();
      assert.ok(!health.includes(token));
      await generated.close();
      const again = await startTestService({ CONTENT_DIR: englishOnlyContent(), DATA_DIR: dataDir });
      assert.equal(again.services.secrets.adminToken, token);
      assert.equal(again.services.secrets.adminTokenGenerated, false);
      await again.close();
    } finally {
      const { rm } = await import('node:fs/promises');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('login throttling', () => {
  it('answers the 11th failed login from one address with 429 and Retry-After, even with the right token', async () => {
    const throttled = await startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN });
    try {
      for (let i = 0; i < CREDENTIAL_FAILURES; i++) {
        assertError(
          await api.call('POST', '/api/admin/login', { auth: false, base: throttled.url, body: { token: `wrong-${i}-000000000000` } }),
          401,
          'unauthorized',
        );
      }
      const eleventh = await api.call('POST', '/api/admin/login', { auth: false, base: throttled.url, body: { token: 'wrong-again-0000000000' } });
      assertError(eleventh, 429, 'rate_limited');
      const retry = Number(eleventh.headers.get('retry-after'));
      assert.ok(Number.isInteger(retry) && retry > 0 && retry <= 15 * 60, `Retry-After ${retry}`);
      assertError(await api.call('POST', '/api/admin/login', { auth: false, base: throttled.url, body: { token: TOKEN } }), 429, 'rate_limited');
      // One budget per address for the whole service, whichever listener is asked and whichever credential is sent:
      // the bearer token is not compared either (were it let in, a 200 against a 429 would tell a right guess).
      assertError(await api.call('POST', '/api/admin/login', { auth: false, base: throttled.devUrl, body: { token: TOKEN } }), 429, 'rate_limited');
      assertError(await api.call('GET', '/api/admin/whoami', { base: throttled.url }), 429, 'rate_limited');
    } finally {
      await throttled.stop();
    }
  });
});

describe('login throttling counts an attempt before its body', () => {
  it('gives 30 logins whose bodies come after all their headers 10 guesses, not 30', { timeout: 60_000 }, async () => {
    const throttled = await startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN });
    try {
      const { hostname, port } = new URL(throttled.url);
      const body = (i: number) => JSON.stringify({ token: `wrong-${String(i).padStart(2, '0')}-0000000000` });
      // Each request's headers are sent at once; its body waits until we say so.
      const pending = Array.from({ length: 30 }, (_, i) => {
        const req = request({
          host: hostname,
          port,
          method: 'POST',
          path: '/api/admin/login',
          agent: false,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body(i)) },
        });
        req.flushHeaders();
        const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
          req.on('response', (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode!, text }));
          });
          req.on('error', reject);
        });
        return { i, req, answer, done: false };
      });
      for (const p of pending) void p.answer.then(() => (p.done = true));
      // Those beyond the budget are refused without their bodies: wait for exactly that many answers.
      const refused = await new Promise<typeof pending>((resolve) => {
        const check = () => {
          const answered = pending.filter((p) => p.done);
          if (answered.length >= 30 - CREDENTIAL_FAILURES) resolve(answered);
        };
        for (const p of pending) void p.answer.then(check);
      });
      assert.equal(refused.length, 30 - CREDENTIAL_FAILURES);
      for (const p of refused) {
        const { status, text } = await p.answer;
        assert.equal(status, 429, text);
        p.req.destroy();
      }
      // The ten counted ones now send their (wrong) tokens: each is checked and refused.
      const counted = pending.filter((p) => !refused.includes(p));
      for (const p of counted) p.req.end(body(p.i));
      for (const p of counted) assert.equal((await p.answer).status, 401);
      // The budget is spent: even the right token is refused now.
      assertError(await api.call('POST', '/api/admin/login', { auth: false, base: throttled.url, body: { token: TOKEN } }), 429, 'rate_limited');
    } finally {
      await throttled.stop();
    }
  });

  it('gives back the attempt of a sign-in with the right token, and keeps the failures before it', async () => {
    const throttled = await startTestService({ CONTENT_DIR: englishOnlyContent(), ADMIN_TOKEN: TOKEN });
    try {
      const attempt = (token: string) => api.call('POST', '/api/admin/login', { auth: false, base: throttled.url, body: { token } });
      for (let i = 0; i < CREDENTIAL_FAILURES - 2; i++) assertError(await attempt(`wrong-${i}-000000000000`), 401, 'unauthorized');
      for (let i = 0; i < 3; i++) assert.equal((await attempt(TOKEN)).status, 204);
      // A success does not wipe the failures (one valid credential must not buy guesses at another): two are left.
      for (let i = 0; i < 2; i++) assertError(await attempt(`wrong-again-${i}-0000000000`), 401, 'unauthorized');
      assertError(await attempt('wrong-at-last-00000000'), 429, 'rate_limited');
    } finally {
      await throttled.stop();
    }
  });
});

/** A request through node's http client, which (unlike fetch) lets a test set the Host header. */
function rawRequest(base: string, method: string, path: string, { headers, body }: { headers: Record<string, string>; body?: string }) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
