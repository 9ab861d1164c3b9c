// Command lines written from operation inputs, so `--help` examples and the hints that name a command come
// from the definitions: the valid examples of an operation become `vitae …` lines, and an input (such as the
// route a service message names) becomes the command that sends it.
import { basename } from 'node:path';
import type { AnyOperation } from '../operations/contract/define.ts';
import { flagName, shortFlags } from './fields.ts';
import { bindPositional, optionFields } from './input.ts';
import { parseUsage } from './usage.ts';

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
export const shellWord = (word: string) => (/^[\w@%+=:,./-]+$|^<[\w|.-]+>$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** A placeholder for a field: the value its description gives as an example (`e.g. "content/…"`), else `<name>`. */
function placeholder(op: AnyOperation, field: string, name = field): string {
  const description = (op.input.shape[field] as { description?: string } | undefined)?.description ?? '';
  return /e\.g\. "([^"]+)"/.exec(description)?.[1] ?? `<${name}>`;
}

/** `-m` for a field with a conventional one-letter flag, else `--long-name`. */
const flagOf = (field: string) => (shortFlags[field] ? `-${shortFlags[field]}` : `--${flagName(field)}`);

export interface CommandLineOptions {
  /** Placeholders (`<name>`) for required positionals the input lacks; else they end the line. */
  placeholders?: boolean;
}

/** The `vitae …` command line that sends `input` to `op`. */
export function commandLine(op: AnyOperation, input: Record<string, unknown>, options: CommandLineOptions = {}): string {
  const usage = parseUsage(op.cli!); // asked only of operations offered on the CLI
  const words = ['vitae', ...usage.path];
  const bindings = usage.positionals.map((p) => bindPositional(op, p));
  let missing = false;
  for (const binding of bindings) {
    const { mapping, positional } = binding;
    let value: string | undefined;
    if (mapping && 'readInto' in mapping) {
      if (input[mapping.readInto] !== undefined || positional.required)
        value = mapping.json ? `${mapping.readInto}.json` : typeof input.path === 'string' ? basename(input.path) : `${mapping.readInto}.txt`;
    } else if (mapping && 'pathOrSlug' in mapping) {
      const target = input.path ?? input.slug;
      value = target === undefined ? undefined : String(target);
    } else if (input[binding.fields[0]!] !== undefined) value = String(input[binding.fields[0]!]);
    if (value === undefined) {
      if (positional.required && options.placeholders && !missing) words.push(placeholder(op, binding.fields[0]!, positional.name));
      else missing ||= positional.required;
      continue;
    }
    if (!missing) words.push(shellWord(value));
  }
  for (const field of optionFields(op, bindings)) {
    const value = input[field.name];
    if (value === undefined) {
      if (field.required && options.placeholders) words.push(flagOf(field.name), placeholder(op, field.name, flagName(field.name)));
      continue;
    }
    if (value === true) words.push(flagOf(field.name));
    else if (value !== false) words.push(flagOf(field.name), shellWord(typeof value === 'object' ? JSON.stringify(value) : String(value)));
  }
  return words.join(' ');
}

export interface Example {
  command: string;
  summary: string;
}

/** The examples of an operation's command: its valid examples, else its usage with placeholders; `--dry-run` for a change. */
export function operationExamples(op: AnyOperation): Example[] {
  const valid = op.examples?.valid ?? [];
  const examples: Example[] = valid.map((e) => ({ command: commandLine(op, e.input), summary: e.summary }));
  if (!examples.length) examples.push({ command: commandLine(op, {}, { placeholders: true }), summary: op.summary });
  if (op.auth === 'public') examples.push({ command: `${examples[0]!.command} --json`, summary: 'The exact API body, for jq and scripts' });
  if (op.effect) {
    examples.push({ command: `${examples[0]!.command} --dry-run`, summary: 'Show what it would change; write nothing' });
    examples.push({ command: `${examples[0]!.command} --yes`, summary: 'Without asking (scripts: needed when there is no terminal)' });
  }
  return examples;
}

/** An "Examples:" help section. */
export function examplesHelp(examples: readonly Example[]): string {
  if (!examples.length) return '';
  return `\nExamples:\n${examples.map((e) => `  # ${e.summary}\n  ${e.command}`).join('\n')}\n`;
}
