// Where a path sits in the content tree: a source file of some kind, a translation of one, the site or
// related-terms file, or no place at all (with the reason). A function of the path alone.
import { limits } from '../contract/limits.ts';
import { documentNames, lensIds, locales, translationLocales, type Kind, type Locale, type TranslationLocale } from '../contract/shared.ts';
import { corpusFolders, type FileKind } from './schema.ts';

export type Located =
  | { kind: 'site' }
  | { kind: 'related-terms' }
  | { kind: FileKind; id: string; entryKind?: Kind }
  | { kind: 'translation'; locale: TranslationLocale; sourcePath: string }
  | { kind: 'unknown'; reason: string };

export const RELATED_TERMS_PATH = 'content/search/related-terms.json';

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Where a path sits in the content tree, or why it has no place there. */
export function locate(path: string): Located {
  if (path === 'content/site.json') return { kind: 'site' };
  if (path === RELATED_TERMS_PATH) return { kind: 'related-terms' };
  if (path === 'content/brief.md') return { kind: 'brief', id: 'brief' };
  const i18n = /^content\/i18n\/([^/]+)\/(.+)$/.exec(path);
  if (i18n) {
    const locale = i18n[1] as Locale;
    if (!(locales as readonly string[]).includes(locale) || locale === 'en') {
      return { kind: 'unknown', reason: `"${i18n[1]}" is not a translation locale (use one of: ${translationLocales.join(', ')})` };
    }
    const sourcePath = `content/${i18n[2]}`;
    const target = locate(sourcePath);
    if (target.kind === 'unknown' || target.kind === 'translation' || target.kind === 'site' || target.kind === 'related-terms') {
      return { kind: 'unknown', reason: `translations mirror a source path, and "${sourcePath}" is not a translatable source file` };
    }
    return { kind: 'translation', locale: locale, sourcePath };
  }
  const m = /^content\/(corpus\/([^/]+)|lenses|skills|documents)\/([^/]+)\.md$/.exec(path);
  if (!m) return { kind: 'unknown', reason: 'not a place in the content tree (see the schema operation for the layout)' };
  const id = m[3]!;
  if (!slugPattern.test(id)) return { kind: 'unknown', reason: `"${id}" is not a slug: use lowercase letters, digits and single hyphens` };
  // As every operation that names a slug takes it: a longer one could be published but never asked for.
  if (id.length > limits.slug) return { kind: 'unknown', reason: `a slug is at most ${limits.slug} characters` };
  if (m[2] !== undefined) {
    const kind = corpusFolders[m[2] as keyof typeof corpusFolders];
    if (!kind) return { kind: 'unknown', reason: `entries live in content/corpus/{${Object.keys(corpusFolders).join(',')}}/` };
    return { kind: 'entry', id, entryKind: kind };
  }
  if (m[1] === 'lenses') {
    if (!(lensIds as readonly string[]).includes(id)) return { kind: 'unknown', reason: `"${id}" is not a lens id (one of: ${lensIds.join(', ')})` };
    return { kind: 'lens', id };
  }
  if (m[1] === 'documents') {
    if (!(documentNames as readonly string[]).includes(id)) return { kind: 'unknown', reason: `"${id}" is not a document name (one of: ${documentNames.join(', ')})` };
    return { kind: 'document', id };
  }
  return { kind: 'skill', id };
}

/** The kind of a translatable source file (entry, lens, skill, document, brief), or undefined for any other path. */
export function sourceKindOf(path: string): FileKind | undefined {
  const where = locate(path);
  return where.kind === 'entry' || where.kind === 'lens' || where.kind === 'skill' || where.kind === 'document' || where.kind === 'brief' ? where.kind : undefined;
}

/** Where a source file's translation into `locale` lives: the same path under content/i18n/<locale>/. */
export function translationPath(sourcePath: string, locale: TranslationLocale): string {
  return `content/i18n/${locale}/${sourcePath.slice('content/'.length)}`;
}
