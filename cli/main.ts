// Entry of the `vitae` bin (through cli/vitae.js): run the program, exit with its code.
import { runCli } from './program.ts';

// `vitae --help | head`: the reader went away, so the rest of the output has nowhere to go; stop quietly.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

const code = await runCli(process.argv.slice(2));
// Set rather than exit so pending output is flushed; `vitae mcp` keeps running on stdin after this.
process.exitCode = code;
