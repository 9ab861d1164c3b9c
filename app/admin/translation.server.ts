// For a translation open in the editor: which English file it translates, and the `source` hash that
// English has now, so the editor can say whether the translation is stale and mark it current after a
// hand check. Computed by the content model's own functions, as the build does.
import { fileKinds } from '../../operations/content/schema.ts';
import { locate } from '../../operations/content/tree.ts';
import { parseMarkdownFile } from '../../operations/content/front-matter.ts';
import { sourceHash } from '../../operations/content/source-hash.ts';

export interface TranslationInfo {
  locale: string;
  sourcePath: string;
  /** The hash of the English as it is now; absent when the English is missing or invalid. */
  currentSource?: string;
}

export function translationOf(path: string): { locale: string; sourcePath: string } | undefined {
  const where = locate(path);
  return where.kind === 'translation' ? { locale: where.locale, sourcePath: where.sourcePath } : undefined;
}

export function currentSourceHash(sourcePath: string, englishText: string): string | undefined {
  const where = locate(sourcePath);
  if (!(where.kind in fileKinds)) return undefined;
  const kind = where.kind as keyof typeof fileKinds;
  const parsed = parseMarkdownFile(sourcePath, englishText, fileKinds[kind].fields);
  return parsed.data ? sourceHash(kind, parsed.data, parsed.body.trim()) : undefined;
}
