// The admin operations through real HTTP against a real git repository in a temporary DATA_DIR:
// what each operation answers, what it leaves in the repository, and what the pipeline then serves.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  adminCommitChanges,
  adminDeleteFile,
  adminDeployStatus,
  adminListFiles,
  adminReadFile,
  adminSchema,
  adminValidate,
  adminWriteFile,
} from '../contract/admin.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { contentGit, projectFile, skillFile, type ContentGit } from '../../testing/content-git.ts';
import { adminHttp, assertError, assertOk, eventually } from '../../testing/admin-http.ts';

const TOKEN = 'admin-suite-token-5d1c8e0f2b7a4936';
let service: TestService;
let repo: ContentGit;
const api = adminHttp(() => service.url, TOKEN);

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
  repo = contentGit(service.dataDir);
});
after(async () => {
  // The token is never part of an answer, a run record or the health report (checked over everything this suite saw).
  const health = await (await fetch(`${service.url}/api/health`)).text();
  assert.ok(!health.includes(TOKEN));
  for (const text of api.seen) assert.ok(!text.includes(TOKEN), `the token leaked in ${text.slice(0, 200)}`);
  for (const name of await readdir(join(service.dataDir, 'runs'))) {
    assert.ok(!(await readFile(join(service.dataDir, 'runs', name), 'utf8')).includes(TOKEN), `run record ${name}`);
  }
  assert.equal(repo.fsck().status, 0, repo.fsck().output);
  await service.stop();
});

const idle = () => service.services.pipeline.idle();
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('admin_schema GET /api/admin/schema', () => {
  it('describes every file kind with typed fields, vocabularies, writable paths and the editing conventions', async () => {
    const schema = adminSchema.output.parse(assertOk(await api.get('/api/admin/schema')));
    assert.deepEqual(schema.fileKinds.map((k) => k.kind).sort(), ['brief', 'document', 'entry', 'lens', 'related-terms', 'site', 'skill']);
    assert.equal(schema.fileKinds.find((k) => k.kind === 'related-terms')!.pattern, 'content/search/related-terms.json');
    const entry = schema.fileKinds.find((k) => k.kind === 'entry')!;
    const field = (name: string) => entry.fields.find((f) => f.name === name)!;
    assert.equal(field('title').required, true);
    assert.equal(field('title').type, 'string');
    assert.equal(field('location').required, false);
    assert.deepEqual(field('tags').allowed, schema.tags);
    assert.deepEqual(field('lenses').allowed, schema.lenses);
    assert.ok(field('skills').rules!.some((r) => /content\/skills/.test(r)));
    assert.ok(entry.translationFields.includes('source'));
    assert.ok(schema.skills.includes('python'));
    assert.equal(schema.lenses.length, 11);
    assert.ok(schema.locales.includes('ja') && schema.documents.includes('profile'));
    assert.ok(schema.writablePaths.includes('content/**/*.md'));
    assert.ok(schema.conventions.some((c) => /front matter/.test(c)) && schema.conventions.some((c) => /`source`/.test(c)));
    assert.ok(schema.jsonSchema.entry && schema.jsonSchema.skill);
  });
});

describe('admin_list_files GET /api/admin/files', () => {
  it('lists every content file with the size and blob sha git has', async () => {
    const list = adminListFiles.output.parse(assertOk(await api.get('/api/admin/files')));
    assert.equal(list.branch, 'main');
    const paths = repo.paths('main');
    assert.deepEqual(list.files.map((f) => f.path).sort(), paths.sort());
    for (const file of list.files.slice(0, 20)) {
      assert.equal(file.sha, repo.blobSha('main', file.path));
      assert.equal(file.size, Buffer.byteLength(repo.show('main', file.path)!));
    }
  });

  it('filters by folder (with or without a trailing slash) and by branch', async () => {
    const { files } = assertOk(await api.get(`/api/admin/files?${q({ dir: 'content/skills/' })}`));
    assert.ok(files.length >= 20);
    assert.ok(files.every((f: any) => f.path.startsWith('content/skills/')));
    const dev = assertOk(await api.get(`/api/admin/files?${q({ dir: 'content/lenses', branch: 'dev' })}`));
    assert.equal(dev.branch, 'dev');
    assert.equal(dev.files.length, 11);
  });

  it('refuses folders outside content/ (403) and unknown branches (400)', async () => {
    for (const dir of ['content/..', '.git', '/etc', 'content/../..', 'content\\skills']) {
      assertError(await api.get(`/api/admin/files?${q({ dir })}`), 403, 'forbidden_path');
    }
    assertError(await api.get('/api/admin/files?branch=feature'), 400, 'bad_request');
  });
});

describe('admin_read_file GET /api/admin/file', () => {
  it('reads by path: the exact bytes and blob sha of the branch', async () => {
    const path = 'content/corpus/projects/concierge-copilot.md';
    const file = adminReadFile.output.parse(assertOk(await api.get(`/api/admin/file?${q({ path })}`)));
    const { translations, ...rest } = file;
    assert.deepEqual(rest, { path, sha: repo.blobSha('main', path), content: repo.show('main', path), branch: 'main', ref: repo.head('main') });
    // At the head, a source file says where its translations stand (the demo's Spanish was made from an older English).
    assert.deepEqual(translations, { zh: 'current', 'zh-hant': 'current', ja: 'current', fr: 'current', es: 'stale', eo: 'current' });
    const older = adminReadFile.output.parse(assertOk(await api.get(`/api/admin/file?${q({ path, ref: repo.head('main') })}`)));
    assert.equal(older.translations, undefined, 'not at an older commit, whose translations the model of the head does not know');
    const site = adminReadFile.output.parse(assertOk(await api.get(`/api/admin/file?${q({ path: 'content/site.json' })}`)));
    assert.equal(site.translations, undefined, 'nor for a file without translations');
  });

  it('reads by slug for an entry, a lens and a skill', async () => {
    for (const [slug, path] of [
      ['concierge-copilot', 'content/corpus/projects/concierge-copilot.md'],
      ['head-of-ai', 'content/lenses/head-of-ai.md'],
      ['python', 'content/skills/python.md'],
    ]) {
      const file = assertOk(await api.get(`/api/admin/file?${q({ slug: slug! })}`));
      assert.equal(file.path, path);
      assert.equal(file.content, repo.show('main', path!));
    }
  });

  it('answers 404 for an unknown slug or a missing file, and 400 for neither or both of path and slug', async () => {
    assertError(await api.get('/api/admin/file?slug=no-such-thing'), 404, 'not_found');
    assertError(await api.get(`/api/admin/file?${q({ path: 'content/skills/no-such-skill.md' })}`), 404, 'not_found');
    assertError(await api.get('/api/admin/file'), 400, 'bad_request');
    assertError(await api.get(`/api/admin/file?${q({ path: 'content/skills/python.md', slug: 'python' })}`), 400, 'bad_request');
  });
});

describe('admin_validate POST /api/admin/validate', () => {
  it('answers valid with no problems for a good file, and writes nothing', async () => {
    const head = repo.head();
    const result = adminValidate.output.parse(
      assertOk(await api.post('/api/admin/validate', { path: 'content/skills/new-skill.md', content: skillFile('New skill') })),
    );
    assert.deepEqual(result, { valid: true, problems: [] });
    assert.equal(repo.head(), head);
  });

  it('lists the problems of a bad file with path, JSON pointer and line', async () => {
    const content = '---\nname: Broken\ncategory: cooking\n---\nBody.\n';
    const result = assertOk(await api.post('/api/admin/validate', { path: 'content/skills/broken.md', content }));
    assert.equal(result.valid, false);
    const problem = result.problems.find((p: any) => p.pointer === '/category');
    assert.ok(problem, JSON.stringify(result.problems));
    assert.equal(problem.path, 'content/skills/broken.md');
    assert.equal(problem.line, 3);
    assert.match(problem.message, /engineering/, 'names the allowed values');
  });

  it('validates the whole tree after the change: an entry naming a missing skill is a problem', async () => {
    const result = assertOk(
      await api.post('/api/admin/validate', { path: 'content/corpus/projects/x-project.md', content: projectFile('X', { skills: ['no-such-skill'] }) }),
    );
    assert.equal(result.valid, false);
    assert.ok(
      result.problems.some((p: any) => p.path === 'content/corpus/projects/x-project.md' && p.pointer?.startsWith('/skills') && typeof p.line === 'number'),
      JSON.stringify(result.problems),
    );
  });

  it('answers 400 without content', async () => {
    assertError(await api.post('/api/admin/validate', { path: 'content/skills/x.md' }), 400, 'bad_request');
  });
});

describe('admin_write_file PUT /api/admin/file', () => {
  it('creates a file in one commit on main, and the pipeline publishes it', async () => {
    const before = repo.head();
    const runsBefore = service.services.pipeline.list('main', 100).length;
    const path = 'content/corpus/projects/written-by-test.md';
    const content = projectFile('Written by test');
    const result = adminWriteFile.output.parse(assertOk(await api.put({ path, content, message: 'Add a project' })));
    assert.equal(result.branch, 'main');
    assert.equal(result.commit.sha, repo.head(), 'the branch points at the answered commit');
    assert.equal(result.commit.message, 'Add a project');
    assert.deepEqual(repo.parents(result.commit.sha), [before]);
    assert.deepEqual(repo.changes(result.commit.sha), [`A ${path}`], 'the commit touches that file only');
    assert.deepEqual(result.files, [{ path, sha: repo.blobSha('main', path) }]);
    assert.equal(repo.show('main', path), content, 'stored byte for byte');
    assert.equal(repo.git(['log', '-1', '--format=%B', result.commit.sha]), 'Add a project');

    await idle();
    const runs = service.services.pipeline.list('main', 100);
    assert.equal(runs.length, runsBefore + 1, 'one run per commit');
    assert.equal(runs[0]!.commit, result.commit.sha);
    assert.equal(runs[0]!.status, 'success');
    const served = await fetch(`${service.url}/api/v1/entries/written-by-test`);
    assert.equal(served.status, 200);
    assert.equal((await served.json()).title, 'Written by test');
    const health = await (await fetch(`${service.url}/api/health`)).json();
    assert.equal(health.content.commit, result.commit.sha);
  });

  it('replaces a file when the base sha matches', async () => {
    const path = 'content/skills/python.md';
    const sha = repo.blobSha('main', path);
    const content = skillFile('Python', 'Updated with a matching base sha.');
    const result = assertOk(await api.put({ path, content, message: 'Edit python', sha }));
    assert.deepEqual(repo.changes(result.commit.sha), [`M ${path}`]);
    assert.equal(repo.show('main', path), content);
  });

  it('answers 409 and writes nothing when the file changed since the given sha', async () => {
    const path = 'content/skills/sql.md';
    const stale = repo.blobSha('main', path);
    assertOk(await api.put({ path, content: skillFile('SQL', 'First edit.'), message: 'first' }));
    const head = repo.head();
    const body = assertError(await api.put({ path, content: skillFile('SQL', 'Second edit.'), message: 'second', sha: stale }), 409, 'repo_error');
    assert.match(body.message, /changed since/);
    assert.equal(body.currentSha, repo.blobSha('main', path));
    assert.equal(repo.head(), head, 'nothing was written');
    assert.match(repo.show('main', path)!, /First edit/);
  });

  it('answers 409 for a sha given for a file that does not exist', async () => {
    const head = repo.head();
    assertError(await api.put({ path: 'content/skills/brand-new.md', content: skillFile('Brand new'), message: 'm', sha: 'a'.repeat(40) }), 409, 'repo_error');
    assert.equal(repo.head(), head);
  });

  it('answers 409 for a new file (sha null) that someone created meanwhile, and creates it otherwise', async () => {
    const path = 'content/skills/created-twice.md';
    assertOk(await api.put({ path, content: skillFile('Created first'), message: 'first', sha: null }));
    const head = repo.head();
    const body = assertError(await api.put({ path, content: skillFile('Created second'), message: 'second', sha: null }), 409, 'repo_error');
    assert.equal(body.path, path);
    assert.equal(repo.head(), head, 'nothing was written');
    assert.match(repo.show('main', path)!, /Created first/);
  });

  it('makes no commit and no run when the content is unchanged', async () => {
    await idle();
    const path = 'content/skills/typescript.md';
    const head = repo.head();
    const runs = service.services.pipeline.list('main', 100).length;
    const result = assertOk(await api.put({ path, content: repo.show('main', path), message: 'no-op' }));
    assert.equal(result.commit.sha, head);
    assert.equal(repo.head(), head);
    await idle();
    assert.equal(service.services.pipeline.list('main', 100).length, runs);
  });

  it('answers 422 with located problems for invalid content, and writes nothing', async () => {
    const head = repo.head();
    const content = '---\nname: Python\ncategory: engineering\nextra: nope\n---\nBody.\n';
    const body = assertError(await api.put({ path: 'content/skills/python.md', content, message: 'bad' }), 422, 'invalid');
    assert.ok(Array.isArray(body.errors) && body.errors.length >= 1);
    const problem = body.errors.find((p: any) => p.path === 'content/skills/python.md');
    assert.ok(problem?.pointer !== undefined && typeof problem.line === 'number', JSON.stringify(body.errors));
    assert.equal(repo.head(), head);
  });

  it('answers 422 for unparseable front matter and for a broken reference elsewhere in the tree', async () => {
    const head = repo.head();
    const yaml = assertError(await api.put({ path: 'content/skills/python.md', content: '---\nname: [unclosed\n---\nBody\n', message: 'm' }), 422, 'invalid');
    assert.ok(yaml.errors.some((p: any) => p.path === 'content/skills/python.md' && typeof p.line === 'number'));
    const reference = assertError(
      await api.put({ path: 'content/corpus/projects/dangling.md', content: projectFile('Dangling', { skills: ['missing-skill'] }), message: 'm' }),
      422,
      'invalid',
    );
    assert.ok(reference.errors.some((p: any) => p.pointer?.startsWith('/skills')));
    assert.equal(repo.head(), head);
  });

  it('answers 400 for input that fails the schema, naming the field', async () => {
    const head = repo.head();
    const cases: Array<[unknown, string]> = [
      [{ path: 'content/skills/x.md', content: skillFile('X') }, '/message'],
      [{ path: 'content/skills/x.md', content: skillFile('X'), message: '   ' }, '/message'],
      [{ path: 'content/skills/x.md', content: 42, message: 'm' }, '/content'],
      [{ path: 'content/skills/x.md', content: skillFile('X'), message: 'm', sha: 'abc' }, '/sha'],
      [{ path: 'content/skills/x.md', content: skillFile('X'), message: 'm', branch: 'feature' }, '/branch'],
      [{ path: 'content/skills/x.md', content: 'x'.repeat(513 * 1024), message: 'm' }, '/content'],
    ];
    for (const [input, pointer] of cases) {
      const body = assertError(await api.put(input), 400, 'bad_request');
      assert.ok(
        body.errors.some((e: any) => e.pointer === pointer),
        `${pointer}: ${JSON.stringify(body.errors)}`,
      );
    }
    assertError(await api.call('PUT', '/api/admin/file', { body: '{"path": ' }), 400, 'bad_request');
    assertError(await api.call('PUT', '/api/admin/file', { body: '[1, 2]' }), 400, 'bad_request');
    assert.equal(repo.head(), head);
  });
});

describe('admin_write_file when the body or the repository fails', () => {
  it('refuses a body over 1 MB without writing anything', async () => {
    const head = repo.head();
    const answer = await api.put({ path: 'content/skills/huge.md', content: 'x'.repeat(1100 * 1024), message: 'huge' });
    assert.ok(answer.status === 413 || answer.status === 400, `${answer.status}`);
    assert.ok(['payload_too_large', 'bad_request'].includes(answer.body.code));
    assert.equal(repo.head(), head);
  });

  it('answers 502 repo_error in git’s words when git fails (a stale lock), and writes again once it is gone', async () => {
    const lock = join(repo.gitDir, 'refs', 'heads', 'dev.lock');
    const head = repo.head('dev');
    await writeFile(lock, '');
    try {
      const body = assertError(
        await api.put({ path: 'content/skills/locked.md', content: skillFile('Locked'), message: 'm', branch: 'dev' }),
        502,
        'repo_error',
      );
      assert.match(body.message, /dev\.lock/);
      assert.equal(repo.head('dev'), head);
    } finally {
      await rm(lock, { force: true });
    }
    assertOk(await api.put({ path: 'content/skills/locked.md', content: skillFile('Locked'), message: 'm', branch: 'dev' }));
  });
});

describe('admin_delete_file DELETE /api/admin/file', () => {
  it('deletes with the fields in the query string', async () => {
    const path = 'content/skills/short-lived.md';
    assertOk(await api.put({ path, content: skillFile('Short lived'), message: 'Add a skill to delete' }));
    const sha = repo.blobSha('main', path);
    const before = repo.head();
    const result = adminDeleteFile.output.parse(assertOk(await api.call('DELETE', `/api/admin/file?${q({ path, message: 'Drop it', sha })}`)));
    assert.deepEqual(result.files, [{ path, sha: null }]);
    assert.deepEqual(repo.parents(result.commit.sha), [before]);
    assert.deepEqual(repo.changes(result.commit.sha), [`D ${path}`]);
    assert.equal(repo.show('main', path), undefined);
    assert.ok(repo.show(before, path), 'history keeps it');
    assert.equal(repo.git(['log', '-1', '--format=%s']), 'Drop it');
  });

  it('deletes with the fields in a JSON body', async () => {
    const path = 'content/skills/short-lived-too.md';
    assertOk(await api.put({ path, content: skillFile('Short lived too'), message: 'Add another' }));
    const result = assertOk(await api.call('DELETE', '/api/admin/file', { body: { path, message: 'Drop it too' } }));
    assert.deepEqual(repo.changes(result.commit.sha), [`D ${path}`]);
    assert.equal(repo.git(['log', '-1', '--format=%s']), 'Drop it too');
  });

  it('answers 404 for a file that does not exist, 409 for a stale sha, 400 without a message', async () => {
    const head = repo.head();
    assertError(await api.call('DELETE', `/api/admin/file?${q({ path: 'content/skills/never-was.md', message: 'm' })}`), 404, 'not_found');
    assertError(await api.call('DELETE', `/api/admin/file?${q({ path: 'content/skills/hiring.md', message: 'm', sha: 'b'.repeat(40) })}`), 409, 'repo_error');
    assertError(await api.call('DELETE', `/api/admin/file?${q({ path: 'content/skills/hiring.md' })}`), 400, 'bad_request');
    assert.equal(repo.head(), head);
    assert.ok(repo.show('main', 'content/skills/hiring.md'));
  });

  it('answers 422 when the delete breaks a reference (a skill entries use)', async () => {
    const head = repo.head();
    const skill = assertError(await api.call('DELETE', `/api/admin/file?${q({ path: 'content/skills/llm-applications.md', message: 'm' })}`), 422, 'invalid');
    assert.ok(
      skill.errors.some((p: any) => p.pointer?.startsWith('/skills')),
      JSON.stringify(skill.errors.slice(0, 3)),
    );
    assert.equal(repo.head(), head);
  });
});

describe('admin_commit_changes POST /api/admin/changes', () => {
  it('writes, replaces and deletes several files in exactly one commit', async () => {
    await idle();
    const runsBefore = service.services.pipeline.list('main', 100).length;
    assertOk(await api.put({ path: 'content/skills/bundle-gone.md', content: skillFile('Bundle gone'), message: 'to be deleted by the bundle' }));
    const before = repo.head();
    const pythonSha = repo.blobSha('main', 'content/skills/python.md');
    const changes = [
      { path: 'content/skills/bundle-one.md', content: skillFile('Bundle one') },
      { path: 'content/corpus/projects/bundle-project.md', content: projectFile('Bundle project', { skills: ['bundle-one', 'python'] }) },
      { path: 'content/skills/python.md', content: skillFile('Python', 'Edited in a bundle.'), sha: pythonSha },
      { path: 'content/skills/bundle-gone.md', delete: true as const },
    ];
    const result = adminCommitChanges.output.parse(assertOk(await api.post('/api/admin/changes', { changes, message: 'A bundle' })));
    assert.equal(repo.head(), result.commit.sha);
    assert.deepEqual(repo.parents(result.commit.sha), [before], 'one commit on top of the old head');
    assert.deepEqual(repo.changes(result.commit.sha), [
      'A content/corpus/projects/bundle-project.md',
      'A content/skills/bundle-one.md',
      'D content/skills/bundle-gone.md',
      'M content/skills/python.md',
    ]);
    assert.deepEqual(
      result.files,
      changes.map((c) => ({ path: c.path, sha: 'delete' in c ? null : repo.blobSha('main', c.path) })),
    );
    await idle();
    assert.equal(service.services.pipeline.list('main', 100).length, runsBefore + 2, 'one run per commit (the setup write and the bundle)');
    assert.equal((await fetch(`${service.url}/api/v1/entries/bundle-project`)).status, 200);
  });

  it('is all or nothing: one invalid change rejects the whole commit', async () => {
    const head = repo.head();
    const body = assertError(
      await api.post('/api/admin/changes', {
        message: 'half good',
        changes: [
          { path: 'content/skills/good-one.md', content: skillFile('Good one') },
          { path: 'content/skills/bad-one.md', content: '---\nname: Bad\n---\nNo category.\n' },
        ],
      }),
      422,
      'invalid',
    );
    assert.ok(
      body.errors.every((p: any) => p.path === 'content/skills/bad-one.md'),
      JSON.stringify(body.errors),
    );
    assert.equal(repo.head(), head);
    assert.equal(repo.show('main', 'content/skills/good-one.md'), undefined);
  });

  it('is all or nothing for stale shas, forbidden paths and deletes of missing files too', async () => {
    const head = repo.head();
    const good = { path: 'content/skills/good-two.md', content: skillFile('Good two') };
    assertError(
      await api.post('/api/admin/changes', {
        message: 'm',
        changes: [good, { path: 'content/skills/sql.md', content: skillFile('SQL'), sha: 'c'.repeat(40) }],
      }),
      409,
      'repo_error',
    );
    assertError(
      await api.post('/api/admin/changes', { message: 'm', changes: [good, { path: 'content/../package.json', content: '{}' }] }),
      403,
      'forbidden_path',
    );
    assertError(
      await api.post('/api/admin/changes', { message: 'm', changes: [good, { path: 'content/skills/not-there.md', delete: true }] }),
      404,
      'not_found',
    );
    assert.equal(repo.head(), head);
  });

  it('answers 400 for an empty list, a path given twice, or a change that both writes and deletes', async () => {
    const head = repo.head();
    assertError(await api.post('/api/admin/changes', { message: 'm', changes: [] }), 400, 'bad_request');
    const twice = { path: 'content/skills/twice.md', content: skillFile('Twice') };
    assertError(await api.post('/api/admin/changes', { message: 'm', changes: [twice, twice] }), 400, 'bad_request');
    assertError(await api.post('/api/admin/changes', { message: 'm', changes: [{ ...twice, delete: true }] }), 400, 'bad_request');
    assertError(await api.post('/api/admin/changes', { changes: [twice] }), 400, 'bad_request');
    assert.equal(repo.head(), head);
  });
});

describe('admin_deploy_status GET /api/admin/deploys', () => {
  it('lists runs newest first per branch, with stages, links and the site URL', async () => {
    await idle();
    const { runs } = adminDeployStatus.output.parse(assertOk(await api.get('/api/admin/deploys')));
    assert.ok(runs.length >= 3);
    assert.equal(runs[0]!.commit, repo.head());
    const ids = runs.map((r) => r.id);
    assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first');
    for (const run of runs) {
      assert.equal(run.branch, 'main');
      assert.equal(run.siteUrl, 'http://vitae.test');
      assert.ok(run.url.startsWith('http://vitae.test/api/admin/deploys'));
      assert.deepEqual(
        run.stages.map((s) => s.name),
        ['translate', 'build', 'deploy'],
      );
      assert.ok(!('retryOf' in run));
    }
    const done = runs.find((r) => r.status === 'success')!;
    assert.equal(done.stages[0]!.status, 'skipped');
    assert.match(done.stages[0]!.note!, /model/, 'translate says why it was skipped');
    assert.ok(done.stages.slice(1).every((s) => s.status === 'success' && s.startedAt && s.finishedAt));

    assert.equal(assertOk(await api.get('/api/admin/deploys?limit=2')).runs.length, 2);
    assertError(await api.get('/api/admin/deploys?limit=0'), 400, 'bad_request');
    assertError(await api.get('/api/admin/deploys?branch=prod'), 400, 'bad_request');
  });

  it('lists dev runs with the dev site URL', async () => {
    assertOk(await api.put({ path: 'content/skills/dev-only.md', content: skillFile('Dev only'), message: 'dev', branch: 'dev' }));
    await idle();
    const { runs } = assertOk(await api.get('/api/admin/deploys?branch=dev'));
    assert.equal(runs[0].branch, 'dev');
    assert.equal(runs[0].siteUrl, 'http://dev.vitae.test');
    assert.equal(runs[0].commit, repo.head('dev'));
    assert.equal(runs[0].status, 'success');
  });
});

describe('the publish pipeline', () => {
  it('a commit pushed from outside with invalid content fails its run, says why, and leaves the previous build live', async () => {
    await idle();
    const live = repo.head();
    const entries = (await (await fetch(`${service.url}/api/v1/entries`)).json()).total;
    const bad = repo.commitOutside(
      'main',
      [{ path: 'content/skills/python.md', content: '---\nname: Python\ncategory: snakes\n---\nBody.\n' }],
      'bypass validation',
    );
    const run = await eventually('the watcher to run the outside commit', () => {
      const r = service.services.pipeline.list('main', 5).find((x) => x.commit === bad);
      return r && (r.status === 'failure' || r.status === 'success') ? r : undefined;
    });
    assert.equal(run.status, 'failure');
    assert.match(run.error!, /build failed/);
    assert.match(run.error!, /content\/skills\/python\.md/, 'the run names the file');
    assert.deepEqual(
      run.stages.map((s) => s.status),
      ['skipped', 'failure', 'cancelled'],
    );
    const health = await (await fetch(`${service.url}/api/health`)).json();
    assert.equal(health.content.commit, live, 'the previous build is still live');
    assert.equal((await (await fetch(`${service.url}/api/v1/entries`)).json()).total, entries);
    const listed = assertOk(await api.get('/api/admin/deploys')).runs.find((r: any) => r.commit === bad);
    assert.match(listed.error, /python\.md/);

    // Every write now validates the whole (broken) tree, so only a change that repairs it is accepted…
    assertError(await api.put({ path: 'content/skills/unrelated.md', content: skillFile('Unrelated'), message: 'm' }), 422, 'invalid');
    // …and the repair publishes again.
    const fixed = assertOk(await api.put({ path: 'content/skills/python.md', content: skillFile('Python', 'Repaired.'), message: 'Repair python' }));
    await idle();
    assert.equal((await (await fetch(`${service.url}/api/health`)).json()).content.commit, fixed.commit.sha);
  });

  it('keeps run records on disk, one JSON file per run', async () => {
    const files = (await readdir(join(service.dataDir, 'runs'))).filter((f) => f.endsWith('.json'));
    const runs = [...service.services.pipeline.list('main', 1000), ...service.services.pipeline.list('dev', 1000)];
    assert.equal(files.length, runs.length);
    for (const run of runs) assert.deepEqual(JSON.parse(await readFile(join(service.dataDir, 'runs', `${run.id}.json`), 'utf8')), run);
  });
});

describe('every commit the API made', () => {
  it('touches only paths under content/, and fsck is clean', () => {
    const touched = repo.git(['log', '--all', '--format=', '--name-only']).split('\n').filter(Boolean);
    assert.ok(touched.length > 0);
    for (const path of touched) assert.ok(path.startsWith('content/'), path);
    const { status, output } = repo.fsck();
    assert.equal(status, 0, output);
  });
});
