// Which widget a JSON Schema calls for, and the words around it (labels, rules, the "none" choice), read from
// the schema's shape alone: the schema form's pure part, tested directly.

/** The part of JSON Schema (2020-12, as `z.toJSONSchema` writes it) the form reads. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  /** Shown but not edited (JSON Schema's own keyword, e.g. a translation's source hash). */
  readOnly?: boolean;
  /** Values come from a list the service knows (tags, lenses, skills, kinds, locales, documents). */
  'x-vocabulary'?: string;
}

export type Vocabulary = Record<string, ReadonlyArray<{ value: string; label: string }>>;
export type FieldPointer = Array<string | number>;
export interface FormProblem {
  /** JSON pointer of the field, e.g. "/contributions/2"; none for the file as a whole. */
  pointer?: string;
  message: string;
}

export type Widget =
  /** `rows`: a text area's least height (1 for text with no limit, which grows as it is typed; 3 for long text). */
  | { kind: 'text'; multiline: boolean; input: 'text' | 'email' | 'url'; prose: boolean; rows: number }
  | { kind: 'month' | 'date' | 'checkbox' | 'number' | 'object' | 'raw' }
  | { kind: 'select'; options: string[]; vocabulary?: string }
  | { kind: 'choices'; options: string[]; vocabulary?: string }
  | { kind: 'list'; item: JsonSchema }
  | { kind: 'record'; keys?: string[]; keyVocabulary?: string; value: JsonSchema }
  | { kind: 'nullable'; inner: JsonSchema };

const ACRONYMS = new Set(['url', 'id', 'ai', 'api', 'mcp', 'seo', 'json', 'llm']);

/** "keyResult" → "Key result", "whyItMatters" → "Why it matters", "proof_url" → "Proof URL". */
export function humanise(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What one item of a list is called: "Contributions" → "Contribution", "Key results" → "Key result". */
export function singular(label: string): string {
  if (/ies$/.test(label)) return label.replace(/ies$/, 'y');
  if (/[^s]s$/.test(label)) return label.slice(0, -1);
  return `${label}, item`;
}

const matches = (pattern: string | undefined, yes: string[], no: string[]) => {
  if (!pattern) return false;
  try {
    const re = new RegExp(pattern);
    return yes.every((s) => re.test(s)) && !no.some((s) => re.test(s));
  } catch {
    return false;
  }
};
export const isMonthPattern = (pattern?: string) => matches(pattern, ['2024-05', '1999-12'], ['2024-05-01', '2024-5', 'May 2024']);
export const isDatePattern = (pattern?: string) => matches(pattern, ['2024-05-01'], ['2024-05', '1 May 2024']);

const isNullType = (s: JsonSchema) => s.type === 'null';
const vocabularyOf = (schema: JsonSchema) => schema['x-vocabulary'] ?? schema.items?.['x-vocabulary'];

/** The widget a schema calls for, from its shape alone (its name plays no part). */
export function widgetFor(schema: JsonSchema, vocabulary: Vocabulary = {}): Widget {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const others = alternatives.filter((s) => !isNullType(s));
    if (others.length === 1 && others.length < alternatives.length) return { kind: 'nullable', inner: { description: schema.description, ...others[0] } };
    return { kind: 'raw' };
  }
  if (Array.isArray(schema.type)) {
    const others = schema.type.filter((t) => t !== 'null');
    return others.length === 1 ? { kind: 'nullable', inner: { ...schema, type: others[0] } } : { kind: 'raw' };
  }
  const named = vocabularyOf(schema);
  const listed = named ? vocabulary[named]?.map((v) => v.value) : undefined;
  if (schema.enum || (schema.type === 'string' && listed)) return { kind: 'select', options: listed ?? schema.enum!.map(String), vocabulary: named };
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'date' || isDatePattern(schema.pattern)) return { kind: 'date' };
      if (isMonthPattern(schema.pattern)) return { kind: 'month' };
      const input = schema.format === 'email' ? 'email' : schema.format === 'uri' ? 'url' : 'text';
      const prose = !schema.pattern && !schema.format;
      const markdown = /markdown/i.test(schema.description ?? '');
      const long = markdown || (schema.maxLength ?? 0) > 160;
      const multiline = prose && (long || schema.maxLength === undefined);
      return { kind: 'text', multiline, input, prose, rows: long ? 3 : 1 };
    }
    case 'boolean':
      return { kind: 'checkbox' };
    case 'number':
    case 'integer':
      return { kind: 'number' };
    case 'array': {
      const item = schema.items ?? {};
      const options = listed ?? item.enum?.map(String);
      return options ? { kind: 'choices', options, vocabulary: named } : { kind: 'list', item };
    }
    case 'object': {
      if (schema.properties) return { kind: 'object' };
      const value = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      if (!value) return { kind: 'raw' };
      const keyVocabulary = schema.propertyNames?.['x-vocabulary'];
      return { kind: 'record', keys: schema.propertyNames?.enum?.map(String), keyVocabulary, value };
    }
    default:
      return { kind: 'raw' };
  }
}

/** The schema's rules in words: "At most 160 characters", "At least 1 item". */
export function rulesOf(schema: JsonSchema): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const rules: string[] = [];
  if (schema.minLength && schema.minLength > 1) rules.push(`At least ${plural(schema.minLength, 'character')}`);
  if (schema.maxLength !== undefined) rules.push(`At most ${plural(schema.maxLength, 'character')}`);
  if (schema.minItems) rules.push(`At least ${plural(schema.minItems, 'item')}`);
  if (schema.maxItems !== undefined) rules.push(`At most ${plural(schema.maxItems, 'item')}`);
  if (schema.default !== undefined && !(typeof schema.default === 'object' && schema.default !== null)) rules.push(`Default: ${String(schema.default)}`);
  return rules;
}

/** The "no value" choice of a nullable field, worded from its description: "…null or absent while ongoing" → "None (ongoing)". */
export function noneLabel(description?: string): string {
  const why = /\bnull\b[^.;]*?\b(?:while|when|if|for)\s+([^.;,]+)/i.exec(description ?? '')?.[1]?.trim();
  return why ? `None (${why})` : 'None';
}

/** A JSON pointer's segments ("/a~1b/2" → ["a/b", "2"]). */
export const pointerSegments = (pointer?: string) =>
  pointer
    ? pointer
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    : [];

export const idFor = (prefix: string, pointer: FieldPointer) =>
  `${prefix}-${pointer.map((s) => String(s).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)).join('.')}`;

/** A local `$ref` ("#/$defs/Name") resolved against the root schema. */
export const resolve = (schema: JsonSchema, root: JsonSchema): JsonSchema => {
  const ref = /^#\/\$defs\/(.+)$/.exec(schema.$ref ?? '')?.[1];
  return ref && root.$defs?.[ref] ? { ...root.$defs[ref], ...schema, $ref: undefined } : schema;
};

export function emptyValue(schema: JsonSchema, root: JsonSchema = schema): unknown {
  const widget = widgetFor(schema);
  if (widget.kind === 'object')
    return Object.fromEntries((schema.required ?? []).map((k) => [k, emptyValue(resolve(schema.properties![k] ?? {}, root), root)]));
  if (widget.kind === 'list' || widget.kind === 'choices') return [];
  if (widget.kind === 'record') return {};
  if (widget.kind === 'checkbox') return false;
  if (widget.kind === 'nullable') return null;
  return '';
}

export { isRecord } from './json-values.ts';
export const preview = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

export const optionLabel = (value: string, label?: string) => (label && label !== value ? `${label} (${value})` : value);
