// From command-line words to an operation's input: positionals fill fields (directly, through a file or
// stdin, or as a path-or-slug), options fill the rest, and the operation's own zod schema parses the result
// before any request is made.
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { AnyOperation, CliArg } from '../operations/contract/define.ts';
import type { Problem } from '../operations/contract/errors.ts';
import { InputError, parseOperationInput as parseCallInput } from '../operations/contract/issues.ts';
import { expectedValue, fieldInfo, flagName, fromCommandLine, type FieldInfo } from './fields.ts';
import type { Positional } from './usage.ts';

/** Wrong use of the command line: exit code 2, one line. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    /** One per invalid field, when the operation's schema found them. */
    readonly problems?: Problem[],
  ) {
    super(message);
  }
}

export interface PositionalBinding {
  positional: Positional;
  /** The input fields this positional can fill. */
  fields: string[];
  mapping?: CliArg;
  description: string;
  /** Allowed values when the positional is an enum field. */
  choices?: string[];
}

export function bindPositional(op: AnyOperation, positional: Positional): PositionalBinding {
  const mapping = op.cliArgs?.[positional.name];
  if (mapping && 'readInto' in mapping) {
    const what = mapping.json ? 'JSON file' : 'file';
    const is = mapping.base64 ? 'bytes are' : 'text is';
    return { positional, mapping, fields: [mapping.readInto], description: `${what} whose ${is} the ${mapping.readInto} (- reads standard input)` };
  }
  if (mapping && 'pathOrSlug' in mapping) {
    return { positional, mapping, fields: ['path', 'slug'], description: 'a content path (with a / or a file extension), or a slug' };
  }
  const schema = op.input.shape[positional.name] as z.ZodType | undefined;
  if (!schema) throw new Error(`${op.name}: CLI positional <${positional.name}> is not an input field and has no cliArgs mapping`);
  const info = fieldInfo(positional.name, schema);
  return { positional, fields: [positional.name], description: info.description ?? `the ${positional.name}`, choices: info.choices };
}

/** Input fields that become `--options`: every field no positional fills. */
export function optionFields(op: AnyOperation, bindings: PositionalBinding[]): FieldInfo[] {
  const taken = new Set(bindings.flatMap((b) => b.fields));
  return Object.entries(op.input.shape)
    .filter(([name]) => !taken.has(name))
    .map(([name, schema]) => fieldInfo(name, schema as z.ZodType));
}

/** A file's text (`-`: standard input's), or with `base64` its bytes base64-encoded (an image, read as it is). */
export type ReadText = (file: string, encoding?: 'utf8' | 'base64') => Promise<string>;

export function readTextFrom(stdin: NodeJS.ReadableStream): ReadText {
  return async (file, encoding = 'utf8') => {
    if (file !== '-') {
      try {
        return (await readFile(file)).toString(encoding);
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
      }
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks).toString(encoding);
  };
}

export async function collectInput(
  bindings: PositionalBinding[],
  values: unknown[],
  options: FieldInfo[],
  optionValues: Record<string, unknown>,
  readText: ReadText,
): Promise<Record<string, unknown>> {
  const raw: Record<string, unknown> = {};
  for (const [i, binding] of bindings.entries()) {
    const value = values[i];
    if (value === undefined) continue;
    const { mapping } = binding;
    if (mapping && 'readInto' in mapping) {
      const text = await readText(String(value), mapping.base64 ? 'base64' : 'utf8');
      raw[mapping.readInto] = mapping.json ? parseJson(text, String(value)) : text;
    } else if (mapping && 'pathOrSlug' in mapping) {
      raw[looksLikePath(String(value)) ? 'path' : 'slug'] = value;
    } else {
      raw[binding.fields[0]!] = value;
    }
  }
  for (const field of options) {
    const value = optionValues[field.name];
    if (value === undefined) continue;
    try {
      raw[field.name] = fromCommandLine(field, value);
    } catch {
      const message = `--${flagName(field.name)} must be ${expectedValue(field)}`;
      throw new UsageError(message, [{ pointer: `/${field.name}`, message }]);
    }
  }
  return raw;
}

/** A content path has a folder or a file extension; anything else is a slug. */
export const looksLikePath = (value: string) => value.includes('/') || /\.[A-Za-z0-9]+$/.test(value);

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file === '-' ? 'standard input' : file} is not JSON: ${(error as Error).message}`);
  }
}

/** How the command line names each input field: `<slug>` for a positional, `--limit` for an option. */
export function commandLineNames(op: AnyOperation, bindings: PositionalBinding[]): Record<string, string> {
  const names: Record<string, string> = Object.fromEntries(Object.keys(op.input.shape).map((field) => [field, `--${flagName(field)}`]));
  for (const b of bindings) for (const field of b.fields) names[field] = `<${b.positional.name}>`;
  return names;
}

/**
 * Parses with the operation's schema, in the words every surface uses, naming fields as they were typed. A value
 * that addresses nothing (`vitae doc nope`) is not found (exit 3), as the service says over REST and MCP.
 */
export function parseOperationInput(op: AnyOperation, raw: Record<string, unknown>, bindings: PositionalBinding[]): Record<string, unknown> {
  try {
    return parseCallInput(op, raw, commandLineNames(op, bindings)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof InputError) throw new UsageError(error.message, error.problems);
    throw error;
  }
}
