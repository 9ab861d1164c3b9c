// What two commands do beyond calling their operation, as the CLI issue asks: `ask` streams its answer
// through /api/chat as it arrives, and `admin ai-edit --apply` writes the proposal with its base sha.
// Keyed by operation name; every other command is only its operation.
import { Option } from 'commander';
import type { Client } from '../operations/adapters/client.ts';
import { exitCodes } from '../operations/contract/errors.ts';
import { operationsByName } from '../operations/contract/index.ts';
import type { Colours } from './colour.ts';
import { CliFailure } from './failure.ts';
import { formatters } from './format.ts';
import type { CliIO } from './io.ts';
import { streamChat } from './chat-stream.ts';
import type { AiEditProposalOut, CommitResultOut } from './shapes.ts';
import { followDeploy } from './wait.ts';

export interface ExtraContext {
  input: Record<string, unknown>;
  options: Record<string, unknown>;
  url: string;
  client: Client;
  io: CliIO;
  out: Colours;
  err: Colours;
  json: boolean;
}

export interface CommandExtra {
  options?: () => Option[];
  /** Replaces the plain call for the human format (`--json` always prints the operation's own body). */
  stream?: (ctx: ExtraContext) => Promise<void>;
  /** Runs after the answer was printed. */
  after?: (ctx: ExtraContext, body: unknown) => Promise<void>;
}

export const commandExtras: Record<string, CommandExtra> = {
  ask_subject: {
    stream: async ({ input, url, io, out, err }) => {
      const { sources } = await streamChat({
        url,
        messages: [...((input.history as Array<{ role: string; content: string }>) ?? []), { role: 'user', content: String(input.question) }],
        locale: String(input.locale ?? 'en'),
        fetch: io.fetch,
        onText: (text) => io.stdout.write(text),
        onTool: (name) => io.stderr.isTTY && io.stderr.write(err.dim(`· ${name.replace(/_/g, ' ')}\n`)),
      });
      io.stdout.write('\n');
      if (sources.length) io.stdout.write(`\n${out.bold('Sources')}\n${sources.map((slug) => `  ${out.cyan(slug)}`).join('\n')}\n`);
      if (sources.length) io.stderr.write(err.dim('vitae get <slug> for one in full\n'));
    },
  },

  admin_ai_edit: {
    options: () => [
      new Option('--apply', 'write the proposal when it has no problems, based on the sha it was drafted from (409 if the file changed since)'),
      new Option('-m, --message <message>', 'commit message for --apply (default: "AI edit: <instruction>")'),
      new Option('--wait', 'with --apply, follow the publish run until it is live; exit 9 if it fails'),
    ],
    after: async ({ input, options, client, io, out, err, json }, body) => {
      if (!options.apply) return;
      const proposal = body as AiEditProposalOut;
      if (proposal.problems.length)
        throw new CliFailure(exitCodes.invalid, 'Not applied: the proposal has problems (above). Edit the instruction or the file and try again.');
      if (!proposal.diff.includes('\n@@')) {
        io.stderr.write('Nothing to apply: the proposal is the same as the file.\n');
        return;
      }
      const write = operationsByName.get('admin_write_file');
      if (!write) throw new CliFailure(exitCodes.error, '--apply needs the admin_write_file operation.');
      const message = String(options.message ?? `AI edit: ${String(input.instruction)}`).slice(0, 500);
      const result = await client.call<CommitResultOut>(write, {
        path: proposal.path,
        content: proposal.proposed,
        message,
        branch: input.branch ?? 'main',
        ...(proposal.baseSha ? { sha: proposal.baseSha } : {}),
      });
      // With --json the commit's body follows the proposal's, as a second JSON document (`jq` reads both).
      io.stdout.write(json ? JSON.stringify(result, null, 2) + '\n' : formatters.CommitResult!(result, { colours: out, input }).out);
      if (options.wait)
        await followDeploy({ client, branch: result.branch, commit: result.commit.sha, colours: err, write: (line) => io.stderr.write(line + '\n') });
    },
  },
};
