// Full-text search over passages of every entry and document in every locale (BM25F, bm25.ts), one index
// per locale so that each language's text is analysed in that language (analyse.ts). A query is analysed
// in its own language (its script, the `locale` it comes with, or the language whose words and stop words it
// uses) and matched against that locale's text and the English text; related words (content/search/) are
// added at query time, a word no passage holds is read as the nearest words they do (a typo, lexicon.ts), and the
// words a question uses for the person (question-words.ts's PERSON_WORDS, the subject's name) are dropped, a question
// asking where she is is read as her place (site.json's subject location; place-question.ts, query-plan.ts), and one about
// her terms of hire (when she could start, her salary) as a passage stating them (terms-question.ts). Every hit carries
// a `confidence`: how much of the question (its words weighted by how rare they are; a word no passage holds
// weighing what its known words do on average; a verb of making or a word that picks one of several, nothing beside other words) the record contains. At CONFIDENT or below nothing is a match, so a
// question the profile cannot answer gets no results rather than the least bad ones. Built once per build and
// never changed afterwards.
import type { Locale } from '../contract/shared.ts';
import { bm25DataOf, bm25FromData, holds, topK, type Bm25Data } from './bm25.ts';
import { termCounts, type TermCountSession } from './term-counts.ts';
import { createQueryPlanner, type LocaleIndex, type Part, type QueryWords } from './query-plan.ts';
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
export type { QueryWords } from './query-plan.ts';

/** Field weights: what describes a record counts above its body text. */
export const FIELD_WEIGHTS = { title: 3, meta: 2, text: 1 };
/** A record is a match when it holds more than this share of the query (half: a question of two ideas needs both). */
export const CONFIDENT = 0.5;
/** How many records beyond three times the limit are weighed for their confidence. */
const CANDIDATES = 20;
/**
 * How much a record's confidence weighs in its rank (its score times confidence to this power): a record holding more
 * of the question comes first, as Lucene's coord ranks (power 1), a little more steeply. Chosen on the development
 * set as the middle of the powers (1.5 to 2) that rank best there (recall@5 0.95 → 0.97, MRR 0.83 → 0.84 from 0.5).
 */
const COORDINATION = 1.75;
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
  const plan = createQueryPlanner(indexes, words);

  const totals = new Float64Array(passages.length);
  const touched = new Int32Array(passages.length);
  const marked = new Uint8Array(passages.length);
  const recordBest = new Float64Array(recordDocs.length);
  const recordPassage = new Int32Array(recordDocs.length);
  const recordsTouched = new Int32Array(recordDocs.length);
  const recordMarked = new Uint8Array(recordDocs.length);

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

  /**
   * The passage a hit shows: the record's best, or its best in the query's own language when one of those matched (a
   * question in Japanese shows the Japanese text, though the English words of its reading score higher there).
   * Looked up for the hits only, while the passages' totals are still set.
   */
  function shownPassage(record: number, own: Locale | undefined): number {
    const best = recordPassage[record]!;
    const index = own && passages[best]!.locale !== own ? indexes.get(own) : undefined;
    let shown = best;
    let top = 0;
    for (const doc of (index && recordDocs[record]!.get(own!)) ?? []) {
      const passage = index!.passages[doc]!;
      if (totals[passage]! > top) [shown, top] = [passage, totals[passage]!];
    }
    return shown;
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
      // Each record's best passage: the section that matched best is the one shown (in the query's own language, shownPassage).
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
      const own = parts.reduce((a, b) => (b.weight > a.weight ? b : a), parts[0]!)?.locale;
      const hits = scored.map(({ record, sure, score }): SearchHit => {
        const p = passages[shownPassage(record, own)]!;
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
