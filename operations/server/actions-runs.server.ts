// The GitHub Actions API as the publish pipeline of the github backend reads it (actions-pipeline.server.ts): a
// workflow run and its jobs become a run record (the stages are the jobs: translate, build, deploy), and a branch's
// runs are read with ETags, so an unchanged list costs a 304, which GitHub does not count against the rate limit. A
// run that has not started has no jobs worth asking for (its stages are all queued), and the jobs of a run under way
// are asked for with their ETag too.
import { Octokit } from '@octokit/rest';
import type { Branch } from '../contract/shared.ts';
import type { Run, RunStatus, Stage, StageName, StageStatus } from './pipeline.server.ts';
import { countedGitHubFetch } from './metrics.server.ts';
import { coAuthorOf } from '../repo/git-backend.ts';

/** An Octokit for the Actions API that logs nothing (what is logged is said by the pipeline, without the token). */
export function actionsClient(options: { token: string; apiUrl: string }): Octokit {
  return new Octokit({
    auth: options.token,
    baseUrl: options.apiUrl,
    userAgent: 'vitae-actions',
    log: { debug() {}, info() {}, warn() {}, error() {} },
    request: { fetch: countedGitHubFetch('actions') },
  });
}

export interface ApiRun {
  id: number;
  head_branch: string | null;
  head_sha: string;
  status: string | null;
  conclusion: string | null;
  html_url: string;
  created_at: string;
  /** The pushed commit: its message carries the Co-authored-by of an editor who committed through the service. */
  head_commit?: { id: string; message?: string; author?: { name?: string } | null } | null;
}
export interface ApiJob {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  started_at: string | null;
  completed_at: string | null;
  steps?: Array<{ name: string; conclusion: string | null }>;
}

export const STAGES: StageName[] = ['translate', 'build', 'deploy'];

/** A run's jobs, why a failed one failed, and the note of a translate job that fell short (by job id). */
export interface JobsOfRun {
  jobs: ApiJob[];
  why: string[];
  notes: Map<number, string>;
}
export const SHA = /\b[0-9a-f]{40}\b/;

/** The web address of a repository's pages, from the API's address (github.com, GitHub Enterprise, an emulator). */
export function webBase(apiUrl: string): string {
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
export const shortfallOf = (job: ApiJob) => job.steps?.map((s) => (s.conclusion === 'success' ? TRANSLATE_SHORTFALL[s.name] : undefined)).find(Boolean);

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
    ...byOf(run),
  };
}

/**
 * Reads a branch's runs as records, each with its jobs: the jobs of a completed run never change and are kept, with
 * the annotations that say why a failed one failed (or translate fell short); those of a run under way are kept with
 * the ETag to ask again with.
 */
export function createRunReader(options: { octokit: Octokit; owner: string; repo: string; workflow: string; redact: (text: string) => string }) {
  const { octokit, owner, repo, workflow, redact } = options;
  const listEtags = new Map<Branch, string>();
  const finishedJobs = new Map<number, JobsOfRun>();
  const runningJobs = new Map<number, { etag: string; jobs: ApiJob[] }>();

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
    const found = { jobs, ...(await notesOf(jobs)) };
    if (run.status === 'completed') {
      finishedJobs.set(run.id, found);
      runningJobs.delete(run.id);
    }
    return found;
  }

  /** Why the failed jobs failed, and the note of a translate job that fell short (by job id). */
  async function notesOf(jobs: ApiJob[]): Promise<Omit<JobsOfRun, 'jobs'>> {
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
    return { why, notes };
  }

  return {
    /** The branch's runs as records, newest first as GitHub lists them; undefined when nothing changed (304). */
    async read(branch: Branch): Promise<Run[] | undefined> {
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
        if ((error as { status?: number }).status === 304) return undefined;
        throw error;
      }
      const records: Run[] = [];
      for (const run of data.workflow_runs) {
        if (run.head_branch !== branch) continue;
        const { jobs, why, notes } = await jobsOf(run);
        records.push(runRecord(branch, run, jobs, why, notes));
      }
      return records;
    },
    /** What no branch lists any more is not asked for again. */
    forget(listed: ReadonlySet<number>): void {
      for (const cache of [finishedJobs, runningJobs]) for (const id of cache.keys()) if (!listed.has(id)) cache.delete(id);
    },
  };
}

/** Who made a run's commit: the editor its Co-authored-by trailer names (the service committed for them), else its git author. */
function byOf(run: ApiRun): { by?: string } {
  const commit = run.head_commit;
  const name = (commit?.message && coAuthorOf(commit.message)?.name) || commit?.author?.name;
  return name ? { by: name } : {};
}
