// Search by generated questions on its own (issue "Search that holds on questions nobody tuned for", item 4): the
// cache of each passage's questions (keys, persistence across a reopen, compaction, a failing model) and the search
// that adds them to the main index (a record found only through its questions, its real passage, the confidence rule).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createQuestionSearch, openQuestionCache, questionKey, questionsFromOutput, questionsPrompt, type GenerateQuestions } from './passage-questions.ts';
import { CONFIDENT, createSearchIndex, type Passage } from './search.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vitae-questions-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const passage = (slug: string, text: string, extra: Partial<Passage> = {}): Passage => ({
  locale: 'en',
  slug,
  kind: 'entry',
  title: slug.replace(/-/g, ' '),
  text,
  url: `http://x/entries/${slug}`,
  ...extra,
});

/** A scripted model: the questions of a passage are made from its text; every batch it is sent is recorded. */
function scripted(questionsOf = (p: Passage) => [`What about ${p.text}?`, `Why ${p.slug}?`, `How ${p.title}?`]) {
  const batches: Passage[][] = [];
  const generate: GenerateQuestions = async (passages) => {
    batches.push([...passages]);
    return passages.map(questionsOf);
  };
  return { generate, batches, sent: () => batches.flat() };
}

describe('the key of a passage’s questions', () => {
  it('is what the model read (locale, title, meta, text), not where the passage is', () => {
    const p = passage('a', 'Led the platform team', { meta: 'Orbitale' });
    assert.equal(questionKey(p), questionKey({ ...p, url: 'http://elsewhere/a', slug: 'b' }));
    for (const change of [{ locale: 'fr' as const }, { title: 'other' }, { meta: 'Other' }, { meta: undefined }, { text: 'Led the data team' }]) {
      assert.notEqual(questionKey({ ...p, ...change }), questionKey(p), JSON.stringify(change));
    }
  });
});

describe('the questions cache', () => {
  it('asks the model once per text, in batches, and a reopened cache asks nothing again', async () => {
    const file = join(dir, 'once', 'model.json');
    const passages = Array.from({ length: 7 }, (_, i) => passage(`p${i}`, `text ${i}`));
    const twice = [...passages, { ...passages[0]!, url: 'http://dev/entries/p0' }]; // main and dev: one text
    const model = scripted();
    const cache = await openQuestionCache(file);
    assert.equal(await cache.fill(twice, model.generate, { batch: 3, concurrency: 2 }), 7);
    assert.deepEqual(
      model.batches.map((b) => b.length),
      [3, 3, 1],
    );
    assert.equal(new Set(model.sent().map((p) => p.slug)).size, 7, 'each text sent once');
    assert.deepEqual(cache.questionsOf(passages[2]!), ['What about text 2?', 'Why p2?', 'How p2?']);
    assert.equal(await cache.fill(twice, model.generate), 0, 'a second build asks nothing');

    const reopened = await openQuestionCache(file);
    assert.equal(reopened.size, 7);
    assert.deepEqual(reopened.missing(twice), []);
    assert.deepEqual(reopened.questionsOf(passages[6]!), cache.questionsOf(passages[6]!));
    const after = scripted();
    assert.equal(await reopened.fill(twice, after.generate), 0);
    assert.equal(after.batches.length, 0, 'a restart asks nothing');
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { questions: Record<string, string[]> };
    assert.deepEqual(onDisk.questions[questionKey(passages[0]!)], cache.questionsOf(passages[0]!));
  });

  it('keeps what was generated before a failure, rejects with it, and asks only for the rest next time', async () => {
    const file = join(dir, 'failure.json');
    const passages = Array.from({ length: 6 }, (_, i) => passage(`f${i}`, `failing ${i}`));
    const cache = await openQuestionCache(file);
    let calls = 0;
    const flaky: GenerateQuestions = async (batch) => {
      if (++calls === 2) throw new Error('the model is down');
      return batch.map((p) => [`Q ${p.text}?`]);
    };
    await assert.rejects(cache.fill(passages, flaky, { batch: 2, concurrency: 1 }), /the model is down/);
    assert.equal(calls, 2, 'stops at the first failure');
    assert.equal(cache.size, 2);
    const model = scripted();
    await (await openQuestionCache(file)).fill(passages, model.generate, { batch: 10 });
    assert.deepEqual(
      model.sent().map((p) => p.slug),
      ['f2', 'f3', 'f4', 'f5'],
    );
  });

  it('refuses an answer without questions for a passage, and cleans the questions it keeps', async () => {
    const cache = await openQuestionCache(join(dir, 'clean.json'));
    await assert.rejects(
      cache.fill([passage('e', 'empty')], async () => [[' ', '']]),
      /no question/,
    );
    await assert.rejects(
      cache.fill([passage('e', 'empty'), passage('f', 'other')], async () => [['One?']]),
      /1 lists of questions for 2 passages/,
    );
    await cache.fill([passage('c', 'clean')], async () => [['  Has  she led a team? ', 'has she led a team?', 'A?', 'B?', 'C?', 'D?', 'E?']]);
    assert.deepEqual(cache.questionsOf(passage('c', 'clean')), ['Has she led a team?', 'A?', 'B?', 'C?', 'D?']);
  });

  it('compacts to what is served once it holds more than twice as much, keeping a fill under way', async () => {
    const file = join(dir, 'compact.json');
    const cache = await openQuestionCache(file);
    const old = Array.from({ length: 6 }, (_, i) => passage(`old${i}`, `old text ${i}`));
    const served = [passage('kept', 'kept text')];
    await cache.fill([...old, ...served], scripted().generate);
    assert.equal(await cache.compact([...served, ...old.slice(0, 3)], { slack: 0 }), false, '7 is not more than twice 4');

    // A fill under way (a new build's passages): its passages survive a compaction made meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: GenerateQuestions = async (batch) => {
      await held;
      return batch.map((p) => [`New ${p.text}?`]);
    };
    const fresh = passage('fresh', 'fresh text');
    const filling = cache.fill([fresh], slow);
    assert.equal(await cache.compact(served, { slack: 0 }), true);
    release();
    await filling;
    assert.equal(cache.size, 2);
    const reopened = await openQuestionCache(file);
    assert.equal(reopened.size, 2);
    assert.ok(reopened.questionsOf(served[0]!) && reopened.questionsOf(fresh));
    assert.equal(reopened.questionsOf(old[0]!), undefined);
  });

  it('starts again from a file it cannot read', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{"format":1,"questions":{"abc"');
    const cache = await openQuestionCache(file);
    assert.equal(cache.size, 0);
    await cache.fill([passage('b', 'broken')], scripted().generate);
    assert.equal((await openQuestionCache(file)).size, 1);
  });
});

describe('the model’s output', () => {
  it('is one list per passage by id; a missing, repeated or unknown id fails the batch', () => {
    assert.deepEqual(
      questionsFromOutput(
        {
          passages: [
            { id: 1, questions: ['B?'] },
            { id: 0, questions: ['A?', 'A2?'] },
          ],
        },
        2,
      ),
      [['A?', 'A2?'], ['B?']],
    );
    assert.throws(() => questionsFromOutput({ passages: [{ id: 0, questions: ['A?'] }] }, 2), /no question for passage 1/);
    assert.throws(
      () =>
        questionsFromOutput(
          {
            passages: [
              { id: 0, questions: ['A?'] },
              { id: 0, questions: ['B?'] },
            ],
          },
          1,
        ),
      /twice/,
    );
    assert.throws(() => questionsFromOutput({ passages: [{ id: 3, questions: ['A?'] }] }, 1), /passage 3/);
    assert.throws(() => questionsFromOutput({ passages: [{ id: 0, questions: 'A?' }] }, 1));
  });

  it('is asked for in each passage’s own language, with the text as data', () => {
    const { system, prompt } = questionsPrompt([passage('a', 'Texte', { locale: 'fr' }), passage('b', 'テキスト', { locale: 'ja' })]);
    assert.match(system, /3 to 5 questions a recruiter/);
    assert.match(system, /that passage’s language/);
    const sent = JSON.parse(prompt) as { passages: Array<{ id: number; language: string; text: string }> };
    assert.deepEqual(
      sent.passages.map((p) => [p.id, p.language, p.text]),
      [
        [0, 'French', 'Texte'],
        [1, 'Japanese', 'テキスト'],
      ],
    );
  });
});

describe('search with the questions', () => {
  const passages: Passage[] = [
    passage('booking-engine', 'Rebuilt the booking engine on Kubernetes and cut checkout latency by half.'),
    passage('front-desk', 'Worked nights at a ryokan reception in Osaka, checking in travellers from forty countries.'),
    passage('data-team', 'Grew the data team from two analysts to nine engineers.'),
  ];
  const generated = new Map<string, string[]>([
    ['front-desk', ['Has she worked in hospitality?', 'Did she deal with customers directly?', 'Has she lived in Japan?']],
    ['data-team', ['How big a team has she managed?', 'Has she hired engineers?', 'Did she build a data team?']],
    ['booking-engine', ['Has she run Kubernetes in production?', 'Did she improve the performance of a product?', 'What did she build for travel booking?']],
  ]);
  const build = async () => {
    const main = await createSearchIndex(passages);
    const search = await createQuestionSearch({ main, passages, questionsOf: (p) => generated.get(p.slug) });
    return { main, search };
  };

  it('finds a record only its questions hold, and returns its real passage, never the questions', async () => {
    const { main, search } = await build();
    assert.equal(search.questions, 3);
    assert.deepEqual(main.search('hospitality customers', 5), [], 'the passage has none of these words');
    const hits = search.search('hospitality customers', 5);
    assert.deepEqual(
      hits.map((h) => h.slug),
      ['front-desk'],
    );
    assert.equal(hits[0]!.passage, passages[1]!.text);
    assert.equal(hits[0]!.url, passages[1]!.url);
    assert.ok(hits[0]!.confidence > CONFIDENT);
  });

  it('keeps the main index’s confident hits first, in its order and with its scores', async () => {
    const { main, search } = await build();
    const alone = main.search('booking engine', 5);
    assert.ok(alone.length > 0);
    const merged = search.search('booking engine', 5);
    assert.deepEqual(merged.slice(0, alone.length), alone);

    // A record found through its questions follows the main index's hits, scored below them.
    const both = search.search('Kubernetes hired engineers', 5);
    const mainOnly = main.search('Kubernetes hired engineers', 5);
    assert.deepEqual(
      both.slice(0, mainOnly.length).map((h) => h.slug),
      mainOnly.map((h) => h.slug),
    );
    assert.deepEqual(
      both.map((h) => h.slug),
      ['booking-engine', 'data-team'],
      'the data team is found through “Has she hired engineers?”',
    );
    for (let i = 1; i < both.length; i++) assert.ok(both[i]!.score <= both[i - 1]!.score, 'best first');
    assert.equal(new Set(both.map((h) => h.slug)).size, both.length, 'a record once');
  });

  it('returns only confident matches, and nothing a question the profile cannot answer', async () => {
    const { search } = await build();
    assert.deepEqual(search.search('underwater basket weaving championship', 5), []);
    // half of the question in the questions of a record is not a match, nor half in each of two records
    assert.deepEqual(search.search('hospitality salary', 5), []);
    assert.deepEqual(search.search('Japan Kubernetes', 5), []);
    for (const query of ['hospitality', 'team size managed', 'Osaka salary expectations', 'Japan Kubernetes']) {
      for (const hit of search.search(query, 5)) assert.ok(hit.confidence > CONFIDENT, `${query}: ${hit.slug} at ${hit.confidence}`);
    }
    // unsure (diagnosis) shows the rest too, after the matches
    assert.deepEqual(
      search.search('hospitality salary', 5, { unsure: true }).map((h) => [h.slug, h.passage]),
      [['front-desk', passages[1]!.text]],
    );
  });

  it('answers as the main index does without any questions', async () => {
    const main = await createSearchIndex(passages);
    const search = await createQuestionSearch({ main, passages, questionsOf: () => undefined });
    assert.equal(search.questions, 0);
    for (const query of ['booking engine', 'Osaka', 'nothing here at all']) assert.deepEqual(search.search(query, 5), main.search(query, 5));
  });
});
