// A missing translation opens on the English it will translate (the same fields and lists), so what the editor
// starts from is valid and is translated field by field, never a blank template the validator refuses. It records
// UNTRANSLATED as its source: English text is not a translation, so the file stays stale (served in English) until
// it is translated and marked current. Made with the content model's own functions, as the translate stage writes.
import { locate } from '../../operations/content/tree.ts';
import { translationFromEnglish } from '../../operations/content/translation-text.ts';
import { UNTRANSLATED } from '../../operations/contract/vocabulary.ts';

/** Whether a path is a translation of a source file (not merely a file under content/i18n/). */
export const isTranslationPath = (path: string) => locate(path).kind === 'translation';

/** A new translation's starting text: its English's fields and body, or only the source line when the English cannot be read. */
export function translationTemplate(path: string, english: string | null): string {
  const empty = `---\nsource: ${UNTRANSLATED}\n---\n`;
  const where = locate(path);
  if (where.kind !== 'translation' || english === null) return empty;
  const source = locate(where.sourcePath);
  if (source.kind === 'unknown' || source.kind === 'translation' || source.kind === 'site' || source.kind === 'related-terms') return empty;
  return translationFromEnglish(source.kind, where.sourcePath, english, UNTRANSLATED) ?? empty;
}
