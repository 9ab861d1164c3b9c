// How an input field of an operation looks on the command line, read from its zod schema: the value kind,
// the allowed values of an enum, the default and the description. Nothing here knows a particular operation.
import type { z } from 'zod';

export type FieldKind = 'string' | 'number' | 'boolean' | 'json';

export interface FieldInfo {
  name: string;
  kind: FieldKind;
  required: boolean;
  choices?: string[];
  defaultValue?: unknown;
  description?: string;
}

type AnySchema = z.ZodType & { def: { type: string; innerType?: AnySchema; defaultValue?: unknown }; options?: unknown[] };

export function fieldInfo(name: string, schema: z.ZodType): FieldInfo {
  let current = schema as AnySchema;
  let required = true;
  let defaultValue: unknown;
  let description = current.description;
  // Walk through optional/default/nullable wrappers; a description may sit on any layer.
  while (current.def.innerType) {
    if (current.def.type === 'optional') required = false;
    if (current.def.type === 'default' || current.def.type === 'prefault') {
      required = false;
      defaultValue = current.def.defaultValue;
    }
    current = current.def.innerType;
    description ??= current.description;
  }
  const type = current.def.type;
  const kind: FieldKind =
    type === 'number' || type === 'int' || type === 'bigint'
      ? 'number'
      : type === 'boolean'
        ? 'boolean'
        : type === 'string' || type === 'enum' || type === 'literal'
          ? 'string'
          : 'json';
  const choices = type === 'enum' && Array.isArray(current.options) ? current.options.map(String) : undefined;
  return { name, kind, required, choices, defaultValue, description };
}

/** Conventional one-letter flags; every other field has only its long form. */
export const shortFlags: Record<string, string> = { message: 'm' };

/** `--locale` for `locale`, `--dry-run` for `dryRun`. */
export const flagName = (field: string) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Converts a command-line string to what the schema expects; JSON fields are parsed (a bad value is a usage error upstream). */
export function fromCommandLine(field: FieldInfo, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (field.kind === 'number' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (field.kind === 'json') return JSON.parse(value);
  return value;
}
