// The tokens search indexes and queries: `analyse` (analyse.ts) in a locale's language. English is the
// default, for callers that index text of one language (bm25.test.ts checks our BM25F against wink's with it).
import type { Locale } from '../contract/shared.ts';
import { analyse } from './analyse.ts';

export function tokenize(text: string, locale: Locale = 'en'): string[] {
  return analyse(text, locale);
}
