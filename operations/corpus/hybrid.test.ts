// Hybrid search's fusion on its own (issue 17 item 5): what it counts as a match agrees with BM25's threshold,
// and a query vector that cannot be compared with the passages' is a failure of the model, not a silent miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalise, VectorIndex } from './embeddings.ts';
import { createHybridSearch } from './hybrid.ts';
import { CONFIDENT, type Passage, type SearchHit, type SearchIndex } from './search.ts';

const passages: Passage[] = ['one', 'two'].map((slug) => ({
  locale: 'en',
  slug,
  kind: 'entry',
  title: slug,
  text: `text of ${slug}`,
  url: `http://x/${slug}`,
}));
const hit = (slug: string, confidence: number): SearchHit => ({
  slug,
  kind: 'entry',
  title: slug,
  passage: `text of ${slug}`,
  url: `http://x/${slug}`,
  score: 1,
  confidence,
});

/** A BM25 index that answers `hits` when unsure results are asked for, and the confident ones (above CONFIDENT) otherwise. */
function lexical(hits: SearchHit[]): SearchIndex {
  return { size: passages.length, search: (_query, limit, options = {}) => hits.filter((h) => options.unsure || h.confidence > CONFIDENT).slice(0, limit) };
}
// Passages far from the query [0, 0, 1]: only BM25 can make them a match.
const vectors = new VectorIndex([normalise([1, 0, 0]), normalise([0, 1, 0])]);

describe('hybrid search', () => {
  it('is no more lenient than BM25: a record holding exactly half the question is not a match', async () => {
    const bm25 = lexical([hit('one', CONFIDENT), hit('two', 0.8)]);
    const hybrid = createHybridSearch({ bm25, passages, vectors, embedQuery: async () => [[0, 0, 1]] });
    assert.deepEqual(
      bm25.search('q', 5).map((h) => h.slug),
      ['two'],
    );
    assert.deepEqual(
      (await hybrid.search('q', 5)).map((h) => h.slug),
      ['two'],
    );
  });

  it('counts a query vector of another dimension than the passages’ as a failure, and answers with BM25 alone', async () => {
    const failures: unknown[] = [];
    const bm25 = lexical([hit('two', 0.8)]);
    let calls = 0;
    const hybrid = createHybridSearch({
      bm25,
      passages,
      vectors,
      embedQuery: async () => (calls++, [[0, 0, 0, 1]]),
      onFailure: (error) => failures.push(error),
    });
    assert.deepEqual(await hybrid.search('q', 5), bm25.search('q', 5));
    assert.equal(hybrid.failures, 1, 'an answer made without the vectors is not kept (keepable)');
    assert.match(String(failures[0]), /4 dimensions.*3/);
    await hybrid.search('q', 5);
    assert.equal(calls, 2, 'the unusable vector is not remembered for the question');
  });

  it('takes a passage for a match by meaning from the similarity it is given (EMBEDDING_MIN_SIMILARITY)', async () => {
    // No BM25 match; passage one lies at a cosine of 0.8 from the query.
    const near = new VectorIndex([normalise([0.8, 0.6, 0]), normalise([0, 1, 0])]);
    const found = async (minSimilarity?: number) =>
      (
        await createHybridSearch({
          bm25: lexical([]),
          passages,
          vectors: near,
          embedQuery: async () => [[1, 0, 0]],
          ...(minSimilarity === undefined ? {} : { minSimilarity }),
        }).search('q', 5)
      ).map((h) => h.slug);
    assert.deepEqual(await found(), ['one'], 'at the default, 0.6');
    assert.deepEqual(await found(0.85), []);
    assert.deepEqual(await found(0.5), ['one']);
  });

  it('searches an empty corpus without failing', async () => {
    const hybrid = createHybridSearch({ bm25: lexical([]), passages: [], vectors: new VectorIndex([]), embedQuery: async () => [[0, 0, 1]] });
    assert.deepEqual(await hybrid.search('q', 5), []);
    assert.equal(hybrid.failures, 0);
  });

  it('without a locale, shows a record found by meaning in a passage of the question’s script, not the nearest translation', async () => {
    const translated: Passage[] = [
      { locale: 'ja', slug: 'one', kind: 'entry', title: 'ワン', text: '日本語の本文', url: 'http://x/ja/one' },
      { locale: 'en', slug: 'one', kind: 'entry', title: 'One', text: 'English text', url: 'http://x/one' },
    ];
    // A multilingual model: the Japanese translation happens to lie nearest the English question.
    const near = new VectorIndex([normalise([1, 0.1, 0]), normalise([1, 0.3, 0])]);
    const hybrid = createHybridSearch({ bm25: lexical([]), passages: translated, vectors: near, embedQuery: async () => [[1, 0, 0]] });
    const [found] = await hybrid.search('the first one', 5);
    assert.equal(found?.url, 'http://x/one');
    const [inJapanese] = await hybrid.search('最初のもの', 5);
    assert.equal(inJapanese?.url, 'http://x/ja/one');
  });
});
