// Translations as a workflow, through the admin API over real HTTP and git, with the scripted model: "Translate now"
// (admin_translate) drafts and never commits; admin_translation says where a translation stands and what changed in
// the English since it was made; deleting a source takes its translations with it in the one commit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminTranslate, adminTranslation } from '../contract/admin.ts';
import { translationLocales } from '../contract/shared.ts';
import { sourceHashOfText } from '../content/source-hash.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { contentGit, projectFile, type ContentGit } from '../../testing/content-git.ts';
import { adminHttp, assertError, assertOk } from '../../testing/admin-http.ts';
import { runVitaeInProcess } from '../../cli/run-vitae.ts';

const TOKEN = 'translation-ops-token-3b7e1d9c';
const ENTRY = 'content/corpus/projects/concierge-copilot.md';
let model: FakeOpenAI;
let service: TestService;
let repo: ContentGit;
const api = adminHttp(() => service.url, TOKEN);

before(async () => {
  model = await startFakeOpenAI();
  // Each English field back, marked "[t]": a translation the checks can tell from the English.
  model.fallback = (body: any) => {
    const english = JSON.parse(body.messages.find((m: any) => m.role === 'user').content);
    return { json: Object.fromEntries(Object.entries(english).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => `[t] ${x}`) : `[t] ${v}`])) };
  };
  service = await startTestService({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-test-key', ADMIN_TOKEN: TOKEN });
  repo = contentGit(service.dataDir);
});
after(async () => {
  await service.stop();
  await model.close();
});

const idle = () => service.services.pipeline.idle();
const translate = async (input: Record<string, unknown>) => adminTranslate.output.parse(assertOk(await api.post('/api/admin/translate', input)));
const status = async (query: string) => adminTranslation.output.parse(assertOk(await api.get(`/api/admin/translation?${query}`)));
const i18n = (locale: string, path: string) => path.replace(/^content\//, `content/i18n/${locale}/`);
const oneMore = (text: string) => text.replace(/^contributions:\n/m, 'contributions:\n  - Wrote the runbook the duty managers follow.\n');

/** Runs `work` with the model failing every request: the publish runs then leave stale translations stale. */
async function translatorAway<T>(work: () => Promise<T>): Promise<T> {
  const translator = model.fallback;
  model.fallback = { status: 500, error: 'the translator is away' };
  try {
    return await work();
  } finally {
    await idle();
    model.fallback = translator;
  }
}

describe('admin_translate POST /api/admin/translate', () => {
  it('drafts a complete file for each locale stale or missing against unsaved English, with its problems, and commits nothing', async () => {
    await idle();
    const english = oneMore(repo.show('main', ENTRY)!);
    const head = repo.head();
    const runs = service.services.pipeline.list('main', 100).length;
    const result = await translate({ path: ENTRY, content: english });
    assert.equal(result.sourceHash, sourceHashOfText(ENTRY, english));
    // Against this English every translation is stale: all six are drafted.
    assert.deepEqual(result.drafts.map((d) => d.locale).sort(), [...translationLocales].sort());
    assert.deepEqual(result.failures, []);
    for (const draft of result.drafts) {
      assert.equal(draft.path, i18n(draft.locale, ENTRY));
      assert.match(draft.content, new RegExp(`^---\\nsource: ${result.sourceHash}\\n`));
      assert.match(draft.content, /\[t\] Wrote the runbook the duty managers follow\./, 'translated from the unsaved text');
      assert.deepEqual(draft.problems, [], 'it lines up with that English');
    }
    assert.equal(repo.head(), head, 'nothing was committed');
    assert.equal(service.services.pipeline.list('main', 100).length, runs, 'and no run was started');
  });

  it('drafts only what is stale or missing by default, or the locales asked for; a failed locale is named with its reason', async () => {
    // The demo keeps one stale translation of this entry on purpose: Spanish.
    const stale = await translate({ slug: 'concierge-copilot' });
    assert.deepEqual(
      stale.drafts.map((d) => d.locale),
      ['es'],
    );
    model.script({ status: 500, error: 'no Japanese today' }, { status: 500, error: 'no Japanese today' });
    const asked = await translate({ path: ENTRY, locales: ['ja'] });
    assert.deepEqual(asked.drafts, []);
    assert.deepEqual(
      asked.failures.map((f) => [f.locale, f.path]),
      [['ja', i18n('ja', ENTRY)]],
    );
    assert.match(asked.failures[0]!.message, /no Japanese today/);
  });

  it('says what it cannot translate: a translation (400), English with problems (422), a file that is not there (404)', async () => {
    const translation = assertError(await api.post('/api/admin/translate', { path: i18n('fr', ENTRY) }), 400, 'bad_request');
    assert.match(translation.message, /name its English file, content\/corpus\/projects\/concierge-copilot\.md/);
    assertError(await api.post('/api/admin/translate', { path: 'content/site.json' }), 400, 'bad_request');
    const broken = assertError(await api.post('/api/admin/translate', { path: ENTRY, content: '---\ntitle: [unclosed\n---\nx\n' }), 422, 'invalid');
    assert.ok(broken.errors.every((p: any) => p.path === ENTRY));
    assertError(await api.post('/api/admin/translate', { path: 'content/skills/not-yet.md' }), 404, 'not_found');
    assertError(await api.post('/api/admin/translate', { slug: 'concierge-copilot', locales: ['en'] }), 400, 'bad_request');
  });
});

describe('admin_translation GET /api/admin/translation', () => {
  it('shows the English a stale translation was made from beside the English now, found in the English file’s history', async () => {
    await idle();
    const path = i18n('ja', ENTRY);
    const before = await status(`path=${path}&branch=dev`);
    assert.equal(before.state, 'current');
    assert.equal(before.recordedSource, before.currentSource);
    assert.equal(before.source.then, before.source.now, 'a current translation was made from the English as it is');
    const made = repo.log('dev').find((c) => c.changes.some((line) => line.endsWith(ENTRY)))!.sha;
    assert.equal(before.source.thenCommit, made, 'the commit that made the English so');

    const file = assertOk(await api.get(`/api/admin/file?path=${ENTRY}&branch=dev`));
    const changed = file.content.replace(/^keyResult: .*$/m, 'keyResult: "A new key result, so the translations go stale."');
    const after = await translatorAway(async () => {
      assertOk(await api.put({ path: ENTRY, content: changed, message: 'Change the English', branch: 'dev', sha: file.sha }));
      // An unrelated commit after it: the walk goes past commits that did not touch the English.
      assertOk(
        await api.put({
          path: 'content/skills/walk-past.md',
          content: '---\nname: Walk past\ncategory: engineering\n---\nx\n',
          message: 'Other',
          branch: 'dev',
        }),
      );
      return status(`path=${ENTRY}&locale=ja&branch=dev`);
    });
    assert.deepEqual([after.path, after.locale, after.sourcePath, after.state], [path, 'ja', ENTRY, 'stale']);
    assert.equal(after.recordedSource, before.recordedSource);
    assert.notEqual(after.currentSource, after.recordedSource);
    assert.equal(after.source.now, changed);
    assert.equal(after.source.then, before.source.now);
    assert.equal(after.source.thenCommit, made);
  });

  it('is missing for a file never translated, and refuses what names no translation', async () => {
    const path = 'content/corpus/projects/never-translated.md';
    const missing = await translatorAway(async () => {
      assertOk(await api.put({ path, content: projectFile('Never translated'), message: 'A new project', branch: 'dev' }));
      return status(`path=${path}&locale=fr&branch=dev`);
    });
    assert.deepEqual([missing.state, missing.recordedSource, missing.source.then, missing.source.thenCommit], ['missing', null, null, null]);
    assert.equal(missing.source.now, projectFile('Never translated'));
    assertError(await api.get(`/api/admin/translation?path=${ENTRY}`), 400, 'bad_request');
    assertError(await api.get(`/api/admin/translation?path=${i18n('fr', ENTRY)}&locale=ja`), 400, 'bad_request');
    assertError(await api.get('/api/admin/translation?path=content/site.json&locale=fr'), 400, 'bad_request');
    assertError(await api.get('/api/admin/translation?path=content/i18n/fr/skills/nothing-here.md'), 404, 'not_found');
  });

  it('vitae admin translation <path>: the state, and for a stale one the diff of the English since', async () => {
    await idle();
    const cli = (args: string[]) => runVitaeInProcess(['admin', 'translation', ...args], { env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN } });
    const document = 'content/documents/talks.md';
    const run = await translatorAway(async () => {
      const file = assertOk(await api.get(`/api/admin/file?path=${document}&branch=dev`));
      const changed = file.content.replace(/^summary: .*$/m, 'summary: "Talks, with the newest first."');
      assertOk(await api.put({ path: document, content: changed, message: 'Retell the talks', branch: 'dev', sha: file.sha }));
      return cli([i18n('fr', document), '--branch', 'dev']);
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /stale \(fr translation of content\/documents\/talks\.md\)/);
    assert.match(run.stdout, /^\+summary: "Talks, with the newest first\."$/m);
    assert.match(run.stdout, /^-summary: /m);
    // The demo's stale Spanish translation was made from an English this repository never held.
    const seedStale = await cli([i18n('es', ENTRY)]);
    assert.equal(seedStale.code, 0, seedStale.stderr);
    assert.match(seedStale.stderr, /not in the last 100 commits/);
  });
});

describe('deleting a source file over HTTP', () => {
  it('admin_validate_changes lists its translations as going with it, and admin_delete_file deletes them in the same commit', async () => {
    await idle();
    const entry = 'content/corpus/projects/to-be-deleted.md';
    const translations = ['fr', 'ja'].map((locale) => i18n(locale, entry));
    assertOk(
      await api.post('/api/admin/changes', {
        message: 'A translated project',
        branch: 'dev',
        changes: [
          { path: entry, content: projectFile('To be deleted') },
          ...translations.map((path) => ({ path, content: '---\nsource: made-by-hand\ntitle: "[t] To be deleted"\n---\nTraduit.\n' })),
        ],
      }),
    );
    await idle();
    // Two made by hand, the other four by the publish run since.
    const all = translationLocales.map((locale) => i18n(locale, entry));
    assert.ok(all.every((path) => repo.show('dev', path) !== undefined));
    const check = assertOk(await api.post('/api/admin/changes/validate', { branch: 'dev', changes: [{ path: entry, delete: true }] }));
    assert.deepEqual(check, {
      valid: true,
      problems: [],
      files: [{ path: entry, status: 'deleted', cascade: false }, ...all.map((path) => ({ path, status: 'deleted', cascade: true }))],
    });
    const deleted = assertOk(await api.call('DELETE', '/api/admin/file', { body: { path: entry, message: 'Drop the project', branch: 'dev' } }));
    assert.deepEqual(
      deleted.files.map((f: any) => [f.path, f.sha]),
      [entry, ...all].map((path) => [path, null]),
    );
    assert.deepEqual(repo.changes(deleted.commit.sha), [entry, ...all].map((path) => `D ${path}`).sort());
    assert.deepEqual(
      repo.paths('dev').filter((path) => path.includes('to-be-deleted')),
      [],
    );
    await idle();
  });

  it('admin_validate_changes answers what a commit would: problems as data (valid false), a stale base sha as 409 naming the file', async () => {
    await idle();
    const skill = 'content/skills/python.md';
    const file = assertOk(await api.get(`/api/admin/file?path=${skill}&branch=dev`));
    const broken = file.content.replace(/^category: .*$/m, 'category: cooking');
    const invalid = assertOk(await api.post('/api/admin/changes/validate', { branch: 'dev', changes: [{ path: skill, content: broken, sha: file.sha }] }));
    assert.equal(invalid.valid, false);
    assert.deepEqual(
      invalid.problems.map((p: any) => p.path),
      [skill],
      'its own problem; the entries naming it name a file that is there',
    );
    assert.deepEqual(invalid.files, [{ path: skill, status: 'modified', cascade: false }]);
    const head = repo.head('dev');
    const stale = assertError(
      await api.post('/api/admin/changes/validate', { branch: 'dev', changes: [{ path: skill, content: file.content, sha: 'f'.repeat(40) }] }),
      409,
      'repo_error',
    );
    assert.equal(stale.path, skill);
    assert.equal(stale.currentSha, file.sha);
    assert.equal(repo.head('dev'), head, 'nothing written either way');
  });
});
