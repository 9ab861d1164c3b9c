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
        type: 'string',
        required: name === 'source',
        description: 'Hash of the English this translation was made from',
      },
  );
}

/** Values a field allows: its enum, or for `skills` the skills that exist. */
export function allowedValues(schema: ContentSchemaOut, field: FieldInfo): string[] | undefined {
  if (field.allowed?.length) return field.allowed;
  if (field.name === 'skills') return schema.skills;
  if (field.type === 'boolean') return ['true', 'false'];
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
  const values = field && allowedValues(schema, field);
  if (!values) return null;
  const options = values.filter((v) => v.startsWith(word)).map((v) => ({ label: v, detail: field.name }));
  return options.length ? { from: pos - word.length, options } : null;
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
