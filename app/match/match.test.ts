// The match page's pure parts: reading the stream line by line, the state it builds, what a refusal means,
// and the Markdown that "Copy as Markdown" puts on the clipboard.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { translator } from '../i18n/messages.ts';
import { messageTables } from '../i18n/messages.server.ts';
import { matchMarkdown } from './markdown.ts';
import { idleMatch, matchReducer, refusal, secondsLeft, shownRequirements, type MatchAction, type MatchState } from './state.ts';
import { createLineSplitter, parseMatchEvent, readMatchStream, type MatchEvent, type RequirementData, type RoleMatchData } from './stream.ts';

const site = 'https://vitae.example';
const must: RequirementData = {
  text: 'Led an engineering team',
  kind: 'must',
  status: 'met',
  evidence: [
    { slug: 'concierge-copilot', title: 'Concierge Copilot — Orbitale Travel', url: `${site}/fr/entries/concierge-copilot`, quote: 'live in 48 hotels' },
  ],
  confidence: 0.9,
};
const nice: RequirementData = {
  text: 'Kubernetes | GPU clusters',
  kind: 'nice',
  status: 'gap',
  evidence: [],
  honestGap: 'Her platform knowledge is limited.',
};
const result: RoleMatchData = {
  mode: 'search',
  locale: 'fr',
  title: 'Head of AI',
  requirements: [must, nice],
  summary: 'A **good** fit.',
  lens: { id: 'head-of-ai', title: 'Head of AI', url: `${site}/fr/lenses/head-of-ai` },
  gaps: ['No P&L above EUR 2M.'],
  counts: { met: 1, partial: 0, gap: 1 },
  removed: 2,
};

const bodyOf = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

describe('the match stream', () => {
  it('hands over whole lines only, whatever the chunks cut', () => {
    const lines = createLineSplitter();
    assert.deepEqual(lines.push('{"type":"stage",'), []);
    assert.deepEqual(lines.push('"stage":"reading"}\n{"type":'), ['{"type":"stage","stage":"reading"}']);
    assert.deepEqual(lines.push('"stage","stage":"checking"}'), []);
    assert.deepEqual(lines.end(), ['{"type":"stage","stage":"checking"}']);
  });

  it('reads events from bytes cut inside a line and inside a character', async () => {
    const text = [
      { type: 'stage', stage: 'searching' },
      { type: 'requirement', index: 0, requirement: { ...must, text: '日本語で話せること' } },
      { type: 'done', output: result },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const bytes = new TextEncoder().encode(text);
    const cut = bytes.indexOf(0xe6) + 1; // inside 日
    const events: MatchEvent[] = [];
    await readMatchStream(bodyOf([bytes.slice(0, 7), bytes.slice(7, cut), bytes.slice(cut)]), (e) => events.push(e));
    assert.deepEqual(
      events.map((e) => e.type),
      ['stage', 'requirement', 'done'],
    );
    assert.equal((events[1] as Extract<MatchEvent, { type: 'requirement' }>).requirement.text, '日本語で話せること');
    assert.deepEqual((events[2] as Extract<MatchEvent, { type: 'done' }>).output, result);
  });

  it('skips blank, malformed and unknown lines, and rows that lack what a row needs', () => {
    assert.equal(parseMatchEvent(''), undefined);
    assert.equal(parseMatchEvent('{not json'), undefined);
    assert.equal(parseMatchEvent('{"type":"tool","name":"x"}'), undefined);
    assert.equal(parseMatchEvent('{"type":"stage","stage":"dreaming"}'), undefined);
    assert.equal(parseMatchEvent(JSON.stringify({ type: 'requirement', index: 0, requirement: { text: 'x', status: 'maybe', evidence: [] } })), undefined);
    assert.equal(parseMatchEvent(JSON.stringify({ type: 'requirement', index: -1, requirement: must })), undefined);
    assert.deepEqual(parseMatchEvent('{"type":"error","code":"unavailable","message":"The model failed."}'), {
      type: 'error',
      code: 'unavailable',
      message: 'The model failed.',
    });
  });
});

describe('the match state', () => {
  const run = (actions: MatchAction[], from: MatchState = idleMatch) => actions.reduce(matchReducer, from);
  const row = (index: number, requirement: RequirementData): MatchAction => ({ type: 'event', event: { type: 'requirement', index, requirement } });

  it('shows rows in their order as they arrive, then the whole answer', () => {
    const streaming = run([{ type: 'start' }, { type: 'event', event: { type: 'stage', stage: 'searching' } }, row(1, nice)]);
    assert.equal(streaming.stage, 'searching');
    assert.deepEqual(shownRequirements(streaming), [nice]);
    const both = run([row(0, must)], streaming);
    assert.deepEqual(shownRequirements(both), [must, nice]);
    const done = run([{ type: 'event', event: { type: 'done', output: result } }], both);
    assert.equal(done.phase, 'done');
    assert.equal(done.result, result);
  });

  it('keeps the rows checked so far when stopped or cut, and says why', () => {
    const stopped = run([{ type: 'start' }, row(0, must), { type: 'stop' }]);
    assert.equal(stopped.phase, 'stopped');
    assert.deepEqual(shownRequirements(stopped), [must]);
    const cut = run([{ type: 'start' }, row(0, must), { type: 'event', event: { type: 'error', code: 'unavailable', message: 'x' } }]);
    assert.equal(cut.phase, 'failed');
    assert.deepEqual(cut.problem, { kind: 'unavailable' });
    assert.deepEqual(shownRequirements(cut), [must]);
    // A late line of an abandoned stream changes nothing.
    assert.equal(run([row(1, nice)], cut), cut);
  });

  it('a new comparison starts empty', () => {
    assert.deepEqual(run([{ type: 'start' }, row(0, must), { type: 'start' }]).requirements, []);
  });

  it('words a refusal: 429 with its wait, a refused field, anything else as unavailable', () => {
    const limited = refusal(429, { code: 'rate_limited', message: 'Too many' }, 12, 1_000);
    assert.deepEqual(limited, { kind: 'rate_limited', until: 13_000 });
    assert.equal(secondsLeft(limited, 2_000), 11);
    assert.equal(secondsLeft(limited, 20_000), 0);
    assert.deepEqual(
      refusal(
        400,
        { code: 'bad_request', message: 'x', errors: [{ pointer: '/jobDescription', message: 'description: a job description is at most 12,000 characters' }] },
        0,
        0,
      ),
      { kind: 'invalid', field: 'description', reason: 'too_long', message: 'description: a job description is at most 12,000 characters' },
    );
    assert.deepEqual(
      refusal(400, { code: 'bad_request', message: 'x', errors: [{ pointer: '/jobDescription', message: 'description: paste a job description' }] }, 0, 0),
      {
        kind: 'invalid',
        field: 'description',
        reason: 'empty',
        message: 'description: paste a job description',
      },
    );
    assert.deepEqual(refusal(400, { code: 'bad_request', message: 'x', errors: [{ pointer: '/jobDescription', message: 'no requirement found' }] }, 0, 0), {
      kind: 'invalid',
      field: 'description',
      reason: 'no_requirements',
      message: 'no requirement found',
    });
    assert.equal((refusal(400, { errors: [{ pointer: '/title', message: 'title: too long' }] }, 0, 0) as { field?: string }).field, 'role');
    assert.deepEqual(refusal(413, { code: 'payload_too_large', message: 'big' }, 0, 0), {
      kind: 'invalid',
      field: 'description',
      reason: 'too_long',
      message: 'big',
    });
    assert.deepEqual(refusal(503, { code: 'unavailable', message: 'x' }, 0, 0), { kind: 'unavailable' });
  });
});

describe('copy as Markdown', () => {
  const t = translator('en', messageTables.en);
  const markdown = matchMarkdown(result, t, site);

  it('writes one table per group, with the status in words and the evidence linked with its quote', () => {
    assert.match(markdown, /^# How the profile matches “Head of AI”\n/);
    assert.match(markdown, /## Must-haves\n\n\| Requirement \| Status \| Evidence \|\n\| --- \| --- \| --- \|\n/);
    assert.ok(
      markdown.includes(
        '| Led an engineering team | ✓ Met | [Concierge Copilot — Orbitale Travel](https://vitae.example/fr/entries/concierge-copilot): “live in 48 hotels” |',
      ),
    );
    // A pipe inside a cell would end it: escaped.
    assert.ok(markdown.includes('| Kubernetes \\| GPU clusters | ✗ Gap | Stated gap: Her platform knowledge is limited. |'));
  });

  it('keeps the summary, the counts, the lens and its honest gaps, and the notes the page shows', () => {
    assert.ok(markdown.includes('A **good** fit.'));
    assert.ok(markdown.includes('1 met · 0 partly met · 1 gap'));
    assert.ok(markdown.includes('## Closest role lens: [Head of AI](https://vitae.example/fr/lenses/head-of-ai)'));
    assert.ok(markdown.includes('- No P&L above EUR 2M.'));
    assert.ok(markdown.includes('> Matched by search: no model is configured'));
    assert.ok(markdown.includes('> 2 pieces of evidence could not be found in the cited record and were removed.'));
    assert.doesNotMatch(matchMarkdown({ ...result, mode: 'model', removed: 0 }, t, site), /^> /m);
  });
});
