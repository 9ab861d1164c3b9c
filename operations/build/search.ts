// Full-text search over passages of every entry and document in every locale (BM25F, bm25.ts), one index
// per locale so that each language's text is analysed in that language (analyse.ts). A query is analysed
// in its own language (its script, the `locale` it comes with, or the language whose words and stop words it
// uses) and matched against that locale's text and the English text; related words (content/search/) are
// added at query time. Every hit carries a `confidence`: how much of the question (its words weighted by how
// rare they are) the record contains. At CONFIDENT or below nothing is a match, so a question the profile cannot
// answer gets no results rather than the least bad ones. Built once per build and never changed afterwards.
import type { RootContent } from 'mdast';
import type { Locale } from '../contract/shared.ts';
import { parseMarkdown } from '../content/markdown.ts';
import { analyse, analyseQuery, isTraditional, scriptOf, stopWords, wordSegments } from './analyse.ts';
import { bm25DataOf, bm25FromData, countTerms, topK, Vocabulary, type Bm25Data, type Bm25Index } from './bm25.ts';
import { memoize } from './memo.ts';
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

/** Per locale, groups of related words or phrases (a recruiter's words beside a profile's). */
export type RelatedTerms = Partial<Record<Locale, ReadonlyArray<readonly string[]>>>;

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

interface LocaleIndex {
  engine: Bm25Index;
  /** local document → passage */
  passages: Int32Array;
}

interface Concept {
  /** The tokens of one word of the query (a Han word's bigrams, or a single token). */
  own: string[];
  /** Related words or phrases that stand for the word, each as its tokens. */
  related: string[][];
}

/** A word of the query resolved in one locale's index, once per query, for the confidence of each candidate. */
interface ResolvedConcept {
  /** Its tokens' mean idf: a token no passage holds weighs the most a token can. */
  weight: number;
  /** The documents holding each of its tokens (undefined: none does). */
  own: Array<Int32Array | undefined>;
  /** Per related word or phrase that some document could hold in full, the documents holding each of its tokens. */
  related: Int32Array[][];
}

interface Part {
  locale: Locale;
  weight: number;
  /** Tokens and their weights in the ranking. */
  terms: Array<[string, number]>;
  concepts: Concept[];
  resolved: ResolvedConcept[];
}

/** Builds the index; `pause` is awaited between steps so a caller on the main thread can yield. */
export async function createSearchIndex(passages: readonly Passage[], options: { pause?: Pause; related?: RelatedTerms } = {}): Promise<SearchIndex> {
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

interface TermCountSession {
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

function termCounts(locale: Locale): TermCountCache {
  let cache = termCountCaches.get(locale);
  if (!cache) termCountCaches.set(locale, (cache = new TermCountCache(locale)));
  return cache;
}

/**
 * The index `data` holds, over the same `passages` it was made from (in the same order): searches answer as
 * the index made by `createSearchIndex` did. Throws when the data does not fit the passages.
 */
export async function searchIndexFromData(
  passages: readonly Passage[],
  data: SearchIndexData,
  options: { pause?: Pause; related?: RelatedTerms } = {},
): Promise<SearchIndex> {
  if (data.size !== passages.length) throw new Error(`the search index holds ${data.size} passages, the content ${passages.length}`);
  const indexes = new Map<Locale, LocaleIndex>();
  for (const { locale, passages: ids, engine } of data.locales) {
    if (!(ids instanceof Int32Array) || ids.length !== engine.count) throw new Error('the search index data is inconsistent');
    for (const id of ids) if (passages[id]?.locale !== locale) throw new Error(`the search index does not fit the passages in ${locale}`);
    indexes.set(locale, { engine: await bm25FromData(engine, options.pause), passages: ids });
  }
  return searchOver(passages, indexes, options.related ?? {}, options.pause ?? noPause);
}

async function searchOver(passages: readonly Passage[], indexes: Map<Locale, LocaleIndex>, relatedTerms: RelatedTerms, pause: Pause): Promise<SearchIndex> {
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
  const related = relatedGroups(relatedTerms);

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
    const analysed = new Map<Locale, string[][]>();
    const wordsIn = (l: Locale) => {
      let words = analysed.get(l);
      if (!words) analysed.set(l, (words = analyseQuery(query, l)));
      return words;
    };
    let primary: Locale = locale && candidates.includes(locale) ? locale : candidates[0]!;
    if (candidates.length > 1 && (!locale || !candidates.includes(locale))) {
      const words = script === 'latin' ? latinWords(query) : [];
      let best = -1;
      for (const candidate of candidates) {
        const fit = languageFit(new Set(wordsIn(candidate).flat()), words, query, candidate, indexes.get(candidate)?.engine);
        if (fit > best) [best, primary] = [fit, candidate];
      }
    }
    // A Latin query asked in a locale of another script (a product name on the Japanese site, say) is that
    // locale's text first: its pages hold such words too, and are the ones its reader should be shown.
    const other = script === 'latin' && locale !== undefined && !candidates.includes(locale) ? locale : undefined;
    const parts: Part[] = other ? [part(wordsIn(other), other, 1), part(wordsIn(primary), primary, ENGLISH_WEIGHT)] : [part(wordsIn(primary), primary, 1)];
    if (script === 'han' || script === 'kana') for (const other of candidates) if (other !== primary) parts.push(part(wordsIn(other), other, HAN_WEIGHT));
    if (primary !== 'en') {
      // The English text is matched by the query's words that are not stop words of its own language.
      const own = stopWords[primary as keyof typeof stopWords] as ReadonlySet<string> | undefined;
      const text = own ? query.replace(/[\p{L}\p{M}'’-]+/gu, (w) => (own.has(foldWord(w)) ? ' ' : w)) : query;
      parts.push(part(analyseQuery(text, 'en'), 'en', ENGLISH_WEIGHT));
    }
    return parts.filter((p) => indexes.has(p.locale) && p.concepts.length);
  }

  /** A part of the plan: the query's tokens in one locale's text, with the related words they bring. */
  function part(words: readonly string[][], locale: Locale, weight: number): Part {
    const concepts: Concept[] = [...new Map(words.map((w) => [w.join(' '), w])).values()].map((own) => ({ own, related: [] }));
    // A word weighs one in the ranking, however many bigrams it has.
    const terms = new Map<string, number>();
    for (const { own } of concepts) for (const t of own) terms.set(t, Math.max(terms.get(t) ?? 0, 1 / own.length));
    const ownTokens = new Set(terms.keys());
    const groups = new Set<string[][]>();
    for (const t of ownTokens) for (const group of related.get(locale)?.get(t) ?? []) groups.add(group);
    for (const group of groups) {
      const present = group.filter((member) => member.every((t) => ownTokens.has(t)));
      if (!present.length) continue;
      const others = group.filter((member) => !present.includes(member));
      for (const member of present) {
        for (const concept of concepts) {
          // a related word stands for a whole word of the query (公司 does not stand for 航空公司)
          if (concept.own.every((t) => member.includes(t))) concept.related.push(...others.filter((other) => !concept.related.includes(other)));
        }
      }
      for (const t of others.flat()) if (!terms.has(t)) terms.set(t, RELATED_WEIGHT);
    }
    const engine = indexes.get(locale)?.engine;
    const resolved = engine
      ? concepts.map(({ own, related }): ResolvedConcept => {
          const postings = own.map((t) => engine.postings(t));
          return {
            weight: postings.reduce((sum, p) => sum + (p ? p.idf : engine.maxIdf), 0) / own.length,
            own: postings.map((p) => p?.docs),
            // a phrase stands for the word only where all its words are ("business model" is not "large language model")
            related: related.flatMap((member) => {
              const docs = member.map((t) => engine.postings(t)?.docs);
              return docs.every((d) => d !== undefined) ? [docs] : [];
            }),
          };
        })
      : [];
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
      for (const { weight, own, related } of resolved) {
        // A word is held in full when a related word is, else for the share of its tokens (a Han word's
        // bigrams) the record holds.
        total += weight;
        if (related.some((member) => member.every((postings) => holds(postings, docs)))) held += weight;
        else held += (weight * own.filter((postings) => holds(postings, docs)).length) / own.length;
      }
      if (total > 0) best = Math.max(best, held / total);
    }
    return best;
  }


  return {
    size: passages.length,
    toData: () => ({ size: passages.length, locales: [...indexes].map(([locale, { engine, passages: ids }]) => ({ locale, passages: ids, engine: engine.toData() })) }),
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

/** Whether a posting list (ascending) holds any of `docs`. */
function holds(postings: Int32Array | undefined, docs: readonly number[]): boolean {
  if (!postings) return false;
  for (const doc of docs) {
    let lo: number = 0;
    let hi: number = postings.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (postings[mid] === doc) return true;
      if (postings[mid]! < doc) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  return false;
}

const LATIN_HINTS: Partial<Record<Locale, RegExp>> = {
  eo: /[ĉĝĥĵŝŭ]|\b[cghjsu]x|\b(?:cxu|ĉu)\b/i,
  es: /[ñ¿¡]/,
  fr: /[çœèêëîïû]|\b(?:qu|l|d|j|n|c)['’]\p{L}/iu,
};

const foldWord = (word: string) => word.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '');
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

/**
 * Related-word groups per locale, analysed (each member a list of tokens), by the tokens their members hold.
 * Chinese groups serve both scripts.
 */
function relatedGroups(related: RelatedTerms): Map<Locale, Map<string, string[][][]>> {
  let groups = relatedGroupsOf.get(related);
  if (!groups) relatedGroupsOf.set(related, (groups = analyseRelated(related)));
  return groups;
}

/** By the content's related-terms object (one per parse of its file): every build of unchanged terms analysed them again. */
const relatedGroupsOf = new WeakMap<RelatedTerms, Map<Locale, Map<string, string[][][]>>>();

function analyseRelated(related: RelatedTerms): Map<Locale, Map<string, string[][][]>> {
  const lists = new Map<Locale, string[][][]>();
  for (const [locale, groups] of Object.entries(related) as Array<[Locale, ReadonlyArray<readonly string[]>]>) {
    const analysed = groups.map((group) => group.map((member) => analyse(member, locale, true)).filter((tokens) => tokens.length > 0)).filter((g) => g.length > 1);
    const targets: Locale[] = locale === 'zh' || locale === 'zh-hant' ? ['zh', 'zh-hant'] : [locale];
    for (const target of targets) lists.set(target, [...(lists.get(target) ?? []), ...analysed]);
  }
  const out = new Map<Locale, Map<string, string[][][]>>();
  for (const [locale, groups] of lists) {
    const byToken = new Map<string, string[][][]>();
    for (const group of groups) {
      for (const token of new Set(group.flat())) byToken.set(token, [...(byToken.get(token) ?? []), group]);
    }
    out.set(locale, byToken);
  }
  return out;
}

/**
 * Splits Markdown into passages of readable size, keeping paragraphs whole where possible: blocks the
 * text separates with a blank line (a list's items when they are spread out) gather into a passage until
 * it would pass `maxChars`, and a one-line heading always starts a new one. Passages keep their Markdown.
 */
export function splitPassages(markdown: string, maxChars = 600): string[] {
  return maxChars === 600 ? splitCached(markdown) : split(markdown, maxChars);
}

/** Split by text: a rebuild parses only the Markdown that changed. Shared arrays: do not change them. */
const splitCached = memoize((markdown: string) => split(markdown, 600), 50_000);

function split(markdown: string, maxChars: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const block of markdownBlocks(markdown)) {
    const isHeading = /^#{1,6}\s/.test(block) && !block.includes('\n');
    if (current && (isHeading || current.length + block.length + 2 > maxChars)) {
      out.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${block}` : block;
  }
  if (current) out.push(current);
  return out;
}

/** The source of each block the parser finds, blocks not separated by a blank line taken together. */
function markdownBlocks(markdown: string): string[] {
  const leaves: Array<{ start: number; end: number }> = [];
  // Lists are looked into, so that items (and paragraphs within them) set apart by blank lines are blocks
  // of their own; each container's first block starts where the container does (at its marker).
  const visit = (nodes: readonly RootContent[], start?: number) => {
    nodes.forEach((node, i) => {
      const from = i === 0 && start !== undefined ? start : node.position?.start.offset;
      if (node.type === 'list' || node.type === 'listItem') visit(node.children, from);
      else if (from !== undefined && node.position?.end.offset !== undefined) leaves.push({ start: from, end: node.position.end.offset });
    });
  };
  visit(parseMarkdown(markdown).children);
  const blocks: string[] = [];
  let group: { start: number; end: number } | undefined;
  for (const leaf of leaves) {
    if (group && !/\n[ \t\r]*\n/.test(markdown.slice(group.end, leaf.start))) group.end = leaf.end;
    else {
      if (group) blocks.push(markdown.slice(group.start, group.end).trim());
      group = { ...leaf };
    }
  }
  if (group) blocks.push(markdown.slice(group.start, group.end).trim());
  return blocks.filter(Boolean);
}
