// `--wait`: follow the publish run of a new commit (translate → build → deploy) until it is live or has
// failed, one progress line per stage change on stderr, so stdout keeps only the command's own answer.
import { ApiError, NetworkError, type Client } from '../operations/adapters/client.ts';
import { exitCodes } from '../operations/contract/errors.ts';
import { operationsByName } from '../operations/contract/index.ts';
import type { Colours } from './colour.ts';
import { CliFailure } from './failure.ts';
import type { DeployRunOut, DeployRunsOut } from './shapes.ts';

export interface FollowOptions {
  client: Client;
  branch: string;
  commit: string;
  write: (line: string) => void;
  colours: Colours;
  intervalMs?: number;
  timeoutMs?: number;
  /** How long a missing run is tolerated before saying so (CI may take a moment to queue it). */
  quietMs?: number;
  /** How long a missing run is tolerated at all: a commit that changed nothing starts no run. */
  missingMs?: number;
}

const finished = new Set(['success', 'failure', 'cancelled']);

/** Resolves with the finished run; throws CliFailure (exit 9) when it fails or never finishes. */
export async function followDeploy(options: FollowOptions): Promise<DeployRunOut> {
  const { client, branch, commit, write, colours: c } = options;
  const op = operationsByName.get('admin_deploy_status');
  if (!op) throw new CliFailure(exitCodes.unavailable, '--wait needs the admin_deploy_status operation, which this version of the service does not have.');
  const interval = options.intervalMs ?? 500;
  const deadline = Date.now() + (options.timeoutMs ?? 15 * 60_000);
  const quietUntil = Date.now() + (options.quietMs ?? 15_000);
  const missingUntil = Date.now() + (options.missingMs ?? 120_000);
  const seen = new Map<string, string>();
  let announcedMissing = false;
  let networkFailures = 0;

  write(c.dim(`Waiting for the publish run of ${commit.slice(0, 7)} on ${branch} (translate → build → deploy)…`));
  for (;;) {
    let run: DeployRunOut | undefined;
    try {
      const { runs } = await client.call<DeployRunsOut>(op, { branch, limit: 20 });
      run = runs.find((r) => r.commit === commit || (r.commit.length >= 7 && commit.startsWith(r.commit)));
      networkFailures = 0;
    } catch (error) {
      // A restart of the service during a deploy is normal; give it a few tries before giving up.
      if (!(error instanceof NetworkError) || ++networkFailures > 5)
        throw error instanceof ApiError || error instanceof NetworkError ? error : new CliFailure(exitCodes.unavailable, String(error));
    }
    if (run) {
      for (const stage of run.stages) {
        if (seen.get(stage.name) === stage.status) continue;
        seen.set(stage.name, stage.status);
        if (stage.status === 'queued') continue;
        write(stageLine(stage, c));
      }
      if (finished.has(run.status)) {
        if (run.status === 'success') {
          write(`${c.green('✓')} Live on ${branch}: ${run.siteUrl}`);
          return run;
        }
        throw new CliFailure(
          exitCodes.unavailable,
          `${c.red('✗')} The publish run ${run.id} ended with ${run.status}${run.error ? `: ${run.error}` : ''}. The previous build stays live. Details: ${run.url}`,
        );
      }
    } else if (!announcedMissing && Date.now() > quietUntil) {
      announcedMissing = true;
      write(c.dim(`No run for ${commit.slice(0, 7)} yet; still waiting (vitae admin deploys --branch ${branch} lists the runs).`));
    } else if (Date.now() > missingUntil) {
      throw new CliFailure(
        exitCodes.unavailable,
        `No publish run started for ${commit.slice(0, 7)} on ${branch}. If the change was identical to what is there, nothing was committed and nothing needs publishing; otherwise check \`vitae admin deploys --branch ${branch}\`.`,
      );
    }
    if (Date.now() > deadline)
      throw new CliFailure(
        exitCodes.unavailable,
        `Gave up waiting for the publish run of ${commit.slice(0, 7)}; it may still finish (vitae admin deploys --branch ${branch}).`,
      );
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/**
 * `--wait` after a write: follows the run of the commit in the answer, unless the answer says there is
 * nothing to publish (promote with `merged: false`; `changed: false`, which CommitResult may carry one day).
 */
export async function followAnswer(answer: unknown, branch: string, options: Omit<FollowOptions, 'branch' | 'commit'>): Promise<void> {
  const result = answer as { branch?: string; commit?: { sha?: string }; merged?: boolean; changed?: boolean };
  if (result.merged === false || result.changed === false) options.write('Nothing to publish.');
  else if (result.commit?.sha) await followDeploy({ ...options, branch: result.branch ?? branch, commit: result.commit.sha });
}

function stageLine(stage: DeployRunOut['stages'][number], c: Colours): string {
  const seconds =
    stage.startedAt && stage.finishedAt && stage.status !== 'skipped'
      ? ` ${((Date.parse(stage.finishedAt) - Date.parse(stage.startedAt)) / 1000).toFixed(1)}s`
      : '';
  const mark =
    { running: c.yellow('…'), success: c.green('✓'), partial: c.yellow('~'), failure: c.red('✗'), skipped: c.dim('-'), cancelled: c.red('✗') }[
      stage.status as string
    ] ?? ' ';
  // A note of several lines (each translation that failed) continues under the stage's name.
  const note = stage.note ? c.dim(` (${stage.note.replace(/\n/g, '\n      ')})`) : '';
  return `  ${mark} ${stage.name.padEnd(9)} ${stage.status}${stage.status === 'running' ? '' : seconds}${note}`;
}
