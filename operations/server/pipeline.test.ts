// The publish pipeline on its own, with steps the test controls: durable run records, failure handling,
// superseding, recovery after a crash, and the atomic record files underneath.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Branch } from '../contract/shared.ts';
import { createPipeline, type PipelineSteps, type Run } from './pipeline.server.ts';
import { writeFileAtomic } from './files.server.ts';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'vitae-pipeline-'));
  dirs.push(dir);
  return dir;
}

/** Steps that record what they did; `hold` keeps a stage of a commit waiting until released; `fail` makes a build throw. */
function fakeSteps(options: { fail?: Set<string> } = {}) {
  const deployed: Array<[Branch, string]> = [];
  const built: string[] = [];
  const gates = new Map<string, () => void>();
  const held = new Set<string>();
  type Stage = 'translate' | 'build';
  const key = (commit: string, stage: Stage) => `${stage} ${commit}`;
  const wait = (commit: string, stage: Stage) =>
    held.has(key(commit, stage)) ? new Promise<void>((resolve) => gates.set(key(commit, stage), resolve)) : undefined;
  const steps: PipelineSteps<string> = {
    async translate(_branch, commit) {
      await wait(commit, 'translate');
      return { status: 'skipped', note: 'no model in tests' };
    },
    async build(_branch, commit) {
      await wait(commit, 'build');
      built.push(commit);
      if (options.fail?.has(commit)) throw new Error(`content/skills/${commit}.md: category must be one of …`);
      return commit;
    },
    async deploy(branch, build) {
      deployed.push([branch, build]);
    },
  };
  return {
    steps,
    deployed,
    built,
    hold: (commit: string, stage: Stage = 'build') => held.add(key(commit, stage)),
    release: (commit: string, stage: Stage = 'build') => gates.get(key(commit, stage))?.(),
    isWaiting: (commit: string, stage: Stage = 'build') => gates.has(key(commit, stage)),
  };
}

async function until(check: () => boolean) {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'condition never became true');
}

describe('the pipeline', () => {
  it('runs translate → build → deploy and keeps the record on disk', async () => {
    const dir = await tempDir();
    const fake = fakeSteps();
    const pipeline = await createPipeline(dir, fake.steps);
    const run = await pipeline.enqueue('main', 'c1');
    const onDisk = JSON.parse(await readFile(join(dir, 'runs', `${run.id}.json`), 'utf8'));
    assert.equal(onDisk.commit, 'c1', 'the record is on disk when enqueue returns');
    await pipeline.idle();
    const done = pipeline.get(run.id)!;
    assert.equal(done.status, 'success');
    assert.deepEqual(
      done.stages.map((s) => [s.name, s.status]),
      [
        ['translate', 'skipped'],
        ['build', 'success'],
        ['deploy', 'success'],
      ],
    );
    assert.equal(done.stages[0]!.note, 'no model in tests');
    assert.deepEqual(fake.deployed, [['main', 'c1']]);
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'runs', `${run.id}.json`), 'utf8')), done);

    const reopened = await createPipeline(dir, fake.steps);
    assert.deepEqual(reopened.list('main', 10), [done], 'runs survive a restart');
  });

  it('a failed build records why, cancels deploy, and deploys nothing', async () => {
    const dir = await tempDir();
    const fake = fakeSteps({ fail: new Set(['bad']) });
    const lines: string[] = [];
    const pipeline = await createPipeline(dir, fake.steps, (line) => lines.push(line));
    await pipeline.enqueue('main', 'good');
    await pipeline.idle();
    const run = await pipeline.enqueue('main', 'bad');
    await pipeline.idle();
    const failed = pipeline.get(run.id)!;
    assert.equal(failed.status, 'failure');
    assert.match(failed.error!, /^build failed: content\/skills\/bad\.md/);
    assert.deepEqual(
      failed.stages.map((s) => s.status),
      ['skipped', 'failure', 'cancelled'],
    );
    assert.match(failed.stages[1]!.note!, /category/);
    assert.deepEqual(fake.deployed, [['main', 'good']], 'the previous build stays deployed');
    assert.ok(lines.some((l) => l.includes(run.id)));
  });

  it('builds only the newest queued commit of a branch; older queued runs are cancelled as superseded', async () => {
    const dir = await tempDir();
    const fake = fakeSteps();
    const pipeline = await createPipeline(dir, fake.steps);
    fake.hold('a');
    await pipeline.enqueue('main', 'a');
    await until(() => fake.isWaiting('a'));
    const b = await pipeline.enqueue('main', 'b');
    const c = await pipeline.enqueue('main', 'c');
    const devRun = await pipeline.enqueue('dev', 'd');
    fake.release('a');
    await pipeline.idle();
    assert.equal(pipeline.get(b.id)!.status, 'cancelled');
    assert.match(pipeline.get(b.id)!.error!, new RegExp(`superseded by run ${c.id}`));
    assert.equal(pipeline.get(c.id)!.status, 'success');
    assert.equal(pipeline.get(devRun.id)!.status, 'success', 'branches do not wait for each other');
    assert.deepEqual(
      fake.deployed.filter(([branch]) => branch === 'main').map(([, c]) => c),
      ['a', 'c'],
    );
  });

  it('ensure() queues a commit once, and never again once superseded (a stale head must not be published over a newer one)', async () => {
    const dir = await tempDir();
    const fake = fakeSteps();
    const pipeline = await createPipeline(dir, fake.steps);
    fake.hold('x');
    await pipeline.ensure('main', 'x');
    await until(() => fake.isWaiting('x'));
    await pipeline.enqueue('main', 'y');
    await pipeline.enqueue('main', 'z'); // y is superseded by z
    fake.release('x');
    await pipeline.idle();
    assert.equal(await pipeline.ensure('main', 'y'), undefined, 'a superseded commit is not queued again');
    assert.equal(await pipeline.ensure('main', 'z'), undefined);
    assert.equal(await pipeline.ensure('main', 'x'), undefined);
    await pipeline.idle();
    assert.deepEqual(
      fake.deployed.map(([, c]) => c),
      ['x', 'z'],
      'the newest commit is the last one deployed',
    );
    assert.ok(await pipeline.ensure('dev', 'z'), 'per branch');
  });

  it('enqueue() reuses a queued run of the same commit instead of building it twice', async () => {
    const dir = await tempDir();
    const fake = fakeSteps();
    const pipeline = await createPipeline(dir, fake.steps);
    fake.hold('first');
    await pipeline.enqueue('main', 'first');
    await until(() => fake.isWaiting('first'));
    const fromWatcher = await pipeline.ensure('main', 'second');
    const fromWriter = await pipeline.enqueue('main', 'second');
    assert.equal(fromWriter.id, fromWatcher!.id);
    fake.release('first');
    await pipeline.idle();
    assert.deepEqual(fake.built, ['first', 'second']);
    assert.equal(pipeline.list('main', 10).length, 2);
  });

  it(
    'a run whose record cannot be saved (full disk, broken folder) ends as failed instead of hanging or crashing the process',
    { timeout: 20_000 },
    async () => {
      const dir = await tempDir();
      const fake = fakeSteps();
      const lines: string[] = [];
      const pipeline = await createPipeline(dir, fake.steps, (line) => lines.push(line));
      fake.hold('c1');
      const run = await pipeline.enqueue('main', 'c1');
      await until(() => fake.isWaiting('c1'));
      await rm(join(dir, 'runs'), { recursive: true });
      await writeFile(join(dir, 'runs'), 'not a folder'); // every later save fails
      fake.release('c1');
      await pipeline.idle();
      assert.equal(pipeline.get(run.id)!.status, 'failure');
      assert.match(pipeline.get(run.id)!.error!, /could not be saved/);
      assert.ok(lines.some((l) => l.includes(run.id)));
    },
  );

  it('after a crash, marks a run that was running as failed, queues it again and finishes it', async () => {
    const dir = await tempDir();
    const crashed: Run = {
      id: '20260101000000000-0000-aaaaaa',
      branch: 'main',
      commit: 'c9',
      status: 'running',
      createdAt: '2026-01-01T00:00:00.000Z',
      stages: [
        { name: 'translate', status: 'skipped', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:00.000Z' },
        { name: 'build', status: 'running', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null },
        { name: 'deploy', status: 'queued', startedAt: null, finishedAt: null },
      ],
    };
    const waiting: Run = {
      ...crashed,
      id: '20260101000000001-0001-bbbbbb',
      branch: 'dev',
      commit: 'd9',
      status: 'queued',
      stages: crashed.stages.map((s) => ({ ...s, status: 'queued', startedAt: null, finishedAt: null })),
    };
    await mkdir(join(dir, 'runs'), { recursive: true });
    await writeFile(join(dir, 'runs', `${crashed.id}.json`), JSON.stringify(crashed));
    await writeFile(join(dir, 'runs', `${waiting.id}.json`), JSON.stringify(waiting));
    await writeFile(join(dir, 'runs', `${crashed.id}.json.123.abc.tmp`), '{"half": '); // a write cut short
    const fake = fakeSteps();
    const pipeline = await createPipeline(dir, fake.steps);
    await pipeline.recover();
    await pipeline.idle();
    const old = pipeline.get(crashed.id)!;
    assert.equal(old.status, 'failure');
    assert.match(old.error!, /interrupted/);
    assert.deepEqual(
      old.stages.map((s) => s.status),
      ['skipped', 'cancelled', 'cancelled'],
    );
    const retry = pipeline.list('main', 10).find((r) => r.retryOf === crashed.id)!;
    assert.equal(retry.commit, 'c9');
    assert.equal(retry.status, 'success');
    assert.equal(pipeline.get(waiting.id)!.status, 'success', 'queued work resumes');
    assert.deepEqual(fake.deployed.sort(), [
      ['dev', 'd9'],
      ['main', 'c9'],
    ]);
    const onDisk = JSON.parse(await readFile(join(dir, 'runs', `${crashed.id}.json`), 'utf8'));
    assert.equal(onDisk.status, 'failure');
  });
});

describe('writeFileAtomic', () => {
  it('lands concurrent writes to one file in call order, leaving no temporary files', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.json');
    await Promise.all(Array.from({ length: 40 }, (_, i) => writeFileAtomic(path, JSON.stringify({ i }))));
    assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), { i: 39 });
    assert.deepEqual(await readdir(dir), ['state.json']);
  });
});

describe('stopping', () => {
  it('ends at a stage boundary: the running build finishes and deploys, a queued run stays queued, and the next start resumes it', async () => {
    const dir = await tempDir();
    const fake = fakeSteps();
    fake.hold('c1');
    const pipeline = await createPipeline(dir, fake.steps);
    const first = await pipeline.enqueue('main', 'c1');
    await until(() => fake.isWaiting('c1'));
    const second = await pipeline.enqueue('main', 'c2');
    const stopped = pipeline.stop();
    fake.release('c1');
    await stopped;
    assert.equal(pipeline.get(first.id)!.status, 'success', 'a run with a build deploys it');
    assert.deepEqual(fake.deployed, [['main', 'c1']]);
    assert.equal(pipeline.get(second.id)!.status, 'queued', 'nothing new is started');
    assert.deepEqual(fake.built, ['c1']);

    const next = fakeSteps();
    const restarted = await createPipeline(dir, next.steps);
    await restarted.recover();
    await restarted.idle();
    assert.deepEqual(next.deployed, [['main', 'c2']]);
  });

  it('marks a run that has not built yet interrupted and queues it again', async () => {
    const dir = await tempDir();
    const fake = fakeSteps();
    const pipeline = await createPipeline(dir, fake.steps);
    fake.hold('c9', 'translate');
    const run = await pipeline.enqueue('dev', 'c9');
    await until(() => fake.isWaiting('c9', 'translate'));
    const stopped = pipeline.stop();
    fake.release('c9', 'translate');
    await stopped;
    const record = pipeline.get(run.id)!;
    assert.equal(record.status, 'failure');
    assert.match(record.error!, /interrupted/);
    assert.equal(record.stages.find((s) => s.name === 'build')!.status, 'cancelled');
    assert.deepEqual(fake.built, []);
    const retry = pipeline.list('dev', 5).find((r) => r.retryOf === run.id);
    assert.equal(retry?.status, 'queued');
    assert.equal(retry?.commit, 'c9');
  });
});

describe('an interrupted run behind a newer one', () => {
  it('is not queued again: the newer commit is what gets published after the restart', async () => {
    const dir = await tempDir();
    const fake = fakeSteps();
    const pipeline = await createPipeline(dir, fake.steps);
    fake.hold('old', 'translate');
    const older = await pipeline.enqueue('main', 'old');
    await until(() => fake.isWaiting('old', 'translate'));
    await pipeline.enqueue('main', 'new');
    const stopped = pipeline.stop();
    fake.release('old', 'translate');
    await stopped;
    assert.match(pipeline.get(older.id)!.error!, /a newer run is queued/);
    assert.equal(pipeline.list('main', 10).filter((r) => r.status === 'queued').length, 1);

    const next = fakeSteps();
    const restarted = await createPipeline(dir, next.steps);
    await restarted.recover();
    await restarted.idle();
    assert.deepEqual(next.deployed, [['main', 'new']]);
  });
});
