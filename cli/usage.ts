// Reads an operation's `cli` usage string (`admin put <path> <file>`) into a command path and positionals.

export interface Positional {
  /** The name in the usage string, e.g. `path|slug`. */
  name: string;
  required: boolean;
  variadic: boolean;
}

export interface Usage {
  /** Command words, e.g. `['admin', 'put']`. */
  path: string[];
  positionals: Positional[];
}

export function parseUsage(cli: string): Usage {
  const path: string[] = [];
  const positionals: Positional[] = [];
  for (const token of cli.trim().split(/\s+/)) {
    const arg = /^([<[])([^>\]]+?)(\.\.\.)?[>\]]$/.exec(token);
    if (!arg) {
      if (positionals.length) throw new Error(`CLI usage "${cli}": command word "${token}" after a positional`);
      path.push(token);
      continue;
    }
    positionals.push({ name: arg[2]!, required: arg[1] === '<', variadic: Boolean(arg[3]) });
  }
  if (!path.length) throw new Error(`CLI usage "${cli}" names no command`);
  return { path, positionals };
}
