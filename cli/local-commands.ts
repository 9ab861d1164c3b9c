// The commands that are not one operation each: `login` and `logout` (the admin token per site),
// `admin edit` (read → $EDITOR → validate → write with the base sha) and the hidden `__complete` that
// completion scripts call for live values. Each is built from operations of the list, never a route of its own.
import { Argument, Command, Option } from 'commander';
import { markLiveArgument } from './command-meta.ts';
import type { CliIO } from './io.ts';
import { examplesHelp, type Example } from './examples.ts';

/** The examples each command's help shows; groups show the first of each of their commands. */
export const commandExamples = new WeakMap<Command, Example[]>();

export function setExamples(command: Command, examples: Example[]): void {
  commandExamples.set(command, examples);
  command.addHelpText('after', examplesHelp(examples));
}

const liveArgument = (argument: Argument, kind: string) => (markLiveArgument(argument, kind), argument);

export function addLocalCommands(program: Command, io: CliIO): void {
  setExamples(
    program.commands.find((c) => c.name() === 'mcp')!,
    [
      { command: 'vitae mcp', summary: 'The public tools over stdio (configure it as the command of an MCP client)' },
      { command: 'vitae mcp --admin --url https://cv.example.com', summary: 'The admin tools of a deployed site (token from vitae login)' },
    ],
  );
  setExamples(
    program.commands.find((c) => c.name() === 'completion')!,
    [
      { command: 'source <(vitae completion bash)', summary: 'Try it in the current bash' },
      { command: 'vitae completion fish > ~/.config/fish/completions/vitae.fish', summary: 'Install it for fish' },
    ],
  );

  const login = program
    .command('login')
    .summary('Store the admin token for the site, checked against it first')
    .description(
      'Ask for the admin token (hidden), check it against the site at --url / SITE_URL, and store it for that site in ' +
        '$XDG_CONFIG_HOME/vitae/credentials.json (else ~/.config/vitae/), readable only by you (mode 0600). Admin commands ' +
        'use it when SITE_ADMIN_TOKEN is not set. A token the site refuses is not stored.',
    )
    .option('--token-stdin', 'read the token from standard input instead of asking (for scripts)')
    .action(async (options: { tokenStdin?: boolean }, self: Command) => {
      const { login: run } = await import('./login.ts');
      await run(io, self.optsWithGlobals<{ url?: string }>().url, Boolean(options.tokenStdin));
    });
  setExamples(login, [
    { command: 'vitae login', summary: 'Asks for the token of the site at SITE_URL (default http://localhost:3000)' },
    { command: 'vitae login --url https://cv.example.com', summary: 'A deployed site: each site keeps its own token' },
    { command: 'vitae login --token-stdin < .data/secrets/admin-token', summary: 'In a script, or from the token a local start generated' },
  ]);

  const logout = program
    .command('logout')
    .summary('Remove the admin token stored for the site')
    .description('Forget the admin token `vitae login` stored for the site at --url / SITE_URL. SITE_ADMIN_TOKEN, when set, is not touched.')
    .action(async (_options: unknown, self: Command) => {
      const { logout: run } = await import('./login.ts');
      await run(io, self.optsWithGlobals<{ url?: string }>().url);
    });
  setExamples(logout, [
    { command: 'vitae logout', summary: 'Forget the token of the site at SITE_URL' },
    { command: 'vitae logout --url https://cv.example.com', summary: 'Forget the token of another site' },
  ]);

  const admin = program.commands.find((c) => c.name() === 'admin');
  if (admin) {
    const edit = admin
      .command('edit')
      .summary('Edit a content file in $EDITOR; validated on save and committed with the sha it was read at')
      .description(
        'Read the file (by path or by slug) with its sha, open it in $VISUAL / $EDITOR (else vi), and when the editor closes ' +
          'validate the new text against the whole tree and commit it based on that sha. An unchanged file commits nothing. ' +
          'If someone committed the file meanwhile (409), the editor opens again on their version merged with your text ' +
          '(conflicting lines marked), as kubectl edit and gh do. Without a terminal, a failure leaves your text in a file it names.',
      )
      .addArgument(liveArgument(new Argument('<path|slug>', 'a content path (with a / or a file extension), or a slug'), 'targets'))
      .addOption(new Option('-m, --message <message>', 'commit message (default: "Edit <path>")'))
      .addOption(new Option('--branch <branch>', 'the branch to edit').choices(['main', 'dev']).default('main'))
      .option('--wait', 'after the commit, follow the publish run (translate → build → deploy) until it is live; exit 9 if it fails')
      .action(async (target: string, options: { message?: string; branch: string; wait?: boolean }, self: Command) => {
        const { editFile } = await import('./edit.ts');
        const globals = self.optsWithGlobals<{ url?: string; color?: boolean; json?: boolean }>();
        await editFile(io, { target, ...options, url: globals.url, color: globals.color, json: globals.json });
      });
    edit.addHelpText('after', '\nNeeds the admin token: `vitae login` once, or SITE_ADMIN_TOKEN.');
    setExamples(edit, [
      { command: 'vitae admin edit concierge-copilot', summary: 'An entry by its slug, committed to main' },
      { command: 'vitae admin edit content/site.json --branch dev -m "New contact address"', summary: 'A file by its path, on the dev preview' },
      { command: 'EDITOR="code --wait" vitae admin edit head-of-ai --wait', summary: 'Another editor, then follow the publish run' },
    ]);
  }

  // Called by the completion scripts for values only the live service knows (slugs, paths); hidden from help.
  program
    .command('__complete', { hidden: true })
    .argument('<kind>', 'slugs, targets, paths, dirs, lenses or documents')
    .action(async (kind: string, _options: unknown, self: Command) => {
      const { printLiveValues } = await import('./live-values.ts');
      await printLiveValues(io, kind, self.optsWithGlobals<{ url?: string }>().url);
    });
}
