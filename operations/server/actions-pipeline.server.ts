// The publish pipeline of the github backend: the runs are GitHub Actions runs of .github/workflows/publish.yml
// (translate → build → deploy, one job each), read from the Actions API, and the service only follows them.
// When a run of a branch succeeded, newer than the run of the commit it serves, this instance builds the commit
// its deploy job names (the translations' commit, else the pushed one) with the service's own build code and
// swaps it in; a commit whose run failed (or was cancelled) is never served, and an older run finishing after a
// newer one never replaces it. Builds of a branch are at least `buildPauseMs` apart (or as long as the last
// one took), so a burst of runs finishing one after another (many edits in a row) builds the newest, not each.
// Every instance does the same from the same runs, so several instances behind a load balancer converge on the
// same commit without talking to each other (docs/deploy.md says why this and not the run's artifact).
//
// The runs are read when GitHub says something changed (the webhook, see github-webhook.server.ts), when this
// service pushed a commit, and otherwise every `pollMs` as a fallback, with ETags: an unchanged list costs a
// 304, which GitHub does not count against the rate limit. A run that has not started has no jobs worth asking
// for (its stages are all queued), and the jobs of a run under way are asked for with their ETag too.
import type { Branch } from '../contract/shared.ts';
import { branches } from '../contract/shared.ts';
import type { Run } from './pipeline.server.ts';
import { actionsClient, createRunReader, SHA, STAGES, webBase } from './actions-runs.server.ts';

export { runRecord } from './actions-runs.server.ts';

export interface ActionsPipelineOptions<B> {
  token: string;
  /** owner/name */
  repository: string;
  apiUrl: string;
  /** The workflow file's name (default publish.yml). */
  workflow?: string;
  build(branch: Branch, commit: string): Promise<B>;
  deploy(branch: Branch, build: B): Promise<void>;
  /** The commit this instance serves on a branch. */
  live(branch: Branch): string;
  log?: (line: string) => void;
  /** The fallback poll (default 30 s; 0 = never). */
  pollMs?: number;
  /** Least time from the end of one build of a branch to the start of the next (default 1 s; longer after a longer build: as long as it took). */
  buildPauseMs?: number;
  /** Least time between the starts of two reads of a branch's runs (default 200 ms). */
  readGapMs?: number;
}

/** What GitHub says about a change: a push, or a workflow run that was requested or completed. */
export interface GitHubEvent {
  name: string;
  branch?: string;
  /** For a push: the commit the branch now points at. */
  after?: string;
}

/**
 * The commit the branch's newest successful run published (its deploy job's commit), or undefined when no run
 * succeeded yet (or the workflow has none: GitHub answers 404 for a workflow never pushed): what a new instance
 * serves first, so that it never starts on a commit whose run failed. When GitHub cannot say — the token may
 * not read the runs (401, 403), or it keeps failing (5xx, no answer, after retrying) — this throws and the start
 * stops: serving the newest valid commit instead could serve one whose run failed.
 */
export async function lastPublished(
  options: Pick<ActionsPipelineOptions<unknown>, 'token' | 'repository' | 'apiUrl' | 'workflow'> & { retryMs?: number },
  branch: Branch,
): Promise<string | undefined> {
  const [owner, repo] = options.repository.split('/') as [string, string];
  const octokit = actionsClient(options);
  const workflow = options.workflow ?? 'publish.yml';
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await octokit.rest.actions.listWorkflowRuns({ owner, repo, workflow_id: workflow, branch, status: 'success', per_page: 1 });
      const run = data.workflow_runs.find((r) => r.head_branch === branch && r.conclusion === 'success');
      if (!run) return undefined;
      const { data: jobs } = await octokit.rest.actions.listJobsForWorkflowRun({ owner, repo, run_id: run.id, per_page: 100 });
      return SHA.exec(jobs.jobs.find((j) => j.name.startsWith('deploy'))?.name ?? '')?.[0] ?? run.head_sha;
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 404) return undefined;
      const said = String((error as Error).message ?? error)
        .split(options.token)
        .join('[token]')
        .split('\n')[0];
      if (status === 401 || status === 403)
        throw new Error(
          `GITHUB_TOKEN may not read the Actions runs of ${options.repository} (${status} ${said}): it needs the "Actions: Read" permission, without which no instance knows which commit passed its run.`,
          { cause: error },
        );
      if (attempt >= 3)
        throw new Error(
          `GitHub could not say which commit of ${branch} its workflow ${workflow} published last (${said}), also after retrying; not starting on one that may have failed.`,
          {
            cause: error,
          },
        );
      await new Promise((resolve) => setTimeout(resolve, (options.retryMs ?? 1000) * attempt));
    }
  }
}

export function createActionsPipeline<B>(options: ActionsPipelineOptions<B>) {
  const [owner, repo] = options.repository.split('/') as [string, string];
  const workflow = options.workflow ?? 'publish.yml';
  const redact = (text: string) => text.split(options.token).join('[token]');
  // An upstream may echo what it was sent (a proxy's error page, an API's message): nothing logged carries the token.
  const log = (line: string) => (options.log ?? (() => {}))(redact(line));
  const reader = createRunReader({ octokit: actionsClient(options), owner, repo, workflow, redact });
  const buildPauseMs = options.buildPauseMs ?? 1000;
  const readGapMs = options.readGapMs ?? 200;
  const actionsPage = `${webBase(options.apiUrl)}/${options.repository}/actions/workflows/${workflow}`;

  const runs = new Map<Branch, Run[]>(branches.map((b) => [b, []]));
  /** Commits this service knows were pushed but whose run GitHub has not listed yet. */
  const pending = new Map<Branch, Map<string, Run>>(branches.map((b) => [b, new Map()]));
  /** The newest run whose commit this instance tried to deploy, per branch (one attempt per run). */
  const attempted = new Map<Branch, number>();
  /** When the last build of a branch may be followed by the next (its end plus the pause), and the read that waits for then. */
  const nextBuild = new Map<Branch, number>();
  const deferred = new Map<Branch, NodeJS.Timeout>();
  const listeners = new Set<(run: Run) => void>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const tell = (run: Run) => {
    for (const listener of listeners) listener(run);
  };

  async function readRuns(branch: Branch): Promise<boolean> {
    const records = await reader.read(branch);
    if (!records) return false;
    const before = new Map(runs.get(branch)!.map((r) => [r.id, JSON.stringify(r)]));
    runs.set(branch, records);
    reader.forget(new Set(branches.flatMap((b) => runs.get(b)!.map((r) => Number(r.id)))));
    // A commit GitHub now lists a run for needs no placeholder.
    for (const commit of pending.get(branch)!.keys())
      if (records.some((r) => r.commit === commit || r.sourceCommit === commit)) pending.get(branch)!.delete(commit);
    for (const record of records) if (before.get(record.id) !== JSON.stringify(record)) tell(record);
    return true;
  }

  /**
   * Deploys the commit of the branch's newest successful run, when that run is newer than the one of the commit
   * served (run ids grow in the order GitHub created the runs, i.e. push order): a failed or cancelled run is
   * never deployed, and an older run that finishes after a newer one was deployed changes nothing.
   */
  async function follow(branch: Branch) {
    const previous = attempted.get(branch) ?? 0;
    const newest = newerSuccess(runs.get(branch)!, previous, options.live(branch));
    if (!newest) return;
    const wait = (nextBuild.get(branch) ?? -Infinity) - Date.now();
    if (wait > 0) {
      // Runs finishing one after another: read again after the pause and build the newest by then.
      if (!deferred.has(branch) && !stopped) {
        const timer = setTimeout(() => {
          deferred.delete(branch);
          void refresh(branch);
        }, wait);
        timer.unref();
        deferred.set(branch, timer);
      }
      return;
    }
    attempted.set(branch, Number(newest.id));
    const started = Date.now();
    try {
      await options.deploy(branch, await options.build(branch, newest.commit));
      log(`[vitae] ${branch}: run ${newest.id} succeeded; serving ${newest.commit.slice(0, 7)}`);
    } catch (error) {
      // GitHub may have failed us while reading the files: the next read of the runs tries again.
      attempted.set(branch, previous);
      log(`[vitae] ${branch}: run ${newest.id} succeeded but ${newest.commit.slice(0, 7)} could not be built here: ${(error as Error).message}`);
    } finally {
      // Builds take at most half of a branch's time while runs keep finishing, also on a machine slowed down.
      const ended = Date.now();
      nextBuild.set(branch, ended + Math.max(buildPauseMs, ended - started));
    }
  }

  const reads = serialReads(readGapMs, async (branch) => {
    try {
      await readRuns(branch);
      await follow(branch);
    } catch (error) {
      log(`[vitae] ${branch}: could not read the Actions runs: ${(error as Error).message.split('\n')[0]}`);
    }
  });
  const refresh = reads.refresh;

  async function enqueue(branch: Branch, commit: string, by?: string): Promise<Run> {
    const known = runs.get(branch)!.find((r) => r.commit === commit || r.sourceCommit === commit) ?? pending.get(branch)!.get(commit);
    if (known) return known;
    const run = { ...placeholderRun(branch, commit, actionsPage), ...(by ? { by } : {}) };
    pending.get(branch)!.set(commit, run);
    tell(run);
    void refresh(branch);
    return run;
  }

  /** Resolves when no read is under way and no build waits for its turn (runs may still be queued or running). */
  async function settle(): Promise<void> {
    while (reads.underWay.size || deferred.size) {
      await Promise.all([...reads.underWay.values()]);
      if (deferred.size && !reads.underWay.size) await new Promise((r) => setTimeout(r, 50));
    }
  }

  const all = (branch: Branch) => [...pending.get(branch)!.values(), ...runs.get(branch)!];

  return {
    /** Starts following: reads both branches now and then every pollMs. */
    async recover(): Promise<void> {
      for (const branch of branches) void refresh(branch);
      const every = options.pollMs ?? 30_000;
      if (every > 0) {
        timer = setInterval(() => branches.forEach((b) => void refresh(b)), every);
        timer.unref();
      }
    },
    enqueue,
    /** A head seen on the branch (the service's watcher, a push webhook): its run is expected. */
    async ensure(branch: Branch, commit: string): Promise<Run | undefined> {
      if (all(branch).some((r) => r.commit === commit || r.sourceCommit === commit)) return undefined;
      return enqueue(branch, commit);
    },
    list(branch: Branch, limit: number): Run[] {
      return all(branch)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, limit);
    },
    get: (id: string) => branches.flatMap((b) => all(b)).find((r) => r.id === id),
    onChange(listener: (run: Run) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** What GitHub told the webhook (or another instance told this one): read what changed. */
    notice(event: GitHubEvent): void {
      const branch = branches.find((b) => b === event.branch);
      if (!branch) return;
      // A push names the new head, whose run is expected; a branch deleted (all zeros) has none and no run.
      if (event.name === 'push' && event.after && /^[0-9a-f]{40}$/.test(event.after) && !/^0{40}$/.test(event.after)) void this.ensure(branch, event.after);
      else void refresh(branch);
    },
    refresh,
    async stop(): Promise<void> {
      stopped = true;
      reads.stop();
      clearInterval(timer);
      for (const waiting of deferred.values()) clearTimeout(waiting);
      deferred.clear();
      await Promise.all([...reads.underWay.values()]);
    },
    settle,
    /** Resolves when no read is under way, no build waits for its turn, and no run of either branch is queued or running. */
    async idle(): Promise<void> {
      for (;;) {
        await settle();
        if (!branches.some((b) => all(b).some((r) => r.status === 'queued' || r.status === 'running'))) return;
        await new Promise((r) => setTimeout(r, 50));
        await Promise.all(branches.map((b) => refresh(b)));
      }
    },
  };
}

export type ActionsPipeline = ReturnType<typeof createActionsPipeline>;

/**
 * The branch's newest successful run, when it is newer than `attempted` (the newest run this instance tried to
 * deploy) and than the run of the commit served (`live`); else undefined.
 */
function newerSuccess(records: readonly Run[], attempted: number, live: string): Run | undefined {
  const succeeded = records.filter((r) => r.status === 'success').sort((a, b) => Number(b.id) - Number(a.id));
  const newest = succeeded[0];
  if (!newest) return undefined;
  // After a restart nothing was attempted yet: the newest successful run of the commit served is the floor.
  const serving = succeeded.find((r) => r.commit === live);
  if (Number(newest.id) <= Math.max(attempted, serving ? Number(serving.id) : 0) || live === newest.commit) return undefined;
  return newest;
}

/** What a pushed commit shows until GitHub lists its run: every stage queued, linked to the workflow's runs. */
function placeholderRun(branch: Branch, commit: string, url: string): Run {
  return {
    id: `pending-${commit.slice(0, 12)}`,
    branch,
    commit,
    status: 'queued',
    stages: STAGES.map((name) => ({ name, status: 'queued', startedAt: null, finishedAt: null })),
    createdAt: new Date().toISOString(),
    url,
  };
}

/**
 * Reads of a branch's runs: at most one at a time per branch, and a request meanwhile reads once more after it.
 * Reads of a branch start at least `gapMs` apart: what is asked meanwhile (this service's commit, the push webhook,
 * the run's `requested` and `completed` webhooks come within moments) is one read.
 */
function serialReads(gapMs: number, read: (branch: Branch) => Promise<void>) {
  const lastRead = new Map<Branch, number>();
  const underWay = new Map<Branch, Promise<void>>();
  const again = new Set<Branch>();
  let stopped = false;
  function refresh(branch: Branch): Promise<void> {
    const current = underWay.get(branch);
    if (current) {
      again.add(branch);
      return current;
    }
    const work = (async () => {
      do {
        const wait = (lastRead.get(branch) ?? -Infinity) + gapMs - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        again.delete(branch);
        lastRead.set(branch, Date.now());
        await read(branch);
      } while (again.has(branch) && !stopped);
    })().finally(() => underWay.delete(branch));
    underWay.set(branch, work);
    return work;
  }
  return {
    refresh,
    /** The reads under way, by branch. */
    underWay: underWay as ReadonlyMap<Branch, Promise<void>>,
    /** A read under way does not read again. */
    stop() {
      stopped = true;
    },
  };
}
