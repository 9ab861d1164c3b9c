// The `source` hash a translation records: a digest of the English fields it was made from.
// A translation whose `source` differs from the current hash is stale and is served in English.
import { createHash } from 'node:crypto';
import { parseMarkdownFile } from './front-matter.ts';
import { sourceKindOf } from './locate.ts';
import { englishValue, fileKinds, isNestedTranslatable, translatableFields, type FileKind } from './schema.ts';

export function sourceHash(kind: FileKind, fields: Record<string, unknown>, body: string): string {
  // An image's alt text counts only where the English has one: adding images left every earlier translation current.
  const values = translatableFields[kind].flatMap((name) => {
    const value = englishValue(kind, fields, name);
    return isNestedTranslatable(kind, name) && value === undefined ? [] : [value ?? null];
  });
  return createHash('sha256').update(JSON.stringify([values, body.trim()])).digest('hex').slice(0, 16);
}

/** Each parsed source's hash, by its fields (one object per path and text, front-matter.ts keeps them). */
const hashes = new WeakMap<object, string>();

/** `sourceHash` of a parsed source, worked out once per parse. */
export function hashOfParsed(kind: FileKind, fields: Record<string, unknown>, body: string): string {
  let hash = hashes.get(fields);
  if (hash === undefined) hashes.set(fields, (hash = sourceHash(kind, fields, body)));
  return hash;
}

/** Remembers the hash of a parse a kept build already knows (kept-parses.ts). */
export function rememberHash(fields: object, hash: string): void {
  hashes.set(fields, hash);
}

/** The hash a translation of the source file at `path` with this text records, or undefined when the text does not parse as one. */
export function sourceHashOfText(path: string, text: string): string | undefined {
  const kind = sourceKindOf(path);
  if (!kind) return undefined;
  const parsed = parseMarkdownFile(path, text, fileKinds[kind].fields);
  const body = parsed.body.trim();
  return parsed.data && body ? hashOfParsed(kind, parsed.data, body) : undefined;
}
