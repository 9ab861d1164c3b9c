// `npm run eval:libraries`: the measurement issue 33's typo tolerance asked for before it is written by hand. Two
// well-kept libraries (Orama 3, MiniSearch 7) with their own typo tolerance, beside the current BM25F index
// (operations/corpus/search.ts), on the same passages of the demo content and the development questions
// (eval/questions.json): as written, with one typo and with one made-up word (eval/variants.ts). Prints per
// engine recall@5, MRR@10 and no-answer accuracy, and p50/p95 query latency at 1× and 10× the content.
//
// What the libraries are given, so that the comparison is about ranking and typo tolerance:
// - the same passages, fields and field weights (title 3, meta 2, text 1: FIELD_WEIGHTS), one index per locale;
// - the same routing of a question as the current engine (the question's locale, the other Han locales at 0.85 for
//   a Han question, the English text at 0.7 with the locale's stop words taken out), and the best passage per
//   record (`kind:slug`), top 10;
// - the same related words (content/search/), appended to the query when one of a group's members is in it
//   (MiniSearch weighs them 0.5 as the current engine does; Orama has no per-term weight). `--no-related` leaves
//   them out.
// Libraries have no confidence: each is also shown behind the absolute top-score threshold that gives its best
// recall@5 + no-answer accuracy on the development questions as written (tuned on them, so optimistic), applied
// unchanged to the variants. A measurement: it exits 0 whatever the figures.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { create, insertMultiple, search as oramaSearch, type AnyOrama, type Tokenizer } from '@orama/orama';
import MiniSearch from 'minisearch';
import { stemmer as englishStem } from '@orama/stemmers/english';
import { stemmer as frenchStem } from '@orama/stemmers/french';
import { stemmer as spanishStem } from '@orama/stemmers/spanish';
import { readContentDir } from '../operations/repo/local-repo.server.ts';
import { loadContent, formatProblem } from '../operations/content/tree.ts';
import { createBuild } from '../operations/corpus/corpus.ts';
import { createSearchIndex, FIELD_WEIGHTS, type Passage, type RelatedTerms } from '../operations/corpus/search.ts';
import { analyse, scriptOf, stopWords } from '../operations/corpus/analyse.ts';
import type { Locale } from '../operations/contract/shared.ts';
import { generatePassages } from '../bench/search.bench.ts';
import { percentile } from '../bench/lib.ts';
import { recallAt, summarise, type Outcome } from './metrics.ts';
import { typoVariant, unknownWordVariant } from './variants.ts';

const DEPTH = 10;
/** Passages a library is asked for per locale index, before they are grouped into records. */
const PASSAGES_PER_PART = 100;
const CJK_LOCALES: readonly Locale[] = ['zh', 'zh-hant', 'ja'];
const isCjkLocale = (locale: Locale) => CJK_LOCALES.includes(locale);
/** The current engine's weights of the other locales a question is matched in (search.ts). */
const ENGLISH_WEIGHT = 0.7;
const HAN_WEIGHT = 0.85;
const RELATED_WEIGHT = 0.5;
const withRelated = !process.argv.includes('--no-related');
const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

interface Question {
  locale: Locale;
  question: string;
  expected: string[];
  noAnswer: boolean;
}
interface Hit {
  ref: string;
  score: number;
}
interface Engine {
  name: string;
  tokenisation: string;
  typos: string;
  /** Whether it gates its own results (a confidence threshold): no score threshold is tuned for it. */
  gated: boolean;
  search(query: string, locale: Locale): Hit[];
}
type Factory = (passages: readonly Passage[]) => Promise<Engine>;

// ── content and questions ───────────────────────────────────────────────────────────────────────────────────
const questions = JSON.parse(readFileSync(resolve(import.meta.dirname, 'questions.json'), 'utf8')) as Question[];
const { model, problems } = loadContent(await readContentDir(resolve(import.meta.dirname, '../content')));
if (!model) {
  console.error(`eval:libraries: the content does not load:\n${problems.map(formatProblem).join('\n')}`);
  process.exit(1);
}
const build = await createBuild(model, { commit: 'eval', siteUrl: 'http://eval.invalid', keepPassages: true });
const passages = build.passages!;
const related: RelatedTerms = model.relatedTerms;

// ── what every library engine shares: routing, related words, records ─────────────────────────────────────
interface Part {
  locale: Locale;
  weight: number;
  text: string;
}
/** The locales' text a question is matched in, as the current engine's `plan` does when the locale is given. */
function plan(query: string, locale: Locale): Part[] {
  const parts: Part[] = [{ locale, weight: 1, text: query }];
  if (isCjkLocale(locale) && scriptOf(query) === 'han')
    for (const other of CJK_LOCALES) if (other !== locale) parts.push({ locale: other, weight: HAN_WEIGHT, text: query });
  if (locale !== 'en') {
    const own = (stopWords as Record<string, ReadonlySet<string>>)[locale];
    const fold = (w: string) =>
      w
        .toLowerCase()
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '');
    const text = own ? query.replace(/[\p{L}\p{M}'’-]+/gu, (w) => (own.has(fold(w)) ? ' ' : w)) : query;
    parts.push({ locale: 'en', weight: ENGLISH_WEIGHT, text });
  }
  return parts;
}

type Member = { text: string; tokens: string[] };
/** Related-word groups per locale, by the tokens their members hold; each member as its text and its query tokens (Chinese groups serve both scripts). */
const relatedGroups = new Map<Locale, Map<string, Member[][]>>();
for (const [locale, groups] of Object.entries(related) as Array<[Locale, ReadonlyArray<readonly string[]>]>) {
  for (const target of locale === 'zh' || locale === 'zh-hant' ? (['zh', 'zh-hant'] as Locale[]) : [locale]) {
    const byToken = relatedGroups.get(target) ?? new Map<string, Member[][]>();
    for (const group of groups) {
      const members = group.map((text) => ({ text, tokens: analyse(text, target, true) })).filter((m) => m.tokens.length);
      for (const token of new Set(members.flatMap((m) => m.tokens))) byToken.set(token, [...(byToken.get(token) ?? []), members]);
    }
    relatedGroups.set(target, byToken);
  }
}
/** The related words a query brings in a locale: the other members of each group one of whose members it holds. */
function relatedOf(tokens: readonly string[], locale: Locale): Member[] {
  if (!withRelated) return [];
  const held = new Set(tokens);
  const groups = new Set(tokens.flatMap((t) => relatedGroups.get(locale)?.get(t) ?? []));
  const out: Member[] = [];
  for (const group of groups) {
    if (!group.some((m) => m.tokens.every((t) => held.has(t)))) continue;
    for (const m of group) if (!m.tokens.every((t) => held.has(t)) && !out.includes(m)) out.push(m);
  }
  return out;
}

/** Each record's best passage score, best first, top DEPTH. */
function records(scored: Iterable<[number, number]>, from: readonly Passage[]): Hit[] {
  const best = new Map<string, number>();
  for (const [passage, score] of scored) {
    const p = from[passage]!;
    const ref = `${p.kind}:${p.slug}`;
    if (score > (best.get(ref) ?? -Infinity)) best.set(ref, score);
  }
  return [...best]
    .map(([ref, score]) => ({ ref, score }))
    .sort((a, b) => b.score - a.score || (a.ref < b.ref ? -1 : 1))
    .slice(0, DEPTH);
}

function byLocale(from: readonly Passage[]): Map<Locale, number[]> {
  const out = new Map<Locale, number[]>();
  from.forEach((p, i) => {
    const list = out.get(p.locale) ?? [];
    list.push(i);
    out.set(p.locale, list);
  });
  return out;
}

/** The rule (one edit for 5+ letters, two for 9+, none on CJK), applied to the analysed token. */
const editsFor = (token: string) => (HAN_OR_KANA.test(token) ? 0 : token.length >= 9 ? 2 : token.length >= 5 ? 1 : 0);

// ── (a) the current engine ────────────────────────────────────────────────────────────────────────────────
const current: Factory = async (from) => {
  const index = from === passages ? build.search : await createSearchIndex(from, { related });
  return {
    name: 'vitae BM25F',
    tokenisation: 'analyse.ts in every locale',
    typos: 'whatever operations/corpus/search.ts does in this tree',
    gated: true,
    search: (query, locale) => index.search(query, DEPTH, { locale }).map((h) => ({ ref: `${h.kind}:${h.slug}`, score: h.score })),
  };
};

// ── (b) Orama 3 ───────────────────────────────────────────────────────────────────────────────────────────
interface OramaDoc {
  id: string;
  title: string;
  meta: string;
  text: string;
}
const ORAMA_SCHEMA = { title: 'string', meta: 'string', text: 'string' } as const;
/** Orama's own tokeniser where it has a stemmer for the language (@orama/stemmers); the project's stop words. */
const ORAMA_LANGUAGES: Partial<Record<Locale, { language: string; stemmer: (w: string) => string }>> = {
  en: { language: 'english', stemmer: englishStem },
  fr: { language: 'french', stemmer: frenchStem },
  es: { language: 'spanish', stemmer: spanishStem },
};

/**
 * A tokeniser for Orama made of analyse.ts: a text's distinct tokens (Orama's own tokeniser keeps a token once per
 * field, and counts a document once per token it is given); a query arrives already analysed, tokens joined by spaces.
 */
function analyseTokenizer(locale: Locale): Tokenizer {
  return {
    language: 'english',
    normalizationCache: new Map(),
    tokenize: (raw: string, _language?: string, prop?: string) => (prop === undefined ? raw.split(' ').filter(Boolean) : [...new Set(analyse(raw, locale))]),
  };
}

function oramaFactory(native: boolean): Factory {
  return async (from) => {
    const indexes = new Map<Locale, { db: AnyOrama; ids: number[]; own: boolean }>();
    for (const [locale, ids] of byLocale(from)) {
      const own = native ? ORAMA_LANGUAGES[locale] : undefined;
      const tokenizer = own
        ? { language: own.language, stemming: true, stemmer: own.stemmer, stopWords: [...stopWords[locale as 'en' | 'fr' | 'es']] }
        : analyseTokenizer(locale);
      const db = create({ schema: ORAMA_SCHEMA, components: { tokenizer } }) as AnyOrama;
      const docs: OramaDoc[] = ids.map((i) => ({ id: String(i), title: from[i]!.title, meta: from[i]!.meta ?? '', text: from[i]!.text }));
      await insertMultiple(db, docs, 1000);
      indexes.set(locale, { db, ids, own: Boolean(own) });
    }
    return {
      name: native ? 'Orama 3 (own tokeniser)' : 'Orama 3 (analyse.ts)',
      tokenisation: native
        ? "Orama's tokeniser + @orama/stemmers for en/fr/es (project stop words), analyse.ts for eo/zh/zh-hant/ja"
        : 'analyse.ts in every locale (as a custom Orama tokenizer)',
      typos: 'tolerance: 1 on Latin indexes, 0 on CJK ones (one number per search; every term is also a prefix; fuzzy and prefix matches score as exact ones)',
      gated: false,
      search(query, locale) {
        const scored: Array<[number, number]> = [];
        for (const part of plan(query, locale)) {
          const index = indexes.get(part.locale);
          if (!index) continue;
          const tokens = analyse(part.text, part.locale, true);
          const extra = relatedOf(tokens, part.locale);
          const term = index.own ? [part.text, ...extra.map((m) => m.text)].join(' ') : [...tokens, ...extra.flatMap((m) => m.tokens)].join(' ');
          if (!term.trim()) continue;
          const results = oramaSearch(index.db, {
            term,
            properties: ['title', 'meta', 'text'],
            boost: FIELD_WEIGHTS,
            tolerance: isCjkLocale(part.locale) ? 0 : 1,
            threshold: 1,
            limit: PASSAGES_PER_PART,
          });
          if (results instanceof Promise) throw new Error('Orama searched asynchronously');
          for (const hit of results.hits) scored.push([Number(hit.id), hit.score * part.weight]);
        }
        return records(scored, from);
      },
    };
  };
}

// ── (c) MiniSearch 7 ──────────────────────────────────────────────────────────────────────────────────────
interface MiniDoc {
  id: number;
  title: string;
  meta: string;
  text: string;
}
const miniSearch: Factory = async (from) => {
  const indexes = new Map<Locale, MiniSearch<MiniDoc>>();
  for (const [locale, ids] of byLocale(from)) {
    const index = new MiniSearch<MiniDoc>({
      fields: ['title', 'meta', 'text'],
      tokenize: (text) => analyse(text, locale),
      processTerm: (term) => term,
    });
    index.addAll(ids.map((i) => ({ id: i, title: from[i]!.title, meta: from[i]!.meta ?? '', text: from[i]!.text })));
    indexes.set(locale, index);
  }
  return {
    name: 'MiniSearch 7',
    tokenisation: 'analyse.ts in every locale (tokenize; processTerm the identity)',
    typos:
      "fuzzy: the issue's 1 edit at 5+ letters, 2 at 9+, none on CJK (on the analysed token), prefix: the last token; weights fuzzy 0.45, prefix 0.375 of exact",
    gated: false,
    search(query, locale) {
      const scored: Array<[number, number]> = [];
      for (const part of plan(query, locale)) {
        const index = indexes.get(part.locale);
        if (!index) continue;
        const own = analyse(part.text, part.locale, true);
        if (!own.length) continue;
        const extra = [...new Set(relatedOf(own, part.locale).flatMap((m) => m.tokens))].filter((t) => !own.includes(t));
        const results = index.search([...own, ...extra].join(' '), {
          tokenize: (q) => q.split(' '),
          processTerm: (term) => term,
          boost: FIELD_WEIGHTS,
          boostTerm: (_term, i) => (i < own.length ? 1 : RELATED_WEIGHT),
          fuzzy: (term, i) => (i < own.length && editsFor(term) > 0 ? editsFor(term) : false),
          prefix: (_term, i) => i === own.length - 1,
          combineWith: 'OR',
        });
        for (const r of results.slice(0, PASSAGES_PER_PART)) scored.push([r.id as number, r.score * part.weight]);
      }
      return records(scored, from);
    },
  };
};

const factories: Factory[] = [current, oramaFactory(true), oramaFactory(false), miniSearch];

// ── quality ───────────────────────────────────────────────────────────────────────────────────────────────
interface Asked extends Outcome {
  question: Question;
  hits: Hit[];
}
const sets: Array<{ name: string; vary: (q: Question) => string | undefined }> = [
  { name: 'as written', vary: (q) => q.question },
  { name: 'one typo', vary: (q) => typoVariant(q.question) },
  { name: 'unknown word', vary: (q) => unknownWordVariant(q.question, q.locale) },
];
function ask(engine: Engine, vary: (q: Question) => string | undefined): Asked[] {
  return questions.flatMap((question) => {
    const asked = vary(question);
    if (asked === undefined) return [];
    const hits = engine.search(asked, question.locale);
    return [{ question, hits, ranked: hits.map((h) => h.ref), expected: question.expected, noAnswer: question.noAnswer }];
  });
}
/** The outcomes behind an absolute threshold on the top record's score (nothing when the best record scores below it). */
const gate = (asked: readonly Asked[], threshold: number): Asked[] =>
  asked.map((a) => ({ ...a, ranked: (a.hits[0]?.score ?? 0) >= threshold ? a.ranked : [] }));
/** Share of answerable questions that got nothing. */
function declined(asked: readonly Asked[]): number | null {
  const answerable = asked.filter((a) => !a.noAnswer);
  return answerable.length ? answerable.filter((a) => a.ranked.length === 0).length / answerable.length : null;
}
/** The threshold with the best recall@5 + no-answer accuracy (the lowest such one). */
function bestThreshold(asked: readonly Asked[]): number {
  const candidates = [0, ...new Set(asked.map((a) => a.hits[0]?.score ?? 0))].sort((a, b) => a - b);
  let best = { threshold: 0, value: -1 };
  for (const threshold of candidates) {
    const s = summarise(gate(asked, threshold));
    const value = (s.recallAt5 ?? 0) + (s.noAnswerAccuracy ?? 0);
    if (value > best.value + 1e-9) best = { threshold, value };
  }
  return best.threshold;
}

// ── latency ───────────────────────────────────────────────────────────────────────────────────────────────
const timedQueries = [sets[0]!, sets[1]!].flatMap((set) =>
  questions.flatMap((q) => {
    const asked = set.vary(q);
    return asked === undefined ? [] : [{ asked, locale: q.locale }];
  }),
);
/**
 * p50 and p95 of each engine's query time. The engines are timed in turns, a round of every query each, so that
 * whatever else the machine is doing weighs on all of them alike; three rounds each first, to warm up.
 */
function latency(engines: readonly Engine[], rounds: number): Array<{ p50: number; p95: number }> {
  for (const engine of engines) for (let i = 0; i < 3; i++) for (const { asked, locale } of timedQueries) engine.search(asked, locale);
  const times = engines.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    engines.forEach((engine, e) => {
      for (const { asked, locale } of timedQueries) {
        const t = process.hrtime.bigint();
        engine.search(asked, locale);
        times[e]!.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    });
  }
  return times.map((list) => ({ p50: percentile(list, 50), p95: percentile(list, 95) }));
}

/** 10× the content, as bench/search.bench.ts makes it: the demo passages and 9× as many synthetic ones (Zipf text, en and ja). */
const tenfold = [...passages, ...generatePassages(passages.length * 9)];
/** 10× the content as copies: the demo passages ten times, each copy a record of its own (the vocabulary does not grow). */
const copies = Array.from({ length: 10 }, (_, k) => passages.map((p) => (k === 0 ? p : { ...p, slug: `${p.slug}-copy-${k}` }))).flat();

// ── run ───────────────────────────────────────────────────────────────────────────────────────────────────
const f2 = (v: number | null) => (v === null ? '—' : v.toFixed(2));
const ms = (v: number) => v.toFixed(3);
const quality: string[][] = [];
const engines: Engine[] = [];
for (const factory of factories) {
  const engine = await factory(passages);
  engines.push(engine);
  const results = sets.map((set) => ({ set, asked: ask(engine, set.vary) }));
  const threshold = engine.gated ? undefined : bestThreshold(results[0]!.asked);
  const base = results[0]!.asked;
  for (const { set, asked } of results) {
    const raw = summarise(asked);
    const same = new Set(asked.map((a) => a.question));
    const delta = set.name === 'as written' ? null : recallAt(asked)! - recallAt(base.filter((a) => same.has(a.question)))!;
    const gated = threshold === undefined ? raw : summarise(gate(asked, threshold));
    quality.push([
      set.name === 'as written' ? engine.name : '',
      set.name,
      String(asked.length),
      f2(raw.recallAt5),
      f2(raw.mrr),
      f2(raw.noAnswerAccuracy),
      delta === null ? '' : `${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(2)}`,
      threshold === undefined ? '(own gate)' : threshold.toFixed(2),
      f2(gated.recallAt5),
      f2(gated.mrr),
      f2(gated.noAnswerAccuracy),
      f2(declined(threshold === undefined ? asked : gate(asked, threshold))),
    ]);
  }
}
const one = latency(engines, 20);
engines.length = 0;
const bigEngines: Engine[] = [];
for (const factory of factories) bigEngines.push(await factory(tenfold));
const big = latency(bigEngines, 5);
const bigQuality = bigEngines.map((engine) => summarise(ask(engine, sets[0]!.vary)));
bigEngines.length = 0;
const copyEngines: Engine[] = [];
for (const factory of factories) copyEngines.push(await factory(copies));
const copied = latency(copyEngines, 5);
const speed = copyEngines.map((engine, e) => [
  engine.name,
  '',
  ms(one[e]!.p50),
  ms(one[e]!.p95),
  ms(big[e]!.p50),
  ms(big[e]!.p95),
  ms(copied[e]!.p95),
  `${f2(bigQuality[e]!.recallAt5)} / ${f2(bigQuality[e]!.mrr)}`,
]);
const notes = copyEngines.map((engine) => `- ${engine.name}: tokens: ${engine.tokenisation}; typos: ${engine.typos}`);

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

console.log(
  `libraries beside the current search: ${questions.length} development questions (eval/questions.json), ${passages.length} passages of content/${withRelated ? '' : ', libraries without related words'}\n`,
);
console.log('quality (raw: what the engine returns; gated: libraries behind the best absolute top-score threshold, tuned on "as written")');
table(['engine', 'questions', 'n', 'r@5', 'MRR', 'no-ans', 'Δr@5', 'threshold', 'gated r@5', 'MRR', 'no-ans', 'declined'], quality);
console.log(
  `\nlatency per query in ms (${timedQueries.length} queries: as written and with a typo; 20 rounds at 1×, 5 at 10×, after 3 of warm-up; engines timed in turns)`,
);
table(['engine', '', 'p50 1×', 'p95 1×', 'p50 10×', 'p95 10×', 'p95 10× copies', 'r@5/MRR at 10×'], speed);
console.log(
  `\n10×: the demo passages and ${passages.length * 9} synthetic ones (bench/search.bench.ts's generatePassages); 10× copies: the demo passages ten times over, distinct slugs.`,
);
console.log('Δr@5: recall@5 of the variants less that of the same questions as written. declined: answerable questions that got nothing.');
console.log(notes.join('\n'));
