// The tokens search indexes and queries: `analyse` (analyse.ts) in a locale's language. English is the
// default, for callers that index text of one language (bm25.test.ts checks our BM25F against wink's with it).
import type { Locale } from '../contract/shared.ts';
import { analyse } from './analyse.ts';
import { memoize } from './memo.ts';

export function tokenize(text: string, locale: Locale = 'en'): string[] {
  return analyse(text, locale);
}

const cached = new Map<Locale, (text: string) => readonly string[]>();

/**
 * `tokenize` remembered by text, per locale, for indexing: a rebuild tokenises only the passages that
 * changed. The arrays are shared, so callers must not change them.
 */
export function tokenizeCached(locale: Locale): (text: string) => readonly string[] {
  let fn = cached.get(locale);
  if (!fn) cached.set(locale, (fn = memoize((text: string) => analyse(text, locale), 100_000)));
  return fn;
}
