// Search latency on a generated 10k-passage corpus: our index (tokeniser, dedupe, result shaping)
// vs raw wink-bm25 with a plain tokeniser on the same passages.
import bm25 from 'wink-bm25-text-search';
import { createSearchIndex, type Passage } from '../operations/build/search.ts';
import { percentile, printTable, ratio } from './lib.ts';

const words = (
  'hotel guest assistant retrieval evaluation harness latency cost language model team hiring integration api channel ' +
  'manager overbooking onboarding wallet developer community meetup translation esperanto clinical notes privacy summary ' +
  'consulting readiness framework strategy change stakeholders marketing growth seo photography zine kansai osaka lisbon ' +
  'berlin amsterdam rotterdam sdk quickstart support ticket knowledge base itil cloud infrastructure python typescript sql'
).split(' ');
const ja = 'ホテル ゲスト 評価 検索 翻訳 開発者 コミュニティ 採用 統合 臨床 要約 戦略 写真 リスボン 大阪'.split(' ');

function rng(seed: number) {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * Passages whose words follow Zipf's law over a 20k-word vocabulary, as natural text does; the domain
 * words sit at mid ranks (common, not ubiquitous), and one passage in seven is Japanese.
 */
export function generatePassages(n: number): Passage[] {
  const random = rng(42);
  const syllables = 'ka ri to mu ne sa lo vi de pa zu en or al is ta me ko ru'.split(' ');
  const vocabulary = Array.from({ length: 20_000 }, (_, rank) => {
    let w = '';
    for (let x = rank + 7; x > 0; x = Math.floor(x / syllables.length)) w += syllables[x % syllables.length];
    return w;
  });
  words.forEach((word, i) => (vocabulary[150 + i * 7] = word));
  const weights = vocabulary.map((_, rank) => 1 / Math.pow(rank + 1, 1.07));
  const cumulative: number[] = [];
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
  const total = cumulative[cumulative.length - 1]!;
  const zipfWord = () => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const japanese = i % 7 === 0;
    const length = 40 + Math.floor(random() * 60);
    const text = Array.from({ length }, () => (japanese ? pick(ja) : zipfWord())).join(japanese ? '' : ' ');
    return {
      locale: japanese ? 'ja' : 'en',
      slug: `entry-${i % 2000}`,
      kind: 'entry' as const,
      title: `${zipfWord()} ${zipfWord()}`,
      text,
      url: `http://x/entries/${i}`,
    };
  });
}

function time(fn: () => void, runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

export async function benchSearch() {
  const passages = generatePassages(10_000);
  const ours = await createSearchIndex(passages);
  const raw = bm25();
  raw.defineConfig({ fldWeights: { title: 2, text: 1 } });
  raw.definePrepTasks([
    (s: string) =>
      s
        .toLowerCase()
        .split(/[^a-z0-9\u3040-\u30ff\u4e00-\u9fff]+/)
        .filter(Boolean),
  ]);
  passages.forEach((p, i) => raw.addDoc({ title: p.title, text: p.text }, i));
  raw.consolidate(4);
  const queries = [
    'hotel guest assistant',
    'evaluation harness latency',
    'developer community meetup',
    'clinical notes privacy',
    'wallet onboarding',
    'ホテル',
  ];
  const runs = 300;
  // warm up
  for (const q of queries) {
    time(() => ours.search(q, 10), 20);
    time(() => raw.search(q, 10), 20);
  }
  const oursTimes = queries.flatMap((q) => time(() => ours.search(q, 10), runs));
  const rawTimes = queries.flatMap((q) => time(() => raw.search(q, 10), runs));
  const row = {
    passages: passages.length,
    'vitae p50 ms': percentile(oursTimes, 50).toFixed(3),
    'vitae p95 ms': percentile(oursTimes, 95).toFixed(3),
    'raw wink p95 ms': percentile(rawTimes, 95).toFixed(3),
    ratio: ratio(percentile(oursTimes, 95), percentile(rawTimes, 95)),
  };
  printTable('Search latency, 10k passages (goal: p95 ≤ 2 ms, ≤ 1.5× raw wink-bm25)', [row]);
  return row;
}
