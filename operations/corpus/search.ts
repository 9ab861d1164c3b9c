// Full-text search over passages of every entry and document in every locale (BM25F, bm25.ts), one index
// per locale so that each language's text is analysed in that language (analyse.ts). A query is analysed
// in its own language (its script, the `locale` it comes with, or the language whose words and stop words it
// uses) and matched against that locale's text and the English text; related words (content/search/) are
// added at query time, a word no passage holds is read as the nearest words they do (a typo, lexicon.ts), and the
// words a question uses for the person (analyse.ts's PERSON_WORDS, the subject's name) are dropped. Every hit carries
// a `confidence`: how much of the question (its words weighted by how rare they are; a word no passage holds
// weighing what its known words do on average) the record contains. At CONFIDENT or below nothing is a match, so a
// question the profile cannot answer gets no results rather than the least bad ones. Built once per build and
// never changed afterwards.
import type { Locale } from '../contract/shared.ts';
import { analyseQueryWords, isTraditional, scriptOf, stopWords, wordSegments } from './analyse.ts';
import { editDistance, Lexicon } from './lexicon.ts';
import { bm25DataOf, bm25FromData, holds, topK, type Bm25Data, type Bm25Index } from './bm25.ts';
import { termCounts, type TermCountSession } from './term-counts.ts';
import { relatedGroups, type RelatedTerms } from './related.ts';
import { noPause, type Pause } from '../content/pause.ts';
import { workingOn } from '../content/working-on.ts';

export interface Passage {
  /** Language of the passage's text: it is analysed in that language and found by queries in it. */
  locale: Locale;
  slug: string;
  kind: 'entry' | 'document';
  title: string;
  /** What describes the record, weighted above body text: organisation, tags, skills, lenses, key result, a section's heading. */
  meta?: string;
  text: string;
  url: string;
}

export interface SearchHit extends Omit<Passage, 'text' | 'locale' | 'meta'> {
  passage: string;
  score: number;
  /** How much of the query the record holds, 0–1: the query's words weighted by their idf, a related word counting for its word. */
  confidence: number;
}

export interface SearchOptions {
  /** The language the query is written in, when known; otherwise told by its script and words. */
  locale?: Locale;
  /** Also return records that are not confident matches (for diagnosis; the service never does). */
  unsure?: boolean;
}

export interface SearchIndex {
  readonly size: number;
  search(query: string, limit: number, options?: SearchOptions): SearchHit[];
  /** The index as data, without its passages (see `searchIndexFromData`); absent on indexes made otherwise (hybrid). */
  toData?(): SearchIndexData;
}

/**
 * What `createSearchIndex` computed, as data of typed arrays (kept on disk by commit, persist.ts): each locale's
 * BM25 index and which passage each of its documents is. The passages themselves are not in it: they are
 * made again from the content (their text is the content's, their URLs the site's).
 */
export interface SearchIndexData {
  size: number;
  locales: Array<{ locale: Locale; passages: Int32Array; engine: Bm25Data }>;
}

export type { RelatedTerms } from './related.ts';

/** Field weights: what describes a record counts above its body text. */
export const FIELD_WEIGHTS = { title: 3, meta: 2, text: 1 };
/** A record is a match when it holds more than this share of the query (half: a question of two ideas needs both). */
export const CONFIDENT = 0.5;
/** How many records beyond three times the limit are weighed for their confidence. */
const CANDIDATES = 20;
/** How much a record's confidence weighs in its rank (its score times confidence to this power). */
const COORDINATION = 0.5;
/** A related word weighs this much of the word it stands for in the ranking. */
const RELATED_WEIGHT = 0.5;
/** Passages in English, when the query is in another language, weigh this much: they match, but the query's own language comes first. */
const ENGLISH_WEIGHT = 0.7;
/** Passages in another Chinese or Japanese locale than the query's (the same characters, once folded). */
const HAN_WEIGHT = 0.85;
/** A word spelt one or two letters away from the query's (a typo read as what was meant) weighs this much of it in the ranking. */
const TYPO_WEIGHT = 0.6;
/** A word the last word of a query being typed begins (search as you type) weighs this much of it in the ranking. */
const PREFIX_WEIGHT = 0.5;
/** How much of a word a record holds when it holds only a guess at what a typo of it meant. */
const TYPO_HOLD = 0.5;
/** A reading the word as typed begins with, but for at most this many letters, is an ending the stemmer did not cut (obtenus, obtenu). */
const INFLECTION = 3;

interface LocaleIndex {
  engine: Bm25Index;
  /** local document → passage */
  passages: Int32Array;
  /** Its terms by spelling, for typos and prefixes (made at the first query that needs it). */
  lexicon?: Lexicon;
}

interface Concept {
  /** The tokens of one word of the query (a Han word's bigrams, or a single token). */
  own: string[];
  /** Related words or phrases that stand for the word, each as its tokens. */
  related: string[][];
  /** How much of the word a record holding only a related word holds: 1, or less when the word is known only as a typo's reading. */
  hold: number;
}

/** A word of the query resolved in one locale's index, once per query, for the confidence of each candidate. */
interface ResolvedConcept {
  /** Its tokens' mean idf (a token no passage holds weighs the most a token can); a word no token of which is known, the known words' mean. */
  weight: number;
  /** The documents holding each of its tokens (undefined: none does). */
  own: Array<Int32Array | undefined>;
  /** Per related word or phrase that some document could hold in full, the documents holding each of its tokens. */
  related: Int32Array[][];
  hold: number;
}

type QueryWord = ReturnType<typeof analyseQueryWords>[number];

interface Part {
  locale: Locale;
  weight: number;
  /** Tokens and their weights in the ranking. */
  terms: Array<[string, number]>;
  concepts: Concept[];
  resolved: ResolvedConcept[];
}

/** What a search adds to the passages' own words: the related words, and the subject's name (a word a question uses for the person). */
export interface QueryWords {
  related?: RelatedTerms;
  /** The subject's name as written (site.json): its words, and spellings one letter from them, are stop words of a question. */
  name?: string;
}

/** Builds the index; `pause` is awaited between steps so a caller on the main thread can yield. */
export async function createSearchIndex(passages: readonly Passage[], options: { pause?: Pause } & QueryWords = {}): Promise<SearchIndex> {
  return searchIndexFromData(passages, await createSearchIndexData(passages, options), options);
}

/** The index of `passages` as data (what `createSearchIndex(passages).toData()` gives; a build worker sends only this). */
export async function createSearchIndexData(passages: readonly Passage[], options: { pause?: Pause } = {}): Promise<SearchIndexData> {
  const pause = options.pause ?? noPause;
  const byLocale = new Map<Locale, number[]>();
  passages.forEach((p, i) => {
    const list = byLocale.get(p.locale) ?? [];
    list.push(i);
    byLocale.set(p.locale, list);
  });
  const out: SearchIndexData = { size: passages.length, locales: [] };
  for (const [locale, ids] of byLocale) {
    // Each text is counted through the locale's cache, so a rebuild after a small change analyses only the text that changed.
    const counts = termCounts(locale).open();
    const engine = await bm25DataOf(
      ids.length,
      (doc, field) => {
        const passage = passages[ids[doc]!]!;
        if (field === 0) workingOn(passage);
        return counts.of(fieldText(passage, field));
      },
      WEIGHTS,
      counts.vocabulary,
      BM25_PARAMS,
      pause,
    );
    workingOn(null);
    counts.close(engine.terms.length);
    out.locales.push({ locale, passages: Int32Array.from(ids), engine });
  }
  return out;
}

/** Counts every field of `passages` into the caches a build reads, without making an index (a build worker warming up). */
export async function warmTermCounts(passages: readonly Passage[], pause: Pause = noPause): Promise<void> {
  const open = new Map<Locale, TermCountSession>();
  try {
    for (const passage of passages) {
      let counts = open.get(passage.locale);
      if (!counts) open.set(passage.locale, (counts = termCounts(passage.locale).open()));
      for (let field = 0; field < WEIGHTS.length; field++) counts.of(fieldText(passage, field));
      const paused = pause();
      if (paused) await paused;
    }
  } finally {
    for (const counts of open.values()) counts.close();
  }
}

const WEIGHTS = [FIELD_WEIGHTS.title, FIELD_WEIGHTS.meta, FIELD_WEIGHTS.text];
const BM25_PARAMS = { k1: 1.2, b: 0.75, k: 1 };
const fieldText = (p: Passage, field: number) => (field === 0 ? p.title : field === 1 ? (p.meta ?? '') : p.text);

/**
 * The index `data` holds, over the same `passages` it was made from (in the same order): searches answer as
 * the index made by `createSearchIndex` did. Throws when the data does not fit the passages.
 */
export async function searchIndexFromData(
  passages: readonly Passage[],
  data: SearchIndexData,
  options: { pause?: Pause } & QueryWords = {},
): Promise<SearchIndex> {
  if (data.size !== passages.length) throw new Error(`the search index holds ${data.size} passages, the content ${passages.length}`);
  const indexes = new Map<Locale, LocaleIndex>();
  for (const { locale, passages: ids, engine } of data.locales) {
    if (!(ids instanceof Int32Array) || ids.length !== engine.count) throw new Error('the search index data is inconsistent');
    for (const id of ids) if (passages[id]?.locale !== locale) throw new Error(`the search index does not fit the passages in ${locale}`);
    indexes.set(locale, { engine: await bm25FromData(engine, options.pause), passages: ids });
  }
  return searchOver(passages, indexes, options, options.pause ?? noPause);
}

async function searchOver(passages: readonly Passage[], indexes: Map<Locale, LocaleIndex>, words: QueryWords, pause: Pause): Promise<SearchIndex> {
  // Records (an entry or a document, in every locale), and each one's documents per locale index.
  const recordIds = new Map<string, number>();
  const recordOf = new Int32Array(passages.length);
  const recordDocs: Array<Map<Locale, number[]>> = [];
  for (const [locale, { passages: ids }] of indexes) {
    for (let doc = 0; doc < ids.length; doc++) {
      if ((doc & 2047) === 0) await pause();
      const passage = ids[doc]!;
      const p = passages[passage]!;
      const key = `${p.kind}:${p.slug}`;
      let record = recordIds.get(key);
      if (record === undefined) recordIds.set(key, (record = recordDocs.push(new Map()) - 1));
      recordOf[passage] = record;
      const docs = recordDocs[record]!.get(locale) ?? [];
      docs.push(doc);
      recordDocs[record]!.set(locale, docs);
    }
  }
  await pause();
  const related = relatedGroups(words.related ?? {});
  // The subject's name, folded: "What has Noah built?" asks about Noa, as "What has the candidate built?" does.
  const nameWords = (words.name ?? '')
    .split(/[\s\p{P}]+/u)
    .map((w) => foldWord(w))
    .filter((w) => w.length >= 3);
  const isName = (typed: string) => nameWords.some((name) => editDistance(typed, name, 1) <= 1);

  const totals = new Float64Array(passages.length);
  const touched = new Int32Array(passages.length);
  const marked = new Uint8Array(passages.length);
  const recordBest = new Float64Array(recordDocs.length);
  const recordPassage = new Int32Array(recordDocs.length);
  const recordsTouched = new Int32Array(recordDocs.length);
  const recordMarked = new Uint8Array(recordDocs.length);

  /** Which locales' text to match, with what weight, and the query's tokens in each. */
  function plan(query: string, locale: Locale | undefined): Part[] {
    const script = scriptOf(query);
    const candidates: Locale[] =
      script === 'kana' ? ['ja'] : script === 'han' ? (isTraditional(query) ? ['zh-hant', 'zh', 'ja'] : ['zh', 'zh-hant', 'ja']) : ['en', 'fr', 'es', 'eo'];
    const analysed = new Map<Locale, QueryWord[]>();
    const wordsIn = (l: Locale) => {
      let words = analysed.get(l);
      if (!words) analysed.set(l, (words = analyseQueryWords(query, l)));
      return words;
    };
    // The last word of a query still being typed (no space or mark after it) is also looked up as a prefix.
    const typing = /[\p{L}\p{N}]$/u.test(query);
    let primary: Locale = locale && candidates.includes(locale) ? locale : candidates[0]!;
    if (candidates.length > 1 && (!locale || !candidates.includes(locale))) {
      const words = script === 'latin' ? latinWords(query) : [];
      let best = -1;
      for (const candidate of candidates) {
        const fit = languageFit(new Set(wordsIn(candidate).flatMap((w) => w.tokens)), words, query, candidate, indexes.get(candidate)?.engine);
        if (fit > best) [best, primary] = [fit, candidate];
      }
    }
    // A Latin query asked in a locale of another script (a product name on the Japanese site, say) is that
    // locale's text first: its pages hold such words too, and are the ones its reader should be shown.
    const other = script === 'latin' && locale !== undefined && !candidates.includes(locale) ? locale : undefined;
    // Typos are read in the query's own language only: in another, its words are unknown because they are foreign.
    const parts: Part[] = other
      ? [part(wordsIn(other), other, 1, { typing }), part(wordsIn(primary), primary, ENGLISH_WEIGHT, { typing })]
      : [part(wordsIn(primary), primary, 1, { typing })];
    if (script === 'han' || script === 'kana')
      for (const other of candidates) if (other !== primary) parts.push(part(wordsIn(other), other, HAN_WEIGHT, false));
    if (primary !== 'en') {
      // The English text is matched by the query's words that are not stop words of its own language.
      const own = stopWords[primary as keyof typeof stopWords] as ReadonlySet<string> | undefined;
      const text = own ? query.replace(/[\p{L}\p{M}'’-]+/gu, (w) => (own.has(foldWord(w)) ? ' ' : w)) : query;
      parts.push(part(analyseQueryWords(text, 'en'), 'en', ENGLISH_WEIGHT, false));
    }
    return parts.filter((p) => indexes.has(p.locale) && p.concepts.length);
  }

  /** A part of the plan: the query's tokens in one locale's text, with the related words, corrected spellings and completions they bring. */
  /** `spelling`: whether typos are read in this part (the query's own language), and whether its last word is being typed. */
  function part(words: readonly QueryWord[], locale: Locale, weight: number, spelling: { typing: boolean } | false): Part {
    const byKey = new Map<string, QueryWord>();
    for (const w of words) if (!byKey.has(w.tokens.join(' '))) byKey.set(w.tokens.join(' '), w);
    let unique = [...byKey.values()];
    const index = indexes.get(locale);
    const engine = index?.engine;
    // A Latin word no passage holds is read as the words the passages hold near it (a typo, as Meilisearch and
    // Typesense read one), or dropped when it is a stop word mistyped; the last word of a query being typed
    // also stands for the words it begins.
    const spellings = new Map<QueryWord, { typos: string[]; completions: string[] }>();
    if (index && engine && spelling) {
      const lexicon = (index.lexicon ??= new Lexicon(engine.toData().terms, (t) => engine.postings(t) !== undefined));
      unique = unique.filter((word, i) => {
        if (word.typed === undefined) return true;
        if (isName(word.typed)) return false;
        const token = word.tokens[0]!;
        const known = engine.postings(token) !== undefined || related.get(locale)?.has(token);
        const typos = known ? [] : lexicon.near(word.typed, token, locale);
        if (typos === null) return false;
        // (a word the index holds whole is taken as finished: its completions would only add noise and time)
        const completions = spelling.typing && !known && i === unique.length - 1 ? lexicon.completions(token).filter((t) => t !== token) : [];
        if (typos.length || completions.length) spellings.set(word, { typos, completions });
        return true;
      });
    }
    const concepts: Concept[] = unique.map(({ tokens }) => ({ own: tokens, related: [], hold: 1 }));
    // A word weighs one in the ranking, however many bigrams it has.
    const terms = new Map<string, number>();
    for (const { own } of concepts) for (const t of own) terms.set(t, Math.max(terms.get(t) ?? 0, 1 / own.length));
    unique.forEach((word, i) => {
      const { typos = [], completions = [] } = spellings.get(word) ?? {};
      // A reading the word as typed begins with, but for an ending, is the same word the stemmer cut otherwise
      // (obtenus, obtenu); another is a guess that may be wrong ("salaire" read as "salari", employees; "automotive"
      // as "automation"), and holds less of the question.
      if (typos.length) concepts[i]!.hold = typos.some((t) => word.typed!.startsWith(t) && word.typed!.length - t.length <= INFLECTION) ? 1 : TYPO_HOLD;
      for (const [list, w] of [
        [typos, TYPO_WEIGHT],
        [completions, PREFIX_WEIGHT],
      ] as const) {
        for (const t of list) {
          concepts[i]!.related.push([t]);
          if (!terms.has(t)) terms.set(t, w);
        }
      }
    });
    // Related words come with the query's own words and with the spellings its typos were read as.
    const typoOf = new Map<string, Concept>();
    unique.forEach((word, i) => {
      for (const t of spellings.get(word)?.typos ?? []) typoOf.set(t, concepts[i]!);
    });
    const ownTokens = new Set([...concepts.flatMap((c) => c.own), ...typoOf.keys()]);
    const groups = new Set<string[][]>();
    for (const t of ownTokens) for (const group of related.get(locale)?.get(t) ?? []) groups.add(group);
    for (const group of groups) {
      const present = group.filter((member) => member.every((t) => ownTokens.has(t)));
      if (!present.length) continue;
      const others = group.filter((member) => !present.includes(member));
      for (const member of present) {
        for (const concept of concepts) {
          // a related word stands for a whole word of the query (公司 does not stand for 航空公司)
          const stands = concept.own.every((t) => member.includes(t)) || (member.length === 1 && typoOf.get(member[0]!) === concept);
          if (stands) concept.related.push(...others.filter((other) => !concept.related.includes(other)));
        }
      }
      for (const t of others.flat()) if (!terms.has(t)) terms.set(t, RELATED_WEIGHT);
    }
    const resolved = engine
      ? concepts.map(({ own, related, hold }): ResolvedConcept => {
          const postings = own.map((t) => engine.postings(t));
          // a phrase stands for the word only where all its words are ("business model" is not "large language model")
          const standIns = related.flatMap((member) => {
            const docs = member.map((t) => engine.postings(t));
            return docs.every((d) => d !== undefined) ? [docs] : [];
          });
          const known = postings.some((p) => p !== undefined) || standIns.length > 0;
          // a word known only through its stand-ins (a typo's corrections) weighs what they do
          const weight = postings.some((p) => p !== undefined)
            ? postings.reduce((sum, p) => sum + (p ? p.idf : engine.maxIdf), 0) / own.length
            : known
              ? Math.max(...standIns.map((docs) => docs.reduce((sum, p) => sum + p.idf, 0) / docs.length))
              : Number.NaN;
          return { weight, own: postings.map((p) => p?.docs), related: standIns.map((docs) => docs.map((p) => p.docs)), hold };
        })
      : [];
    // A word no passage of this locale holds (nor any spelling near it) weighs what the question's known words do on
    // average, not the most a word can: it does not veto a question ("the subject", a misspelt name), but a question
    // whose known words are not more than its unknown ones ("salary expectations") is still no match.
    const knownWeights = resolved.filter((r) => !Number.isNaN(r.weight)).map((r) => r.weight);
    const unknownWeight = knownWeights.length ? knownWeights.reduce((a, b) => a + b, 0) / knownWeights.length : (engine?.maxIdf ?? 1);
    for (const r of resolved) if (Number.isNaN(r.weight)) r.weight = unknownWeight;
    return { locale, weight, terms: [...terms], concepts, resolved };
  }

  /** Confidence of a record: the idf-weighted share of the query's concepts some passage of it holds, in the best-fitting locale. */
  function confidence(record: number, parts: readonly Part[]): number {
    let best = 0;
    for (const { locale, resolved } of parts) {
      const docs = recordDocs[record]!.get(locale);
      if (!docs) continue;
      let held = 0;
      let total = 0;
      for (const { weight, own, related, hold } of resolved) {
        // A word is held in full when a related word is, else for the share of its tokens (a Han word's
        // bigrams) the record holds.
        total += weight;
        if (related.some((member) => member.every((postings) => holds(postings, docs)))) held += weight * hold;
        else held += (weight * own.filter((postings) => holds(postings, docs)).length) / own.length;
      }
      if (total > 0) best = Math.max(best, held / total);
    }
    return best;
  }

  return {
    size: passages.length,
    toData: () => ({
      size: passages.length,
      locales: [...indexes].map(([locale, { engine, passages: ids }]) => ({ locale, passages: ids, engine: engine.toData() })),
    }),
    search(query, limit, options = {}) {
      const parts = plan(query, options.locale);
      let n = 0;
      for (const { locale, weight, terms } of parts) {
        const { engine, passages: ids } = indexes.get(locale)!;
        for (const [token, termWeight] of terms) {
          const postings = engine.postings(token);
          if (!postings) continue;
          const w = weight * termWeight;
          const { docs, scores } = postings;
          for (let i = 0; i < docs.length; i++) {
            const passage = ids[docs[i]!]!;
            if (!marked[passage]) {
              marked[passage] = 1;
              touched[n++] = passage;
            }
            totals[passage]! += w * scores[i]!;
          }
        }
      }
      // Each record's best passage: the section that matched best is the one shown.
      let records = 0;
      for (let i = 0; i < n; i++) {
        const passage = touched[i]!;
        const record = recordOf[passage]!;
        // (a mark of its own: a passage can score 0, where a word every passage holds rounds to nothing)
        if (!recordMarked[record]) {
          recordMarked[record] = 1;
          recordsTouched[records++] = record;
          recordBest[record] = totals[passage]!;
          recordPassage[record] = passage;
        } else if (totals[passage]! > recordBest[record]! || (totals[passage] === recordBest[record] && passage < recordPassage[record]!)) {
          recordBest[record] = totals[passage]!;
          recordPassage[record] = passage;
        }
      }
      // The best candidates by BM25F, then ranked by their score times their confidence: a record that holds
      // the whole question comes before one that holds its most frequent word many times (Lucene's "coord").
      const candidates = topK(recordsTouched, records, recordBest, Math.max(limit, 1) * 3 + CANDIDATES);
      const scored = candidates
        .map((record) => ({ record, sure: confidence(record, parts) }))
        .filter(({ sure }) => sure > CONFIDENT || options.unsure)
        .map(({ record, sure }) => ({ record, sure, score: recordBest[record]! * sure ** COORDINATION }))
        .sort((a, b) => b.score - a.score || a.record - b.record)
        .slice(0, limit);
      const hits = scored.map(({ record, sure, score }): SearchHit => {
        const p = passages[recordPassage[record]!]!;
        return { slug: p.slug, kind: p.kind, title: p.title, passage: p.text, score: round3(score), confidence: round3(sure), url: p.url };
      });
      for (let i = 0; i < n; i++) {
        totals[touched[i]!] = 0;
        marked[touched[i]!] = 0;
      }
      for (let i = 0; i < records; i++) {
        recordBest[recordsTouched[i]!] = 0;
        recordMarked[recordsTouched[i]!] = 0;
      }
      return hits;
    },
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

const LATIN_HINTS: Partial<Record<Locale, RegExp>> = {
  eo: /[ĉĝĥĵŝŭ]|\b[cghjsu]x|\b(?:cxu|ĉu)\b/i,
  es: /[ñ¿¡]/,
  fr: /[çœèêëîïû]|\b(?:qu|l|d|j|n|c)['’]\p{L}/iu,
};

const foldWord = (word: string) =>
  word
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
/** The words of a Latin-script query, lowercased and without accents (segmented in windows: linear in a long query). */
function latinWords(query: string): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of wordSegments(query, 'en')) if (isWordLike) out.push(foldWord(segment));
  return out;
}

/** How well a query fits a language: its tokens that the language's text holds, its stop words, its letters. */
function languageFit(tokens: Iterable<string>, words: readonly string[], query: string, locale: Locale, engine: Bm25Index | undefined): number {
  let fit = 0;
  if (engine) for (const token of tokens) if (engine.postings(token)) fit++;
  const stops = stopWords[locale as keyof typeof stopWords] as ReadonlySet<string> | undefined;
  if (stops) for (const word of words) if (stops.has(word)) fit++;
  if (LATIN_HINTS[locale]?.test(query)) fit += 2;
  return fit;
}
