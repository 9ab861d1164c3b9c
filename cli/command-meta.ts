// What the generated program knows about its commands beyond commander's own model: which operation a
// command runs, and which positionals name files (so completion offers file names).
import type { Argument, Command } from 'commander';
import type { AnyOperation } from '../operations/contract/define.ts';

const operationOfCommand = new WeakMap<Command, AnyOperation>();
const fileArguments = new WeakSet<Argument>();

export const markOperation = (command: Command, op: AnyOperation) => void operationOfCommand.set(command, op);
export const markFileArgument = (argument: Argument) => void fileArguments.add(argument);

/** The operation a generated command runs, if it is one. */
export const operationOf = (command: Command) => operationOfCommand.get(command);

/** True for a positional that names a file to read (`-` for stdin), so completion offers file names. */
export const takesFile = (argument: Argument) => fileArguments.has(argument);
