// Splits a Markdown file into YAML front matter and body, and validates the front matter with a zod
// schema, reporting every problem with the line it is on.
import { LineCounter, parseDocument, isNode, isScalar, visit, type Document } from 'yaml';
import type { z } from 'zod';
import type { Problem } from '../contract/errors.ts';
import { describeIssue, pointerOf } from '../contract/issues.ts';
import { LruMap } from './lru-map.ts';

export interface ParsedFile<T> {
  data?: T;
  body: string;
  problems: Problem[];
}

const FENCE = /^---[ \t]*\r?\n/;

/**
 * Parsed files by schema, path and text. A file's parse depends on nothing else, and the whole tree is
 * validated on every keystroke of the console and every commit: only the files that changed are parsed
 * again. Results are shared, so nothing may change them (nothing does: models and builds copy what they keep).
 */
const parsed = new WeakMap<z.ZodType, LruMap<string, Array<{ text: string; result: ParsedFile<unknown> }>>>();
// Above the files of one kind in the largest tree served (a whole-tree pass is cyclic: a smaller LRU would
// miss every time), bounded so that unrelated texts (console keystrokes) cannot grow it without end.
const MAX_CACHED_PER_SCHEMA = 40_000;
/** Texts kept per path: the two newest (a file as main has it and as dev or an edit has it). */
const VERSIONS = 2;

function cached<T>(schema: z.ZodType, path: string, text: string, parse: () => ParsedFile<T>): ParsedFile<T> {
  let byPath = parsed.get(schema);
  if (!byPath) parsed.set(schema, (byPath = new LruMap(MAX_CACHED_PER_SCHEMA)));
  // By path, then text: a key of path and text together made (and hashed) a copy of every text at every lookup.
  // Written back below as the most recently used, so the paths used longest ago go first when the cache is full.
  const versions = byPath.peek(path) ?? [];
  let hit = versions.find((v) => v.text === text);
  if (!hit) {
    hit = { text, result: parse() };
    if (versions.unshift(hit) > VERSIONS) versions.pop();
  }
  byPath.set(path, versions);
  return hit.result as ParsedFile<T>;
}

export function parseMarkdownFile<S extends z.ZodType>(path: string, text: string, schema: S): ParsedFile<z.output<S>> {
  return cached(schema, path, text, () => parseMarkdownUncached(path, text, schema));
}

export function parseJsonFile<S extends z.ZodType>(path: string, text: string, schema: S): ParsedFile<z.output<S>> {
  return cached(schema, path, text, () => parseJsonUncached(path, text, schema));
}

/**
 * Remembers that `text` at `path` parses to `data` under `schema`, without parsing it: what a build kept on disk
 * says of the commit it was made from (a restart at 100× the demo content parsed 18k files again, 2.7 s). The
 * body is cut from the text as a parse cuts it.
 */
export function rememberParsedMarkdown<S extends z.ZodType>(path: string, text: string, schema: S, data: z.output<S>): void {
  const parts = frontMatterParts(text);
  if (typeof parts === 'string') return;
  cached(schema, path, text, () => ({ data, body: parts.body, problems: [] }));
}

/** The front matter's YAML and the body after it, or which fence is missing. */
function frontMatterParts(text: string): { yamlText: string; body: string } | 'no-fence' | 'not-closed' {
  const source = text.replace(/^\uFEFF/, '');
  if (!FENCE.test(source)) return 'no-fence';
  const afterOpen = source.replace(FENCE, '');
  const close = /^---[ \t]*$/m.exec(afterOpen);
  if (!close) return 'not-closed';
  return { yamlText: afterOpen.slice(0, close.index), body: afterOpen.slice(close.index + close[0].length).replace(/^\r?\n/, '') };
}

function parseMarkdownUncached<S extends z.ZodType>(path: string, text: string, schema: S): ParsedFile<z.output<S>> {
  const parts = frontMatterParts(text);
  if (parts === 'no-fence') {
    return { body: text.replace(/^\uFEFF/, ''), problems: [{ path, line: 1, message: 'must start with YAML front matter between "---" lines' }] };
  }
  if (parts === 'not-closed') {
    return { body: '', problems: [{ path, line: 1, message: 'front matter is not closed: add a line with "---" after it' }] };
  }
  const { yamlText, body } = parts;
  const lineCounter = new LineCounter();
  // Duplicate keys are found here (duplicateKeys), not by yaml's uniqueKeys: it compares each key with every key
  // before it, and 21,000 keys in a 256 kB front matter took 9 s.
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + 1; // +1 for the opening fence
  const errors = [...doc.errors.map((e) => ({ at: e.pos[0], message: firstLine(e.message) })), ...duplicateKeys(doc)].sort((a, b) => a.at - b.at);
  if (errors.length) return { body, problems: capped(path, errors.map((e) => ({ path, line: lineAt(e.at), message: `YAML: ${e.message}` }))) };
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    // yaml refuses aliases that would expand a small text into a huge value ("a billion laughs").
    return { body, problems: [{ path, line: 2, message: `YAML: ${firstLine((error as Error).message)}` }] };
  }
  const result = schema.safeParse(value ?? {});
  if (result.success) return { data: result.data, body, problems: [] };
  return { body, problems: capped(path, result.error.issues.slice(0, MAX_PROBLEMS + 1).map((issue) => problemFromIssue(path, issue, doc, lineAt)), result.error.issues.length) };
}

/** Where a map repeats a key (keys compared as yaml compares them: the same node, or scalars of the same value), in one pass. */
function duplicateKeys(doc: Document): Array<{ at: number; message: string }> {
  const found: Array<{ at: number; message: string }> = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        const id = isScalar(key) ? key.value : key;
        if (seen.has(id)) found.push({ at: isNode(key) && key.range ? key.range[0] : 0, message: 'Map keys must be unique' });
        else seen.add(id);
      }
    },
  });
  return found;
}

/** Problems of one file listed in an answer: past them, the last says how many more there are (a file of broken YAML has one per line). */
const MAX_PROBLEMS = 50;

function capped(path: string, problems: Problem[], total = problems.length): Problem[] {
  if (total <= MAX_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_PROBLEMS), { path, message: `and ${total - MAX_PROBLEMS} more problems in this file` }];
}

function parseJsonUncached<S extends z.ZodType>(path: string, text: string, schema: S): ParsedFile<z.output<S>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const match = /position (\d+)/.exec(String((error as Error).message));
    const line = match ? text.slice(0, Number(match[1])).split('\n').length : undefined;
    return { body: '', problems: [{ path, line, message: `JSON: ${(error as Error).message}` }] };
  }
  const result = schema.safeParse(value);
  if (result.success) return { data: result.data, body: '', problems: [] };
  return { body: '', problems: result.error.issues.map((issue) => ({ path, pointer: pointerOf(issue.path), message: describeIssue(issue) })) };
}

function problemFromIssue(path: string, issue: z.core.$ZodIssue, doc: Document, lineAt: (offset: number) => number): Problem {
  const keys = issue.path.map((k) => (typeof k === 'symbol' ? String(k) : k));
  // The node of the failing value, else its closest existing parent, gives the line.
  let line: number | undefined;
  for (let depth = keys.length; depth >= 0 && line === undefined; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(keys.slice(0, depth), true);
    if (isNode(node) && node.range) line = lineAt(node.range[0]);
  }
  return { path, pointer: pointerOf(keys), message: describeIssue(issue), line: line ?? 2 };
}

function firstLine(message: string): string {
  return message.split('\n')[0]!;
}

/** The line a top-level front matter key is on (1-based), when it is there. */
export function lineOfKey(text: string, key: string): number | undefined {
  const index = text.split('\n').findIndex((line) => line.startsWith(`${key}:`));
  return index >= 0 ? index + 1 : undefined;
}
