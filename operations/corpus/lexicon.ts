// The terms of one locale's index by spelling, for the two lookups that are not exact: a word typed with a typo
// read as the words the index holds near it, and the last word of a query being typed read as the words it
// begins. Typo tolerance as Meilisearch and Typesense have it: one edit (a letter dropped, added, replaced, or two
// swapped) for a word of 5 letters or more, two for 9 or more, none for shorter words, Chinese or Japanese; the
// first letter is taken as typed (as Elasticsearch's `prefix_length: 1` and most spelling checkers do), which keeps
// the lookup to the few terms that begin with it.
// Terms are stems (analyse.ts), so a typo is looked for twice: the typed word's stem near a term (machne → machn,
// one edit from machin), and the typed word corrected by one slip undone then stemmed (learnnig → learning →
// learn), which finds what a typo in a word's ending hides from its stem. A reading by a slip that rarely makes
// another word (a doubled letter, two swapped, a letter dropped or a neighbouring key struck inside the stem) is
// sure: search counts a record holding it as holding the word; any other is a guess, which holds less
// (query-plan.ts). Readings are ranked by edits, then sureness, then the beginning shared with the typed word, then
// how common the term is.
import type { Locale } from '../contract/shared.ts';
import { isPersonOrFrameWord, isStopWord, latinTokenOf } from './analyse.ts';

/** The most spellings a typo is read as, and the most words a prefix stands for. */
const MAX_NEAR = 4;
const MAX_COMPLETIONS = 8;
/** The shortest word a typo is read in (one edit from 5 letters, as Meilisearch). */
const MIN_TYPO_LENGTH = 5;
/** A prefix shorter than this stands for too many words to mean one. */
const MIN_PREFIX = 3;
/** A word family's shorter member is at least this long (a shorter stem begins too many other words). */
const FAMILY_STEM = 5;
/** A word family's longer member adds at most this many letters: a derivation, not another word (ingeni, ingenier). */
const FAMILY_ENDING = 3;
const LATIN_TERM = /^[a-z][a-z0-9'-]*$/;

/** How many edits a typed word of this length may be from what was meant. */
export function typoBudget(typed: string): number {
  const length = [...typed].length;
  return length >= 9 ? 2 : length >= MIN_TYPO_LENGTH ? 1 : 0;
}

/** Rows of the distance table, reused by every call (searches are synchronous): a word longer than them is not compared. */
const ROW = 64;
const rows = [new Int32Array(ROW + 1), new Int32Array(ROW + 1), new Int32Array(ROW + 1)];

/** The optimal string alignment distance of `a` and `b` (Damerau–Levenshtein without moving a letter twice), or `max + 1` once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length > ROW || b.length > ROW) return a === b ? 0 : max + 1;
  let [before, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]! <= max ? previous[b.length]! : max + 1;
}

/** Neighbouring keys on a QWERTY keyboard: a slip onto the next key is the commonest typo after a dropped or doubled letter. */
export const KEYBOARD_NEIGHBOURS: Readonly<Record<string, string>> = {
  a: 'qwsz',
  b: 'vghn',
  c: 'xdfv',
  d: 'serfcx',
  e: 'wsdr',
  f: 'drtgvc',
  g: 'ftyhbv',
  h: 'gyujnb',
  i: 'ujko',
  j: 'huikmn',
  k: 'jiolm',
  l: 'kop',
  m: 'njk',
  n: 'bhjm',
  o: 'iklp',
  p: 'ol',
  q: 'wa',
  r: 'edft',
  s: 'awedxz',
  t: 'rfgy',
  u: 'yhji',
  v: 'cfgb',
  w: 'qase',
  x: 'zsdc',
  y: 'tghu',
  z: 'asx',
};
const VOWELS = 'aeiouy';
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const fold = (word: string) => word.normalize('NFKD').replace(/\p{M}+/gu, '');

/**
 * Spellings one edit from `word` that keep its first letter and that a typist makes: a letter dropped (any) or
 * doubled, two swapped, a key's neighbour typed for it, a vowel for another (the common misspellings). Not
 * every letter at every place: these feed the stemmer, and a typo in a word's ending is what they are for (the
 * stems' own comparison finds the rest).
 */
function* typedFrom(word: string, begins: (prefix: string) => boolean = () => true): Generator<[spelling: string, slip: Slip, at: number]> {
  for (let i = 1; i <= word.length; i++) {
    const [head, tail] = [word.slice(0, i), word.slice(i)];
    const here = tail[0];
    // a letter doubled (or struck beside another) taken out; two letters swapped back
    if (here) yield [head + tail.slice(1), here === word[i - 1] ? 'double' : 'extra', i];
    if (tail.length > 1) yield [head + tail[1] + here + tail.slice(2), 'swap', i];
    const near = new Set([...(here ? (KEYBOARD_NEIGHBOURS[here] ?? '') : ''), ...(KEYBOARD_NEIGHBOURS[word[i - 1]!] ?? ''), ...VOWELS]);
    // a letter dropped put back: a key's neighbour or a vowel anywhere, any other letter where a term goes on with it
    // (encadrées typed "enadrées"), which keeps the spellings to stem few
    const folded = fold(head);
    const goesOn = begins(folded);
    for (const letter of LETTERS) if (near.has(letter) || (goesOn && begins(folded + letter))) yield [head + letter + tail, 'drop', i];
    // a key's neighbour, or another vowel, typed for the letter
    for (const letter of near)
      if (here && letter !== here) yield [head + letter + tail.slice(1), KEYBOARD_NEIGHBOURS[here]?.includes(letter) ? 'key' : 'other', i];
  }
}
type Slip = 'double' | 'extra' | 'swap' | 'drop' | 'key' | 'other';

/**
 * Whether undoing `slip` at `at` makes a sure reading of a typo, one that is rarely another word: a doubled letter,
 * two letters swapped, or a letter dropped inside the stem it gives (enadrées, encadr). Not a letter put back in an
 * ending ("salariales" is not "salariables"), a letter taken out that was not doubled ("préavis"), nor one letter for
 * another ("automotive" is not "automative"): real words of the language the content lacks are made so too.
 */
const sureSlip = (slip: Slip, at: number, stem: string) => slip === 'double' || slip === 'swap' || (slip === 'drop' && at < stem.length);
/**
 * Whether undoing `slip` makes a sure reading of a word the index holds: a sure slip, or a neighbouring key struck
 * inside the stem ("pgthon", python; chosen on the development set, where it loses nothing and mends a question of
 * one mistyped word). A frame or person word is dropped only by a sure slip: "worker" is one key from "worked".
 */
const sureReading = (slip: Slip, at: number, stem: string) => sureSlip(slip, at, stem) || (slip === 'key' && at < stem.length);

/**
 * Whether `typed` is `meant` with one slip a typist makes (as `sureReading` reads one): a letter dropped, doubled, two
 * swapped, or a neighbouring key struck; not any other letter for another ("laboris" is not "laboras": i and a are
 * not neighbours). Whether another word is meant is the caller's to say.
 */
export function oneSlipFrom(typed: string, meant: string): boolean {
  if (typed === meant || Math.abs(typed.length - meant.length) > 1) return false;
  let i = 0;
  while (i < typed.length && typed[i] === meant[i]) i++;
  if (typed.length === meant.length - 1) return typed.slice(i) === meant.slice(i + 1);
  if (typed.length === meant.length + 1) return typed.slice(i + 1) === meant.slice(i) && (typed[i] === typed[i - 1] || typed[i] === typed[i + 1]);
  if (typed.slice(i + 1) === meant.slice(i + 1)) return KEYBOARD_NEIGHBOURS[meant[i]!]?.includes(typed[i]!) === true;
  return typed[i] === meant[i + 1] && typed[i + 1] === meant[i] && typed.slice(i + 2) === meant.slice(i + 2);
}

/** What a word typed with a typo is read as (`Lexicon.readings`). */
export interface Readings {
  /** The terms it may have meant, likeliest first. */
  terms: string[];
  /**
   * Whether the likeliest is a sure reading: the word as typed is one slip (a letter dropped, doubled, swapped, a
   * neighbouring key) from a word the index holds, once stemmed, and no other term is nearer. Otherwise the terms are
   * only near the typed word's stem, a guess that may be another word ("salaire" read as "salari", employees).
   */
  sure: boolean;
}

export class Lexicon {
  /** Latin terms by their first letter and length (`a7`). */
  private buckets?: Map<string, string[]>;
  private sorted?: string[];

  /** `count`: how many documents hold a term (a more common term is the likelier reading of a typo, as Typesense ranks them). */
  constructor(
    private readonly terms: readonly string[],
    private readonly has: (term: string) => boolean,
    private readonly count: (term: string) => number = () => 0,
  ) {}

  /**
   * Terms a word typed with a typo may have meant, nearest first: `typed` as typed (folded), `token` its stem.
   * null when the word is a stop word mistyped (one edit from one), or a word for the person or the question's frame
   * mistyped by a sure slip: it means nothing more than that word.
   */
  near(typed: string, token: string, locale: Locale): string[] | null {
    return this.readings(typed, token, locale)?.terms ?? null;
  }

  /**
   * What `near` gives, and whether its first term is a sure reading. Ranked as Meilisearch and Typesense rank
   * typo matches: fewer edits first; then a word one slip from what was typed before a stem merely near its stem;
   * then the longer beginning shared with what was typed; then the commoner term. `written`: the word as typed with
   * its accents, which the French and Spanish stemmers read (encadrées is encadr, encadrees encadre).
   */
  readings(typed: string, token: string, locale: Locale, written = typed): Readings | null {
    const max = typoBudget(typed);
    if (!LATIN_TERM.test(token)) return { terms: [], sure: false };
    // A mistyped stop word is a stop word, even short ("haas" for "havas": the budget is the meant word's).
    if (typed.length === MIN_TYPO_LENGTH - 1)
      for (const [spelling] of typedFrom(typed)) if (spelling.length >= MIN_TYPO_LENGTH && isStopWord(spelling, locale)) return null;
    if (!max) return { terms: [], sure: false };
    const found = new Map<string, { d: number; slip: boolean }>();
    // One edit undone in the word as typed, then stemmed: a typo in a word's ending, which its stem hides.
    const heads = this.headsOf();
    for (const [spelling, slip, at] of typedFrom(written, (prefix) => this.begins(prefix))) {
      const folded = written === typed ? spelling : fold(spelling);
      // So is a question's word for the person or its frame, mistyped by a sure slip ("exerience", "canddate"): a real
      // word one other edit from one ("worker", "campus", "industrial") is read as any other word.
      if (isStopWord(folded, locale) || (isPersonOrFrameWord(folded, locale) && sureSlip(slip, at, folded))) return null;
      // A stem is the word's beginning but for its last letter (happy → happi): a spelling no term begins so is never stemmed.
      let possible = false;
      for (let k = folded.length; k >= 2 && !possible; k--) possible = heads.has(folded.slice(0, k));
      if (!possible) continue;
      const stem = latinTokenOf(spelling, locale);
      if (stem !== token && this.has(stem) && !found.get(stem)?.slip) found.set(stem, { d: 1, slip: sureReading(slip, at, stem) });
    }
    const buckets = this.bucketed();
    for (let length = token.length - max; length <= token.length + max; length++) {
      for (const term of buckets.get(`${token[0]}${length}`) ?? []) {
        const d = editDistance(token, term, max);
        if (d <= max && term !== token && !found.has(term)) found.set(term, { d, slip: false });
      }
    }
    const shared = (term: string) => {
      let k = 0;
      while (k < term.length && term[k] === typed[k]) k++;
      return k;
    };
    const ranked = [...found]
      .map(([term, { d, slip }]) => ({ term, d, slip, shared: shared(term), count: this.count(term) }))
      .sort((a, b) => a.d - b.d || Number(b.slip) - Number(a.slip) || b.shared - a.shared || b.count - a.count || (a.term < b.term ? -1 : 1))
      .slice(0, MAX_NEAR);
    const [first, second] = ranked;
    const sure = first !== undefined && first.slip && !(second && second.d === first.d && second.slip && second.shared === first.shared);
    return { terms: ranked.map(({ term }) => term), sure };
  }

  /** Whether a Latin term begins with `prefix`. */
  private begins(prefix: string): boolean {
    const sorted = this.sortedTerms();
    return sorted[this.firstFrom(prefix)]?.startsWith(prefix) ?? false;
  }

  private sortedTerms(): string[] {
    return (this.sorted ??= this.terms.filter((t) => LATIN_TERM.test(t)).sort());
  }

  /** Where `prefix` would go among the sorted terms. */
  private firstFrom(prefix: string): number {
    const sorted = this.sortedTerms();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Terms that begin with `prefix` (the last word of a query being typed), shortest first. */
  completions(prefix: string): string[] {
    if (prefix.length < MIN_PREFIX || !LATIN_TERM.test(prefix)) return [];
    const sorted = this.sortedTerms();
    const lo = this.firstFrom(prefix);
    const out: string[] = [];
    for (let i = lo; i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out.sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).slice(0, MAX_COMPLETIONS);
  }

  /**
   * Terms of the same word family as `token` (a stem the index holds): one begins with the other, which is at least
   * FAMILY_STEM letters long, and is at most FAMILY_ENDING letters longer (ingeni, ingenier; hotel, hoteller).
   */
  family(token: string): string[] {
    if (token.length < FAMILY_STEM || !LATIN_TERM.test(token)) return [];
    const out: string[] = [];
    for (let k = FAMILY_STEM; k < token.length; k++) if (token.length - k <= FAMILY_ENDING && this.has(token.slice(0, k))) out.push(token.slice(0, k));
    const sorted = this.sortedTerms();
    for (let i = this.firstFrom(token); i < sorted.length && sorted[i]!.startsWith(token); i++)
      if (sorted[i] !== token && sorted[i]!.length - token.length <= FAMILY_ENDING) out.push(sorted[i]!);
    return out;
  }

  /** Every Latin term without its last letter. */
  private heads?: Set<string>;
  private headsOf(): Set<string> {
    return (this.heads ??= new Set(this.terms.filter((t) => LATIN_TERM.test(t) && t.length >= 3).map((t) => t.slice(0, -1))));
  }

  private bucketed(): Map<string, string[]> {
    if (this.buckets) return this.buckets;
    const buckets = new Map<string, string[]>();
    for (const term of this.terms) {
      if (!LATIN_TERM.test(term)) continue;
      const key = `${term[0]}${term.length}`;
      const list = buckets.get(key);
      if (list) list.push(term);
      else buckets.set(key, [term]);
    }
    return (this.buckets = buckets);
  }
}
