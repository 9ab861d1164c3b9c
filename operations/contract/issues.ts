// Input that does not fit a schema, in words a person can act on. One parser and one wording for every
// edge (REST, MCP, the CLI, the site, the agent's tools) and for content validation: a field is named the
// way the caller named it (`q` over REST, `--tag` in the CLI), and allowed values are listed.
import type { z } from 'zod';
import { AppError, clipped, type Problem } from './errors.ts';
import { locales } from './vocabulary.ts';

export function pointerOf(path: readonly PropertyKey[]): string {
  return '/' + path.map((k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** A message a person can act on: the field, what is wrong, and the allowed values where there is a list. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length ? issue.path.map(String).join('.') : 'value';
  switch (issue.code) {
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${issue.path.length ? ` in ${field}` : ''}`;
    case 'invalid_type':
      // Final issues say what was received in their message; the raw ones an error map sees carry the input.
      if (/received undefined/.test(issue.message ?? '') || ('input' in issue && issue.input === undefined)) return `${field} is required`;
      return `${field} must be ${article(issue.expected)}${/received object/.test(issue.message ?? '') && issue.expected === 'string' ? ' (quote text that contains ": ")' : ''}`;
    case 'too_small':
      if (issue.origin === 'array') return `${field} needs at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? `${field} must not be empty` : `${field} must be at least ${issue.minimum} characters`;
      return `${field} must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array') return `${field} has at most ${issue.maximum} items`;
      if (issue.origin === 'string') return `${field} must be at most ${issue.maximum} characters`;
      return `${field} must be at most ${issue.maximum}`;
    default:
      // Custom messages are written as sentences: some already name their field ("end must not be before start"),
      // some go on from it ("must be a month …"), the rest are said about it ("a slug is lowercase letters …").
      if ((issue.message ?? '').startsWith(`${field} `)) return issue.message;
      return /^(must|is|are|should|cannot|needs?)\b/.test(issue.message ?? '') ? `${field} ${issue.message}` : `${field}: ${issue.message}`;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The names a surface gives input fields where they differ from the schema's (field → surface name). */
export type FieldNames = Readonly<Record<string, string>>;

/** One Problem per issue, naming fields by the caller's names. */
export function inputProblems(error: z.ZodError, names: FieldNames = {}): Problem[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((k, i) => (i === 0 && typeof k === 'string' && names[k] ? names[k] : k));
    return { pointer: pointerOf(path), message: describeIssue({ ...issue, path }) };
  });
}

/** Input that does not fit an operation's schema: a 400 `bad_request` listing one Problem per field. */
export class InputError extends AppError {
  constructor(readonly problems: Problem[]) {
    super('bad_request', `${problems.map((p) => p.message).join('; ')}.`, { errors: problems });
    this.name = 'InputError';
  }
}

/** Parses `raw` with `schema`, or throws InputError with one Problem per invalid field. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, names?: FieldNames): z.output<S> {
  const result = schema.safeParse(withLocalesFolded(schema, raw ?? {}));
  if (!result.success) throw new InputError(inputProblems(result.error, names));
  return result.data;
}

/** What parsing needs of an operation: its input schema, and its REST path, whose `{placeholders}` address a resource. */
export interface ParsedOperation {
  input: z.ZodType;
  rest: { path: string };
}

/** The input fields that address a resource (the REST path's `{slug}`, `{name}`): on every door, the same fields. */
export function addressFields(op: ParsedOperation): string[] {
  return [...op.rest.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
}

/**
 * Parses an operation's input the same way on every door (REST, MCP, the CLI): a text given for a field that
 * addresses a resource (`slug`, a document's `name`) that no resource can have is `not_found`, with the same words
 * everywhere, as an unknown but well-formed one is; any other refusal (a missing field, a number where text goes, a
 * bad option beside it) is the 400 `bad_request` of `parseInput`. `names` are the caller's names for fields.
 */
export function parseOperationInput(op: ParsedOperation, raw: unknown, names?: FieldNames): unknown {
  const result = op.input.safeParse(withLocalesFolded(op.input, raw ?? {}));
  if (result.success) return result.data;
  const addresses = addressFields(op);
  const values = (raw ?? {}) as Record<string, unknown>;
  const addressed = (issue: z.core.$ZodIssue) => addresses.includes(String(issue.path[0])) && typeof values[String(issue.path[0])] === 'string';
  // Only a call that is otherwise well-formed addresses something: with another field wrong, every problem is a 400.
  if (!result.error.issues.every(addressed)) throw new InputError(inputProblems(result.error, names));
  const field = String(result.error.issues[0]!.path[0]);
  // Said by the field's own name, which is also its REST path's placeholder: the same words on every door.
  const problem = inputProblems(result.error)[0]!;
  throw new AppError('not_found', `${noResource(op, field, String(values[field]))}: ${problem.message}.`);
}

/** "No entry with slug "x"", the resource named from the REST path's segment before the field (`/entries/{slug}`, `/lenses/{id}`). */
function noResource(op: ParsedOperation, field: string, value: string): string {
  const collection = new RegExp(`/([a-z-]+)/\\{${field}\\}`).exec(op.rest.path)?.[1];
  const noun = !collection ? 'resource' : collection.endsWith('ies') ? `${collection.slice(0, -3)}y` : collection.replace(/(?<=s)es$|s$/, '');
  // A value too long to be anything is not repeated whole.
  return `No ${noun} with ${field} "${clipped(value, 60)}"`;
}

type Definition = { def: { type: string; innerType?: Definition; element?: Definition; entries?: Record<string, unknown> } };

/**
 * BCP 47 tags are case-insensitive: a locale given as `zh-Hant` or `FR` is the service's `zh-hant` or `fr`, on every
 * door. Folded here, before the schema sees the input, so that the schemas stay the enums of the canonical codes
 * that JSON Schema and OpenAPI show (a preprocess there would drop their defaults). A top-level field is a locale
 * when its enum holds locale codes only; a list of them is folded item by item.
 */
export function withLocalesFolded(schema: z.ZodType, raw: unknown): unknown {
  const shape = (schema as unknown as { shape?: Record<string, Definition> }).shape;
  if (!shape || !raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const given = raw as Record<string, unknown>;
  let folded: Record<string, unknown> | undefined;
  for (const [field, value] of Object.entries(given)) {
    const kind = shape[field] && localeKind(shape[field]);
    if (!kind) continue;
    const lower = kind === 'one' ? lowerCase(value) : Array.isArray(value) ? value.map(lowerCase) : value;
    if (kind === 'one' ? lower !== value : Array.isArray(value) && (lower as unknown[]).some((item, i) => item !== value[i]))
      (folded ??= { ...given })[field] = lower;
  }
  return folded ?? raw;
}

const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/** `one` for a field that takes a locale, `list` for one that takes a list of them, else undefined. */
function localeKind(schema: Definition): 'one' | 'list' | undefined {
  const inner = unwrapped(schema);
  if (inner.def.type === 'array' && inner.def.element) return isLocaleEnum(unwrapped(inner.def.element)) ? 'list' : undefined;
  return isLocaleEnum(inner) ? 'one' : undefined;
}

function unwrapped(schema: Definition): Definition {
  let current = schema;
  while (current.def.innerType) current = current.def.innerType;
  return current;
}

function isLocaleEnum(schema: Definition): boolean {
  const values = schema.def.type === 'enum' ? Object.values(schema.def.entries ?? {}) : [];
  return values.length > 0 && values.every((value) => (locales as readonly unknown[]).includes(value));
}
