// Entry of the `vitae` bin (through cli/vitae.js): run the program, exit with its code.
import { runCli } from './program.ts';

const code = await runCli(process.argv.slice(2));
// Set rather than exit so pending output is flushed; `vitae mcp` keeps running on stdin after this.
process.exitCode = code;
