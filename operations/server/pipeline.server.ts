// The publish pipeline: every new commit on main or dev gets a durable run, translate → build → deploy.
// Run records live under DATA_DIR/runs and survive restarts; a run cut short by a crash is marked failed
// and queued again. A failed run leaves the previous build live. A translate stage that made only some of its
// translations (`partial`) or none (`failure`) does not fail the run: the run builds and deploys what was made and
// the English, which the site serves where a translation is missing or stale; the stage's note names each failure.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Branch } from '../contract/shared.ts';
import { readJson, writeFileAtomic } from './files.server.ts';

export type RunStatus = 'queued' | 'running' | 'success' | 'failure' | 'cancelled';
export type StageStatus = 'queued' | 'running' | 'success' | 'partial' | 'failure' | 'skipped' | 'cancelled';
export type StageName = 'translate' | 'build' | 'deploy';

export interface Stage {
  name: StageName;
  status: StageStatus;
  startedAt: string | null;
  finishedAt: string | null;
  note?: string;
}

export interface Run {
  id: string;
  branch: Branch;
  commit: string;
  status: RunStatus;
  stages: Stage[];
  createdAt: string;
  error?: string;
  /** When a run was re-queued after an interruption, the run it replaces. */
  retryOf?: string;
  /** When the translate stage committed on top, the commit the run was queued for. */
  sourceCommit?: string;
  /** Where the run can be seen: a GitHub Actions run's page (github backend); else the admin API's own address. */
  url?: string;
  /** Who made the commit it publishes, when known (the account that committed through the service). */
  by?: string;
}

export interface StageResult {
  /** `partial` or `failure` (translate): some or none of what the stage attempted was made; the run goes on. */
  status: 'success' | 'partial' | 'failure' | 'skipped';
  note?: string;
}

export interface PipelineSteps<B> {
  /** Translate stale and missing translations; may commit and so return a newer commit to build. */
  translate(branch: Branch, commit: string): Promise<StageResult & { commit?: string }>;
  build(branch: Branch, commit: string): Promise<B>;
  deploy(branch: Branch, build: B): Promise<void>;
}

const STAGES: StageName[] = ['translate', 'build', 'deploy'];
const now = () => new Date().toISOString();

export async function createPipeline<B>(dataDir: string, steps: PipelineSteps<B>, log: (line: string) => void = () => {}) {
  const dir = join(dataDir, 'runs');
  const listeners = new Set<(run: Run) => void>();
  const working = new Set<Branch>();
  let counter = 0;
  /** Set by stop(): no queued run is taken, and a running one ends at its next stage boundary. */
  let stopping = false;

  const runs = await readRuns(dir);

  async function save(run: Run) {
    await writeFileAtomic(join(dir, `${run.id}.json`), JSON.stringify(run, null, 2));
    for (const listener of listeners) listener(run);
  }

  /**
   * Whether an interrupted run must be done again: not when a run queued after it on its branch will
   * publish a newer commit anyway (a retry, being newest, would supersede that run and publish the older).
   */
  const superseded = (run: Run) => [...runs.values()].some((r) => r.branch === run.branch && r.status === 'queued' && r.id > run.id);

  function newRun(branch: Branch, commit: string, retryOf?: string): Run {
    const id = `${now().replace(/[-:.TZ]/g, '')}-${String(counter++).padStart(4, '0')}-${randomBytes(3).toString('hex')}`;
    return {
      id,
      branch,
      commit,
      status: 'queued',
      createdAt: now(),
      stages: STAGES.map((name) => ({ name, status: 'queued', startedAt: null, finishedAt: null })),
      ...(retryOf ? { retryOf } : {}),
    };
  }

  async function enqueue(branch: Branch, commit: string, retryOf?: string, by?: string): Promise<Run> {
    // The watcher may have queued this very commit a moment before the writer that made it: one run is enough.
    const waiting = retryOf ? undefined : [...runs.values()].find((r) => r.branch === branch && r.commit === commit && r.status === 'queued');
    if (waiting) {
      if (by && !waiting.by) {
        waiting.by = by;
        await save(waiting);
      }
      return waiting;
    }
    const run = { ...newRun(branch, commit, retryOf), ...(by ? { by } : {}) };
    runs.set(run.id, run);
    await save(run);
    start(branch);
    return run;
  }

  /** Starts working through a branch's queue in the background; a failure there is logged, never thrown at nobody. */
  function start(branch: Branch) {
    work(branch).catch((error) => log(`[vitae] the ${branch} pipeline stopped on an error: ${(error as Error).message}`));
  }

  /** Works through a branch's queue; only the newest queued commit is built, older ones are superseded. */
  async function work(branch: Branch) {
    if (working.has(branch) || stopping) return;
    working.add(branch);
    try {
      while (!stopping) {
        const queued = [...runs.values()].filter((r) => r.branch === branch && r.status === 'queued').sort((a, b) => a.id.localeCompare(b.id));
        const run = queued.pop();
        if (!run) break;
        for (const older of queued) {
          older.status = 'cancelled';
          older.error = `superseded by run ${run.id}`;
          older.stages.forEach((s) => (s.status = 'cancelled'));
          await save(older);
        }
        try {
          await execute(run);
        } catch (error) {
          // Only saving a record can fail here (e.g. a full disk); never leave the run looking alive.
          run.status = 'failure';
          run.error = `the run record could not be saved: ${(error as Error).message}`;
          for (const stage of run.stages) if (stage.status === 'queued' || stage.status === 'running') stage.status = 'cancelled';
          log(`[vitae] run ${run.id} on ${run.branch} failed: ${run.error}`);
          await save(run).catch(() => {});
        }
      }
    } finally {
      working.delete(branch);
    }
  }

  async function execute(run: Run) {
    run.status = 'running';
    await save(run);
    let build: B | undefined;
    for (const stage of run.stages) {
      // Stopping: a run that has not built yet ends here, marked interrupted and queued again for the next
      // start; once it has a build, deploying it is quicker than redoing it.
      if (stopping && stage.name !== 'deploy') {
        const again = !superseded(run);
        run.status = 'failure';
        run.error = `interrupted: the service stopped before ${stage.name}; ${again ? 'it was queued again' : 'a newer run is queued'}`;
        for (const later of run.stages) if (later.status === 'queued') later.status = 'cancelled';
        await save(run);
        if (again) {
          const retry = newRun(run.branch, run.sourceCommit ?? run.commit, run.id);
          runs.set(retry.id, retry);
          await save(retry);
        }
        return;
      }
      stage.status = 'running';
      stage.startedAt = now();
      await save(run);
      try {
        build = await runStage(steps, run, stage, build);
        stage.finishedAt = now();
      } catch (error) {
        failStage(run, stage, error as Error);
        log(`[vitae] run ${run.id} on ${run.branch} failed: ${run.error}`);
        await save(run);
        return;
      }
      await save(run);
    }
    run.status = 'success';
    await save(run);
  }

  return {
    /** Marks runs interrupted by a crash as failed and queues them again; resumes queued work. */
    async recover(): Promise<void> {
      for (const run of [...runs.values()]) {
        if (run.status !== 'running') continue;
        const again = !superseded(run);
        run.status = 'failure';
        run.error = `interrupted: the server stopped during this run; ${again ? 'it was queued again' : 'a newer run is queued'}`;
        for (const stage of run.stages) if (stage.status === 'running' || stage.status === 'queued') stage.status = 'cancelled';
        await save(run);
        if (again) await enqueue(run.branch, run.commit, run.id, run.by);
      }
      for (const branch of ['main', 'dev'] as const) start(branch);
    },
    /** Queues a run for a commit; `by`: who made it (the account that committed through the service). */
    enqueue: (branch: Branch, commit: string, by?: string) => enqueue(branch, commit, undefined, by),
    /**
     * Queues a run for `commit` unless the pipeline has seen it already. A run cancelled because a newer
     * commit superseded it counts as seen: a caller holding a stale head must not queue the older commit
     * behind the newer one (it would be built last and published over it).
     */
    async ensure(branch: Branch, commit: string): Promise<Run | undefined> {
      if ([...runs.values()].some((r) => r.branch === branch && (r.commit === commit || r.sourceCommit === commit))) return undefined;
      return enqueue(branch, commit);
    },
    list(branch: Branch, limit: number): Run[] {
      return [...runs.values()]
        .filter((r) => r.branch === branch)
        .sort((a, b) => b.id.localeCompare(a.id))
        .slice(0, limit);
    },
    get: (id: string) => runs.get(id),
    /** Called with every saved state of every run (tests and waiting clients). */
    onChange(listener: (run: Run) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /**
     * Stops at the next stage boundary: queued runs stay queued on disk, a run that has not built yet is
     * marked interrupted and queued again (the next start resumes both). Resolves when nothing runs.
     */
    async stop(): Promise<void> {
      stopping = true;
      while (working.size) await new Promise((r) => setTimeout(r, 20));
    },
    idle(): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (![...runs.values()].some((r) => r.status === 'queued' || r.status === 'running') && working.size === 0) resolve();
          else setTimeout(check, 20);
        };
        check();
      });
    },
  };
}

export type Pipeline = Awaited<ReturnType<typeof createPipeline>>;

/** The run records kept under `dir`, by id. */
async function readRuns(dir: string): Promise<Map<string, Run>> {
  const runs = new Map<string, Run>();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    const run = await readJson<Run | null>(join(dir, name), null);
    if (run?.id) runs.set(run.id, run);
  }
  return runs;
}

/**
 * Does one stage of `run` and sets its status; `build` is the build stage's result, which deploy takes. The translate
 * stage may commit translations on top: that commit becomes the run's, and is what it builds and deploys.
 */
async function runStage<B>(steps: PipelineSteps<B>, run: Run, stage: Stage, build: B | undefined): Promise<B | undefined> {
  if (stage.name === 'translate') {
    const result = await steps.translate(run.branch, run.commit);
    stage.status = result.status;
    if (result.note) stage.note = result.note;
    if (result.commit) {
      run.sourceCommit ??= run.commit;
      run.commit = result.commit;
    }
    return build;
  }
  if (stage.name === 'build') {
    const made = await steps.build(run.branch, run.commit);
    stage.status = 'success';
    return made;
  }
  await steps.deploy(run.branch, build!);
  stage.status = 'success';
  return build;
}

/** Marks `stage` failed with `error`, the stages after it cancelled and the run failed. */
function failStage(run: Run, stage: Stage, error: Error): void {
  stage.status = 'failure';
  stage.finishedAt = now();
  stage.note = error.message;
  for (const later of run.stages) if (later.status === 'queued') later.status = 'cancelled';
  run.status = 'failure';
  run.error = `${stage.name} failed: ${error.message}`;
}
