// Several instances behind one address (docs/deploy.md, "Several instances"): two instances of the service on
// the github backend against one GitHub emulator (with Actions) and one real redis-server, as a load balancer
// would put them. A is a real process (so it can be killed the hard way), B runs in this process. GitHub's
// webhook reaches A only, as it would reach whichever instance the balancer picks; B hears of it through Redis.
//   - a commit made through A is live on B once its run succeeded;
//   - 20 asks a minute per client address hold across both instances together;
//   - logging out on A revokes the console cookie on B;
//   - killing A in the middle of a commit leaves the branch at the old commit or wholly at the new one, and B
//     goes on serving, writing and publishing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGitHubEmulator, type GitHubEmulator } from './github-emulator.ts';
import { addActions, type EmulatedActions } from './github-emulator-actions.ts';
import { startRedis, type TestRedis } from './redis-server.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { startTestService, type TestService } from './service.ts';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.ts';
import { englishOnlyContent } from './content-fixture.ts';
import { skillFile } from './content-git.ts';
import type { Run } from '../operations/server/pipeline.server.ts';

const TOKEN = 'instances-admin-token-8d2c6b1a9e';
const SECRET = 'instances-webhook-secret-51c7';
const SESSION_SECRET = 'instances-session-secret-3e9f0a77';
const SITE = 'http://vitae.test';

let emulator: GitHubEmulator;
let actions: EmulatedActions;
let redis: TestRedis;
let model: FakeOpenAI;
let dataA: string;
let a: ServerProcess;
let b: TestService;

before(async () => {
  [emulator, redis, model] = await Promise.all([startGitHubEmulator({ seedDir: englishOnlyContent() }), startRedis(), startFakeOpenAI()]);
  model.fallback = { text: 'Lisbon.' };
  actions = addActions(emulator, { secret: SECRET });
  const env = {
    REPO_BACKEND: 'github',
    GITHUB_API_URL: emulator.url,
    GITHUB_TOKEN: emulator.token,
    GITHUB_REPOSITORY: emulator.repository,
    GITHUB_WRITE_INTERVAL_MS: '0',
    GITHUB_WEBHOOK_SECRET: SECRET,
    RATE_LIMIT_STORE: redis.url,
    ADMIN_TOKEN: TOKEN,
    SESSION_SECRET,
    BASE_URL: SITE,
    DEV_URL: 'http://dev.vitae.test',
    OPENAI_BASE_URL: model.url,
    LOG_LEVEL: 'error',
  };
  dataA = await mkdtemp(join(tmpdir(), 'vitae-instance-a-'));
  a = await startServerProcess(dataA, env);
  b = await startTestService(env);
  actions.webhookUrls.push(`${a.url}/api/admin/github/webhook`); // the balancer sent GitHub's deliveries to A
});

after(async () => {
  await actions.stop();
  await b?.stop();
  await a?.kill9().catch(() => {});
  await rm(dataA, { recursive: true, force: true });
  await Promise.all([emulator.close(), redis.stop(), model.close()]);
});

const admin = (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const liveOn = async (base: string) => ((await (await fetch(`${base}/api/health`)).json()) as { content: { commit: string } }).content.commit;

/** Watches B's pipeline from now on: `finished(commit)` resolves once B has read a finished run for that commit. */
function watchB() {
  const finished: Run[] = [];
  let wake = () => {};
  const off = b.services.pipeline.onChange((run) => {
    if (run.status !== 'success' && run.status !== 'failure') return;
    finished.push(run);
    wake();
  });
  return async (commit: string): Promise<Run> => {
    for (;;) {
      const run = finished.find((r) => r.commit === commit || r.sourceCommit === commit);
      if (run) {
        off();
        return run;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
}

describe('two instances, one GitHub, one Redis', () => {
  it('a commit made through A is live on B once its run succeeded', { timeout: 60_000 }, async () => {
    const before = await liveOn(b.url);
    const finishedOnB = watchB();
    const write = await admin(a.url, 'PUT', '/api/admin/file', { path: 'content/skills/rust.md', content: skillFile('rust'), message: 'Add Rust through A' });
    assert.equal(write.status, 200, await write.clone().text());
    const sha = ((await write.json()) as { commit: { sha: string } }).commit.sha;
    const seen = finishedOnB(sha);
    await actions.completed('main', sha);
    const run = await seen;
    assert.equal(run.status, 'success');
    await b.services.pipeline.idle();
    assert.notEqual(before, sha);
    assert.equal(await liveOn(b.url), sha);
    assert.ok(
      actions.deliveries.every((d) => d.url.startsWith(a.url)),
      'GitHub told A only',
    );
  });

  it('holds 20 asks a minute per client address across both instances together', { timeout: 60_000 }, async () => {
    const ask = (base: string) =>
      fetch(`${base}/api/v1/ask`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ question: 'Where is Noa based?' }),
      });
    for (let i = 0; i < 10; i++) assert.equal((await ask(a.url)).status, 200);
    for (let i = 0; i < 10; i++) assert.equal((await ask(b.url)).status, 200);
    const fromA = await ask(a.url);
    const fromB = await ask(b.url);
    assert.equal(fromA.status, 429);
    assert.equal(fromB.status, 429);
    assert.ok(Number(fromB.headers.get('retry-after')) > 0);
  });

  it('logging out on A revokes the console cookie on B', async () => {
    const login = await fetch(`${a.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: TOKEN }),
    });
    assert.equal(login.status, 204);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const whoami = (base: string) => fetch(`${base}/api/admin/whoami`, { headers: { Cookie: cookie } });
    assert.equal((await whoami(b.url)).status, 200, 'a session made on A works on B');
    const logout = await fetch(`${a.url}/api/admin/logout`, { method: 'POST', headers: { Cookie: cookie, Origin: SITE } });
    assert.equal(logout.status, 204);
    assert.equal((await whoami(b.url)).status, 401);
  });

  it('killing A in the middle of a commit leaves the branch intact, and B goes on serving and publishing', { timeout: 90_000 }, async () => {
    const before = (await emulator.head('main'))!;
    const content = skillFile('zig', 'Zig, written through A as it died.');
    // A has made its commit object and is about to move the branch: it is killed there (SIGKILL, no shutdown code).
    emulator.faults.beforeRefUpdate = () => a.kill9();
    const dying = await admin(a.url, 'PUT', '/api/admin/file', { path: 'content/skills/zig.md', content, message: 'Add Zig through A' }).then(
      (res) => res.status,
      () => 'cut',
    );
    assert.notEqual(dying, 200, 'A did not answer');
    // GitHub finishes what it received whether or not the caller is still there: wait for the emulator to answer it.
    while (emulator.requests.some((r) => r.status === 0)) await new Promise((r) => setTimeout(r, 20));
    const after = (await emulator.head('main'))!;
    if (after !== before) {
      // The update landed whole: one commit on the old head, with the whole change.
      assert.equal((await emulator.git.text(['rev-parse', `${after}^`])).trim(), before);
      assert.equal((await emulator.git.text(['show', `${after}:content/skills/zig.md`])).toString(), content.trimEnd());
    }
    assert.equal((await emulator.git.text(['fsck', '--no-dangling'])).trim(), '', 'the repository is sound');

    // B serves, reads the branch as it is, writes on top of it and publishes that.
    assert.equal((await fetch(`${b.url}/api/health`)).status, 200);
    const list = await admin(b.url, 'GET', '/api/admin/files?branch=main&dir=content/skills');
    assert.equal(list.status, 200);
    const write = await admin(b.url, 'PUT', '/api/admin/file', {
      path: 'content/skills/ocaml.md',
      content: skillFile('ocaml'),
      message: 'Add OCaml through B',
    });
    assert.equal(write.status, 200, await write.clone().text());
    const sha = ((await write.json()) as { commit: { sha: string } }).commit.sha;
    assert.equal((await emulator.git.text(['rev-parse', `${sha}^`])).trim(), after);
    await actions.completed('main', sha);
    await b.services.pipeline.idle();
    assert.equal(await liveOn(b.url), sha);
  });
});
