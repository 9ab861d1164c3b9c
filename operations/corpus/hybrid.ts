// Hybrid search (EMBEDDING_MODEL): the BM25 ranking and the embeddings ranking of the same passages, fused by
// reciprocal rank fusion per record. BM25 keeps its word for what is a match (its confidence); the vectors add
// records whose words differ from the question's but whose meaning is close (a cosine of at least
// `minSimilarity`), and reorder the rest. When the model cannot be reached, search answers with BM25 alone.
import type { Locale } from '../contract/shared.ts';
import { LruMap } from '../content/lru-map.ts';
import { scriptOf } from './analyse.ts';
import { normalise, reciprocalRankFusion, type EmbedTexts, type VectorIndex } from './embeddings.ts';
import { CONFIDENT, type Passage, type SearchHit, type SearchIndex, type SearchOptions } from './search.ts';

/**
 * A passage this close to the question (cosine of normalised vectors) is a match by meaning alone, unless the
 * service says otherwise (EMBEDDING_MIN_SIMILARITY): cosines of related texts differ from one model to another.
 */
export const MIN_SIMILARITY = 0.6;
/** How many nearest passages, and how many BM25 records, are fused. */
const DEPTH = 50;
/** Questions embedded lately (in memory only: visitors' questions are never written to disk). */
const QUERY_CACHE = 500;

export interface HybridSearch {
  search(query: string, limit: number, options?: SearchOptions & { signal?: AbortSignal }): Promise<SearchHit[]>;
  /** Calls to the model that failed since the build went live (search fell back to BM25 alone for them). */
  readonly failures: number;
}

const keyOf = (hit: { kind: string; slug: string }) => `${hit.kind}:${hit.slug}`;
/** The locales whose passages a query in a script may be shown, when it comes without a locale. */
const BY_SCRIPT: Record<ReturnType<typeof scriptOf>, readonly Locale[]> = { kana: ['ja'], han: ['zh', 'zh-hant', 'ja'], latin: ['en', 'fr', 'es', 'eo'] };

export function createHybridSearch({
  bm25,
  passages,
  vectors,
  embedQuery,
  onFailure,
  minSimilarity = MIN_SIMILARITY,
}: {
  bm25: SearchIndex;
  passages: readonly Passage[];
  vectors: VectorIndex;
  embedQuery: EmbedTexts;
  onFailure?: (error: unknown) => void;
  minSimilarity?: number;
}): HybridSearch {
  const queries = new LruMap<string, Float32Array>(QUERY_CACHE);
  let failures = 0;

  async function vectorOf(query: string, signal?: AbortSignal): Promise<Float32Array | undefined> {
    const known = queries.get(query); // a question asked again becomes the last to be dropped
    if (known) return known;
    if (vectors.size === 0) return undefined; // nothing to compare with
    try {
      const [vector] = await embedQuery([query], signal);
      if (!vector) return undefined;
      const normalised = normalise(vector);
      // A vector the passages' cannot be compared with (the model changed behind its name) finds nothing: a failure.
      if (normalised.length !== vectors.dims)
        throw new Error(`the embeddings model answered ${normalised.length} dimensions for the question, ${vectors.dims} for the passages`);
      queries.set(query, normalised);
      return normalised;
    } catch (error) {
      if (signal?.aborted) throw error;
      failures++;
      onFailure?.(error);
      return undefined;
    }
  }

  return {
    get failures() {
      return failures;
    },
    async search(query, limit, options = {}) {
      const { signal, ...searchOptions } = options;
      const vector = await vectorOf(query, signal);
      if (!vector) return bm25.search(query, limit, searchOptions);

      const lexical = bm25.search(query, Math.max(DEPTH, limit), { ...searchOptions, unsure: true });
      const byKey = new Map(lexical.map((hit) => [keyOf(hit), hit]));
      // The nearest passages, one per record (its closest), in the query's language or English: the language given,
      // else those of the query's script (a multilingual model may put a translation nearest).
      const shown = new Set<Locale>(searchOptions.locale ? [searchOptions.locale, 'en'] : [...BY_SCRIPT[scriptOf(query)], 'en']);
      const nearest = new Map<string, { passage: Passage; cosine: number }>();
      for (const [index, cosine] of vectors.nearest(vector, DEPTH * 2)) {
        const passage = passages[index]!;
        if (!shown.has(passage.locale)) continue;
        const key = keyOf(passage);
        if (!nearest.has(key)) nearest.set(key, { passage, cosine });
      }
      const fused = reciprocalRankFusion([lexical.map(keyOf), [...nearest.keys()].slice(0, DEPTH)]);

      const results: SearchHit[] = [];
      for (const { id, score } of fused) {
        const hit = byKey.get(id);
        const near = nearest.get(id);
        const cosine = Math.min(1, near?.cosine ?? 0); // float rounding can put a perfect match a hair above 1
        const byMeaning = cosine >= minSimilarity;
        const confident = (hit !== undefined && hit.confidence > CONFIDENT) || byMeaning; // above, as BM25 alone (search.ts)
        if (!confident && !searchOptions.unsure) continue;
        if (hit) results.push({ ...hit, score, confidence: Math.max(hit.confidence, byMeaning ? cosine : 0) });
        else if (near) {
          const { passage } = near;
          results.push({ slug: passage.slug, kind: passage.kind, title: passage.title, url: passage.url, passage: passage.text, score, confidence: cosine });
        }
        if (results.length === limit) break;
      }
      return results;
    },
  };
}
