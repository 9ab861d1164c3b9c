// The operations the console is built on, over real HTTP and real git: admin_history (paged, per file),
// admin_read_file at a commit, admin_compare (what promote would publish), the title and translation state
// of each file in admin_list_files, and admin_preview (a file's public record from unsaved text).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminCompare, adminHistory, adminListFiles, adminPreview, adminReadFile } from '../contract/admin.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { contentGit, projectFile, skillFile, type ContentGit } from '../../testing/content-git.ts';
import { adminHttp, assertError, assertOk } from '../../testing/admin-http.ts';

const TOKEN = 'history-suite-token-4c2e9a7b1d3f';
let service: TestService;
let repo: ContentGit;
const api = adminHttp(() => service.url, TOKEN);

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
  repo = contentGit(service.dataDir);
});
after(async () => {
  await service.stop();
});

const history = async (query: string) => adminHistory.output.parse(assertOk(await api.get(`/api/admin/history?${query}`)));
const write = async (path: string, content: string, message: string, branch = 'dev') =>
  assertOk(await api.put({ path, content, message, branch })).commit.sha as string;

describe('admin_history GET /api/admin/history', () => {
  it('lists a branch’s commits newest first, with author, time and the files each changed', async () => {
    const first = await write('content/skills/history-one.md', skillFile('History one'), 'Add history one');
    const second = await write('content/skills/history-two.md', skillFile('History two'), 'Add history two');
    const { commits } = await history('branch=dev&limit=5');
    assert.deepEqual(
      commits.slice(0, 2).map((c) => c.sha),
      [second, first],
    );
    assert.deepEqual(commits[0]!.files, ['content/skills/history-two.md']);
    assert.equal(commits[0]!.message, 'Add history two');
    assert.equal(commits[0]!.parents[0], first);
    assert.equal(commits[0]!.author, 'Vitae');
    assert.ok(!Number.isNaN(Date.parse(commits[0]!.time)));
    assert.ok(!(await history('branch=main&limit=50')).commits.some((c) => c.sha === second), 'main does not have dev’s commits');
  });

  it('follows one file, and pages with a cursor that stays put while the branch moves on', async () => {
    const path = 'content/skills/history-paged.md';
    const shas: string[] = [];
    for (let i = 1; i <= 5; i++) shas.unshift(await write(path, skillFile(`Paged ${i}`), `Paged ${i}`));
    const page1 = await history(`branch=dev&path=${path}&limit=2`);
    assert.deepEqual(
      page1.commits.map((c) => c.sha),
      shas.slice(0, 2),
    );
    assert.ok(page1.commits.every((c) => c.files.includes(path)));
    await write('content/skills/history-other.md', skillFile('Other'), 'Something else meanwhile');
    await write(path, skillFile('Paged 6'), 'Paged 6');
    const page2 = await history(`branch=dev&path=${path}&limit=2&cursor=${page1.next}`);
    assert.deepEqual(
      page2.commits.map((c) => c.sha),
      shas.slice(2, 4),
      'the next page continues where the first ended',
    );
    const page3 = await history(`branch=dev&path=${path}&limit=2&cursor=${page2.next}`);
    assert.deepEqual(
      page3.commits.map((c) => c.sha),
      [shas[4]],
      'the commit that made the file is the last one of its history',
    );
    assert.equal(page3.next, null);
    assertError(await api.get('/api/admin/history?cursor=not-a-cursor'), 400, 'bad_request');
    assertError(await api.get('/api/admin/history?path=../etc/passwd'), 403, 'forbidden_path');
  });
});

describe('admin_read_file GET /api/admin/file?ref=', () => {
  it('reads a file as it was at a commit, and says which commit it read', async () => {
    const path = 'content/skills/history-ref.md';
    const old = await write(path, skillFile('Version one'), 'Version one');
    await write(path, skillFile('Version two'), 'Version two');
    const then = adminReadFile.output.parse(assertOk(await api.get(`/api/admin/file?path=${path}&branch=dev&ref=${old.slice(0, 10)}`)));
    assert.match(then.content, /Version one/);
    assert.equal(then.ref, old);
    const now = adminReadFile.output.parse(assertOk(await api.get(`/api/admin/file?path=${path}&branch=dev`)));
    assert.match(now.content, /Version two/);
    assert.equal(now.ref, repo.head('dev'));
    assertError(await api.get(`/api/admin/file?path=${path}&ref=${'0'.repeat(40)}`), 404, 'not_found');
    assertError(await api.get(`/api/admin/file?path=${path}&ref=HEAD~1`), 400, 'bad_request');
  });
});

describe('admin_compare GET /api/admin/compare', () => {
  it('lists what dev has that main lacks — its commits and each file with a diff — and nothing after promote', async () => {
    const added = 'content/corpus/projects/compare-new.md';
    await write(added, projectFile('Compare new'), 'Add a project to compare');
    const comparison = adminCompare.output.parse(assertOk(await api.get('/api/admin/compare')));
    assert.equal(comparison.base, 'main');
    assert.equal(comparison.head, 'dev');
    assert.equal(comparison.aheadBy, Number(repo.git(['rev-list', '--count', 'main..dev'])));
    assert.equal(comparison.commits[0]!.message, 'Add a project to compare');
    const file = comparison.files.find((f) => f.path === added)!;
    assert.equal(file.status, 'added');
    assert.match(file.diff, /^\+title: "Compare new"$/m);
    assert.ok(comparison.files.some((f) => f.path === 'content/skills/history-ref.md' && f.status === 'added'));

    const reverse = adminCompare.output.parse(assertOk(await api.get('/api/admin/compare?base=dev&head=main')));
    assert.equal(reverse.aheadBy, 0);
    assertError(await api.get('/api/admin/compare?base=dev&head=dev'), 400, 'bad_request');

    assertOk(await api.post('/api/admin/promote', {}));
    const after = adminCompare.output.parse(assertOk(await api.get('/api/admin/compare')));
    assert.equal(after.aheadBy, 0);
    assert.deepEqual(after.files, []);
  });
});

describe('translation states in admin_list_files', () => {
  it('marks each source file’s translations current, stale or missing, per locale', async () => {
    const list = async (branch: string) => adminListFiles.output.parse(assertOk(await api.get(`/api/admin/files?branch=${branch}`))).files;
    const files = await list('main');
    const copilot = files.find((f) => f.path === 'content/corpus/projects/concierge-copilot.md')!;
    assert.equal(copilot.translations?.es, 'stale', 'the demo keeps one stale translation on purpose');
    assert.equal(copilot.translations?.ja, 'current');
    assert.match(copilot.title!, /^Concierge Copilot/, 'files show their titles as well as their paths');
    assert.equal(files.find((f) => f.path === 'content/skills/typescript.md')!.title, 'TypeScript');
    assert.equal(files.find((f) => f.path === 'content/site.json')!.title, 'Noa Castellan');
    assert.equal(Object.keys(copilot.translations).length, 6, 'every locale but English');
    assert.equal(files.find((f) => f.path === 'content/skills/typescript.md')!.translations, undefined, 'skills are not machine-translated');
    assert.equal(files.find((f) => f.path.startsWith('content/i18n/'))!.translations, undefined, 'translations have no translations');

    const path = 'content/corpus/projects/wallet-onboarding-kit.md';
    const file = assertOk(await api.get(`/api/admin/file?path=${path}&branch=dev`));
    await write(path, file.content.replace(/^summary: .*$/m, 'summary: "A changed summary for the translation test."'), 'Change the English');
    const dev = await list('dev');
    assert.deepEqual(new Set(Object.values(dev.find((f) => f.path === path)!.translations!)), new Set(['stale']));
    assert.deepEqual(new Set(Object.values(dev.find((f) => f.path === 'content/corpus/projects/compare-new.md')!.translations!)), new Set(['missing']));
  });
});

describe('admin_preview POST /api/admin/preview', () => {
  const preview = async (body: Record<string, unknown>) => adminPreview.output.parse(assertOk(await api.post('/api/admin/preview', body)));
  const path = 'content/corpus/projects/concierge-copilot.md';

  it('makes the public record from unsaved text, in the locale asked, and writes nothing', async () => {
    const head = repo.head('dev');
    const saved = assertOk(await api.get(`/api/admin/file?path=${path}&branch=dev`)).content as string;
    const english = await preview({ path, branch: 'dev', content: saved.replace(/^title: .*$/m, 'title: "Concierge Copilot, previewed"') });
    assert.equal(english.kind, 'entry');
    assert.equal(english.entry!.title, 'Concierge Copilot, previewed');
    assert.equal(english.labels.skills.python, 'Python');
    assert.ok(english.labels.lenses['head-of-ai']);
    const japanese = await preview({ path, branch: 'dev', locale: 'ja', content: saved });
    assert.equal(japanese.entry!.translated, true);
    assert.match(japanese.entry!.title, /ホテル/);
    const changed = await preview({ path, branch: 'dev', locale: 'ja', content: saved.replace(/^summary: .*$/m, 'summary: "Changed English."') });
    assert.equal(changed.entry!.translated, false, 'a changed English makes the translation stale: the page falls back to English');
    assert.equal(repo.head('dev'), head, 'nothing was written');
  });

  it('previews a translation in its own locale, and says what keeps invalid text from being published', async () => {
    const ja = `content/i18n/ja/corpus/projects/concierge-copilot.md`;
    const text = assertOk(await api.get(`/api/admin/file?path=${ja}&branch=dev`)).content as string;
    const translated = await preview({ path: ja, branch: 'dev', locale: 'fr', content: text.replace(/^title: .*$/m, 'title: "新しい題名"') });
    assert.equal(translated.locale, 'ja');
    assert.equal(translated.entry!.title, '新しい題名');
    const broken = await preview({ path, branch: 'dev', content: '---\ntitle: x\n---\n' });
    assert.equal(broken.kind, null);
    assert.ok(broken.problems.some((p) => p.path === path));
  });
});
