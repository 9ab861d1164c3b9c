// Search by generated questions through HTTP (issue "Search that holds on questions nobody tuned for", item 4): with
// a model, the service asks it for the questions each passage answers, in every locale, after the build goes live;
// search then finds a record only a generated question reaches. The questions are kept under DATA_DIR by the hash of
// each passage: a later build asks only for the text that changed, a restart asks nothing, and a model that fails
// leaves search as it was. Against the scripted model server, through @ai-sdk/openai as in production.
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../testing/fake-openai.ts';
import { changeKeyResult, startTestService, type TestService } from '../../testing/service.ts';
import { adminHttp } from '../../testing/admin-http.ts';
import { questionKey } from '../corpus/passage-questions.ts';
import { localeFacts, locales } from '../contract/locales.ts';

const TOKEN = 'search-questions-token-3b9e1f07';
/** A word no passage holds: only the question the scripted model writes for the "front desk" passage has it. */
const WORD = 'xenodochial';
let model: FakeOpenAI;
let service: TestService;
let down = false;
const warnings: string[] = [];
const api = adminHttp(() => service.url, TOKEN);

const systemOf = (body: any) => String(body?.messages?.find((m: any) => m.role === 'system')?.content ?? '');
const asksQuestions = (r: RecordedRequest) => r.path.endsWith('/chat/completions') && /questions a recruiter/.test(systemOf(r.body));
/** The passages a request asked questions of. */
const passagesOf = (r: RecordedRequest): Array<{ id: number; language: string; title: string; text: string }> =>
  JSON.parse(r.body.messages.find((m: any) => m.role === 'user').content).passages;

/** The scripted model: questions for every passage (structured output), and the translator down. */
function scriptedModel(body: any) {
  if (!/questions a recruiter/.test(systemOf(body))) return { status: 503, error: 'this model only writes questions' };
  if (down) return { status: 503, error: 'the model is down' };
  return {
    json: {
      passages: passagesOf({ body } as RecordedRequest).map(({ id, title, text }) => ({
        id,
        questions: [`What did she do as ${title}?`, 'Where did she learn it?', ...(/front desk/.test(text) ? [`Is she ${WORD}?`] : [])],
      })),
    },
  };
}

async function start(env: Record<string, string> = {}) {
  service = await startTestService({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-test-key', ADMIN_TOKEN: TOKEN, SEARCH_QUESTIONS: 'on', ...env });
  const logger = service.logger as unknown as { warn: (line: unknown) => void };
  logger.warn = (line) => void warnings.push(String(line));
  await service.services.questionsSettled();
}

const search = async (base: string, q: string, locale?: string) => {
  const res = await fetch(`${base}/api/v1/search?q=${encodeURIComponent(q)}&limit=5${locale ? `&locale=${locale}` : ''}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { results: Array<{ slug: string; passage: string; confidence: number }> }).results;
};

/** Changes one entry's English on dev and waits for its run, then for the questions it asks for. */
async function changeEnglish(slug: string, keyResult: string) {
  const { commit } = await changeKeyResult(service, api, slug, keyResult);
  await service.services.questionsSettled();
  assert.equal(service.services.corpus.build('dev').commit, commit, 'the change is live on dev');
}

before(async () => {
  model = await startFakeOpenAI();
  model.fallback = scriptedModel;
  await start();
});
after(async () => {
  await service.stop();
  await rm(service.dataDir, { recursive: true, force: true }); // reopened by the restart test: no longer the service's own
  await model.close();
});

describe('search by generated questions', () => {
  it('asks the model for the questions of every passage, in every locale, each text once, and keeps them under DATA_DIR', async () => {
    const requests = model.requests.filter(asksQuestions);
    assert.ok(requests.length > 10, `${requests.length} requests`);
    const sent = requests.flatMap(passagesOf);
    assert.deepEqual(new Set(sent.map((p) => p.language)), new Set(locales.map((locale) => localeFacts[locale].englishName)));
    const passages = service.services.corpus.build('main').passages!;
    const texts = new Set(passages.map(questionKey));
    assert.equal(sent.length, texts.size, 'every passage once (main and dev serve one commit)');
    assert.ok(requests.every((r) => passagesOf(r).length <= 8, 'a few passages a call'));
    assert.ok(
      requests.every((r) => r.body.response_format?.type === 'json_schema'),
      'structured output',
    );

    const file = JSON.parse(await readFile(join(service.dataDir, 'questions', 'gpt-4o-mini.json'), 'utf8')) as { questions: Record<string, string[]> };
    assert.equal(Object.keys(file.questions).length, texts.size);
    assert.equal(await service.services.repo.head('main'), service.services.corpus.build('main').commit, 'nothing was committed to content/');
  });

  it('finds a record only a generated question reaches, and shows its own text', async () => {
    const build = service.services.corpus.build('main');
    assert.deepEqual(build.search.search(WORD, 5), [], 'no passage holds the word');
    for (const base of [service.url, service.devUrl]) {
      const results = await search(base, WORD, 'en');
      assert.ok(results.length > 0, base);
      for (const r of results) {
        assert.match(r.passage, /front desk/);
        assert.doesNotMatch(r.passage, new RegExp(WORD), 'the passage, never the questions');
        assert.ok(r.confidence > 0.5);
      }
    }
    assert.ok((await search(service.url, 'Orbitale')).length > 0, 'what search found before it still finds');
    assert.deepEqual(await search(service.url, 'underwater basket weaving championship'), []);
  });

  it('a later build asks only for the passages whose text changed', async () => {
    const before = model.requests.length;
    await changeEnglish('wallet-onboarding-kit', 'Median time to a first testnet transaction fell to 20 minutes.');
    const sent = model.requests.slice(before).filter(asksQuestions).flatMap(passagesOf);
    assert.ok(sent.length > 0 && sent.length <= 8, `${sent.length} passages asked`);
    const title = service.services.corpus.build('dev').locales.en.entryBySlug.get('wallet-onboarding-kit')!.title;
    assert.ok(
      sent.every((p) => p.title.startsWith(title) && p.language === 'English'), // the passage's title names the organisation too
      JSON.stringify(sent.map((p) => p.title)),
    );
    assert.ok((await search(service.devUrl, WORD, 'en')).length > 0);
  });

  it('a restart on the same DATA_DIR asks the model nothing, and finds by the questions at once', async () => {
    const dataDir = service.dataDir;
    await service.close();
    const before = model.requests.length;
    await start({ DATA_DIR: dataDir });
    assert.equal(model.requests.slice(before).filter(asksQuestions).length, 0);
    assert.ok((await search(service.url, WORD, 'en')).length > 0);
    assert.ok((await search(service.devUrl, WORD, 'en')).length > 0);
  });

  it('a model that fails leaves search as it was, and says so once', async () => {
    down = true;
    warnings.length = 0;
    const before = model.requests.length;
    try {
      await changeEnglish('concierge-copilot', '64% of routine guest questions resolved without staff.');
    } finally {
      down = false;
    }
    const asked = model.requests.slice(before).filter(asksQuestions);
    assert.ok(asked.length >= 1 && asked.length <= 2, `${asked.length} requests: one batch and its retry, then it stops`);
    const said = warnings.filter((line) => /could not write the questions/.test(line));
    assert.equal(said.length, 1, warnings.join('\n'));
    assert.match(said[0]!, /the model is down/);
    assert.ok((await search(service.devUrl, WORD, 'en')).length > 0, 'the questions it had are still searched');
    assert.ok((await search(service.devUrl, 'Orbitale')).length > 0);
    assert.ok((await search(service.devUrl, 'concierge')).length > 0, 'the changed record is found by its words');
  });
});
