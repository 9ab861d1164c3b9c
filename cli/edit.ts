// `vitae admin edit <path|slug>`: read the file and its sha (admin_read_file), open $VISUAL / $EDITOR on a
// temporary copy, and when the editor closes validate the text (admin_validate) and commit it based on that
// sha (admin_write_file). As with `kubectl edit` and `gh`: an unchanged file commits nothing; a 409 (someone
// committed the file meanwhile) offers to reopen on their version with your changes merged in, conflicting
// lines marked; without a terminal every failure says where your text was kept and what to run next.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { diff3Merge } from 'node-diff3';
import { ApiError, createClient, type Client } from '../operations/adapters/client.ts';
import type { AnyOperation } from '../operations/contract/define.ts';
import { exitCodes } from '../operations/contract/errors.ts';
import { operationsByName } from '../operations/contract/index.ts';
import { colourEnabled, colours } from './colour.ts';
import { CliFailure, describeFailure, missingToken } from './failure.ts';
import { formatProblems, formatters } from './format.ts';
import { looksLikePath } from './input.ts';
import type { CliIO } from './io.ts';
import { confirm, isInteractive } from './prompt.ts';
import { adminCredential, siteUrl, userAgent } from './settings.ts';
import type { CommitResultOut, ContentFileOut, ValidationResultOut } from './shapes.ts';
import { followDeploy } from './wait.ts';

export interface EditOptions {
  target: string;
  branch: string;
  message?: string;
  wait?: boolean;
  url?: string;
  color?: boolean;
  json?: boolean;
}

const COMMAND = 'admin edit';

function operation(name: string): AnyOperation {
  const op = operationsByName.get(name);
  if (!op) throw new CliFailure(exitCodes.error, `vitae ${COMMAND} needs the ${name} operation, which this version does not have.`);
  return op;
}

/** Runs the editor the way git does: `$EDITOR` may carry arguments (`code --wait`), the file comes last. */
function runEditor(editor: string, file: string, env: CliIO['env']): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit', env: env as NodeJS.ProcessEnv });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const lines = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
const ended = (chunk: string[]) => {
  const text = chunk.join('');
  return text && !text.endsWith('\n') ? text + '\n' : text;
};

/** Their version with your changes from `base` merged in; parts both changed differently between conflict markers. */
export function mergeEdits(base: string, theirs: string, yours: string, theirLabel: string): { text: string; conflicts: number } {
  let text = '';
  let conflicts = 0;
  for (const region of diff3Merge(lines(yours), lines(base), lines(theirs), { excludeFalseConflicts: true })) {
    if (region.ok) text += region.ok.join('');
    else if (region.conflict) {
      conflicts++;
      text += `<<<<<<< yours\n${ended(region.conflict.a)}=======\n${ended(region.conflict.b)}>>>>>>> ${theirLabel}\n`;
    }
  }
  return { text, conflicts };
}

const MARKERS = /^(<<<<<<< yours|=======|>>>>>>> theirs\b.*)$/m;

export async function editFile(io: CliIO, options: EditOptions): Promise<void> {
  const url = siteUrl(options.url, io.env);
  const credential = adminCredential(io.env, url);
  if (!credential) throw missingToken(COMMAND, url);
  const out = colours(colourEnabled(io.stdout, io.env, options.color));
  const err = colours(colourEnabled(io.stderr, io.env, options.color));
  const client = createClient({ baseUrl: url, token: credential.token, fetch: io.fetch, userAgent });
  const interactive = isInteractive(io);
  const editor = io.env.VISUAL?.trim() || io.env.EDITOR?.trim() || (interactive ? 'vi' : '');
  if (!editor)
    throw new CliFailure(
      exitCodes.usage,
      `vitae ${COMMAND} opens an editor, and there is no terminal for one: set EDITOR (or VISUAL) to a program that edits the file it is given, ` +
        'or use `vitae admin get` and `vitae admin put --sha` in a script.',
    );
  const branch = options.branch;
  const fail = (error: unknown, op: AnyOperation, input: Record<string, unknown>) =>
    describeFailure(error, { op, command: COMMAND, input, url, colours: err, tokenSource: credential.source });

  const readOp = operation('admin_read_file');
  const target = looksLikePath(options.target) ? { path: options.target } : { slug: options.target };
  let base: ContentFileOut;
  try {
    base = await client.call<ContentFileOut>(readOp, { ...target, branch });
  } catch (error) {
    throw fail(error, readOp, { ...target, branch });
  }
  const path = base.path;
  const dir = mkdtempSync(join(tmpdir(), 'vitae-edit-'));
  const file = join(dir, basename(path));
  writeFileSync(file, base.content, { mode: 0o600 });
  const message = options.message ?? `Edit ${path}`;
  const keptHint = (sha: string) =>
    `Your text is kept in ${file}; when it is right, commit it with: vitae admin put ${path} ${file} -m ${JSON.stringify(message)} --sha ${sha}${branch === 'main' ? '' : ` --branch ${branch}`} --yes`;

  for (;;) {
    const status = await runEditor(editor, file, io.env);
    if (status !== 0)
      throw new CliFailure(exitCodes.error, `The editor (${editor}) exited with status ${status}; nothing was committed. ${keptHint(base.sha)}`);
    const edited = readFileSync(file, 'utf8');
    if (edited === base.content) {
      io.stderr.write(`No changes to ${path}: nothing was committed.\n`);
      rmSync(dir, { recursive: true, force: true });
      return;
    }
    if (!edited.trim()) {
      io.stderr.write(`The file was emptied: edit cancelled, nothing was committed (to delete ${path}, use vitae admin rm).\n`);
      rmSync(dir, { recursive: true, force: true });
      return;
    }

    const problems = MARKERS.test(edited)
      ? [{ path, message: 'conflict markers (<<<<<<< yours, =======, >>>>>>> theirs) are still in the file; keep the lines you want and remove the markers' }]
      : await validate(client, path, edited, branch).catch((error: unknown) => {
          throw fail(error, operation('admin_validate'), { path, branch });
        });
    if (problems.length) {
      io.stderr.write(`${formatProblems(problems, path, err)}\n`);
      if (
        interactive &&
        (await confirm(io, `${problems.length} problem${problems.length === 1 ? '' : 's'}: edit again to fix ${problems.length === 1 ? 'it' : 'them'}?`, true))
      )
        continue;
      throw new CliFailure(
        exitCodes.invalid,
        `Not committed: ${path} has ${problems.length} problem${problems.length === 1 ? '' : 's'} (above). ${keptHint(base.sha)}`,
      );
    }

    const writeOp = operation('admin_write_file');
    const input = { path, content: edited, message, branch, sha: base.sha };
    let result: CommitResultOut;
    try {
      result = await client.call<CommitResultOut>(writeOp, input);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) {
        const failure = fail(error, writeOp, input);
        throw new CliFailure(failure.exitCode, `${failure.message}\n${keptHint(base.sha)}`, failure.body);
      }
      let theirs: ContentFileOut;
      try {
        theirs = await client.call<ContentFileOut>(readOp, { path, branch });
      } catch (readError) {
        const failure = fail(readError, readOp, { path, branch });
        throw new CliFailure(
          failure.exitCode,
          `${path} changed on ${branch} while you edited it, and cannot be read now: ${failure.message}\nYour text is kept in ${file}.`,
        );
      }
      const merged = mergeEdits(base.content, theirs.content, edited, `theirs (${theirs.sha.slice(0, 7)})`);
      const what =
        `${path} was committed on ${branch} by someone else while you edited it (now sha ${theirs.sha.slice(0, 12)}). ` +
        (merged.conflicts
          ? `Merged with your changes, ${merged.conflicts} part${merged.conflicts === 1 ? '' : 's'} conflict (marked <<<<<<< yours … >>>>>>> theirs).`
          : 'Your changes merge cleanly onto their version.');
      if (interactive) {
        io.stderr.write(what + '\n');
        if (await confirm(io, 'Reopen the editor on their version with your changes?', true)) {
          writeFileSync(file, merged.text);
          base = theirs;
          continue;
        }
      }
      throw new CliFailure(
        exitCodes.conflict,
        `Conflict: ${what}\nNothing was committed. Your text is kept in ${file}. ` +
          `Run \`vitae admin edit ${options.target}${branch === 'main' ? '' : ` --branch ${branch}`}\` again on a terminal to merge it, ` +
          `or merge by hand and commit with: vitae admin put ${path} ${file} -m ${JSON.stringify(message)} --sha ${theirs.sha}${branch === 'main' ? '' : ` --branch ${branch}`} --yes`,
        error.body,
      );
    }
    rmSync(dir, { recursive: true, force: true });
    io.stdout.write(options.json ? JSON.stringify(result, null, 2) + '\n' : formatters.CommitResult!(result, { colours: out, input }).out);
    if (options.wait)
      await followDeploy({ client, branch: result.branch, commit: result.commit.sha, colours: err, write: (line) => io.stderr.write(line + '\n') });
    return;
  }
}

async function validate(client: Client, path: string, content: string, branch: string) {
  const result = await client.call<ValidationResultOut>(operation('admin_validate'), { path, content, branch });
  return result.problems;
}
