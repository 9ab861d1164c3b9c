// Search latency in process: on the demo content's passages, and on synthetic corpora 10× and 100× larger
// (99k passages), our index (per-language analysis, related words, one passage per record, confidence)
// beside raw wink-bm25 on the same passages and the same tokens. Goals (issue 17): p95 ≤ 1.5× raw wink,
// and ≤ 5 ms at 100×. The "typos" rows ask questions holding a typo (each read through the lexicon's lookups,
// lexicon.ts), a word for the person or a word the content never uses: raw wink finds nothing for a typo, so its
// ratio there is the price of reading them.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import bm25 from 'wink-bm25-text-search';
import { readContentDir } from '../operations/repo/local-repo.server.ts';
import { loadContent } from '../operations/content/tree.ts';
import { searchPassages } from '../operations/corpus/corpus.ts';
import { createSearchIndex, type Passage } from '../operations/corpus/search.ts';
import { analyse } from '../operations/corpus/analyse.ts';
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
      locale: japanese ? ('ja' as const) : ('en' as const),
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

const demoQueries = [
  'hotel guest assistant',
  'Has she managed an engineering team and hired people?',
  'evaluation harness for retrieval',
  'A-t-elle travaillé dans la santé ?',
  '¿Tiene alguna certificación en protección de datos?',
  'Ĉu ŝi volontule tradukis programojn?',
  'ホテルのフロントで働いたことはありますか？',
  '她做过开发者关系吗？',
  '她有哪些專業證照？',
];
/** Questions with a typo, a word for the person, a word the content never uses: each typo is read through the lexicon. */
const demoVariantQueries = [
  'Has she spoken at conferwnces or appeared on podcasts?',
  'machne learning projects',
  'What has the candidate built with AI?',
  'Ĉu ŝi tradukis programojn al Espernato?',
  'A-t-elle travaillé dans la santé zyqvarn ?',
  '¿Tiene alguna certificacion en protecion de datos?',
];
const syntheticQueries = [
  'hotel guest assistant',
  'evaluation harness latency',
  'developer community meetup',
  'clinical notes privacy',
  'wallet onboarding',
  'ホテル',
];
const syntheticVariantQueries = ['evaluatoin harness latncy', 'develper comunity meetup', 'clinicl notes privcy', 'wallet onbaording zyqvarn'];

async function measure(label: string, passages: Passage[], queries: string[], related = {}) {
  const runs = passages.length > 50_000 ? 100 : 300;
  // Each is measured alone, before the other's index exists: a large heap left by one would charge its
  // garbage collection to the other.
  const ours = await createSearchIndex(passages, { related });
  for (const q of queries) time(() => ours.search(q, 10), 20);
  const oursTimes = queries.flatMap((q) => time(() => ours.search(q, 10), runs));
  // Raw wink-bm25 over the same passages (title and text) and the same tokens: the floor of a BM25 search.
  const raw = bm25();
  raw.defineConfig({ fldWeights: { title: 2, text: 1 } });
  raw.definePrepTasks([(s: string) => analyse(s, 'en')]);
  passages.forEach((p, i) => raw.addDoc({ title: p.title, text: p.text }, i));
  raw.consolidate(4);
  for (const q of queries) time(() => raw.search(q, 10), 20);
  const rawTimes = queries.flatMap((q) => time(() => raw.search(q, 10), runs));
  return {
    corpus: label,
    passages: passages.length,
    'vitae p50 ms': percentile(oursTimes, 50).toFixed(3),
    'vitae p95 ms': percentile(oursTimes, 95).toFixed(3),
    'raw wink p95 ms': percentile(rawTimes, 95).toFixed(3),
    ratio: ratio(percentile(oursTimes, 95), percentile(rawTimes, 95)),
  };
}

/** The rows of the table: a corpus (the demo content, or synthetic passages so many times its size) and the questions asked of it. */
const ROWS: ReadonlyArray<{ label: string; times: number; queries: string[] }> = [
  { label: 'demo content', times: 1, queries: demoQueries },
  { label: 'demo, typos', times: 1, queries: demoVariantQueries },
  { label: 'synthetic 10×', times: 10, queries: syntheticQueries },
  { label: 'synthetic 10×, typos', times: 10, queries: syntheticVariantQueries },
  { label: 'synthetic 100×', times: 100, queries: syntheticQueries },
  { label: 'synthetic 100×, typos', times: 100, queries: syntheticVariantQueries },
];

/** Measures row `i` of the table in this process. */
async function measureRow(i: number) {
  const { label, times, queries } = ROWS[i]!;
  const { model } = loadContent(await readContentDir(resolve(import.meta.dirname, '../content')));
  const demo = searchPassages(model!, 'http://bench');
  return times === 1 ? measure(label, demo, queries, model!.relatedTerms) : measure(label, generatePassages(demo.length * times), queries);
}

export async function benchSearch() {
  // Each row is measured in a process of its own: measured after the others in one process, a row's figures
  // depended on what the rows before it left (the JIT's choices, the heap), and the typo rows came out one of two
  // ways from run to run (10× p50 0.54 or 0.90 ms at one commit).
  const rows = [];
  for (let i = 0; i < ROWS.length; i++) {
    const label = ROWS[i]!.label;
    let stdout: string;
    try {
      ({ stdout } = await run(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
        env: { ...process.env, [ROW]: String(i) },
        maxBuffer: 1 << 20,
        timeout: ROW_TIMEOUT_MS,
      }));
    } catch (error) {
      const { killed, stderr } = error as { killed?: boolean; stderr?: string };
      throw new Error(`bench search: the row "${label}" ${killed ? `did not finish in ${ROW_TIMEOUT_MS / 1000} s` : 'failed'}${stderr ? `:\n${stderr}` : ''}`, {
        cause: error,
      });
    }
    const last = stdout.trim().split('\n').at(-1) ?? '';
    try {
      rows.push(JSON.parse(last) as Awaited<ReturnType<typeof measureRow>>);
    } catch {
      throw new Error(`bench search: the row "${label}" printed no figures (its last line: ${JSON.stringify(last.slice(0, 200))})`);
    }
  }
  printTable('Search latency in process, each row in a process of its own (goals: p95 ≤ 1.5× raw wink-bm25; ≤ 5 ms at 100×)', rows);
  return rows;
}

const ROW = 'VITAE_BENCH_SEARCH_ROW';
/** A row's process is stopped after this long (the 100× rows take about a minute on a loaded two-core machine). */
const ROW_TIMEOUT_MS = 10 * 60_000;
const run = promisify(execFile);
// (a row's process: this file run with the row's number)
if (process.env[ROW] !== undefined && process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = Number(process.env[ROW]);
  if (!Number.isInteger(i) || !ROWS[i]) throw new Error(`${ROW} must be a row's number, 0 to ${ROWS.length - 1}; it is ${JSON.stringify(process.env[ROW])}`);
  console.log(JSON.stringify(await measureRow(i)));
}
