// Test support: GitHub Actions on the GitHub emulator. Every push to main or dev (through the API or an outside
// `emulator.push`) starts a run of the publish workflow with its three jobs (translate → build → deploy), as
// .github/workflows/publish.yml declares them; the run completes — its build job validates the content at the
// commit as scripts/publish.ts does and fails (with annotations naming file and line) when it is invalid, or when
// a switch says so — and each change is delivered as a signed webhook (`workflow_run`, and `push` for branch
// moves) to the configured URLs, as GitHub does. The service reads the runs through the REST endpoints added
// here with the emulator's `route` hook (list a workflow's runs, one run, a run's jobs), with ETags.
// The emulator shares its process with the service under test, so a tree is validated once (by tree sha), and
// `emulator.close()` first stops the runs (`stop`): none reads the repository once it is being removed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sign } from '@octokit/webhooks-methods';
import { loadContent } from '../operations/content/tree.ts';
import type { Problem } from '../operations/contract/errors.ts';
import { createContentRepo, type ContentRepo } from '../operations/repo/content-repo.server.ts';
import type { GitHubEmulator, RefUpdate } from './github-emulator.ts';

export type JobName = 'translate' | 'build' | 'deploy';
type Status = 'queued' | 'in_progress' | 'completed';
type Conclusion = 'success' | 'failure' | 'cancelled' | 'skipped' | null;

export interface EmulatedJob {
  id: number;
  run_id: number;
  name: string;
  status: Status;
  conclusion: Conclusion;
  started_at: string | null;
  completed_at: string | null;
  html_url: string;
  steps: Array<{ name: string; number: number; status: Status; conclusion: Conclusion }>;
}

export interface EmulatedRun {
  id: number;
  name: string;
  path: string;
  event: 'push';
  head_branch: string;
  head_sha: string;
  status: Status;
  conclusion: Conclusion;
  html_url: string;
  created_at: string;
  updated_at: string;
  run_started_at: string;
  jobs: EmulatedJob[];
  /** The pushed commit's message and author, answered as GitHub does in `head_commit`. */
  commit?: { message: string; author: string };
}

export interface ActionsOptions {
  /** Where webhooks go (each gets every delivery), e.g. the service's /api/admin/github/webhook. */
  webhookUrls?: string[];
  /** The webhook secret (GITHUB_WEBHOOK_SECRET). */
  secret: string;
  /**
   * What runs the jobs' work for a run (the run is `in_progress` meanwhile): the problems that fail its build
   * job, and the commit its deploy job names. Default: the content at the commit is validated here, in process,
   * as scripts/publish.ts build validates it; bench/github.bench.ts runs the workflow's own steps instead.
   */
  runner?: (run: EmulatedRun) => Promise<{ problems: Problem[]; commit?: string }>;
}

export interface EmulatedActions {
  runs: EmulatedRun[];
  /** Webhook URLs; may be changed at any time (e.g. once the service listens). */
  webhookUrls: string[];
  /**
   * Switches: runs whose head commit this says fail at the build job; `hold` keeps new runs queued until `release`;
   * `translate` says how a run's translate job fell short, as the workflow reports it (a shortfall step, a warning).
   */
  switches: { fail: (sha: string) => boolean; hold: boolean; translate: (sha: string) => { status: 'partial' | 'failure'; note: string } | undefined };
  /** Annotations of jobs (the check-run annotations API), by job id: a failed build's errors, a translate job's warning. */
  annotations: Map<number, Array<{ path: string; start_line: number; end_line: number; annotation_level: 'failure' | 'warning'; message: string }>>;
  /** Completes held runs (each as its switch says): all in the order they were started, or those with these ids in this order. */
  release(ids?: number[]): Promise<void>;
  /** Resolves when the run for `sha` (on `branch`) has completed and its webhook was delivered. */
  completed(branch: string, sha: string): Promise<EmulatedRun>;
  /** Every webhook delivery: event name and the status the receiver answered. */
  deliveries: Array<{ event: string; url: string; status: number }>;
  /** Resolves when no run is being worked on and no delivery is in flight (held runs wait for `release`). */
  settled(): Promise<void>;
  /** What went wrong inside the emulated Actions themselves (never expected: a test may assert it stays empty). */
  errors: string[];
  /** Starts no more runs and waits for the work under way; `emulator.close()` does it first. */
  stop(): Promise<void>;
}

const WORKFLOW = '.github/workflows/publish.yml';
const added = new WeakMap<GitHubEmulator, EmulatedActions>();

/** What the parts of the emulated Actions share, behind the handle a test holds. */
interface Actions {
  emulator: GitHubEmulator;
  options: ActionsOptions;
  handle: EmulatedActions;
  runs: EmulatedRun[];
  /** The head each run was started for, per branch: a branch moved by plain git in the bare repository is noticed too. */
  started: Map<string, string>;
  nextId: number;
  waiting: Array<{ branch: string; sha: string; resolve: (run: EmulatedRun) => void }>;
  held: EmulatedRun[];
  /** Work (a run, a delivery) that `settled` and `stop` wait for. */
  inFlight: Set<Promise<unknown>>;
  stopped: boolean;
  contentRepo: ContentRepo;
  /** Problems by tree: a commit whose tree was validated before (a promote's fast-forward, a revert, main and dev alike) is not read again. */
  validated: Map<string, Promise<Problem[]>>;
  /** Resolves once the heads the branches had when Actions were added are known. */
  ready: Promise<unknown>;
}

/** Adds Actions to an emulator (once: a second call returns the first, whose webhookUrls the caller may extend). */
export function addActions(emulator: GitHubEmulator, options: ActionsOptions): EmulatedActions {
  const existing = added.get(emulator);
  if (existing) return existing;
  const a: Actions = {
    emulator,
    options,
    handle: undefined!,
    runs: [],
    started: new Map(),
    nextId: 9000,
    waiting: [],
    held: [],
    inFlight: new Set(),
    stopped: false,
    contentRepo: createContentRepo(emulator.git),
    validated: new Map(),
    ready: Promise.resolve(),
  };
  let unsubscribe = () => {};
  a.handle = {
    runs: a.runs,
    webhookUrls: [...(options.webhookUrls ?? [])],
    switches: { fail: () => false, hold: false, translate: () => undefined },
    annotations: new Map(),
    async release(ids) {
      const chosen = ids ? ids.map((id) => a.held.find((r) => r.id === id)).filter((r) => r !== undefined) : [...a.held];
      for (const run of chosen) a.held.splice(a.held.indexOf(run), 1);
      for (const run of chosen) await track(a, complete(a, run));
    },
    completed(branch, sha) {
      const done = a.runs.find((r) => r.head_branch === branch && r.head_sha === sha && r.status === 'completed');
      if (done) return Promise.resolve(done);
      return new Promise((resolve) => a.waiting.push({ branch, sha, resolve }));
    },
    deliveries: [],
    async settled() {
      while (a.inFlight.size) await Promise.allSettled([...a.inFlight]);
    },
    errors: [],
    async stop() {
      a.stopped = true;
      unsubscribe();
      await a.handle.settled();
    },
  };
  emulator.onClose(() => a.handle.stop());
  unsubscribe = emulator.onRefUpdate((update) => startRun(a, update));
  // What the branches point at now is what runs were started for; a later move by plain git (not through the
  // emulator) is noticed when the runs are next listed, as GitHub would have started a run for that push.
  a.ready = track(a, Promise.all(['main', 'dev'].map(async (b) => a.started.set(b, (await emulator.head(b)) ?? ''))));
  addRoutes(a);
  added.set(emulator, a.handle);
  return a.handle;
}

const track = <T>(a: Actions, work: Promise<T>): Promise<T> => {
  a.inFlight.add(work);
  return work.finally(() => a.inFlight.delete(work));
};
const page = (a: Actions, id: number) => `https://github.com/${a.emulator.repository}/actions/runs/${id}`;
const repositoryOf = ({ emulator }: Actions) => ({ id: 1, name: emulator.name, full_name: emulator.repository, owner: { login: emulator.owner } });

function deliver(a: Actions, event: string, payload: unknown): Promise<void> {
  const body = JSON.stringify(payload);
  const sending = (async () => {
    const signature = await sign(a.options.secret, body);
    await Promise.all(
      a.handle.webhookUrls.map(async (url) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'GitHub-Hookshot/emulator',
            'X-GitHub-Event': event,
            'X-GitHub-Delivery': crypto.randomUUID(),
            'X-Hub-Signature-256': signature,
          },
          body,
        }).catch(() => undefined);
        await res?.arrayBuffer().catch(() => undefined);
        a.handle.deliveries.push({ event, url, status: res?.status ?? 0 });
      }),
    );
  })();
  return track(a, sending);
}

const execGit = promisify(execFile);

const view = (a: Actions, run: EmulatedRun) => {
  const { jobs: _jobs, commit, ...rest } = run;
  const head = { id: run.head_sha, ...(commit ? { message: commit.message, author: { name: commit.author } } : {}) };
  return { ...rest, workflow_id: 1, repository: repositoryOf(a), head_commit: head };
};

/** A commit's message and author name, read from the emulator's bare repository (undefined when it cannot be read). */
async function commitOf(a: Actions, sha: string): Promise<EmulatedRun['commit']> {
  try {
    const { stdout } = await execGit('git', ['-C', a.emulator.bareDir, 'log', '-1', '--format=%an%x00%B', sha]);
    const [author = '', message = ''] = stdout.split('\0');
    return { author, message: message.trimEnd() };
  } catch {
    return undefined;
  }
}

function job(a: Actions, run: EmulatedRun, name: JobName, index: number): EmulatedJob {
  return {
    id: run.id * 10 + index,
    run_id: run.id,
    name,
    status: 'queued',
    conclusion: null,
    started_at: null,
    completed_at: null,
    html_url: `${page(a, run.id)}/job/${run.id * 10 + index}`,
    steps: [],
  };
}

/** A run for a branch move: started, and (unless held) completed, as work `stop` waits for; a failure of the emulator itself is kept in `errors`. */
function startRun(a: Actions, update: RefUpdate) {
  if (a.stopped) return;
  void track(a, start(a, update)).catch((error: unknown) => void a.handle.errors.push(`run for ${update.branch} ${update.after}: ${(error as Error).message}`));
}

async function start(a: Actions, update: RefUpdate) {
  if (!update.after || (update.branch !== 'main' && update.branch !== 'dev')) return;
  if (a.started.get(update.branch) === update.after) return;
  a.started.set(update.branch, update.after);
  const now = new Date().toISOString();
  const id = a.nextId++;
  const run: EmulatedRun = {
    id,
    name: 'publish',
    path: WORKFLOW,
    event: 'push',
    head_branch: update.branch,
    head_sha: update.after,
    status: 'queued',
    conclusion: null,
    html_url: page(a, id),
    created_at: now,
    updated_at: now,
    run_started_at: now,
    jobs: [],
    commit: await commitOf(a, update.after),
  };
  run.jobs = (['translate', 'build', 'deploy'] as const).map((name, i) => job(a, run, name, i));
  // Until it runs, a job whose name is an expression is listed with the expression, as GitHub does.
  run.jobs[2]!.name = 'deploy ${{ needs.build.outputs.commit }}';
  a.runs.push(run);
  const repository = repositoryOf(a);
  await deliver(a, 'push', { ref: update.ref, before: update.before ?? '0'.repeat(40), after: update.after, repository });
  await deliver(a, 'workflow_run', { action: 'requested', workflow_run: view(a, run), repository });
  if (a.handle.switches.hold) a.held.push(run);
  else await complete(a, run);
}

/** What scripts/publish.ts build finds wrong with the content at a commit. */
async function problemsAt(a: Actions, sha: string): Promise<Problem[]> {
  const tree = (await a.emulator.git.run(['rev-parse', `${sha}^{tree}`])).stdout.toString('utf8').trim();
  let problems = a.validated.get(tree);
  if (!problems) {
    problems = (async () => {
      const { tree: entries, texts } = await a.contentRepo.filesAt(sha);
      const found = loadContent(texts).problems;
      for (const entry of entries)
        if (entry.mode !== '100644' && entry.mode !== '100755')
          found.push({ path: entry.path, message: 'not a regular file (symlinks and submodules are not allowed in content/)' });
      return found;
    })();
    a.validated.set(tree, problems);
    problems.catch(() => a.validated.delete(tree));
  }
  return [...(await problems)];
}

/** Runs the jobs one after another as the workflow would (no model: translate's steps are skipped). */
async function complete(a: Actions, run: EmulatedRun) {
  if (a.stopped) return; // the emulator is closing: the run stays as it is, and the repository is not read
  run.status = 'in_progress';
  const outcome = a.handle.switches.fail(run.head_sha)
    ? { problems: [{ path: 'content', message: 'failed by the test switch' }] }
    : a.options.runner
      ? await a.options.runner(run)
      : { problems: await problemsAt(a, run.head_sha) };
  const fails = outcome.problems.length > 0;
  for (const j of run.jobs) finishJob(a, run, j, outcome);
  run.status = 'completed';
  run.conclusion = fails ? 'failure' : 'success';
  run.updated_at = new Date().toISOString();
  await deliver(a, 'workflow_run', { action: 'completed', workflow_run: view(a, run), repository: repositoryOf(a) });
  for (const w of a.waiting.splice(0)) {
    if (w.branch === run.head_branch && w.sha === run.head_sha) w.resolve(run);
    else a.waiting.push(w);
  }
}

/** One job of a run, completed as the workflow's would be: its steps, its conclusion, and its annotations. */
function finishJob(a: Actions, run: EmulatedRun, j: EmulatedJob, outcome: { problems: Problem[]; commit?: string }) {
  const { problems } = outcome;
  const fails = problems.length > 0;
  const at = new Date().toISOString();
  j.status = 'completed';
  if (j.name.startsWith('deploy') && fails) {
    j.conclusion = 'skipped';
    return;
  }
  j.started_at = at;
  j.completed_at = at;
  if (j.name === 'translate') {
    j.conclusion = 'success';
    const fell = a.handle.switches.translate(run.head_sha);
    const ran = fell ? 'success' : 'skipped';
    const shortfall = (status: 'partial' | 'failure') => (fell?.status === status ? 'success' : 'skipped');
    j.steps = [
      { name: 'Look for a model provider', number: 1, status: 'completed', conclusion: 'success' },
      { name: 'Install', number: 2, status: 'completed', conclusion: ran },
      { name: 'Translate', number: 3, status: 'completed', conclusion: ran },
      { name: 'Some translations failed', number: 4, status: 'completed', conclusion: shortfall('partial') },
      { name: 'No translation was made', number: 5, status: 'completed', conclusion: shortfall('failure') },
    ];
    if (fell) a.handle.annotations.set(j.id, [{ path: '.github', start_line: 1, end_line: 1, annotation_level: 'warning', message: fell.note }]);
  } else if (j.name === 'build') {
    j.conclusion = fails ? 'failure' : 'success';
    j.steps = [{ name: 'Build', number: 1, status: 'completed', conclusion: j.conclusion }];
    if (fails)
      a.handle.annotations.set(
        j.id,
        problems.map((p) => ({ path: p.path ?? '', start_line: p.line ?? 1, end_line: p.line ?? 1, annotation_level: 'failure', message: p.message })),
      );
  } else {
    j.name = `deploy ${outcome.commit ?? run.head_sha}`;
    j.conclusion = 'success';
    j.steps = [{ name: 'Deploy', number: 1, status: 'completed', conclusion: 'success' }];
  }
}

/**
 * Starts the runs GitHub would have started for branch moves made by plain git, not through the emulator. A head read
 * while a move through the API started its run may be the head before that move (git answers what the ref was when it
 * read it): a run started for it now would come after the newer commit's run, an order GitHub never gives two pushes,
 * and the service would serve the older commit. Such a read is dropped; the next listing reads again.
 */
async function notice(a: Actions) {
  await a.ready;
  if (a.stopped) return;
  for (const branch of ['main', 'dev']) {
    const started = a.started.get(branch);
    const head = await a.emulator.head(branch);
    if (head && a.started.get(branch) === started && started !== head)
      startRun(a, { ref: `refs/heads/${branch}`, branch, before: started || null, after: head, via: 'push' });
  }
}

/** The REST endpoints the service reads runs through, added with the emulator's `route` hook. */
function addRoutes(a: Actions) {
  const { emulator } = a;
  const prefix = `/repos/${emulator.owner}/${emulator.name}/actions`;
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  // GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs?branch=&per_page=&page=
  emulator.route('GET', new RegExp(`^${escaped}/workflows/([^/]+)/runs$`), async ({ match, url, send }) => {
    await notice(a);
    if (match[1] !== 'publish.yml' && match[1] !== '1') return send(404, { message: 'Not Found' });
    const branch = url.searchParams.get('branch');
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const pageNo = Number(url.searchParams.get('page') ?? 1);
    // `status` filters by status or by conclusion, as GitHub's does.
    const status = url.searchParams.get('status');
    const matching = a.runs
      .filter((r) => (!branch || r.head_branch === branch) && (!status || r.status === status || r.conclusion === status))
      .sort((x, y) => y.id - x.id);
    send(200, { total_count: matching.length, workflow_runs: matching.slice((pageNo - 1) * perPage, pageNo * perPage).map((r) => view(a, r)) });
  });
  // GET /repos/{owner}/{repo}/actions/runs/{run_id}
  emulator.route('GET', new RegExp(`^${escaped}/runs/(\\d+)$`), ({ match, send }) => {
    const run = a.runs.find((r) => r.id === Number(match[1]));
    return run ? send(200, view(a, run)) : send(404, { message: 'Not Found' });
  });
  // GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs
  emulator.route('GET', new RegExp(`^${escaped}/runs/(\\d+)/jobs$`), ({ match, send }) => {
    const run = a.runs.find((r) => r.id === Number(match[1]));
    if (!run) return send(404, { message: 'Not Found' });
    send(200, { total_count: run.jobs.length, jobs: run.jobs });
  });
  // GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations (a job's id is its check run's id)
  emulator.route('GET', new RegExp(`^/repos/${emulator.owner}/${emulator.name}/check-runs/(\\d+)/annotations$`.replace(/\./g, '\\.')), ({ match, send }) => {
    send(200, a.handle.annotations.get(Number(match[1])) ?? []);
  });
}
