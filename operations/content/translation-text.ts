// The text of a translation file: `source` (the hash of the English it was made from) first, then the translated
// fields, then the body. The translate stage writes its translations in this form, and the console starts a missing
// translation from the English in it.
import { stringify } from 'yaml';
import { englishValue, fileKinds, translatableFields, type FileKind } from './schema.ts';
import { parseMarkdownFile } from './front-matter.ts';
import { sourceHash } from './source-hash.ts';

export function translationText(hash: string, fields: Record<string, unknown>, body: string): string {
  const frontMatter = stringify({ source: hash, ...fields }, { lineWidth: 0 }).trimEnd();
  return `---\n${frontMatter}\n---\n${body.trim()}\n`;
}

/**
 * A translation to start from: the English's own translatable fields and body, recorded as made from `recorded`
 * (the English's hash by default). Valid as it stands (same lists, same keys), so an editor translates it field by
 * field; undefined when the English cannot be read.
 */
export function translationFromEnglish(kind: FileKind, sourcePath: string, english: string, recorded?: string): string | undefined {
  const parsed = parseMarkdownFile(sourcePath, english, fileKinds[kind].fields);
  if (!parsed.data) return undefined;
  const data = parsed.data as Record<string, unknown>;
  const fields = Object.fromEntries(
    translatableFields[kind].flatMap((key) => {
      const value = englishValue(kind, data, key);
      return value === undefined ? [] : [[key, value]];
    }),
  );
  const body = parsed.body.trim();
  return translationText(recorded ?? sourceHash(kind, data, body), fields, body);
}
