// Logs through real HTTP, captured from the logger's destination: one request record per answer (request id
// echoed as X-Request-Id, method, route template, status, duration, client IP), sign-in events, pipeline
// run events — and never a token, a cookie, an Authorization header or a request body.
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:net';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config.server.ts';
import { createLogger } from './log.server.ts';
import { startService, type RunningService } from '../../server.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { skillFile } from '../../testing/content-git.ts';
import { eventually } from '../../testing/admin-http.ts';
import { CREDENTIAL_FAILURES } from './credential-throttle.server.ts';

const TOKEN = 'log-suite-token-5d1e9a0b7c3f8264';
const BODY_MARKER = 'a-body-that-must-not-be-logged-7f3a';
const lines: string[] = [];
const records = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
let service: RunningService;
let url: string;
let dataDir: string;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vitae-log-'));
  const config = loadConfig({
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    CONTENT_DIR: englishOnlyContent(),
    ADMIN_TOKEN: TOKEN,
    BASE_URL: 'http://vitae.test',
    DEV_URL: 'http://dev.vitae.test',
  });
  const logger = createLogger({ level: 'info', format: 'json', destination: { write: (line: string) => void lines.push(line) } });
  service = await startService(config, { listen: { main: 0 }, logger });
  url = service.urls.main!;
});
after(async () => {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The request record of the answer that carried this X-Request-Id (written when the answer closes). */
const recordOf = (id: string) => eventually(`the log record of ${id}`, () => records().find((r) => r.event === 'request' && r.reqId === id));

describe('request logs', () => {
  it('log method, route template, status, duration and client IP under the request id echoed as X-Request-Id', async () => {
    const res = await fetch(`${url}/api/v1/entries/concierge-copilot?locale=fr`);
    assert.equal(res.status, 200);
    const id = res.headers.get('x-request-id')!;
    assert.match(id, /^[0-9a-f-]{36}$/);
    const record = await recordOf(id);
    assert.equal(record.level, 'info');
    assert.equal(record.method, 'GET');
    assert.equal(record.route, '/api/v1/entries/{slug}');
    assert.equal(record.path, '/api/v1/entries/concierge-copilot', 'the path, without its query');
    assert.equal(record.status, 200);
    assert.equal(typeof record.ms, 'number');
    assert.equal(record.ip, '127.0.0.1');
    assert.equal(record.branch, 'main');
    assert.match(record.time, /^\d{4}-\d\d-\d\dT/);
  });

  it('keep a well-formed incoming X-Request-Id and replace any other', async () => {
    const kept = await fetch(`${url}/api/health`, { headers: { 'X-Request-Id': 'edge-7f3a:42' } });
    assert.equal(kept.headers.get('x-request-id'), 'edge-7f3a:42');
    await recordOf('edge-7f3a:42');
    for (const bad of ['has a space', 'x'.repeat(200), '"quoted"']) {
      const res = await fetch(`${url}/api/health`, { headers: { 'X-Request-Id': bad } });
      assert.match(res.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/, bad);
    }
  });

  it('echo the id on errors and on pages, and name the route of a page "page"', async () => {
    const missing = await fetch(`${url}/api/v1/entries/no-such-entry`);
    assert.equal(missing.status, 404);
    const refused = await recordOf(missing.headers.get('x-request-id')!);
    assert.equal(refused.status, 404);
    assert.equal(refused.code, 'not_found', 'the documented error code is on the line');
    const unknown = await fetch(`${url}/api/nothing-here`);
    assert.equal((await recordOf(unknown.headers.get('x-request-id')!)).route, null);
    const page = await fetch(`${url}/entries/concierge-copilot`);
    const record = await recordOf(page.headers.get('x-request-id')!);
    assert.equal(record.route, 'page');
  });

  it('log a feature that is not configured (no model: 503 chat_not_configured) at level info, not as a failure', async () => {
    const res = await fetch(`${url}/api/v1/ask`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'Where is she based?' }),
    });
    assert.equal(res.status, 503);
    const record = await recordOf(res.headers.get('x-request-id')!);
    assert.equal(record.code, 'chat_not_configured');
    assert.equal(record.level, 'info');
  });
});

describe('unexpected errors', () => {
  it('answer a 500 that says nothing, and log the error itself on the request line, under its request id', async () => {
    const repo = service.services.repo;
    const history = repo.history;
    repo.history = () => Promise.reject(new TypeError('kaboom in /srv/vitae/operations/repo'));
    try {
      const res = await fetch(`${url}/api/admin/history?branch=main`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.status, 500);
      const body = (await res.json()) as { code: string; message: string };
      assert.equal(body.code, 'internal');
      assert.doesNotMatch(body.message, /kaboom|\/srv\//, 'the caller learns nothing of the inside');
      const record = await recordOf(res.headers.get('x-request-id')!);
      assert.equal(record.level, 'error');
      assert.equal(record.status, 500);
      assert.equal(record.code, 'internal');
      assert.equal(record.route, '/api/admin/history');
      assert.equal(record.err?.type, 'TypeError');
      assert.match(record.err?.message, /kaboom/);
      assert.match(record.err?.stack, /TypeError: kaboom/);
    } finally {
      repo.history = history;
    }
  });
});

describe('requests node refuses', () => {
  it('log the refusal under the id the answer carries', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.end('GET /api/v1/entries HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const id = /^x-request-id: (\S+)$/im.exec(answer)?.[1];
    assert.ok(id, answer);
    const record = await recordOf(id);
    assert.equal(record.status, 400);
    assert.equal(record.refused, 'HPE_INVALID_CONTENT_LENGTH');
    assert.equal(record.ip, '127.0.0.1');
  });
});

describe('sign-in events, pipeline events and secrets', () => {
  it('logs login failed / ok and logout, a write and its run, and never a token, cookie, Authorization header or body', async () => {
    const login = (token: string, headers: Record<string, string> = {}) =>
      fetch(`${url}/api/admin/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ token }) });
    const wrong = 'not-the-token-but-also-secret-91c2';
    assert.equal((await login(wrong)).status, 401);
    const ok = await login(TOKEN);
    assert.equal(ok.status, 204);
    const cookie = ok.headers.get('set-cookie')!.split(';')[0]!;
    const cookieValue = cookie.split('=')[1]!;

    // A request that carries everything secret at once: bearer, cookie and a body.
    const write = await fetch(`${url}/api/admin/file`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${TOKEN}`, Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: 'content/skills/logged.md', content: skillFile('Logged', BODY_MARKER), message: 'a logged write' }),
    });
    assert.equal(write.status, 200);
    const { commit } = (await write.json()) as { commit: { sha: string } };
    const whoami = await fetch(`${url}/api/admin/whoami`, { headers: { Cookie: cookie } });
    assert.equal(whoami.status, 200);
    const logout = await fetch(`${url}/api/admin/logout`, { method: 'POST', headers: { Cookie: cookie, Origin: 'http://vitae.test' } });
    assert.equal(logout.status, 204);

    const auth = await eventually('the logout event', () => {
      const events = records().filter((r) => r.event === 'auth');
      return events.some((r) => r.action === 'logout') ? events : undefined;
    });
    assert.deepEqual(
      auth.map((r) => `${r.action}:${r.outcome ?? ''}:${r.level}`),
      ['login:failed:warn', 'login:ok:info', 'logout::info'],
    );
    assert.equal(auth[0]!.ip, '127.0.0.1');
    assert.equal((await recordOf(write.headers.get('x-request-id')!)).route, '/api/admin/file');

    // The write's run: queued, its stages, success — each a record with the run's id and short commit.
    const runs = await eventually('the run to succeed', () => {
      const mine = records().filter((r) => r.event === 'run' && r.commit === commit.sha.slice(0, 7));
      return mine.some((r) => r.status === 'success') ? mine : undefined;
    });
    assert.equal(runs[0]!.status, 'queued');
    assert.equal(runs.at(-1)!.stages.deploy, 'success');

    const text = lines.join('');
    for (const secret of [TOKEN, wrong, cookieValue, BODY_MARKER, 'Bearer']) assert.ok(!text.includes(secret), `the log holds ${secret.slice(0, 12)}…`);
  });

  it('logs a throttled login', async () => {
    for (let i = 0; i < CREDENTIAL_FAILURES + 1; i++)
      await fetch(`${url}/api/admin/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"token":"nope"}' });
    await eventually('a throttled login', () => records().find((r) => r.event === 'auth' && r.outcome === 'throttled'));
  });
});

describe('formats', () => {
  it('writes readable lines for a terminal and nothing at all when silent', () => {
    const out: string[] = [];
    const pretty = createLogger({ level: 'info', format: 'pretty', destination: { write: (line: string) => void out.push(line) } });
    pretty.info({ event: 'request', reqId: 'r1', method: 'GET', path: '/api/health', status: 200, ms: 1.5, ip: '127.0.0.1' }, 'request');
    pretty.warn({ event: 'auth', action: 'login', outcome: 'failed' }, 'login failed');
    assert.match(out[0]!, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/api\/health 200 1\.5 ms {2}reqId=r1 ip=127\.0\.0\.1\n$/);
    assert.match(out[1]!, /WARN {2}login failed {2}event=auth action=login outcome=failed/);
    const none: string[] = [];
    createLogger({ level: 'silent', format: 'json', destination: { write: (line: string) => void none.push(line) } }).error('x');
    assert.deepEqual(none, []);
  });
});
