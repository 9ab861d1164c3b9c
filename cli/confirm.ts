// Commands that change the content (an operation with an `effect`: write, delete, commit, promote) ask before
// they do: `--yes` answers for a script, a y/N question asks a person at a terminal, and without either the
// command refuses rather than guess. `--dry-run` shows what would change (diffs, validation, what promote
// would merge) through read-only operations, and writes nothing.
import { createTwoFilesPatch } from 'diff';
import { Option } from 'commander';
import { ApiError, type Client } from '../operations/adapters/client.ts';
import type { AnyOperation } from '../operations/contract/define.ts';
import { exitCodes, type Problem } from '../operations/contract/errors.ts';
import { operationsByName } from '../operations/contract/index.ts';
import type { Colours } from './colour.ts';
import { CliFailure } from './failure.ts';
import { colourDiffLine, formatProblems } from './format.ts';
import type { CliIO } from './io.ts';
import { confirm, isInteractive } from './prompt.ts';
import type { ChangeSetCheckOut, ComparisonOut, ContentFileOut, ValidationResultOut } from './shapes.ts';

/** An operation that changes the content asks first (its definition says what it does in `effect`). */
export const asksFirst = (op: AnyOperation) => op.effect !== undefined;

export const confirmationOptions = () => [
  new Option('-y, --yes', 'do it without asking (needed when there is no terminal to ask on)'),
  new Option('--dry-run', 'show what would change (diffs, validation problems, what would be merged) and write nothing'),
];

interface WriteChange {
  path: string;
  content?: string;
  /** An image (admin_upload_media): bytes, with no text to compare or validate. */
  image?: true;
  delete?: true;
  sha?: string | null;
}

/** The files a change touches, as the input names them. */
function changesOf(op: AnyOperation, input: Record<string, unknown>): WriteChange[] {
  if (Array.isArray(input.changes))
    // An image of a change set (its bytes as contentBase64) is planned as an upload is: by its sha, with no text to compare.
    return (input.changes as Array<WriteChange & { contentBase64?: string }>).map(({ contentBase64, ...c }) =>
      contentBase64 === undefined ? c : { ...c, image: true },
    );
  if (typeof input.path !== 'string') return [];
  const sha = input.sha as string | null | undefined;
  if ('contentBase64' in input) return [{ path: input.path, image: true, sha }];
  return op.name === 'admin_delete_file' || !('content' in input)
    ? [{ path: input.path, delete: true, sha }]
    : [{ path: input.path, content: String(input.content), sha }];
}

/** One sentence for the question: what the command is about to do. */
export function describeChange(op: AnyOperation, input: Record<string, unknown>): string {
  if (op.name === 'admin_promote') return 'merge dev into main and publish it';
  const branch = String(input.branch ?? 'main');
  const changes = changesOf(op, input);
  if (!changes.length) return `${op.summary.charAt(0).toLowerCase()}${op.summary.slice(1)}`;
  const words = changes.map((c) => `${c.delete ? 'delete' : 'write'} ${c.path}`);
  const list = words.length > 3 ? `${words.slice(0, 3).join(', ')} and ${words.length - 3} more` : words.join(', ');
  return `${list} on ${branch} in one commit, and publish it`;
}

/** Asks, or refuses when nobody can answer; returns only when the change may go ahead. */
export async function confirmChange(io: CliIO, command: string, op: AnyOperation, input: Record<string, unknown>, stdinUsed: boolean): Promise<void> {
  const what = describeChange(op, input);
  if (stdinUsed || !isInteractive(io))
    throw new CliFailure(
      exitCodes.usage,
      `vitae ${command} would ${what}, and there is no terminal to confirm it on. ` +
        'Add --yes to go ahead without asking (or --dry-run to see what it would change).',
    );
  if (!(await confirm(io, `vitae ${command} will ${what}. Go ahead?`))) throw new CliFailure(exitCodes.ok, 'Nothing was changed.');
}

export interface PlanStep {
  action: 'create' | 'replace' | 'delete' | 'unchanged';
  path: string;
  /** The blob sha the file has now (null when it does not exist yet). */
  sha: string | null;
  diff?: string;
  problems?: Problem[];
  /** Why the real call would be refused with 409. */
  conflict?: string;
  /** For a delete: the translations deleted with it. */
  cascade?: string[];
}

export interface Plan {
  dryRun: true;
  operation: string;
  branch: string;
  steps: PlanStep[];
  /** For promote: the commits that would be merged. */
  commits?: Array<{ sha: string; message: string }>;
  note?: string;
}

const call = <T>(client: Client, name: string, input: Record<string, unknown>) => {
  const op = operationsByName.get(name);
  if (!op) throw new CliFailure(exitCodes.unavailable, `--dry-run needs the ${name} operation, which this version does not have.`);
  return client.call<T>(op, input);
};

async function currentFile(client: Client, path: string, branch: string): Promise<ContentFileOut | undefined> {
  try {
    return await call<ContentFileOut>(client, 'admin_read_file', { path, branch });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

const patch = (path: string, before: string, after: string) =>
  createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });

/** An image's step: created or replaced, by the sha the listing gives (an image has no text to show or validate). */
async function planImage(client: Client, change: WriteChange, branch: string): Promise<PlanStep> {
  const dir = change.path.slice(0, change.path.lastIndexOf('/'));
  const listed = await call<{ files: Array<{ path: string; sha: string }> }>(client, 'admin_list_files', { dir, branch });
  const sha = listed.files.find((f) => f.path === change.path)?.sha ?? null;
  const conflict =
    change.sha === null && sha
      ? `${change.path} exists already (sha ${sha.slice(0, 12)})`
      : typeof change.sha === 'string' && change.sha !== sha
        ? `${change.path} ${sha ? `changed since ${change.sha.slice(0, 12)} (now ${sha.slice(0, 12)})` : 'no longer exists'}`
        : undefined;
  return { action: sha ? 'replace' : 'create', path: change.path, sha, conflict };
}

async function planChange(client: Client, change: WriteChange, branch: string): Promise<PlanStep> {
  if (change.image) return planImage(client, change, branch);
  const current = await currentFile(client, change.path, branch);
  const sha = current?.sha ?? null;
  let conflict: string | undefined;
  if (change.sha === null && current) conflict = `${change.path} exists already (sha ${current.sha.slice(0, 12)})`;
  else if (typeof change.sha === 'string' && change.sha !== sha)
    conflict = current ? `${change.path} changed since ${change.sha.slice(0, 12)} (now ${current.sha.slice(0, 12)})` : `${change.path} no longer exists`;
  if (change.delete) {
    if (!current) throw new CliFailure(exitCodes.not_found, `No file ${change.path} on ${branch}: there is nothing to delete.`);
    // Checked as the commit checks it: the tree without the file (entries may still use a skill), and the
    // translations it takes with it. The base sha is left out: a stale one is the conflict found above.
    const check = await call<ChangeSetCheckOut>(client, 'admin_validate_changes', { changes: [{ path: change.path, delete: true }], branch });
    const cascade = check.files.filter((f) => f.cascade && f.status === 'deleted').map((f) => f.path);
    return { action: 'delete', path: change.path, sha, problems: check.problems, conflict, ...(cascade.length ? { cascade } : {}) };
  }
  const content = change.content ?? '';
  if (current?.content === content) return { action: 'unchanged', path: change.path, sha, conflict };
  const validation = await call<ValidationResultOut>(client, 'admin_validate', { path: change.path, content, branch });
  return {
    action: current ? 'replace' : 'create',
    path: change.path,
    sha,
    diff: patch(change.path, current?.content ?? '', content),
    problems: validation.problems,
    conflict,
  };
}

/** What the command would do, found through read-only operations. */
export async function planFor(client: Client, op: AnyOperation, input: Record<string, unknown>): Promise<Plan> {
  if (op.name === 'admin_promote') {
    const comparison = await call<ComparisonOut>(client, 'admin_compare', { base: 'main', head: 'dev' });
    return {
      dryRun: true,
      operation: op.name,
      branch: 'main',
      commits: comparison.commits.map((c) => ({ sha: c.sha, message: c.message })),
      steps: comparison.files.map((f) => ({
        action: f.status === 'added' ? 'create' : f.status === 'deleted' ? 'delete' : 'replace',
        path: f.path,
        sha: null,
        diff: f.diff,
      })),
      note: comparison.aheadBy ? undefined : 'Nothing to promote: main already has everything on dev.',
    };
  }
  const branch = String(input.branch ?? 'main');
  const changes = changesOf(op, input);
  // An account's change (an editor added, a token revoked) touches no content file: there is no diff to show.
  if (!changes.length)
    return { dryRun: true, operation: op.name, branch, steps: [], note: `It changes no content file; it would ${describeChange(op, input)}.` };
  const steps: PlanStep[] = [];
  for (const change of changes) steps.push(await planChange(client, change, branch));
  return {
    dryRun: true,
    operation: op.name,
    branch,
    steps,
    note: changes.length > 1 ? 'Each file is validated here on its own; the real commit validates them together.' : undefined,
  };
}

/** The exit code the real call would most likely end with: 7 for a stale sha, 6 for problems, else 0. */
export const planExitCode = (plan: Plan) =>
  plan.steps.some((s) => s.conflict) ? exitCodes.conflict : plan.steps.some((s) => s.problems?.length) ? exitCodes.invalid : exitCodes.ok;

const colourDiff = (diff: string, c: Colours) =>
  diff
    .split('\n')
    .filter((l) => !l.startsWith('====') && !/^Index: /.test(l))
    .map((l) => colourDiffLine(l, c))
    .join('\n')
    .replace(/\n*$/, '\n');

export function renderPlan(plan: Plan, command: string, c: Colours): string {
  const lines: string[] = [c.bold(`Dry run of vitae ${command}: nothing was written.`)];
  if (plan.commits?.length) {
    lines.push(`Would merge ${plan.commits.length} commit${plan.commits.length === 1 ? '' : 's'} from dev into main:`);
    for (const commit of plan.commits) lines.push(`  ${c.cyan(commit.sha.slice(0, 7))} ${commit.message.split('\n')[0]}`);
  }
  const verb = { create: c.green('create'), replace: c.yellow('replace'), delete: c.red('delete'), unchanged: c.dim('unchanged') };
  if (plan.steps.length) lines.push(`Would change on ${plan.branch}:`);
  for (const step of plan.steps) {
    lines.push(`  ${verb[step.action]}  ${step.path}${step.sha ? c.dim(`  (sha ${step.sha.slice(0, 12)})`) : ''}`);
    if (step.conflict) lines.push(c.red(`    refused (409): ${step.conflict}`));
    for (const path of step.cascade ?? []) lines.push(`    ${c.red('delete')}  ${path}${c.dim('  (its translation)')}`);
    if (step.problems?.length) lines.push(formatProblems(step.problems, step.path, c).replace(/^/gm, '    '));
    else if (step.problems) lines.push(`    ${c.green('✓')} valid`);
  }
  if (plan.note) lines.push(plan.note);
  const diffs = plan.steps.filter((s) => s.diff?.includes('@@')).map((s) => colourDiff(s.diff!, c));
  return lines.join('\n') + '\n' + (diffs.length ? '\n' + diffs.join('\n') : '');
}
