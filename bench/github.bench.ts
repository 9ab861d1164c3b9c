// The github backend on the GitHub emulator (issue "GitHub backend and the Actions pipeline"), two measures.
//
// HTTP requests per commit: a three-file change set committed through `ContentRepo.commit`, reads cached (the
// backend has read the branch once). Every request the backend sends is counted at the emulator, so a 304
// counts too (GitHub does not charge it to the rate limit, but it is a round trip). The baseline is the Git
// Data API done plainly: three blobs, a tree, a commit and the ref update after reading the ref.
//
// Commit → live with the workflow's steps run locally (median of 5, after one warm-up): the service runs as
// production runs it (`npm run serve`, startService in lib.ts) with REPO_BACKEND=github against the emulator; an
// edit goes through the admin API (PUT /api/admin/file), the push starts a run of the emulated Actions, and
// that run's work is the workflow's own steps — the `run:` scripts of .github/workflows/publish.yml (the
// scripts/publish.ts stages) run with bash in a job workspace as a runner would, not the emulator's in-process
// validation: that validation only decides pass or fail, while the steps are what a real run spends its time
// on (node and tsx starting, the build made in full, deploy's ancestry check). A workspace is a fresh git
// repository with what actions/checkout fetches from the emulator's repository (all branches, the commit
// checked out) beside this checkout's code, which the repository of a real setup holds too; `npm ci` is not
// run (node_modules linked, as testing/workflow.test.ts does) and translate's model steps are skipped, as
// Actions skips them without a model. Then the completed run's signed webhook reaches the service, which reads
// the runs, builds the commit the deploy job names and serves it; the clock stops when /api/v1 serves the edit.
// Not in it: GitHub's own time to pick up a push, queue a run and start a runner, and `npm ci` (tens of seconds
// on GitHub, depending on its load and the npm cache).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { Problem } from '../operations/contract/errors.ts';
import { createGitHubRepo } from '../operations/repo/github-repo.server.ts';
import { startGitHubEmulator } from '../testing/github-emulator.ts';
import { addActions, type EmulatedRun } from '../testing/github-emulator-actions.ts';
import { editUntilLive, median, printTable, startService } from './lib.ts';

const skill = (name: string, body: string) => `---\nname: ${name}\ncategory: engineering\n---\n${body}\n`;

export async function benchGitHub(options: { commits?: number; edits?: number } = {}) {
  const requests = await benchRequests(options.commits ?? 10);
  const live = await benchLive(options.edits ?? 5);
  return { ...requests, live };
}

async function benchRequests(commits: number) {
  const emulator = await startGitHubEmulator({ seedDir: 'content' });
  try {
    // No spacing between writes: the count is what is measured here, not GitHub's one-write-a-second pacing.
    const repo = createGitHubRepo({ token: emulator.token, repository: emulator.repository, apiUrl: emulator.url, writeIntervalMs: 0 });
    const count = async (run: () => Promise<unknown>) => {
      const from = emulator.requests.length;
      const started = performance.now();
      await run();
      return { requests: emulator.requests.length - from, ms: performance.now() - started, what: emulator.requests.slice(from) };
    };
    const firstRead = await count(async () => repo.filesAt(await repo.head('main')));
    const perCommit: number[] = [];
    const perCommitMs: number[] = [];
    let shape = '';
    for (let i = 0; i < commits; i++) {
      const changes = [1, 2, 3].map((k) => ({ path: `content/skills/bench-${k}.md`, content: skill(`Bench ${k}`, `Edit ${i} of file ${k}.`) }));
      const { requests, ms, what } = await count(() => repo.commit('main', changes, `Bench change set ${i}`));
      perCommit.push(requests);
      perCommitMs.push(ms);
      shape = what
        .map((r) => `${r.method} ${r.operation ?? r.path.replace(/^\/repos\/[^/]+\/[^/]+/, '').replace(/[0-9a-f]{40}/, '<sha>')} ${r.status}`)
        .join(', ');
    }
    const reread = await count(async () => {
      await repo.listFiles('main', 'content/skills');
      await repo.readFile('main', 'content/skills/bench-1.md');
    });
    const rows = [
      { measure: 'requests per commit, 3-file change set (median)', value: median(perCommit), goal: '≤ 5' },
      { measure: 'requests per commit (max)', value: Math.max(...perCommit), goal: '≤ 5' },
      { measure: 'one commit’s requests', value: shape, goal: '—' },
      { measure: 'ms per commit on the emulator (median)', value: median(perCommitMs).toFixed(1), goal: '—' },
      { measure: 'first read of the whole tree (requests)', value: firstRead.requests, goal: '—' },
      { measure: 'list + read again after the commits (requests)', value: reread.requests, goal: '0 charged (304s)' },
      { measure: 'baseline: Git Data API plainly (ref, 3 blobs, tree, commit, ref update)', value: 7, goal: '—' },
    ];
    printTable(`GitHub backend on the emulator: HTTP requests per commit over ${commits} three-file change sets (goal ≤ 5, reads cached)`, rows);
    return { median: median(perCommit), max: Math.max(...perCommit), rows };
  } finally {
    await emulator.close();
  }
}

// ---- commit → live with the workflow's steps run locally -------------------------------------------------

const TOKEN = 'bench-admin-token-0123456789abcdef';
const WEBHOOK_SECRET = 'bench-webhook-secret-0123456789';
const root = resolve('.');
/** This checkout's code, linked into each job workspace beside the checked-out content. */
const CODE = ['scripts', 'operations', 'node_modules', 'package.json', 'tsconfig.json', 'types'];

interface WorkflowStep {
  name?: string;
  run?: string;
}

/** The `run:` script of a step of .github/workflows/publish.yml, by job and step name. */
function stepScript(job: string, name: string): string {
  const workflow = parse(readFileSync(join(root, '.github/workflows/publish.yml'), 'utf8')) as { jobs: Record<string, { steps: WorkflowStep[] }> };
  const run = workflow.jobs[job]?.steps.find((s) => s.name === name)?.run;
  if (!run) throw new Error(`.github/workflows/publish.yml has no step "${name}" with run: in job ${job}`);
  return run;
}

function bash(cwd: string, command: string, extra: Record<string, string>): Promise<{ code: number; output: string }> {
  const env: Record<string, string> = { PATH: process.env.PATH!, HOME: process.env.HOME!, ...extra };
  return new Promise((done) => {
    // As Actions runs a `run:` step on Linux: bash --noprofile --norc -eo pipefail.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', command], {
      cwd,
      env: env as NodeJS.ProcessEnv,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });
}

/** The `::error file=…,line=…::message` annotations scripts/publish.ts writes, as the build job's problems. */
function annotations(output: string): Problem[] {
  return [...output.matchAll(/^::error(?: ([^:]*))?::(.*)$/gm)].map((m) => {
    const props = Object.fromEntries((m[1] ?? '').split(',').map((p) => p.split('=') as [string, string]));
    return { path: props.file ?? '', ...(props.line ? { line: Number(props.line) } : {}), message: m[2]!.replace(/%0A/g, '\n') };
  });
}

/** Runs the workflow's steps for a run of the emulated Actions (its `runner`), timing them by run id (performance.now()). */
function workflowRunner(bareDir: string, timings: Map<number, { started: number; ended: number }>) {
  const scripts = {
    model: stepScript('translate', 'Look for a model provider'),
    build: stepScript('build', 'Build'),
    deploy: stepScript('deploy', 'Deploy'),
  };
  return async (run: EmulatedRun): Promise<{ problems: Problem[]; commit?: string }> => {
    const started = performance.now();
    const work = mkdtempSync(join(tmpdir(), 'vitae-bench-run-'));
    try {
      // actions/checkout: every branch as origin/* (deploy's fetch-depth 0), the pushed commit checked out.
      execFileSync('git', ['init', '-q', work]);
      execFileSync('git', ['-C', work, 'fetch', '-q', bareDir, '+refs/heads/*:refs/remotes/origin/*']);
      execFileSync('git', ['-C', work, '-c', 'advice.detachedHead=false', 'checkout', '-q', run.head_sha]);
      for (const entry of CODE) symlinkSync(join(root, entry), join(work, entry));
      const outputs = join(work, '.github-output');
      const env = (extra: Record<string, string>) => {
        writeFileSync(outputs, '');
        return {
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_SHA: run.head_sha,
          GITHUB_REF: `refs/heads/${run.head_branch}`,
          GITHUB_REF_NAME: run.head_branch,
          GITHUB_OUTPUT: outputs,
          GITHUB_STEP_SUMMARY: join(work, '.github-summary'),
          ...extra,
        };
      };
      const output = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(readFileSync(outputs, 'utf8'))?.[1];
      // translate: without a model only the step that looks for one runs, and the later jobs take the pushed commit.
      const model = await bash(work, scripts.model, env({ OPENAI_API_KEY: '', OPENAI_BASE_URL: '' }));
      if (model.code !== 0 || output('configured') !== 'false') throw new Error(`translate's "Look for a model provider" step: ${model.output}`);
      const build = await bash(work, scripts.build, env({ COMMIT: run.head_sha, BASE_URL: 'http://vitae.bench' }));
      if (build.code !== 0) {
        const problems = annotations(build.output);
        return { problems: problems.length ? problems : [{ path: '', message: `build: ${build.output}` }] };
      }
      const commit = output('commit') ?? run.head_sha;
      const deploy = await bash(work, scripts.deploy, env({ COMMIT: commit, BASE_URL: 'http://vitae.bench', DEV_URL: 'http://dev.vitae.bench' }));
      if (deploy.code !== 0) return { problems: [{ path: '', message: `deploy: ${deploy.output}` }] };
      return { problems: [], commit };
    } finally {
      timings.set(run.id, { started, ended: performance.now() });
      rmSync(work, { recursive: true, force: true });
    }
  };
}

async function benchLive(edits: number) {
  const emulator = await startGitHubEmulator({ seedDir: 'content' });
  const timings = new Map<number, { started: number; ended: number }>();
  const actions = addActions(emulator, { secret: WEBHOOK_SECRET, runner: workflowRunner(emulator.bareDir, timings) });
  const server = await startService({
    ADMIN_TOKEN: TOKEN,
    REPO_BACKEND: 'github',
    GITHUB_API_URL: emulator.url,
    GITHUB_TOKEN: emulator.token,
    GITHUB_REPOSITORY: emulator.repository,
    GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  try {
    actions.webhookUrls.push(`${server.url}/api/admin/github/webhook`);
    const toLive: number[] = [];
    const toAnswer: number[] = [];
    const steps: number[] = [];
    const served: number[] = [];
    for (let i = 0; i <= edits; i++) {
      const summary = `GitHub bench edit ${i}: a multilingual assistant that answers hotel guests from each property's own rules.`;
      const runsBefore = actions.runs.length;
      const { answered, live } = await editUntilLive(server.url, TOKEN, summary, 300_000);
      const liveAt = performance.now();
      const run = actions.runs.slice(runsBefore).find((r) => r.head_branch === 'main');
      if (!run || run.conclusion !== 'success') throw new Error(`the edit's run did not succeed: ${JSON.stringify(run && { ...run, jobs: undefined })}`);
      if (i === 0) continue; // warm-up (the first run reads the tree cold)
      toAnswer.push(answered / 1000);
      toLive.push(live / 1000);
      const timing = timings.get(run.id)!;
      steps.push((timing.ended - timing.started) / 1000);
      served.push((liveAt - timing.ended) / 1000);
    }
    const rows = [
      { measure: 'PUT /api/admin/file → 200 (the commit on GitHub)', 'median s': median(toAnswer).toFixed(3), goal: '—' },
      { measure: 'the workflow’s steps (translate → build → deploy)', 'median s': median(steps).toFixed(3), goal: '—' },
      { measure: 'run completed → served (webhook, runs read, build, swap)', 'median s': median(served).toFixed(3), goal: '—' },
      { measure: 'commit → live with the workflow’s steps run locally', 'median s': median(toLive).toFixed(3), goal: '—' },
      { measure: 'baseline: Decap CMS + Netlify build', 'median s': '60–180', goal: '—' },
    ];
    printTable(`Commit → live on the github backend, the workflow's steps run locally on the emulator (median of ${edits}, no model)`, rows);
    return { median: median(toLive), rows };
  } finally {
    await server.stop();
    await emulator.close();
  }
}
