// The translate stage says what it made: `success` only when every translation it attempted was made, `partial`
// (some) or `failure` (none) with each failure's path and reason in its note. Either way the run goes on to build and
// deploy what was made and the English. Against the scripted model over real HTTP, through the admin API.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { changeKeyResult, startTestService, type TestService } from '../../testing/service.ts';
import { adminHttp, assertOk } from '../../testing/admin-http.ts';
import { localeFacts } from '../contract/locales.ts';
import type { TranslationLocale } from '../contract/shared.ts';

const TOKEN = 'translate-stage-token-8d2f4a6c';
let model: FakeOpenAI;
let service: TestService;
const api = adminHttp(() => service.url, TOKEN);

before(async () => {
  model = await startFakeOpenAI();
  service = await startTestService({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-test-key', ADMIN_TOKEN: TOKEN });
});
after(async () => {
  await service.stop();
  await model.close();
});

/** The scripted translator: each English field back, marked, except for the locales it is told to fail. */
function translator(failing: readonly TranslationLocale[]) {
  // The language as the prompt names it, without its note in brackets (Esperanto's letters there arrive garbled: the
  // scripted server reads bytes as latin1).
  const named = (locale: TranslationLocale) => `into ${localeFacts[locale].translationTarget.replace(/\s*\(.*$/, '')}`;
  return (body: any) => {
    const system = String(body.messages.find((m: any) => m.role === 'system').content);
    if (failing.some((locale) => system.includes(named(locale)))) return { status: 500, error: 'the translator is down' };
    const english = JSON.parse(body.messages.find((m: any) => m.role === 'user').content);
    return { json: Object.fromEntries(Object.entries(english).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => `[t] ${x}`) : `[t] ${v}`])) };
  };
}

/** Changes one entry's English on dev (its six translations go stale) and waits for the run it starts. */
async function changeEnglish(slug: string, keyResult: string) {
  const { path, commit } = await changeKeyResult(service, api, slug, keyResult);
  const run = service.services.pipeline.list('dev', 5).find((r) => r.commit === commit || r.sourceCommit === commit)!;
  return { path, commit, run };
}

const i18n = (locale: string, path: string) => path.replace(/^content\//, `content/i18n/${locale}/`);

describe('the translate stage', () => {
  it('is partial when some translations fail: the note names each with its reason, and the run publishes the others', async () => {
    model.fallback = translator(['fr', 'ja']);
    const { path, run } = await changeEnglish('wallet-onboarding-kit', 'Median time to a first testnet transaction fell to 20 minutes.');
    assert.equal(run.status, 'success', JSON.stringify(run));
    const translate = run.stages.find((s) => s.name === 'translate')!;
    assert.equal(translate.status, 'partial');
    const [summary, ...lines] = translate.note!.split('\n');
    assert.match(summary!, /^translated \d+ of \d+ files; 2 failed:$/);
    assert.deepEqual(lines, [`${i18n('fr', path)}, ${i18n('ja', path)}: Failed after 2 attempts. Last error: the translator is down (HTTP 500)`]);
    assert.deepEqual(
      run.stages.map((s) => s.status),
      ['partial', 'success', 'success'],
    );
    // What was made is live; what failed falls back to English.
    const served = async (locale: string) => (await (await fetch(`${service.devUrl}/api/v1/entries/wallet-onboarding-kit?locale=${locale}`)).json()).translated;
    assert.equal(await served('es'), true);
    assert.equal(await served('fr'), false);
    const listed = assertOk(await api.get('/api/admin/deploys?branch=dev&limit=1')).runs[0];
    assert.equal(listed.stages[0].status, 'partial', 'the admin API lists the stage as it is');
  });

  it('is a failure when no translation can be made, and the run still publishes the English', async () => {
    model.fallback = translator(['zh', 'zh-hant', 'ja', 'fr', 'es', 'eo']);
    const { commit, run } = await changeEnglish('concierge-copilot', '64% of routine guest questions resolved without staff.');
    assert.equal(run.status, 'success');
    assert.equal(run.commit, commit, 'nothing was committed on top: the English commit itself is live');
    const translate = run.stages.find((s) => s.name === 'translate')!;
    assert.equal(translate.status, 'failure');
    const [summary, ...lines] = translate.note!.split('\n');
    const failed = Number(/^no translation could be made \((\d+) files to translate\); \1 failed:$/.exec(summary!)?.[1]);
    assert.ok(failed >= 6, summary);
    assert.equal(lines.length, 1, 'one reason, one line');
    assert.equal(lines[0]!.split(': ')[0]!.split(', ').length, failed, 'every path is named');
    const health = await (await fetch(`${service.devUrl}/api/health`)).json();
    assert.equal(health.content.commit, commit);
  });

  it('is a success, with nothing failed, when every translation is made', async () => {
    model.fallback = translator([]);
    const { run } = await changeEnglish('concierge-copilot', '65% of routine guest questions resolved without staff.');
    const translate = run.stages.find((s) => s.name === 'translate')!;
    assert.equal(translate.status, 'success');
    assert.match(translate.note!, /^translated \d+ files$/);
  });
});
