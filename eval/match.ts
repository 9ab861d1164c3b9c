// `npm run eval -- match`: match_role measured on job descriptions written for it (eval/match.json: two per locale,
// in the style of real job advertisements, each requirement labelled met, partial or gap by reading the whole profile).
// The first description of each locale is the development half (the search-only form was tuned on it), the second the
// held-out half (never tuned on): both are printed, and the held-out figures are the ones that say how it does.
//
// Two forms, each through a real service on loopback and its REST route (POST /api/v1/match):
// - search-only (no model): how many labelled requirements it reads from the description, whether it tells
//   must-haves from nice-to-haves, and how often its status agrees with the label; "claims" counts gaps it calls
//   met (the error a recruiter pays for), "misses" met requirements it calls gaps.
// - the scripted model (an OpenAI-compatible server answering the labels themselves, each met or partial requirement
//   with a true quote of its first evidence record): the share of honest statuses that survive the service's check,
//   and, with every quote altered, the share of invented evidence the check catches. A measure of the check, not of a
//   model: no model runs here.
// A measurement, not a test: it exits 0 whatever the figures, and 1 only when eval/match.json is malformed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { locales } from '../operations/contract/locales.ts';
import type { Locale } from '../operations/contract/shared.ts';
import { startFakeOpenAI } from '../testing/fake-openai.ts';
import { startTestService, type TestService } from '../testing/service.ts';

const Label = z.strictObject({
  match: z.string().min(8),
  importance: z.enum(['must', 'nice']),
  expected: z.enum(['met', 'partial', 'gap']),
  evidence: z.array(z.string()),
});
const Description = z.strictObject({
  id: z.string(),
  locale: z.enum(locales),
  role: z.string().optional(),
  text: z.string().min(1),
  requirements: z.array(Label).min(1),
});
const MatchSet = z.strictObject({ about: z.string(), descriptions: z.array(Description).min(1) });
type Description = z.output<typeof Description>;
type Label = z.output<typeof Label>;

interface Answer {
  mode: 'model' | 'search';
  requirements: Array<{
    text: string;
    kind: 'must' | 'nice';
    status: 'met' | 'partial' | 'gap';
    evidence: Array<{ slug: string; quote: string }>;
    confidence?: number;
  }>;
  removed: number;
}

const file = resolve(import.meta.dirname, 'match.json');
const parsed = MatchSet.safeParse(JSON.parse(readFileSync(file, 'utf8')));
if (!parsed.success) {
  console.error(`eval: ${file} is malformed:\n${z.prettifyError(parsed.error)}`);
  process.exit(1);
}
const descriptions = parsed.data.descriptions;
for (const d of descriptions)
  for (const label of d.requirements)
    if (d.text.split(label.match).length !== 2) {
      console.error(`eval: ${d.id}: "${label.match}" must occur exactly once in its text`);
      process.exit(1);
    }
/** The first description of a locale is the development half; the others are held out. */
const half = (d: Description) => (descriptions.find((o) => o.locale === d.locale) === d ? 'development' : 'held-out');

let ip = 1;
async function match(service: TestService, d: Description): Promise<Answer> {
  const res = await service.get('/api/v1/match', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${ip++ % 250}` },
    body: JSON.stringify({ jobDescription: d.text, locale: d.locale, ...(d.role ? { title: d.role } : {}) }),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${d.id}: ${res.status} ${JSON.stringify(body)}`);
  return body as Answer;
}

const squash = (text: string) => text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
/** The requirement of an answer that holds a label's words. */
const readAs = (answer: Answer, label: Label) => answer.requirements.find((r) => squash(r.text).includes(squash(label.match)));

interface Tally {
  labels: number;
  read: number;
  importance: number;
  agree: number;
  /** gaps called met */
  claims: number;
  gaps: number;
  /** met called gap */
  misses: number;
  mets: number;
  extra: number;
  /** the sum of |status − label| over read requirements, on the scale gap 0, partial 1, met 2 */
  distance: number;
}
const tally = (): Tally => ({ labels: 0, read: 0, importance: 0, agree: 0, claims: 0, gaps: 0, misses: 0, mets: 0, extra: 0, distance: 0 });
const rank = { gap: 0, partial: 1, met: 2 } as const;

function score(t: Tally, d: Description, answer: Answer): void {
  const matched = new Set<unknown>();
  for (const label of d.requirements) {
    t.labels++;
    if (label.expected === 'gap') t.gaps++;
    if (label.expected === 'met') t.mets++;
    const got = readAs(answer, label);
    // A requirement read as one with another is not read (two labels in one line of the answer).
    if (!got || matched.has(got)) continue;
    matched.add(got);
    t.read++;
    if (got.kind === label.importance) t.importance++;
    if (got.status === label.expected) t.agree++;
    t.distance += Math.abs(rank[got.status] - rank[label.expected]);
    if (label.expected === 'gap' && got.status === 'met') t.claims++;
    if (label.expected === 'met' && got.status === 'gap') t.misses++;
  }
  t.extra += answer.requirements.filter((r) => !matched.has(r)).length;
}

const share = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)} %` : '—');
const pad = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');

// ---------------------------------------------------------------------------------------------------------------
// The search-only form

const plain = await startTestService({ TRUST_PROXY: '1' });
const bySearch = new Map<string, Tally>();
const key = (set: string, locale: Locale | 'all') => `${set}\0${locale}`;
for (const d of descriptions) {
  const answer = await match(plain, d);
  if (answer.mode !== 'search') throw new Error(`${d.id}: expected the search-only form without a model`);
  for (const k of [key(half(d), d.locale), key(half(d), 'all')]) {
    if (!bySearch.has(k)) bySearch.set(k, tally());
    score(bySearch.get(k)!, d, answer);
  }
  if (process.argv.includes('--misses') && half(d) === 'development') {
    for (const label of d.requirements) {
      const got = readAs(answer, label);
      if (!got || got.status !== label.expected)
        console.log(
          `  ${d.id}: "${label.match}" expected ${label.expected}, got ${got ? `${got.status} (${got.confidence ?? '—'}) ${got.evidence.map((e) => e.slug).join(',')}` : 'not read'}`,
        );
    }
  }
}
await plain.stop();

console.log(
  `match evaluation: ${descriptions.length} job descriptions, ${descriptions.reduce((n, d) => n + d.requirements.length, 0)} labelled requirements\n`,
);
console.log('search-only form (no model)');
const widths = [12, 8, 6, 11, 7, 9, 14, 13, 6];
for (const set of ['development', 'held-out']) {
  console.log(`\n${set}${set === 'development' ? ' (tuned on)' : ' (never tuned on)'}`);
  console.log(pad(['locale', 'labels', 'read', 'importance', 'status', 'distance', 'gaps as met', 'met as gap', 'extra'], widths));
  for (const locale of [...locales, 'all' as const]) {
    const t = bySearch.get(key(set, locale));
    if (!t) continue;
    console.log(
      pad(
        [
          locale,
          String(t.labels),
          share(t.read, t.labels),
          share(t.importance, t.read),
          share(t.agree, t.read),
          t.read ? (t.distance / t.read).toFixed(2) : '—',
          `${t.claims}/${t.gaps} ${share(t.claims, t.gaps)}`,
          `${t.misses}/${t.mets} ${share(t.misses, t.mets)}`,
          String(t.extra),
        ],
        widths,
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The scripted model: the labels as its answer, with true quotes, then with invented ones

const model = await startFakeOpenAI();
const withModel = await startTestService({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-eval', TRUST_PROXY: '1' });
const quoteCache = new Map<string, string>();
async function trueQuote(slug: string): Promise<string> {
  let quote = quoteCache.get(slug);
  if (quote === undefined) {
    const entry = await withModel.get(`/api/v1/entries/${slug}`);
    const record = entry.ok ? await entry.json() : await (await withModel.get(`/api/v1/documents/${slug}`, { headers: { Accept: 'application/json' } })).json();
    quote = String(record.summary);
    quoteCache.set(slug, quote);
  }
  return quote;
}
/** A quote with its words changed: what the profile does not say. */
const invented = (quote: string) => `${quote.split(' ').slice(0, 4).join(' ')} at a Fortune 500 bank for twelve years`;

let honest = 0;
let kept = 0;
let inventedGiven = 0;
let caught = 0;
let leaked = 0;
for (const d of descriptions) {
  for (const lie of [false, true]) {
    const lines: string[] = [];
    for (const label of d.requirements) {
      const evidence =
        label.expected === 'gap'
          ? []
          : [{ slug: label.evidence[0]!, quote: lie ? invented(await trueQuote(label.evidence[0]!)) : await trueQuote(label.evidence[0]!) }];
      lines.push(JSON.stringify({ requirement: label.match, kind: label.importance, status: label.expected, evidence }));
    }
    lines.push(JSON.stringify({ summary: 'A scripted summary.' }));
    model.script({ text: lines.join('\n'), chunks: 8 });
    const answer = await match(withModel, d);
    if (answer.mode !== 'model') throw new Error(`${d.id}: expected the model's form`);
    for (const label of d.requirements) {
      const got = answer.requirements.find((r) => r.text === label.match);
      if (!lie) {
        honest++;
        if (got?.status === label.expected) kept++;
      } else if (label.expected !== 'gap') {
        inventedGiven++;
        if (got?.status === 'gap' && !got.evidence.length) caught++;
        if (got?.evidence.some((e) => e.quote.includes('Fortune 500'))) leaked++;
      }
    }
  }
}
await withModel.stop();
await model.close();

console.log('\nscripted model (a measure of the check: the labels as its answer)');
console.log(`  honest answers kept as given: ${kept}/${honest} (${share(kept, honest)})`);
console.log(`  invented quotes caught: ${caught}/${inventedGiven} (${share(caught, inventedGiven)}); invented quotes that reached the answer: ${leaked}`);
console.log('\nread: labelled requirements found among those the form lists. importance: must/nice as labelled. status: met/partial/gap as labelled.');
console.log('distance: how far the status is from the label on average (gap 0, partial 1, met 2): 0 is perfect, 2 the worst.');
console.log('gaps as met: requirements the profile does not show that the form calls met. met as gap: the reverse. extra: listed, not labelled (duties).');
