// Term counts by text, per locale, kept from one build to the next: a rebuild after a small change analyses only
// the text that changed (search.ts counts every field of every passage through them).
import type { Locale } from '../contract/shared.ts';
import { analyse } from './analyse.ts';
import { countTerms, Vocabulary } from './bm25.ts';

export interface TermCountSession {
  readonly vocabulary: Vocabulary;
  /** The text's term counts (`countTerms`), from the cache or counted now. */
  of(text: string): Int32Array;
  /** Ends the session: what it counted or found is what the next build finds. `terms`: how many terms its index used. */
  close(terms?: number): void;
}

/**
 * One locale's term counts by text, kept from one build to the next: the texts the last build used and what the
 * current one counted (a generation each), so memory follows the content, whatever it was before. The
 * vocabulary only grows; once it holds far more terms than an index uses, it starts again with the caches.
 */
class TermCountCache {
  private state = { vocabulary: new Vocabulary(), current: new Map<string, Int32Array>(), previous: new Map<string, Int32Array>() };
  constructor(private readonly locale: Locale) {}

  open(): TermCountSession {
    // A session keeps the state it began with: counts and vocabulary always belong together, even across a reset.
    const state = this.state;
    return {
      vocabulary: state.vocabulary,
      of: (text) => {
        let counts = state.current.get(text);
        if (counts) return counts;
        counts = state.previous.get(text) ?? countTerms(analyse(text, this.locale), state.vocabulary);
        state.current.set(text, counts);
        return counts;
      },
      close: (terms) => {
        if (state !== this.state || state.current.size === 0) return;
        state.previous = state.current;
        state.current = new Map();
        if (terms !== undefined && state.vocabulary.size > 4 * terms + 100_000) {
          this.state = { vocabulary: new Vocabulary(), current: new Map(), previous: new Map() };
        }
      },
    };
  }
}

const termCountCaches = new Map<Locale, TermCountCache>();

/** Drops this thread's term counts: a start makes its builds here, and from then on the build worker makes them. */
export function forgetTermCounts(): void {
  termCountCaches.clear();
}

export function termCounts(locale: Locale): TermCountCache {
  let cache = termCountCaches.get(locale);
  if (!cache) termCountCaches.set(locale, (cache = new TermCountCache(locale)));
  return cache;
}
