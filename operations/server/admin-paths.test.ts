// Path attacks on the admin API through real HTTP: every route that takes a path refuses anything but a
// regular content file with 403 forbidden_path, and the repository is left exactly as it was.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startTestService, type TestService } from '../../testing/service.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { contentGit, skillFile, type ContentGit } from '../../testing/content-git.ts';
import { adminHttp, assertError, assertOk, eventually } from '../../testing/admin-http.ts';

const TOKEN = 'paths-suite-token-2c6e9a0d4f8b1357';
let service: TestService;
let repo: ContentGit;
const api = adminHttp(() => service.url, TOKEN);
const packageJson = await readFile(new URL('../../package.json', import.meta.url), 'utf8');

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() });
  repo = contentGit(service.dataDir);
});
after(async () => {
  assert.equal(await readFile(new URL('../../package.json', import.meta.url), 'utf8'), packageJson, 'nothing outside the repository was touched');
  await service.stop();
});

const attacks = [
  '../package.json',
  '../../../../etc/passwd',
  'content/../package.json',
  'content/skills/../../package.json',
  'content/./skills/python.md',
  '%2e%2e/package.json',
  'content/%2e%2e/package.json',
  'content%2f..%2fpackage.json',
  '/etc/passwd',
  '/content/skills/python.md',
  'C:/Windows/win.ini',
  'content\\skills\\python.md',
  'content/skills/..\\..\\package.json',
  'content/skills/python.md\u0000.txt',
  'content/skills/x\u0000.md',
  '.git/config',
  'content/.git/config',
  '.gitattributes',
  'content/skills/.hidden.md',
  'content/.env.json',
  'content/skills/python.sh',
  'content/skills/python.txt',
  'package.json',
  'server.ts',
  'content//skills/python.md',
  'content/skills/',
];

/** Every admin route that takes a path, tried with `path`; each must answer 403 forbidden_path. */
async function assertRefusedEverywhere(path: string, options: { skipRead?: boolean } = {}) {
  const query = new URLSearchParams({ path, message: 'attack' }).toString();
  const what = JSON.stringify(path);
  const answers = {
    ...(options.skipRead ? {} : { read: await api.get(`/api/admin/file?${query}`) }),
    validate: await api.post('/api/admin/validate', { path, content: skillFile('Attack') }),
    write: await api.put({ path, content: skillFile('Attack'), message: 'attack' }),
    writeDev: await api.put({ path, content: skillFile('Attack'), message: 'attack', branch: 'dev' }),
    deleteQuery: await api.call('DELETE', `/api/admin/file?${query}`),
    deleteBody: await api.call('DELETE', '/api/admin/file', { body: { path, message: 'attack' } }),
    commit: await api.post('/api/admin/changes', {
      message: 'attack',
      changes: [
        { path: 'content/skills/innocent.md', content: skillFile('Innocent') },
        { path, content: skillFile('Attack') },
      ],
    }),
    commitDelete: await api.post('/api/admin/changes', { message: 'attack', changes: [{ path, delete: true }] }),
  };
  for (const [route, answer] of Object.entries(answers)) {
    assert.equal(answer.status, 403, `${route} ${what}: ${answer.text.slice(0, 300)}`);
    assertError(answer, 403, 'forbidden_path');
  }
}

describe('path attacks', () => {
  it('refuses traversal, encodings, absolute paths, backslashes, NUL, dot-files and non-content files on every route (403), changing nothing', async () => {
    const main = repo.head();
    const dev = repo.head('dev');
    const refs = repo.git(['for-each-ref']);
    for (const path of attacks) await assertRefusedEverywhere(path);
    assert.equal(repo.head(), main);
    assert.equal(repo.head('dev'), dev);
    assert.equal(repo.git(['for-each-ref']), refs, 'no ref was created or moved');
    assert.equal(repo.show('main', 'content/skills/innocent.md'), undefined, 'the innocent half of an attacking commit was not written either');
  });

  it('refuses raw percent-encoded and double-encoded traversal in the query string', async () => {
    const main = repo.head();
    for (const raw of [
      '%2e%2e/package.json',
      'content/%2e%2e/package.json',
      'content%2f..%2fpackage.json',
      '%252e%252e%252fpackage.json',
      'content/skills/x%00.md',
      '..%5cpackage.json',
      '%2fetc%2fpasswd',
    ]) {
      assertError(await api.get(`/api/admin/file?path=${raw}`), 403, 'forbidden_path');
      assertError(await api.call('DELETE', `/api/admin/file?path=${raw}&message=m`), 403, 'forbidden_path');
    }
    assert.equal(repo.head(), main);
  });

  it('never reads a file outside content/, even one that exists in the repository tree', async () => {
    // An outside push may put files next to content/; the API still only sees content/.
    repo.commitOutside('main', [{ path: 'notes/secret.md', content: 'outside content/' }], 'a file outside content/');
    const head = repo.head();
    assertError(await api.get('/api/admin/file?path=notes/secret.md'), 403, 'forbidden_path');
    assert.ok(!assertOk(await api.get('/api/admin/files')).files.some((f: any) => f.path.startsWith('notes/')));
    assertError(await api.put({ path: 'notes/secret.md', content: 'x', message: 'm' }), 403, 'forbidden_path');
    assert.equal(repo.head(), head);
  });
});

describe('how a refused path is worded', () => {
  it('a read says the path is not a content file (nothing about writing) and where paths start; a write keeps its words', async () => {
    for (const read of ['/api/admin/file?path=site.json', '/api/admin/history?path=site.json', '/api/admin/translation?path=site.json&locale=fr']) {
      const { message } = assertError(await api.get(read), 403, 'forbidden_path');
      assert.match(message, /^"site\.json" is not a content file: .* Paths are relative to the repository: content\/site\.json\.$/, read);
      assert.doesNotMatch(message, /writable/, read);
    }
    const outside = assertError(await api.get('/api/admin/file?path=../etc/passwd'), 403, 'forbidden_path');
    assert.match(outside.message, /^"\.\.\/etc\/passwd" is not a content file: .* Paths are relative to the repository, such as content\/site\.json\.$/);
    const write = assertError(await api.put({ path: 'site.json', content: '{}', message: 'm' }), 403, 'forbidden_path');
    assert.match(write.message, /^"site\.json" is not a writable content file: .* content\/site\.json\.$/);
  });
});

describe('symlinks committed into the repository from outside', () => {
  let head: string;

  before(async () => {
    await service.services.pipeline.idle();
    const links = [
      { path: 'content/skills/link.md', content: '../../package.json', mode: '120000' as const },
      { path: 'content/corpus/escape', content: '../..', mode: '120000' as const },
    ];
    repo.commitOutside('dev', links, 'outside push with symlinks');
    head = repo.commitOutside('main', links, 'outside push with symlinks');
  });

  it('refuses to write, read or validate through a symlinked file (403), changing nothing', async () => {
    await assertRefusedEverywhere('content/corpus/escape/package.json', { skipRead: true });
    // A read never follows the link: there is no such file in the tree.
    const read = await api.get('/api/admin/file?path=content/corpus/escape/package.json');
    assertError(read, 404, 'not_found');
    assert.ok(!read.text.includes('"version"'));
    assertError(await api.get('/api/admin/file?path=content/skills/link.md'), 403, 'forbidden_path');
    assertError(await api.put({ path: 'content/skills/link.md', content: skillFile('Link'), message: 'write through' }), 403, 'forbidden_path');
    assertError(await api.post('/api/admin/validate', { path: 'content/skills/link.md', content: skillFile('Link') }), 403, 'forbidden_path');
    assertError(
      await api.post('/api/admin/changes', { message: 'm', changes: [{ path: 'content/skills/link.md', content: skillFile('Link') }] }),
      403,
      'forbidden_path',
    );
    assert.equal(repo.head(), head);
    assert.equal(repo.git(['cat-file', '-p', `${head}:content/skills/link.md`]), '../../package.json', 'the link itself is untouched');
  });

  it('refuses to write under a symlinked folder (403), changing nothing', async () => {
    for (const path of ['content/corpus/escape/projects/x.md', 'content/corpus/escape/package.json', 'content/skills/link.md/x.md']) {
      assertError(await api.put({ path, content: skillFile('X'), message: 'm' }), 403, 'forbidden_path');
      assertError(await api.post('/api/admin/changes', { message: 'm', changes: [{ path, content: skillFile('X') }] }), 403, 'forbidden_path');
    }
    assert.equal(repo.head(), head);
  });

  it('does not list symlinks as content files', async () => {
    const { files } = assertOk(await api.get('/api/admin/files'));
    assert.ok(!files.some((f: any) => f.path === 'content/skills/link.md' || f.path.startsWith('content/corpus/escape')));
  });

  it('does not publish a tree with symlinks: the run fails and the previous build stays live', async () => {
    const run = await eventually('the watcher to pick up the outside push', () => {
      const r = service.services.pipeline.list('main', 5).find((x) => x.commit === head);
      return r && r.status !== 'queued' && r.status !== 'running' ? r : undefined;
    });
    assert.equal(run.status, 'failure');
    assert.match(run.error!, /not a regular file/);
    const health = await (await fetch(`${service.url}/api/health`)).json();
    assert.notEqual(health.content.commit, head);
  });

  it('rejects other writes while a symlink is in the tree (422 naming it); the API deletes the links, a folder link too', async () => {
    const invalid = assertError(await api.put({ path: 'content/skills/unrelated.md', content: skillFile('Unrelated'), message: 'm' }), 422, 'invalid');
    assert.ok(invalid.errors.some((p: any) => p.path === 'content/skills/link.md'));
    assert.ok(invalid.errors.some((p: any) => p.path === 'content/corpus/escape'));
    assert.equal(repo.head(), head);
    // Both links go in one commit through the API, the folder link by its path though it has no content file name
    // (an entry of content/ that is not a file): the tree entries are removed, nothing they point at is followed. A
    // path outside content/, or a real folder, stays refused.
    assertError(await api.call('DELETE', '/api/admin/file', { body: { path: 'content/../package.json', message: 'm' } }), 403, 'forbidden_path');
    assertError(await api.call('DELETE', '/api/admin/file', { body: { path: 'content/corpus/projects', message: 'm' } }), 403, 'forbidden_path');
    const removed = assertOk(
      await api.post('/api/admin/changes', {
        message: 'Remove the symlinks',
        changes: [
          { path: 'content/corpus/escape', delete: true },
          { path: 'content/skills/link.md', delete: true },
        ],
      }),
    );
    assert.deepEqual(repo.changes(removed.commit.sha).sort(), ['D content/corpus/escape', 'D content/skills/link.md']);
    assert.equal(await readFile(new URL('../../package.json', import.meta.url), 'utf8'), packageJson);
    await service.services.pipeline.idle();
    const run = service.services.pipeline.list('main', 1)[0]!;
    assert.equal(run.commit, removed.commit.sha);
    assert.equal(run.status, 'success');
    const { status, output } = repo.fsck();
    assert.equal(status, 0, output);
  });
});
