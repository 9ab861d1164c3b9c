// What the generated program knows about its commands beyond commander's own model: which operation a
// command runs, which positionals name files (so completion offers file names) and which take values only
// the live service knows (slugs, paths), which completion asks it for.
import type { Argument, Command } from 'commander';
import type { AnyOperation } from '../operations/contract/define.ts';

const operationOfCommand = new WeakMap<Command, AnyOperation>();
const fileArguments = new WeakSet<Argument>();
const liveArguments = new WeakMap<Argument, string>();

export const markOperation = (command: Command, op: AnyOperation) => void operationOfCommand.set(command, op);
export const markFileArgument = (argument: Argument) => void fileArguments.add(argument);

/** The operation a generated command runs, if it is one. */
export const operationOf = (command: Command) => operationOfCommand.get(command);

/** True for a positional that names a file to read (`-` for stdin), so completion offers file names. */
export const takesFile = (argument: Argument) => fileArguments.has(argument);

/** Marks a positional whose values come from the live service (`vitae __complete <kind>`). */
export const markLiveArgument = (argument: Argument, kind: string) => void liveArguments.set(argument, kind);

/** The `__complete` kind of a positional, if the live service knows its values. */
export const liveKindOf = (argument: Argument) => liveArguments.get(argument);

/** Which live values fill an input field, by the field's name (the same names across the operation list). */
export function liveKindForField(field: string, pathOrSlug: boolean): string | undefined {
  if (pathOrSlug) return 'targets';
  return ({ slug: 'slugs', path: 'paths', dir: 'dirs', lens: 'lenses', id: 'lenses', name: 'documents' } as Record<string, string>)[field];
}
