// How an input field of an operation looks on the command line, read from its zod schema: the value kind,
// the allowed values of an enum, the default and the description. Nothing here knows a particular operation.
import { z } from 'zod';

export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'json';

export interface FieldInfo {
  name: string;
  kind: FieldKind;
  required: boolean;
  choices?: string[];
  defaultValue?: unknown;
  description?: string;
  /** The range of a number, as the schema states it. */
  minimum?: number;
  maximum?: number;
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
  // The value's type as the JSON Schema of the input says it: that sees through a preprocess (a whole number
  // given as text over REST is still an integer), which the zod definition alone does not.
  const json = jsonSchemaOf(current);
  const kind: FieldKind =
    json.type === 'integer' || json.type === 'number' || json.type === 'boolean' || json.type === 'string'
      ? json.type
      : type === 'number' || type === 'int' || type === 'bigint'
        ? 'number'
        : type === 'boolean'
          ? 'boolean'
          : type === 'string' || type === 'enum' || type === 'literal'
            ? 'string'
            : 'json';
  const choices = type === 'enum' && Array.isArray(current.options) ? current.options.map(String) : undefined;
  const range = kind === 'integer' || kind === 'number' ? { minimum: json.minimum, maximum: json.maximum } : {};
  return { name, kind, required, choices, defaultValue, description, ...range };
}

interface JsonSchema {
  type?: unknown;
  minimum?: number;
  maximum?: number;
}

/** The input's JSON Schema, self-contained (no references); empty when zod cannot say one. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', metadata: z.registry() });
  } catch {
    return {};
  }
}

/** What a value of the field must be, for a message: "a whole number from 1 to 50", "JSON". */
export function expectedValue(field: FieldInfo): string {
  if (field.kind !== 'integer' && field.kind !== 'number') return field.kind === 'json' ? 'JSON' : `a ${field.kind}`;
  const what = field.kind === 'integer' ? 'a whole number' : 'a number';
  const { minimum: min, maximum: max } = field;
  if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
  if (min !== undefined) return `${what} of at least ${min}`;
  return max !== undefined ? `${what} of at most ${max}` : what;
}

/** The placeholder of an option's value in help: `--limit <n>`, `--history <json>`, `--branch <branch>`. */
export function valuePlaceholder(field: FieldInfo): string {
  if (field.kind === 'integer') return '<n>';
  if (field.kind === 'number') return '<number>';
  return field.kind === 'json' ? '<json>' : `<${flagName(field.name)}>`;
}

/** Conventional one-letter flags; every other field has only its long form. */
export const shortFlags: Record<string, string> = { message: 'm' };

/** `--locale` for `locale`, `--dry-run` for `dryRun`. */
export const flagName = (field: string) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Converts a command-line string to what the schema expects: numbers and JSON are parsed here, anything else
 * is left to the operation's schema. Throws when the text is not a value of the field's kind (a usage error
 * upstream, saying `expectedValue`); the range is the schema's to check, in the wording every surface uses.
 */
export function fromCommandLine(field: FieldInfo, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (field.kind === 'integer') {
    if (!/^[+-]?\d+$/.test(text)) throw new Error(`not a whole number: ${value}`);
    return Number(text);
  }
  if (field.kind === 'number') {
    if (text === '' || !Number.isFinite(Number(text))) throw new Error(`not a number: ${value}`);
    return Number(text);
  }
  if (field.kind === 'json') return JSON.parse(value);
  return value;
}
