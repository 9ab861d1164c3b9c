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
import { Octokit } from '@octokit/rest';
import type { Branch } from '../contract/shared.ts';
import { branches } from '../contract/shared.ts';
import type { Run, RunStatus, Stage, StageName, StageStatus } from './pipeline.server.ts';
import { countedGitHubFetch } from './metrics.server.ts';

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

interface ApiRun {
  id: number;
  head_branch: string | null;
  head_sha: string;
  status: string | null;
  conclusion: string | null;
  html_url: string;
  created_at: string;
}
interface ApiJob {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  started_at: string | null;
  completed_at: string | null;
  steps?: Array<{ name: string; conclusion: string | null }>;
}

const STAGES: StageName[] = ['translate', 'build', 'deploy'];

/** A run's jobs, why a failed one failed, and the note of a translate job that fell short (by job id). */
interface JobsOfRun {
  jobs: ApiJob[];
  why: string[];
  notes: Map<number, string>;
}
const SHA = /\b[0-9a-f]{40}\b/;

/** The web address of a repository's pages, from the API's address (github.com, GitHub Enterprise, an emulator). */
function webBase(apiUrl: string): string {
  if (/^https:\/\/api\.github\.com\/?$/.test(apiUrl)) return 'https://github.com';
  return apiUrl.replace(/\/api\/v3\/?$/, '').replace(/\/+$/, '');
}

function runStatus(run: { status: string | null; conclusion: string | null }): RunStatus {
  if (run.status !== 'completed') return run.status === 'in_progress' ? 'running' : 'queued';
  if (run.conclusion === 'success') return 'success';
  if (run.conclusion === 'cancelled' || run.conclusion === 'skipped') return 'cancelled';
  return 'failure';
}
function stageStatus(job: ApiJob): StageStatus {
  if (job.status !== 'completed') return job.status === 'in_progress' ? 'running' : 'queued';
  if (job.conclusion === 'success') return 'success';
  if (job.conclusion === 'skipped') return 'skipped';
  if (job.conclusion === 'cancelled') return 'cancelled';
  return 'failure';
}

/**
 * The workflow's steps that say translate could not make every translation (the job stays green so the run publishes
 * what was made): the stage's status, and the job's warning annotation is its note (scripts/publish.ts writes both).
 */
const TRANSLATE_SHORTFALL: Record<string, 'partial' | 'failure'> = { 'Some translations failed': 'partial', 'No translation was made': 'failure' };

/** The translate job's own status when it fell short (a shortfall step ran), else undefined. */
const shortfallOf = (job: ApiJob) => job.steps?.map((s) => (s.conclusion === 'success' ? TRANSLATE_SHORTFALL[s.name] : undefined)).find(Boolean);

/**
 * A run record from a workflow run and its jobs (stages = jobs; the deploy job's name carries the commit it publishes).
 * `notes`: a translate job's warnings (each translation that failed), by job id.
 */
export function runRecord(branch: Branch, run: ApiRun, jobs: ApiJob[], why: string[] = [], notes = new Map<number, string>()): Run & { url: string } {
  const stages: Stage[] = STAGES.map((name) => {
    const job = jobs.find((j) => j.name.split(' ')[0] === name);
    if (!job) return { name, status: run.status === 'completed' ? 'cancelled' : 'queued', startedAt: null, finishedAt: null };
    const stage: Stage = { name, status: stageStatus(job), startedAt: job.started_at, finishedAt: job.completed_at };
    // translate ran, but its Translate step was skipped: no model secret is set in the repository.
    if (name === 'translate' && stage.status === 'success' && job.steps?.find((s) => s.name === 'Translate')?.conclusion === 'skipped') {
      stage.status = 'skipped';
      stage.note = 'no model provider configured for the workflow (the secret OPENAI_API_KEY or the variable OPENAI_BASE_URL)';
    }
    const shortfall = name === 'translate' && stage.status === 'success' ? shortfallOf(job) : undefined;
    if (shortfall) {
      stage.status = shortfall;
      stage.note = notes.get(job.id) ?? 'some translations could not be made; the run on GitHub says which';
    }
    return stage;
  });
  const deployed = SHA.exec(jobs.find((j) => j.name.startsWith('deploy'))?.name ?? '')?.[0];
  const status = runStatus(run);
  const failed = stages.find((s) => s.status === 'failure');
  return {
    id: String(run.id),
    branch,
    commit: deployed ?? run.head_sha,
    ...(deployed && deployed !== run.head_sha ? { sourceCommit: run.head_sha } : {}),
    status,
    stages,
    createdAt: run.created_at,
    ...(status === 'failure'
      ? { error: failed ? `${failed.name} failed: ${why.length ? why.slice(0, 5).join('; ') : 'see the run on GitHub'}` : `the run ended: ${run.conclusion}` }
      : {}),
    url: run.html_url,
  };
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
  const octokit = new Octokit({
    auth: options.token,
    baseUrl: options.apiUrl,
    userAgent: 'vitae-actions',
    log: { debug() {}, info() {}, warn() {}, error() {} },
    request: { fetch: countedGitHubFetch('actions') },
  });
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
  const octokit = new Octokit({
    auth: options.token,
    baseUrl: options.apiUrl,
    userAgent: 'vitae-actions',
    log: { debug() {}, info() {}, warn() {}, error() {} },
    request: { fetch: countedGitHubFetch('actions') },
  });
  const buildPauseMs = options.buildPauseMs ?? 1000;
  const readGapMs = options.readGapMs ?? 200;
  const lastRead = new Map<Branch, number>();
  const actionsPage = `${webBase(options.apiUrl)}/${options.repository}/actions/workflows/${workflow}`;

  const runs = new Map<Branch, Run[]>(branches.map((b) => [b, []]));
  /** Commits this service knows were pushed but whose run GitHub has not listed yet. */
  const pending = new Map<Branch, Map<string, Run>>(branches.map((b) => [b, new Map()]));
  const listEtags = new Map<Branch, string>();
  /** Jobs of completed runs never change: kept, with the annotations that say why a failed one failed (or translate fell short). */
  const finishedJobs = new Map<number, JobsOfRun>();
  /** Jobs of runs under way, with the ETag to ask again with. */
  const runningJobs = new Map<number, { etag: string; jobs: ApiJob[] }>();
  /** The newest run whose commit this instance tried to deploy, per branch (one attempt per run). */
  const attempted = new Map<Branch, number>();
  /** When the last build of a branch may be followed by the next (its end plus the pause), and the read that waits for then. */
  const nextBuild = new Map<Branch, number>();
  const deferred = new Map<Branch, NodeJS.Timeout>();
  const listeners = new Set<(run: Run) => void>();
  const refreshing = new Map<Branch, Promise<void>>();
  const again = new Set<Branch>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const tell = (run: Run) => {
    for (const listener of listeners) listener(run);
  };

  async function jobsOf(run: ApiRun): Promise<JobsOfRun> {
    const kept = finishedJobs.get(run.id);
    if (kept) return kept;
    // Not started yet (queued, waiting, pending, requested): every job is queued, which runRecord says without them.
    if (run.status !== 'in_progress' && run.status !== 'completed') return { jobs: [], why: [], notes: new Map() };
    const known = runningJobs.get(run.id);
    let jobs: ApiJob[];
    try {
      const res = await octokit.rest.actions.listJobsForWorkflowRun({
        owner,
        repo,
        run_id: run.id,
        per_page: 100,
        headers: known ? { 'if-none-match': known.etag } : {},
      });
      jobs = res.data.jobs;
      if (run.status !== 'completed' && res.headers.etag) runningJobs.set(run.id, { etag: res.headers.etag, jobs });
    } catch (error) {
      if ((error as { status?: number }).status !== 304 || !known) throw error;
      jobs = known.jobs;
    }
    const annotations = (job: ApiJob) =>
      octokit.rest.checks
        .listAnnotations({ owner, repo, check_run_id: job.id, per_page: 20 })
        .then((res) => res.data)
        .catch(() => [] as Array<{ path: string; start_line: number; message: string | null; annotation_level: string | null }>);
    const why: string[] = [];
    // A failed job's error annotations (the ::error lines of scripts/publish.ts: file, line, message); a job is a check run.
    for (const job of jobs.filter((j) => j.conclusion === 'failure')) {
      for (const note of await annotations(job))
        if (note.annotation_level === 'failure' && note.message) why.push(redact(`${note.path ? `${note.path}:${note.start_line}: ` : ''}${note.message}`));
    }
    // A translate job that fell short: its warning names each translation that failed.
    const notes = new Map<number, string>();
    for (const job of jobs.filter((j) => j.name.split(' ')[0] === 'translate' && j.conclusion === 'success' && shortfallOf(j))) {
      const warnings = (await annotations(job)).filter((note) => note.annotation_level === 'warning' && note.message);
      if (warnings.length) notes.set(job.id, redact(warnings.map((note) => note.message).join('\n')));
    }
    const found = { jobs, why, notes };
    if (run.status === 'completed') {
      finishedJobs.set(run.id, found);
      runningJobs.delete(run.id);
    }
    return found;
  }

  async function readRuns(branch: Branch): Promise<boolean> {
    let data: { workflow_runs: ApiRun[] };
    try {
      const etag = listEtags.get(branch);
      const res = await octokit.rest.actions.listWorkflowRuns({
        owner,
        repo,
        workflow_id: workflow,
        branch,
        per_page: 20,
        headers: etag ? { 'if-none-match': etag } : {},
      });
      if (res.headers.etag) listEtags.set(branch, res.headers.etag);
      data = res.data;
    } catch (error) {
      if ((error as { status?: number }).status === 304) return false;
      throw error;
    }
    const before = new Map(runs.get(branch)!.map((r) => [r.id, JSON.stringify(r)]));
    const records: Run[] = [];
    for (const run of data.workflow_runs) {
      if (run.head_branch !== branch) continue;
      const { jobs, why, notes } = await jobsOf(run);
      records.push(runRecord(branch, run, jobs, why, notes));
    }
    runs.set(branch, records);
    // What no branch lists any more is not asked for again.
    const listed = new Set(branches.flatMap((b) => runs.get(b)!.map((r) => Number(r.id))));
    for (const cache of [finishedJobs, runningJobs]) for (const id of cache.keys()) if (!listed.has(id)) cache.delete(id);
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
    const succeeded = runs
      .get(branch)!
      .filter((r) => r.status === 'success')
      .sort((a, b) => Number(b.id) - Number(a.id));
    const newest = succeeded[0];
    if (!newest) return;
    const id = Number(newest.id);
    const previous = attempted.get(branch) ?? 0;
    // After a restart nothing was attempted yet: the newest successful run of the commit served is the floor.
    const serving = succeeded.find((r) => r.commit === options.live(branch));
    if (id <= Math.max(previous, serving ? Number(serving.id) : 0) || options.live(branch) === newest.commit) return;
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
    attempted.set(branch, id);
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

  /** Reads the branch's runs (at most one read at a time per branch; a request meanwhile reads once more after it). */
  function refresh(branch: Branch): Promise<void> {
    const current = refreshing.get(branch);
    if (current) {
      again.add(branch);
      return current;
    }
    const work = (async () => {
      do {
        // Reads of a branch start at least readGapMs apart: what is asked meanwhile (this service's commit, the
        // push webhook, the run's `requested` and `completed` webhooks come within moments) is one read.
        const wait = (lastRead.get(branch) ?? -Infinity) + readGapMs - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        again.delete(branch);
        lastRead.set(branch, Date.now());
        try {
          await readRuns(branch);
          await follow(branch);
        } catch (error) {
          log(`[vitae] ${branch}: could not read the Actions runs: ${(error as Error).message.split('\n')[0]}`);
        }
      } while (again.has(branch) && !stopped);
    })().finally(() => refreshing.delete(branch));
    refreshing.set(branch, work);
    return work;
  }

  function placeholder(branch: Branch, commit: string): Run {
    return {
      id: `pending-${commit.slice(0, 12)}`,
      branch,
      commit,
      status: 'queued',
      stages: STAGES.map((name) => ({ name, status: 'queued', startedAt: null, finishedAt: null })),
      createdAt: new Date().toISOString(),
      url: actionsPage,
    };
  }

  async function enqueue(branch: Branch, commit: string): Promise<Run> {
    const known = runs.get(branch)!.find((r) => r.commit === commit || r.sourceCommit === commit) ?? pending.get(branch)!.get(commit);
    if (known) return known;
    const run = placeholder(branch, commit);
    pending.get(branch)!.set(commit, run);
    tell(run);
    void refresh(branch);
    return run;
  }

  /** Resolves when no read is under way and no build waits for its turn (runs may still be queued or running). */
  async function settle(): Promise<void> {
    while (refreshing.size || deferred.size) {
      await Promise.all([...refreshing.values()]);
      if (deferred.size && !refreshing.size) await new Promise((r) => setTimeout(r, 50));
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
      clearInterval(timer);
      for (const waiting of deferred.values()) clearTimeout(waiting);
      deferred.clear();
      await Promise.all([...refreshing.values()]);
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
