// `npm run eval`: search quality measured on eval/questions.json, questions a recruiter would ask in each of
// the seven locales (paraphrases, questions in one language about text in another, and questions the profile
// cannot answer). Builds the demo content in process and runs every question through the build's search
// index, the same call `search_subject` (REST, MCP, the agent's search tool) makes. Prints recall@5, MRR
// (first expected hit within the top 10) and no-answer accuracy per locale and overall, beside the goals.
// A measurement, not a test: it exits 0 whatever the figures, and 1 only when the question file is malformed.
// `npm run eval -- --misses` also lists each question that missed, with what search returned instead.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { readContentDir } from '../operations/repo/local-repo.server.ts';
import { loadContent, formatProblem } from '../operations/content/tree.ts';
import { createBuild } from '../operations/build/corpus.ts';
import { locales } from '../operations/contract/locales.ts';
import type { Locale } from '../operations/contract/shared.ts';
import { firstHit, summarise, type Outcome, type Summary } from './metrics.ts';

/** What the issue asks of every locale. */
const goals = { recallAt5: 0.9, mrr: 0.75, noAnswerAccuracy: 1 };
const DEPTH = 10;

const Ref = z
  .string()
  .regex(/^(entry|document|lens):[a-z0-9]+(-[a-z0-9]+)*$/, 'a reference like "entry:concierge-copilot", "document:talks" or "lens:head-of-ai"');
const Question = z
  .strictObject({
    locale: z.enum(locales),
    question: z.string().trim().min(1),
    expected: z.array(Ref),
    noAnswer: z.boolean(),
  })
  .refine((q) => q.noAnswer === (q.expected.length === 0), { message: 'noAnswer must be true exactly when expected is empty' });
const Questions = z.array(Question).min(1);
type Question = z.output<typeof Question>;

function fail(message: string): never {
  console.error(`eval: ${message}`);
  process.exit(1);
}

const file = resolve(import.meta.dirname, 'questions.json');
let raw: unknown;
try {
  raw = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  fail(`cannot read ${file}: ${(error as Error).message}`);
}
const parsed = Questions.safeParse(raw);
if (!parsed.success) fail(`${file} is malformed:\n${z.prettifyError(parsed.error)}`);
const questions = parsed.data;

const { model, problems } = loadContent(await readContentDir(resolve(import.meta.dirname, '../content')));
if (!model) fail(`the content does not load:\n${problems.map(formatProblem).join('\n')}`);

// Every expected reference must name something that exists, or a typo would pass for a search miss.
const known = new Set([
  ...[...model.entries.keys()].map((slug) => `entry:${slug}`),
  ...[...model.documents.keys()].map((name) => `document:${name}`),
  ...[...model.lenses.keys()].map((id) => `lens:${id}`),
]);
const unknown = questions.flatMap((q, i) => q.expected.filter((ref) => !known.has(ref)).map((ref) => `#${i} (${q.locale}) "${q.question}": unknown ${ref}`));
if (unknown.length) fail(`${file} names things the content does not have:\n${unknown.join('\n')}`);

const started = performance.now();
const build = await createBuild(model, { commit: 'eval', siteUrl: 'http://eval.invalid' });
const buildMs = performance.now() - started;

/**
 * The results for a question, as `kind:slug`, best first. The question's locale is passed, as the site's
 * search page and the agent pass theirs; `--no-locale` leaves it out (search then tells the language itself).
 */
const withLocale = !process.argv.includes('--no-locale');
function search(question: string, locale: Locale): string[] {
  return build.search.search(question, DEPTH, withLocale ? { locale } : {}).map((hit) => `${hit.kind}:${hit.slug}`);
}

const outcomes = new Map<string, Array<Outcome & { question: Question }>>();
for (const question of questions) {
  const ranked = search(question.question, question.locale);
  const list = outcomes.get(question.locale) ?? [];
  list.push({ ranked, expected: question.expected, noAnswer: question.noAnswer, question });
  outcomes.set(question.locale, list);
}

const figure = (value: number | null) => (value === null ? '—' : value.toFixed(2));
const mark = (value: number | null, goal: number) => (value === null ? ' ' : value >= goal ? '✓' : '✗');
function row(label: string, s: Summary): string[] {
  return [
    label,
    String(s.questions),
    String(s.answerable),
    `${figure(s.recallAt5)} ${mark(s.recallAt5, goals.recallAt5)}`,
    `${figure(s.mrr)} ${mark(s.mrr, goals.mrr)}`,
    `${figure(s.noAnswerAccuracy)} ${mark(s.noAnswerAccuracy, goals.noAnswerAccuracy)}`,
  ];
}
const header = ['locale', 'questions', 'answerable', 'recall@5', `MRR@${DEPTH}`, 'no-answer acc.'];
const rows = [...locales].filter((l) => outcomes.has(l)).map((l) => row(l, summarise(outcomes.get(l)!)));
const all = [...outcomes.values()].flat();
const overall = row('overall', summarise(all));
const widths = header.map((h, i) => Math.max(h.length, ...[...rows, overall].map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');

console.log(`search evaluation: ${questions.length} questions from eval/questions.json, build of content/ in ${Math.round(buildMs)} ms\n`);
console.log(line(header));
console.log(widths.map((w) => '─'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
console.log(widths.map((w) => '─'.repeat(w)).join('  '));
console.log(line(overall));
console.log(
  `\ngoals (issue 17), in every locale: recall@5 ≥ ${goals.recallAt5}, MRR ≥ ${goals.mrr}, no confident match for a no-answer question (accuracy ${goals.noAnswerAccuracy}).`,
);
console.log('recall@5: answerable questions with an expected entry or document in the top 5. MRR: 1/rank of the first one in the top 10, 0 if none.');
console.log('no-answer accuracy: questions the profile cannot answer for which search returned nothing (no result reached the confidence threshold).');
const failing = rows.filter((r) => r.slice(3).some((c) => c.endsWith('✗'))).map((r) => r[0]);
console.log(failing.length ? `below a goal: ${failing.join(', ')}` : 'every locale meets the goals');

if (process.argv.includes('--misses')) {
  console.log('\nmisses (answerable, no expected hit in the top 5; no-answer, something returned):');
  for (const o of all) {
    const missed = o.noAnswer ? o.ranked.length > 0 : !firstHit(o.ranked, o.expected, 5);
    if (!missed) continue;
    console.log(
      `- [${o.question.locale}] ${o.question.question}\n    expected ${o.expected.join(', ') || 'nothing'}; got ${o.ranked.slice(0, 5).join(', ') || 'nothing'}`,
    );
  }
}
