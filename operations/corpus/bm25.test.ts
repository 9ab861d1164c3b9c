// Our BM25F against wink-bm25-text-search, the library it replaced (kept as a dev dependency for this
// check and the search benchmark): the same documents and tokens give the same ranking and scores.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import bm25 from 'wink-bm25-text-search';
import { readContentDir } from '../repo/local-repo.server.ts';
import { loadContent } from '../content/tree.ts';
import { localeRecords } from './corpus.ts';
import { createBm25, topK } from './bm25.ts';
import { splitPassages } from './passages.ts';
import { analyse } from './analyse.ts';

const english = (text: string) => analyse(text, 'en');
import { locales } from '../contract/shared.ts';

const { model } = loadContent(await readContentDir(resolve('content')));
// Every entry's and document's text in every locale, as the build indexes it (title and passage).
const documents = locales.flatMap((locale) => {
  const view = localeRecords(model!, locale, 'http://site');
  return [
    ...view.entries.flatMap((e) => [e.summary, ...splitPassages(e.overview), e.contributions.join(' ')].map((text) => ({ title: e.title, text }))),
    ...[...view.documents.values()].flatMap((d) => splitPassages(d.markdown).map((text) => ({ title: d.title, text }))),
  ];
});

const queries = [
  'hotel guest assistant',
  'evaluation harness retrieval',
  'AI',
  'team hiring engineers',
  'ホテル',
  '临床笔记摘要',
  'traduction bénévole',
  'hotela gasto',
  'zzzxxqq',
];

describe('BM25F', () => {
  it(`ranks ${documents.length} passages as wink-bm25-text-search does, score for score`, async () => {
    const ours = await createBm25(documents, english, { fieldWeights: { title: 2, text: 1 }, k1: 1.2, b: 0.75, k: 1 });
    const wink = bm25();
    wink.defineConfig({ fldWeights: { title: 2, text: 1 }, bm25Params: { k1: 1.2, b: 0.75, k: 1 } });
    wink.definePrepTasks([english]);
    documents.forEach((d, i) => wink.addDoc(d, i));
    wink.consolidate(4);
    for (const query of queries) {
      const expected = wink.search(query, 30).map(([id, score]) => [Number(id), score]);
      const actual = ours.search(english(query), 30);
      assert.equal(actual.length, expected.length, query);
      actual.forEach(([id, score], i) => {
        assert.ok(Math.abs(score - expected[i]![1]!) < 1e-9, `${query} #${i}: ${score} vs ${expected[i]![1]}`);
        // Equal scores may come in either order; different ones must not.
        if (id !== expected[i]![0]) assert.equal(score, expected[i]![1], `${query} #${i}`);
      });
    }
  });

  it('yields while it builds when given a pause', async () => {
    let pauses = 0;
    await createBm25(documents.slice(0, 50), english, { fieldWeights: { title: 2, text: 1 } }, () => void pauses++);
    assert.ok(pauses >= 50);
  });

  it('selects the top k as a full sort would, ties in ascending id', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    for (const [n, k] of [
      [0, 5],
      [1, 5],
      [50, 10],
      [1000, 10],
      [1000, 1000],
      [300, 1],
    ] as const) {
      // few distinct scores, so that ties are many
      const score = Float64Array.from({ length: n }, () => Math.floor(random() * 20) / 4);
      const ids = Int32Array.from({ length: n }, (_, i) => n - 1 - i);
      const sorted = [...ids].sort((a, b) => score[b]! - score[a]! || a - b).slice(0, k);
      assert.deepEqual(topK(ids, n, score, k), sorted, `n=${n} k=${k}`);
    }
  });
});
