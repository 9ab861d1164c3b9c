// A missing translation opens on the English it will translate (the same fields and lists, recorded as made from
// that English), so what the editor starts from is valid and is translated field by field, never a blank
// template the validator refuses. Made with the content model's own functions, as the translate stage writes.
import { locate } from '../../operations/content/tree.ts';
import { translationFromEnglish } from '../../operations/content/translation-text.ts';

export function translationTemplate(path: string, english: string): string | undefined {
  const where = locate(path);
  if (where.kind !== 'translation') return undefined;
  const source = locate(where.sourcePath);
  if (source.kind === 'unknown' || source.kind === 'translation' || source.kind === 'site' || source.kind === 'related-terms') return undefined;
  return translationFromEnglish(source.kind, where.sourcePath, english);
}
