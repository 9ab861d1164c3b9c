// What the editor knows about a file from `admin_schema` alone — its kind, its front-matter fields and the
// values each allows — and the help it gives from that: completions of keys and values, lint marks at the
// lines the server's problems name. No form or rule is written per kind: a new field in the content schema
// shows up here by itself, as Keystatic's editors follow their schema.
import type { ContentSchemaOut, ProblemOut } from './types.ts';

export type FileKindInfo = ContentSchemaOut['fileKinds'][number];
export type FieldInfo = FileKindInfo['fields'][number];

/** A file's kind from the schema's path patterns; a translation takes its source's kind and translatable fields. */
export function kindOfPath(schema: ContentSchemaOut, path: string): { kind: FileKindInfo; translation?: string } | undefined {
  const i18n = /^content\/i18n\/([^/]+)\/(.+)$/.exec(path);
  const source = i18n ? `content/${i18n[2]}` : path;
  const kind = schema.fileKinds.find((k) => patternOf(k.pattern).test(source));
  if (!kind) return undefined;
  return i18n ? { kind, translation: i18n[1] } : { kind };
}

/** `content/corpus/{a,b}/<slug>.md` → a regular expression. */
function patternOf(pattern: string): RegExp {
  const source = pattern
    .split(/(\{[^}]*\}|<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('{')) return `(?:${part.slice(1, -1).split(',').map(escape).join('|')})`;
      if (part.startsWith('<')) return '[^/]+';
      return escape(part);
    })
    .join('');
  return new RegExp(`^${source}$`);
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The fields a file may carry in its front matter: the kind's, or for a translation its translatable ones. */
export function fieldsOf(schema: ContentSchemaOut, path: string): FieldInfo[] {
  const found = kindOfPath(schema, path);
  if (!found) return [];
  if (!found.translation) return found.kind.fields;
  return found.kind.translationFields.map(
    (name) =>
      found.kind.fields.find((f) => f.name === name) ?? {
        name,
        label: name,
        type: 'string',
        required: name === 'source',
        description: 'Hash of the English this translation was made from',
      },
  );
}

/** The vocabulary a field's values come from (`x-vocabulary` in its kind's JSON Schema), e.g. "skills". */
export function vocabularyOf(schema: ContentSchemaOut, path: string, field: string): string | undefined {
  const found = kindOfPath(schema, path);
  const json = (found?.translation ? found.kind.translationJsonSchema : found?.kind.jsonSchema) as
    { properties?: Record<string, Record<string, unknown>> } | undefined;
  const property = json?.properties?.[field];
  const named = property?.['x-vocabulary'] ?? (property?.items as Record<string, unknown> | undefined)?.['x-vocabulary'];
  return typeof named === 'string' ? named : undefined;
}

/** Values a field allows, each with the title an editor knows it by: its vocabulary (skills that exist, lenses, tags…), else its enum. */
export function allowedValues(schema: ContentSchemaOut, path: string, field: FieldInfo): Array<{ value: string; label?: string }> | undefined {
  const vocabulary = vocabularyOf(schema, path, field.name);
  const listed = vocabulary ? schema.vocabulary[vocabulary as keyof ContentSchemaOut['vocabulary']] : undefined;
  if (listed?.length) return listed;
  if (field.allowed?.length) return field.allowed.map((value) => ({ value }));
  if (field.name === 'skills') return schema.skills.map((value) => ({ value }));
  if (field.type === 'boolean') return [{ value: 'true' }, { value: 'false' }];
  return undefined;
}

export interface Completion {
  label: string;
  detail?: string;
  info?: string;
  /** What to insert when it differs from the label (e.g. `title: ` for the key `title`). */
  apply?: string;
}

export interface CompletionResult {
  /** Where the word being completed starts. */
  from: number;
  options: Completion[];
}

/** The front matter's extent: the offset just after the opening `---` line and the start of the closing one. */
function frontMatter(text: string): { start: number; end: number } | undefined {
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) return undefined;
  const close = /^---[ \t]*$/m.exec(text.slice(open[0].length));
  return { start: open[0].length, end: close ? open[0].length + close.index : text.length };
}

/** Completions at `pos`: front-matter keys at the start of a line, and allowed values after a key or in its list. */
export function completionsAt(schema: ContentSchemaOut, path: string, text: string, pos: number): CompletionResult | null {
  const fields = fieldsOf(schema, path);
  if (!fields.length) return null;
  const fm = frontMatter(text);
  if (!fm || pos < fm.start || pos > fm.end) return null;
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const before = text.slice(lineStart, pos);

  // A key at the start of a line.
  const key = /^([A-Za-z]*)$/.exec(before);
  if (key) {
    const present = new Set([...text.slice(fm.start, fm.end).matchAll(/^(\w+):/gm)].map((m) => m[1]));
    const options = fields
      .filter((f) => !present.has(f.name))
      .map((f) => ({
        label: f.name,
        detail: `${f.type}${f.required ? ', required' : ''}`,
        info: [f.description, ...(f.rules ?? [])].filter(Boolean).join(' · '),
        apply: `${f.name}: `,
      }));
    return options.length ? { from: lineStart, options } : null;
  }

  // A value: `key: va`, `key: [a, b, c`, or `  - va` under `key:`.
  const inline = /^(\w+):\s*\[?(?:[^,\]]*,\s*)*([^,\]\s]*)$/.exec(before) ?? /^(\w+):\s*([^\s[]*)$/.exec(before);
  let name: string | undefined;
  let word: string;
  if (inline) {
    name = inline[1];
    word = inline[2] ?? '';
  } else {
    const item = /^\s*-\s*(\S*)$/.exec(before);
    if (!item) return null;
    word = item[1]!;
    const above = text.slice(fm.start, lineStart).split('\n').reverse();
    name = above.map((line) => /^(\w+):\s*$/.exec(line)?.[1]).find(Boolean);
  }
  const field = fields.find((f) => f.name === name);
  const values = field && allowedValues(schema, path, field);
  if (!values) return null;
  // An id or its title may be typed: "pyth" finds python, "Machine" finds the skill named "Machine learning".
  const typed = word.toLowerCase();
  const options = values
    .filter((v) => v.value.startsWith(word) || (typed && v.label?.toLowerCase().includes(typed)))
    .map((v) => ({ label: v.value, detail: v.label && v.label !== v.value ? v.label : field.name }));
  return options.length ? { from: pos - word.length, options } : null;
}

/**
 * What Enter inserts in a front-matter list, or null for an ordinary new line: after `contributions:` (a list
 * field) the first `  - `, after an item the next one at its indent, and on an empty item the end of the list.
 */
export function listContinuation(schema: ContentSchemaOut, path: string, text: string, pos: number): { from: number; to: number; insert: string } | null {
  const fm = frontMatter(text);
  if (!fm || pos < fm.start || pos > fm.end) return null;
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const nextBreak = text.indexOf('\n', pos);
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  if (text.slice(pos, lineEnd).trim()) return null; // Enter inside a line splits it as usual
  const line = text.slice(lineStart, pos);
  const fields = fieldsOf(schema, path);
  const isList = (name: string | undefined) => Boolean(name && fields.find((f) => f.name === name)?.type.endsWith('[]'));

  const key = /^(\w+):\s*$/.exec(line);
  if (key) return isList(key[1]) ? { from: pos, to: pos, insert: '\n  - ' } : null;
  const item = /^(\s*)-(\s*)(.*)$/.exec(line);
  if (!item) return null;
  const owner = text
    .slice(fm.start, lineStart)
    .split('\n')
    .reverse()
    .map((l) => /^(\w+):/.exec(l)?.[1])
    .find(Boolean);
  if (!isList(owner)) return null;
  if (!item[3]!.trim()) return { from: lineStart, to: lineEnd, insert: '' };
  // An item that opens an object (`- label: …`) goes on with its next key, not with a new item.
  if (/^[\w]+:\s/.test(item[3]!) && fields.find((f) => f.name === owner)?.type === 'object[]') return null;
  return { from: pos, to: pos, insert: `\n${item[1]}-${item[2] || ' '}` };
}

export interface LineProblem {
  /** 1-based line the problem is marked on. */
  line: number;
  message: string;
}

/**
 * The problems of one file as marks on its lines: where the server gave a line, that line; else the line of
 * the field its pointer names; else the first line. Problems of other files (a broken reference elsewhere in
 * the tree) come back separately.
 */
export function problemsOnLines(problems: readonly ProblemOut[], path: string, text: string): { here: LineProblem[]; elsewhere: ProblemOut[] } {
  const lines = text.split('\n');
  const here: LineProblem[] = [];
  const elsewhere: ProblemOut[] = [];
  for (const problem of problems) {
    if (problem.path && problem.path !== path) {
      elsewhere.push(problem);
      continue;
    }
    const field = problem.pointer?.split('/')[1];
    const keyLine = field ? lines.findIndex((line) => line.startsWith(`${field}:`)) + 1 : 0;
    const line = Math.min(Math.max(1, problem.line ?? (keyLine || 1)), lines.length);
    here.push({ line, message: problem.message });
  }
  return { here, elsewhere };
}
