// Crash safety with the real server as a child process: SIGKILL (the whole process group, git children
// included) during a burst of writes and during a pipeline run, then a restart over the same DATA_DIR.
// Nothing answered 200 may be lost, the repository must stay fsck-clean, an interrupted run is marked
// and redone, and readers only ever see a complete build.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../../testing/server-process.ts';
import { contentGit, projectFile, skillFile } from '../../testing/content-git.ts';
import { eventually } from '../../testing/admin-http.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';

const TOKEN = 'crash-suite-token-6f0b3d9e1a7c5284';
const cleanup: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const task of cleanup.reverse()) await task().catch(() => {});
});

async function tempDir(prefix: string) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dataDir: string, env: Record<string, string> = {}) {
  const server = await startServerProcess(dataDir, { ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent(), ...env });
  cleanup.push(() => server.kill9());
  return server;
}

const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
async function put(url: string, path: string, content: string, message: string) {
  const res = await fetch(`${url}/api/admin/file`, { method: 'PUT', headers: auth, body: JSON.stringify({ path, content, message }) });
  return { status: res.status, body: await res.json() };
}
async function runs(url: string): Promise<any[]> {
  const res = await fetch(`${url}/api/admin/deploys?limit=100`, { headers: auth });
  assert.equal(res.status, 200);
  return (await res.json()).runs;
}
const waitForSuccess = (url: string, commit: string) =>
  eventually(`a successful run of ${commit.slice(0, 7)}`, async () => (await runs(url)).find((r) => r.commit === commit && r.status === 'success'), 60_000);
const health = async (url: string) => await (await fetch(`${url}/api/health`)).json();

/**
 * Reads the public API in a loop and records anything that is not a complete build: an error status,
 * a body that is not the whole JSON, a total or commit outside the allowed set, or a commit going back.
 */
function pollReaders(url: string, allowed: { totals?: number[]; commits?: string[]; minTotal?: number }) {
  const anomalies: string[] = [];
  let reads = 0;
  let stopped = false;
  let lastCommitIndex = -1;
  const loop = (async () => {
    while (!stopped) {
      try {
        const [list, h] = await Promise.all([fetch(`${url}/api/v1/entries`), fetch(`${url}/api/health`)]);
        if (stopped) break;
        if (list.status !== 200 || h.status !== 200) anomalies.push(`status ${list.status}/${h.status}`);
        const body = await list.json();
        const report = await h.json();
        if (body.entries.length !== body.total) anomalies.push(`a list of ${body.entries.length} says total ${body.total}`);
        if (allowed.totals && !allowed.totals.includes(body.total)) anomalies.push(`total ${body.total}`);
        if (allowed.minTotal !== undefined && body.total < allowed.minTotal) anomalies.push(`total ${body.total} < ${allowed.minTotal}`);
        if (allowed.commits) {
          const index = allowed.commits.indexOf(report.content.commit);
          if (index === -1) anomalies.push(`served commit ${report.content.commit}`);
          if (index < lastCommitIndex) anomalies.push(`went back to ${report.content.commit}`);
          lastCommitIndex = Math.max(lastCommitIndex, index);
        }
        reads++;
      } catch (error) {
        if (!stopped) anomalies.push(`read failed: ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      if (anomalies.length >= 20) break; // enough to fail the test; do not spin on a dead server
    }
  })();
  cleanup.push(async () => {
    stopped = true;
    await loop;
  });
  return {
    get reads() {
      return reads;
    },
    anomalies,
    /** Stop before killing the server: reads cut off by the kill itself are not anomalies. */
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** A `git` that hangs in `cat-file` while a pause file exists: a build that is slow exactly when we want. */
async function pausingGit() {
  const bin = await tempDir('vitae-gitwrap-');
  const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
  const pause = join(bin, 'pause');
  await writeFile(
    join(bin, 'git'),
    `#!/bin/sh\nif [ "$1" = "cat-file" ] && [ -e "${pause}" ]; then\n  echo $$ > "${pause}.hit"\n  while [ -e "${pause}" ]; do sleep 0.05; done\nfi\nexec "${realGit}" "$@"\n`,
  );
  await chmod(join(bin, 'git'), 0o755);
  return { env: { PATH: `${bin}:${process.env.PATH}` }, pause, hit: `${pause}.hit` };
}

describe('kill -9 during a burst of writes', () => {
  it('loses no answered write, leaves fsck clean and nothing half-written, and serves a whole build throughout (3 crashes)', { timeout: 180_000 }, async () => {
    const dataDir = await tempDir('vitae-crash-');
    let server = await start(dataDir);
    const repo = contentGit(dataDir);
    const base = repo.head();
    const seedTotal = (await health(server.url)).content.entries;
    const writes: Array<{ path: string; content: string; message: string }> = [];
    const answered: Array<{ path: string; content: string; sha: string }> = [];

    // Three rounds, each killed at a different point of a burst of 30 concurrent writes.
    for (const [round, killAfter] of [3, 10, 20].entries()) {
      const readers = pollReaders(server.url, { minTotal: seedTotal });
      const burst = Array.from({ length: 30 }, (_, i) => ({
        path: `content/skills/burst-${round}-${String(i).padStart(2, '0')}.md`,
        content: skillFile(`Burst ${round} ${i}`),
        message: `burst ${round} ${i}`,
      }));
      writes.push(...burst);
      let answeredNow = 0;
      const refused: string[] = [];
      const inFlight = burst.map((w) =>
        put(server.url, w.path, w.content, w.message).then(
          (r) => {
            if (r.status !== 200) return void refused.push(`a write answered ${r.status}: ${JSON.stringify(r.body)}`);
            answered.push({ path: w.path, content: w.content, sha: r.body.commit.sha });
            answeredNow++;
          },
          () => undefined, // cut off by the kill: the outcome is unknown
        ),
      );
      await eventually(
        `${killAfter} answered writes`,
        () => {
          if (refused.length) throw new Error(refused[0]);
          return answeredNow >= killAfter ? true : undefined;
        },
        60_000,
      );
      await readers.stop();
      await server.kill9();
      await Promise.all(inFlight);
      assert.deepEqual(refused, []);
      assert.ok(answeredNow < burst.length, 'the kill landed during the burst');
      assert.deepEqual(readers.anomalies, []);
      assert.ok(readers.reads > 0);

      // The worst moment: a crash inside `git update-ref` leaves the branch lock behind.
      if (round === 0) await writeFile(join(dataDir, 'content.git', 'refs', 'heads', 'main.lock'), '');

      server = await start(dataDir);
      const { status, output } = repo.fsck();
      assert.equal(status, 0, output);
      const history = repo.log(`${base}..main`);
      const inHistory = new Set(history.map((c) => c.sha));
      for (const write of answered) assert.ok(inHistory.has(write.sha), `answered commit ${write.sha} is in main's history`);
      assert.deepEqual(
        repo.showMany(
          'main',
          answered.map((w) => w.path),
        ),
        answered.map((w) => w.content),
        'every answered write is on main, byte for byte',
      );
      // Every commit since the start is one whole write: one added file holding exactly the content sent.
      for (const commit of history) assert.equal(commit.changes.length, 1, `${commit.sha}: ${commit.changes.join(', ')}`);
      const stored = repo.showMany(
        'main',
        writes.map((w) => w.path),
      );
      writes.forEach((w, i) => assert.ok(stored[i] === undefined || stored[i] === w.content, `${w.path} is either absent or whole`));
      assert.equal(stored.filter((text) => text !== undefined).length, history.length, 'one file per commit, no other change');
    }

    // Writes work again after the restarts, and the pipeline publishes the head.
    const after = await put(server.url, 'content/skills/after-restart.md', skillFile('After restart'), 'after restart');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    await waitForSuccess(server.url, after.body.commit.sha);
    assert.equal((await health(server.url)).content.commit, after.body.commit.sha);
    assert.equal(repo.fsck().status, 0);
    assert.ok(!server.output().includes(TOKEN), 'the token is never logged');
    await server.stop();
  });
});

describe('kill -9 during a pipeline run', () => {
  it('marks the interrupted run failed, redoes it after the restart, and serves the previous build until then', { timeout: 180_000 }, async () => {
    const dataDir = await tempDir('vitae-crash-');
    const git = await pausingGit();
    let server = await start(dataDir, git.env);
    const repo = contentGit(dataDir);

    // A first publish, so that there is a previous build on record.
    const first = await put(server.url, 'content/skills/before-crash.md', skillFile('Before crash'), 'before the crash');
    assert.equal(first.status, 200);
    await waitForSuccess(server.url, first.body.commit.sha);
    const previous = first.body.commit.sha as string;
    const previousTotal = (await health(server.url)).content.entries;

    // The next build hangs in git until we kill the server. It is pushed from outside: a commit the service
    // made itself is built from the files it already holds, without reading git again.
    await writeFile(git.pause, '');
    const next = repo.commitOutside('main', [{ path: 'content/corpus/projects/crash-entry.md', content: projectFile('Crash entry') }], 'during the crash');
    await eventually('the build to reach git', () => (existsSync(git.hit) ? true : undefined));
    const runFiles = await readdir(join(dataDir, 'runs'));
    const records = await Promise.all(
      runFiles.filter((f) => f.endsWith('.json')).map(async (f) => JSON.parse(await readFile(join(dataDir, 'runs', f), 'utf8'))),
    );
    const interrupted = records.find((r) => r.commit === next)!;
    assert.equal(interrupted.status, 'running');
    assert.equal(interrupted.stages.find((s: any) => s.name === 'build').status, 'running');

    const during = pollReaders(server.url, { totals: [previousTotal], commits: [previous] });
    await eventually('readers to read during the run', () => (during.reads >= 10 ? true : undefined));
    assert.equal((await fetch(`${server.url}/api/v1/entries/crash-entry`)).status, 404, 'not live before its run succeeds');
    await during.stop();
    await server.kill9();
    await rm(git.pause);
    assert.deepEqual(during.anomalies, []);

    server = await start(dataDir, git.env);
    const afterRestart = pollReaders(server.url, { totals: [previousTotal, previousTotal + 1], commits: [previous, next] });
    const redone = await waitForSuccess(server.url, next);
    await afterRestart.stop();
    assert.deepEqual(afterRestart.anomalies, []);

    const all = await runs(server.url);
    const marked = all.find((r) => r.id === interrupted.id);
    assert.equal(marked.status, 'failure');
    assert.match(marked.error, /interrupted/);
    assert.notEqual(redone.id, interrupted.id, 'a new run for the same commit');
    assert.ok(redone.id > interrupted.id);
    assert.equal((await health(server.url)).content.commit, next);
    assert.equal((await fetch(`${server.url}/api/v1/entries/crash-entry`)).status, 200);
    const { status, output } = repo.fsck();
    assert.equal(status, 0, output);
    for (const f of await readdir(join(dataDir, 'runs'))) {
      if (f.endsWith('.json')) assert.ok(!(await readFile(join(dataDir, 'runs', f), 'utf8')).includes(TOKEN));
    }
    assert.ok(!server.output().includes(TOKEN), 'the token is never logged');
    await server.stop();
  });
});

describe('restart after an outside push of invalid content', () => {
  it('still starts and serves the last good build', async () => {
    const dataDir = await tempDir('vitae-crash-');
    let server = await start(dataDir);
    const seed = (await health(server.url)).content.commit;
    await server.stop();
    contentGit(dataDir).commitOutside('main', [{ path: 'content/skills/python.md', content: '---\nname: Python\n---\nNo category.\n' }], 'invalid push');
    server = await start(dataDir);
    assert.equal((await health(server.url)).content.commit, seed);
    await server.stop();
    // With no record of what was deployed, the newest valid commit of the branch is served.
    await rm(join(dataDir, 'deployed.json'));
    server = await start(dataDir);
    assert.equal((await health(server.url)).content.commit, seed);
    await server.stop();
  });
});
