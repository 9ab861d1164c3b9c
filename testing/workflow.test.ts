// The publish workflow, run for real: .github/workflows/publish.yml is parsed and checked against the Actions
// schema (@actions/workflow-parser), then its jobs run in the order Actions runs them (by `needs`), each on a
// fresh clone of a bare "origin" made from this repository's HEAD, with its `if:` conditions, `${{ }}`
// expressions, step outputs ($GITHUB_OUTPUT) and job outputs evaluated as Actions does. So every command of
// the file exists and works, and what translate commits is what build builds and deploy names.
//
// What stands in for GitHub: `actions/checkout` is the git commands it runs (init, fetch of the commit or,
// with fetch-depth 0, of every branch, then checkout); `actions/setup-node` is the node running this test
// (its version is checked against package.json's engines); `npm ci --omit=dev` links this checkout's
// node_modules unless VITAE_WORKFLOW_NPM_CI=1 (then it runs, from the npm cache where it can: slow).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { locales } from '../operations/contract/shared.ts';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const WORKFLOW = '.github/workflows/publish.yml';
const text = readFileSync(join(root, WORKFLOW), 'utf8');

// ---- A small evaluator of Actions expressions: context paths, 'strings', ==, !=, !, &&, ||, ( ) ----------

type Context = Record<string, unknown>;

function evaluate(expression: string, context: Context): unknown {
  const tokens = expression.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[!()]|[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const take = () => tokens[at++];
  const loose = (a: unknown, b: unknown) => String(a ?? '').toLowerCase() === String(b ?? '').toLowerCase();
  function primary(): unknown {
    const token = take();
    if (token === undefined) throw new Error(`expression ends early: ${expression}`);
    if (token === '(') {
      const value = or();
      assert.equal(take(), ')', `unbalanced ( in ${expression}`);
      return value;
    }
    if (token === '!') return !primary();
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (token === 'true' || token === 'false') return token === 'true';
    if (/^[A-Za-z_]/.test(token)) {
      const [head, ...path] = token.split('.');
      assert.ok(head! in context, `unknown context "${head}" in ${expression}`);
      return path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], context[head!]);
    }
    throw new Error(`unexpected "${token}" in ${expression}`);
  }
  function comparison(): unknown {
    let left = primary();
    while (peek() === '==' || peek() === '!=') left = take() === '==' ? loose(left, primary()) : !loose(left, primary());
    return left;
  }
  function and(): unknown {
    let left = comparison();
    while (peek() === '&&') {
      const right = (take(), comparison());
      left = left ? right : left;
    }
    return left;
  }
  function or(): unknown {
    let left = and();
    while (peek() === '||') {
      const right = (take(), and());
      left = left ? left : right;
    }
    return left;
  }
  const value = or();
  assert.equal(at, tokens.length, `could not read all of ${expression}`);
  return value;
}

/** A value with `${{ … }}` parts replaced (a whole-value expression keeps its type). */
function interpolate(value: unknown, context: Context): string {
  return String(value ?? '').replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (_, expression: string) => String(evaluate(expression, context) ?? ''));
}
/** An `if:` (written with or without `${{ }}`); absent means success(). */
function condition(value: unknown, context: Context): boolean {
  if (value === undefined) return true;
  const expression = String(value)
    .replace(/^\$\{\{\s*|\s*\}\}$/g, '')
    .trim();
  return Boolean(evaluate(expression, context));
}

// ---- The runner --------------------------------------------------------------------------------------------

interface StepYaml {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, unknown>;
  with?: Record<string, unknown>;
}
interface JobYaml {
  name?: string;
  needs?: string | string[];
  if?: string;
  outputs?: Record<string, string>;
  env?: Record<string, unknown>;
  steps: StepYaml[];
}

interface StepRun {
  name: string;
  status: 'success' | 'failure' | 'skipped';
  output: string;
}
interface JobRun {
  id: string;
  name: string;
  status: 'success' | 'failure' | 'skipped';
  steps: StepRun[];
  outputs: Record<string, string>;
  summary: string;
}

interface Push {
  /** The bare repository standing in for GitHub. */
  origin: string;
  branch: string;
  sha: string;
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
}

const npmCi = process.env.VITAE_WORKFLOW_NPM_CI === '1';
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** `needs` as a list, and the jobs in an order where each comes after what it needs. */
function jobOrder(jobs: Record<string, JobYaml>): string[] {
  const order: string[] = [];
  const visit = (id: string, path: string[] = []) => {
    assert.ok(!path.includes(id), `needs cycle: ${[...path, id].join(' → ')}`);
    if (order.includes(id)) return;
    for (const need of needsOf(jobs[id]!)) visit(need, [...path, id]);
    order.push(id);
  };
  for (const id of Object.keys(jobs)) visit(id);
  return order;
}
const needsOf = (job: JobYaml) => (job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs]);

async function runWorkflow(push: Push, work: string): Promise<Map<string, JobRun>> {
  const workflow = parse(text) as { jobs: Record<string, JobYaml>; env?: Record<string, unknown> };
  const runs = new Map<string, JobRun>();
  const github = { sha: push.sha, ref: `refs/heads/${push.branch}`, ref_name: push.branch, event_name: 'push', repository: 'owner/profile' };
  const base = { github, secrets: push.secrets ?? {}, vars: push.vars ?? {} };
  for (const id of jobOrder(workflow.jobs)) {
    const job = workflow.jobs[id]!;
    const needs = Object.fromEntries(needsOf(job).map((n) => [n, { result: runs.get(n)!.status, outputs: runs.get(n)!.outputs }]));
    const jobRun: JobRun = { id, name: id, status: 'success', steps: [], outputs: {}, summary: '' };
    runs.set(id, jobRun);
    // Default `if: success()`: every needed job succeeded.
    if (Object.values(needs).some((n) => n.result !== 'success') || !condition(job.if, { ...base, needs })) {
      jobRun.status = 'skipped';
      continue;
    }
    jobRun.name = job.name ? interpolate(job.name, { ...base, needs }) : id;
    const workspace = mkdtempSync(join(work, `${id}-`));
    const steps: Record<string, { outputs: Record<string, string>; outcome: string }> = {};
    for (const [index, step] of job.steps.entries()) {
      const context = { ...base, needs, steps, env: {} };
      const name = step.name ?? step.uses ?? step.run!.split('\n')[0]!;
      if (jobRun.status === 'failure' || !condition(step.if, context)) {
        jobRun.steps.push({ name, status: 'skipped', output: '' });
        if (step.id) steps[step.id] = { outputs: {}, outcome: 'skipped' };
        continue;
      }
      const outputFile = join(work, `${id}-${index}.output`);
      const summaryFile = join(work, `${id}-${index}.summary`);
      writeFileSync(outputFile, '');
      writeFileSync(summaryFile, '');
      const env: Record<string, string> = {
        PATH: process.env.PATH!,
        HOME: process.env.HOME!,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_SHA: push.sha,
        GITHUB_REF: github.ref,
        GITHUB_REF_NAME: push.branch,
        GITHUB_EVENT_NAME: 'push',
        GITHUB_WORKSPACE: workspace,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        npm_config_prefer_offline: 'true',
        npm_config_update_notifier: 'false',
      };
      for (const [key, value] of Object.entries({ ...workflow.env, ...job.env, ...step.env })) env[key] = interpolate(value, context);
      let status: StepRun['status'] = 'success';
      let output = '';
      if (step.uses) {
        output = useAction(step, context, push, workspace);
      } else {
        const script = step.run!;
        if (/^npm ci\b/.test(script.trim()) && !npmCi) {
          assert.equal(script.trim(), 'npm ci --omit=dev', 'installs what package-lock.json pins, without the dev tooling');
          symlinkSync(join(root, 'node_modules'), join(workspace, 'node_modules'), 'dir');
        } else {
          // Asynchronously: a step may call a server of this process (the scripted model).
          const result = await runScript(script, workspace, env);
          output = result.output;
          if (result.code !== 0) status = 'failure';
        }
      }
      const outputs: Record<string, string> = {};
      for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
        const match = /^([\w-]+)=(.*)$/.exec(line);
        if (match) outputs[match[1]!] = match[2]!;
      }
      jobRun.summary += readFileSync(summaryFile, 'utf8');
      if (step.id) steps[step.id] = { outputs, outcome: status };
      jobRun.steps.push({ name, status, output });
      if (status === 'failure') jobRun.status = 'failure';
    }
    if (jobRun.status === 'success')
      for (const [key, value] of Object.entries(job.outputs ?? {})) jobRun.outputs[key] = interpolate(value, { ...base, needs, steps });
  }
  return runs;
}

/** A `run:` script as Actions runs it on Linux: bash with -e and pipefail, in the workspace. */
function runScript(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env: env as NodeJS.ProcessEnv });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** What the two actions the workflow uses do, as far as the steps after them can tell. */
function useAction(step: StepYaml, context: Context, push: Push, workspace: string): string {
  const [action, version] = step.uses!.split('@');
  const withs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(v, context)]));
  if (action === 'actions/checkout') {
    assert.equal(version, 'v4');
    // As actions/checkout does it for a push: fetch the commit (depth 1) or every branch (fetch-depth 0),
    // then a local branch at the pushed commit, or a detached checkout of an explicit ref.
    git(workspace, 'init', '-q');
    git(workspace, 'remote', 'add', 'origin', push.origin);
    const full = withs['fetch-depth'] === '0';
    const ref = withs.ref || push.sha;
    if (full) git(workspace, 'fetch', '-q', 'origin', '+refs/heads/*:refs/remotes/origin/*');
    else git(workspace, 'fetch', '-q', '--depth=1', 'origin', `+${ref}:refs/remotes/origin/${push.branch}`);
    if (withs.ref) git(workspace, 'checkout', '-q', '--force', '--detach', withs.ref);
    else git(workspace, 'checkout', '-q', '--force', '-B', push.branch, push.sha);
    return `checked out ${git(workspace, 'rev-parse', 'HEAD')}`;
  }
  if (action === 'actions/setup-node') {
    assert.equal(version, 'v4');
    const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node as string;
    const minimum = Number(/>=\s*(\d+)/.exec(engines)![1]);
    assert.ok(Number(withs['node-version']) >= minimum, `node-version ${withs['node-version']} meets engines ${engines}`);
    assert.equal(withs.cache, 'npm');
    return `node ${process.version}`;
  }
  assert.fail(`${step.uses}: this test does not know what that action does`);
}

// ---- The repository standing in for GitHub ----------------------------------------------------------------

let work: string;
let origin: string;
/** A clone of origin to make pushes from. */
let pusher: string;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'vitae-workflow-'));
  origin = join(work, 'origin.git');
  git(work, 'clone', '-q', '--bare', '--no-local', root, origin);
  const head = git(root, 'rev-parse', 'HEAD');
  git(origin, 'update-ref', 'refs/heads/main', head);
  git(origin, 'update-ref', 'refs/heads/dev', head);
  pusher = join(work, 'pusher');
  git(work, 'clone', '-q', origin, pusher);
  git(pusher, 'config', 'user.name', 'Editor');
  git(pusher, 'config', 'user.email', 'editor@example.test');
});
after(() => rmSync(work, { recursive: true, force: true }));

/** Commits a change to `path` on `branch` of origin (a push, as an editor or the service would make it). */
function push(branch: string, path: string, change: (text: string) => string, message: string): string {
  git(pusher, 'fetch', '-q', 'origin');
  git(pusher, 'checkout', '-q', '-B', branch, `origin/${branch}`);
  writeFileSync(join(pusher, path), change(readFileSync(join(pusher, path), 'utf8')));
  git(pusher, 'commit', '-q', '-am', message);
  git(pusher, 'push', '-q', 'origin', branch);
  return git(pusher, 'rev-parse', 'HEAD');
}

const ENTRY = 'content/corpus/projects/concierge-copilot.md';
const statuses = (runs: Map<string, JobRun>) => Object.fromEntries([...runs].map(([id, r]) => [id, r.status]));
const failed = (runs: Map<string, JobRun>) =>
  [...runs.values()].flatMap((r) => r.steps.filter((s) => s.status === 'failure').map((s) => `${r.id} / ${s.name}:\n${s.output}`)).join('\n');

describe(WORKFLOW, () => {
  it('is a valid Actions workflow: on pushes to main and dev, translate → build → deploy', async () => {
    const parsed = parseWorkflow({ name: WORKFLOW, content: text }, new NoOperationTraceWriter());
    assert.deepEqual(parsed.context.errors.getErrors().map(String), []);
    const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
    assert.deepEqual(template.errors ?? [], []);
    assert.deepEqual(Object.keys(template.events), ['push']);
    assert.deepEqual(template.events.push?.branches, ['main', 'dev']);
    const needs = Object.fromEntries(template.jobs.map((job) => [job.id.value, (job.needs ?? []).map((n) => n.value)]));
    assert.deepEqual(needs, { translate: [], build: ['translate'], deploy: ['build'] });
    assert.deepEqual(jobOrder((parse(text) as { jobs: Record<string, JobYaml> }).jobs), ['translate', 'build', 'deploy']);
  });

  it('without a model secret: translate is skipped with a note, the pushed commit is built, and deploy names it', { timeout: 180_000 }, async () => {
    const sha = push('dev', ENTRY, (t) => `${t.trimEnd()}\n\nA paragraph added on dev.\n`, 'Edit an entry on dev');
    const runs = await runWorkflow({ origin, branch: 'dev', sha }, work);
    assert.deepEqual(statuses(runs), { translate: 'success', build: 'success', deploy: 'success' }, failed(runs));
    const translate = runs.get('translate')!;
    assert.deepEqual(
      translate.steps.filter((s) => s.status === 'skipped').map((s) => s.name),
      ['Install', 'Translate', 'Some translations failed', 'No translation was made'],
    );
    assert.match(translate.summary, /translate skipped: no model secret is set/);
    assert.equal(translate.outputs.commit, sha);
    assert.match(runs.get('build')!.steps.at(-1)!.output, new RegExp(`Built ${sha.slice(0, 7)}: \\d+ entries`));
    assert.equal(runs.get('deploy')!.name, `deploy ${sha}`);
    assert.match(runs.get('deploy')!.summary, /goes live on dev/);
    assert.equal(git(origin, 'rev-parse', 'refs/heads/dev'), sha, 'nothing was pushed');
  });

  describe('with a model', () => {
    let model: FakeOpenAI;
    before(async () => {
      model = await startFakeOpenAI();
      // Every field comes back "translated": prefixed with the locale asked for.
      model.fallback = (body: { messages: Array<{ role: string; content: unknown }> }) => {
        const system = String(body.messages.find((m) => m.role === 'system')?.content ?? '');
        const prompt = JSON.parse(String(body.messages.at(-1)!.content)) as Record<string, unknown>;
        const tag = `[${/into (.+?)\./.exec(system)?.[1] ?? '?'}] `;
        const translated = Object.fromEntries(Object.entries(prompt).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => tag + String(x)) : tag + String(v)]));
        return { json: translated };
      };
    });
    after(() => model.close());

    it('commits the stale translations as one commit on the branch, and builds and names that commit', { timeout: 240_000 }, async () => {
      const sha = push('main', ENTRY, (t) => `${t.trimEnd()}\n\nA paragraph added on main.\n`, 'Edit an entry on main');
      const runs = await runWorkflow({ origin, branch: 'main', sha, vars: { OPENAI_BASE_URL: model.url } }, work);
      assert.deepEqual(statuses(runs), { translate: 'success', build: 'success', deploy: 'success' }, failed(runs));
      const translated = git(origin, 'rev-parse', 'refs/heads/main');
      assert.notEqual(translated, sha, 'the translations were pushed');
      assert.equal(git(origin, 'rev-parse', `${translated}^`), sha, 'one commit, on top of the pushed one');
      const files = git(origin, 'diff', '--name-only', sha, translated).split('\n');
      const expected = locales.filter((l) => l !== 'en').map((l) => ENTRY.replace('content/', `content/i18n/${l}/`));
      assert.deepEqual(files.sort(), expected.sort());
      assert.equal(runs.get('translate')!.outputs.commit, translated);
      assert.match(runs.get('build')!.steps.at(-1)!.output, new RegExp(`Built ${translated.slice(0, 7)}`));
      assert.equal(runs.get('deploy')!.name, `deploy ${translated}`);
      assert.ok(model.requests.length >= expected.length);
    });

    it('reports the translations it could not make (partial, each in a warning), and still builds and names the commit', { timeout: 240_000 }, async () => {
      const translate = model.fallback;
      // French fails; every other locale is translated as above.
      model.fallback = (body: { messages: Array<{ role: string; content: unknown }> }) =>
        /into French\./.test(String(body.messages.find((m) => m.role === 'system')?.content))
          ? { status: 500, error: 'no French today' }
          : (translate as any)(body);
      try {
        const sha = push('dev', ENTRY, (t) => `${t.trimEnd()}\n\nAnother paragraph added on dev.\n`, 'Edit an entry on dev again');
        const runs = await runWorkflow({ origin, branch: 'dev', sha, vars: { OPENAI_BASE_URL: model.url } }, work);
        assert.deepEqual(statuses(runs), { translate: 'success', build: 'success', deploy: 'success' }, failed(runs));
        const job = runs.get('translate')!;
        const step = (name: string) => job.steps.find((s) => s.name === name)!;
        assert.equal(step('Some translations failed').status, 'success');
        assert.equal(step('No translation was made').status, 'skipped');
        const fr = ENTRY.replace('content/', 'content/i18n/fr/');
        assert.match(step('Translate').output, new RegExp(`::warning title=translate partial::translated 5 of 6 files; 1 failed:%0A${fr}: .*no French today`));
        const translated = git(origin, 'rev-parse', 'refs/heads/dev');
        assert.equal(git(origin, 'rev-parse', `${translated}^`), sha, 'what was made is committed on top');
        assert.ok(!git(origin, 'diff', '--name-only', sha, translated).split('\n').includes(fr));
        assert.equal(runs.get('deploy')!.name, `deploy ${translated}`);
      } finally {
        model.fallback = translate;
      }
    });
  });

  it('an invalid commit fails the build with the file and line, and is never deployed', { timeout: 180_000 }, async () => {
    const sha = push('dev', ENTRY, (t) => t.replace(/^start: .*$/m, 'start: not-a-date'), 'Break an entry');
    const runs = await runWorkflow({ origin, branch: 'dev', sha }, work);
    assert.deepEqual(statuses(runs), { translate: 'success', build: 'failure', deploy: 'skipped' });
    const build = runs.get('build')!.steps.find((s) => s.status === 'failure')!;
    assert.match(build.output, new RegExp(`::error file=${ENTRY.replace(/\./g, '\\.')}`));
    assert.match(build.output, /it will not be published/);
  });
});
