// The operations the console is built on, over real HTTP and real git: admin_history (paged, per file),
// admin_read_file at a commit, admin_compare (what promote would publish), the title and translation state
// of each file in admin_list_files and its search (`q`), admin_preview (a file's public record from unsaved text),
// and admin_schema as a form is generated from it (JSON Schema per kind, vocabularies with labels).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { adminCompare, adminHistory, adminListFiles, adminPreview, adminReadFile, adminSchema, FILE_MATCHES, vocabularyNames } from '../contract/admin.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { contentGit, projectFile, skillFile, type ContentGit } from '../../testing/content-git.ts';
import { adminHttp, assertError, assertOk } from '../../testing/admin-http.ts';
import { labels } from '../contract/labels.ts';

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

describe('admin_list_files GET /api/admin/files?q=', () => {
  const search = async (query: string) => adminListFiles.output.parse(assertOk(await api.get(`/api/admin/files?${query}`)));

  it('finds files by their text in any case, with or without accents, in every locale, each with its first matching line', async () => {
    const { files, truncated } = await search('q=CAFE');
    assert.equal(truncated, false);
    const zine = files.find((f) => f.path === 'content/corpus/projects/kansai-nights-photo-zine.md')!;
    assert.ok(zine, 'the English entry that says "cafés"');
    assert.ok(
      files.some((f) => f.path === 'content/i18n/fr/corpus/projects/kansai-nights-photo-zine.md'),
      'and its French translation',
    );
    const text = repo.show('main', zine.path)!;
    assert.equal(zine.match!.line, text.split('\n').findIndex((line) => /cafés/.test(line)) + 1);
    assert.ok(text.split('\n')[zine.match!.line - 1]!.includes(zine.match!.text.replace(/^…|…$/g, '')), 'the line, trimmed around the match');
    assert.ok(zine.match!.text.length <= 162 && /cafés/.test(zine.match!.text));
    assert.equal(zine.title, parse(/^---\n([\s\S]*?)\n---/.exec(text)![1]!).title, 'a match keeps the file’s title');
    const japanese = await search('q=%E3%83%9B%E3%83%86%E3%83%AB&dir=content/i18n/ja');
    assert.ok(japanese.files.length > 0 && japanese.files.every((f) => f.path.startsWith('content/i18n/ja/') && /ホテル/.test(f.match!.text)));
    // A voiced kana is a base and a mark once decomposed; the mark is part of the word, not an accent to drop.
    const voiced = await search(`q=${encodeURIComponent('データ')}&dir=content/i18n/ja`);
    assert.ok(voiced.files.some((f) => f.path === 'content/i18n/ja/corpus/projects/clinical-notes-summariser.md'));
    assert.ok(voiced.files.every((f) => /データ/.test(f.match!.text)));
    assert.ok(
      (await search(`q=${encodeURIComponent('テータ')}&dir=content/i18n/ja`)).files.every((f) => /テータ/.test(f.match!.text)),
      'nor does テ find デ',
    );
  });

  it('matches a path too (then without a line), and lists at most the bound, saying when there were more', async () => {
    const byPath = await search('q=i18n/eo/brief');
    assert.deepEqual(
      byPath.files.map((f) => [f.path, f.match]),
      [['content/i18n/eo/brief.md', undefined]],
    );
    const many = await search('q=e');
    assert.equal(many.files.length, FILE_MATCHES);
    assert.equal(many.truncated, true);
    assertError(await api.get('/api/admin/files?q=%20%20'), 400, 'bad_request');
  });
});

describe('admin_schema GET /api/admin/schema, as a form is generated from it', () => {
  const schema = async () => adminSchema.output.parse(assertOk(await api.get('/api/admin/schema')));

  it('gives each file kind the JSON Schema of its front matter (and of its translations), which accepts what validation accepts', async () => {
    const { fileKinds, jsonSchema } = await schema();
    const kind = (name: string) => fileKinds.find((k) => k.kind === name)!;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const entry = ajv.compile(kind('entry').jsonSchema);
    const frontMatter = (path: string) => parse(/^---\n([\s\S]*?)\n---/.exec(repo.show('main', path)!)![1]!) as Record<string, unknown>;
    const copilot = frontMatter('content/corpus/projects/concierge-copilot.md');
    assert.ok(entry(copilot), JSON.stringify(entry.errors));
    assert.ok(!entry({ ...copilot, tags: ['cooking'] }), 'an unknown tag is refused');
    assert.ok(!entry({ ...copilot, titel: 'x' }), 'an unknown field is refused');
    const translation = ajv.compile(kind('entry').translationJsonSchema!);
    assert.ok(translation(frontMatter('content/i18n/ja/corpus/projects/concierge-copilot.md')), JSON.stringify(translation.errors));
    assert.ok(!translation({ title: 'x' }), 'a translation records its source');
    assert.ok(ajv.compile(kind('site').jsonSchema)(JSON.parse(repo.show('main', 'content/site.json')!)));
    assert.equal(kind('site').translationJsonSchema, undefined);
    assert.deepEqual(jsonSchema.entry, kind('entry').jsonSchema, 'the top-level record is the same schema');
    const title = (kind('entry').jsonSchema as any).properties.title;
    assert.deepEqual([title.title, title.description], ['Title', 'Role, project or degree name']);
    const field = kind('entry').fields.find((f) => f.name === 'keyResult')!;
    assert.deepEqual([field.label, field.description], ['Key result', 'The most important measurable result, one line']);
  });

  it('marks the fields whose values come from a vocabulary, and labels every vocabulary’s values', async () => {
    const { fileKinds, vocabulary } = await schema();
    const vocabularyOf = (kind: string, field: string) => (fileKinds.find((k) => k.kind === kind)!.jsonSchema as any).properties[field]['x-vocabulary'];
    assert.deepEqual(
      ['tags', 'lenses', 'skills'].map((field) => vocabularyOf('entry', field)),
      ['tags', 'lenses', 'skills'],
    );
    assert.equal(vocabularyOf('site', 'defaultLocale'), 'locales');
    assert.equal(vocabularyOf('entry', 'title'), undefined);
    assert.deepEqual(Object.keys(vocabulary).sort(), [...vocabularyNames].sort());
    // Tags and kinds in the site's own English words.
    const messages = { ...JSON.parse(readFileSync(new URL('../../app/i18n/messages/en.json', import.meta.url), 'utf8')), ...labels.en } as Record<
      string,
      string
    >;
    assert.deepEqual(
      vocabulary.tags,
      (await schema()).tags.map((tag) => ({ value: tag, label: messages[`tag.${tag}`] })),
    );
    assert.equal(vocabulary.tags.find((t) => t.value === 'devrel')!.label, 'Developer relations');
    assert.deepEqual(
      vocabulary.kinds.find((k) => k.value === 'project'),
      { value: 'project', label: messages['kind.project'] },
    );
    // Lens titles, skill and document names from main's content; languages by their English names.
    assert.deepEqual(
      vocabulary.skills.find((s) => s.value === 'python'),
      { value: 'python', label: 'Python' },
    );
    assert.match(vocabulary.lenses.find((l) => l.value === 'head-of-ai')!.label, /AI/);
    assert.equal(vocabulary.lenses.length, 11);
    assert.deepEqual(
      vocabulary.locales.find((l) => l.value === 'ja'),
      { value: 'ja', label: 'Japanese' },
    );
    assert.ok(vocabulary.documents.every((d) => d.label !== d.value));
  });
});
