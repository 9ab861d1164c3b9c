// The dev preview and admin_promote through real HTTP and real git: a write to dev is served on the
// preview listener only; promote fast-forwards or merges, says when there is nothing to merge, and
// changes nothing on a conflict or when the merged tree would be invalid.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminPromote } from '../contract/admin.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { contentGit, projectFile, skillFile, type ContentGit } from '../../testing/content-git.ts';
import { adminHttp, assertError, assertOk } from '../../testing/admin-http.ts';

const TOKEN = 'promote-suite-token-8e4b2f6a0c1d3957';
let service: TestService;
let repo: ContentGit;
const api = adminHttp(() => service.url, TOKEN);

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() });
  repo = contentGit(service.dataDir);
});
after(async () => {
  const { status, output } = repo.fsck();
  assert.equal(status, 0, output);
  await service.stop();
});

const idle = () => service.services.pipeline.idle();
const entryStatus = async (base: string, slug: string) => (await fetch(`${base}/api/v1/entries/${slug}`)).status;
const servedCommit = async (base: string) => (await (await fetch(`${base}/api/health`)).json()).content.commit as string;
const promote = (body: Record<string, unknown> = {}) => api.post('/api/admin/promote', body);

describe('the dev preview', () => {
  it('serves a write to dev on the preview listener and not on main', async () => {
    const path = 'content/corpus/projects/preview-only.md';
    const result = assertOk(await api.put({ path, content: projectFile('Preview only'), message: 'Draft on dev', branch: 'dev' }));
    assert.equal(result.branch, 'dev');
    assert.equal(repo.head('dev'), result.commit.sha);
    assert.equal(repo.show('main', path), undefined, 'main is untouched');
    await idle();
    assert.equal(await entryStatus(service.devUrl, 'preview-only'), 200);
    assert.equal(await entryStatus(service.url, 'preview-only'), 404);
    assert.equal(await servedCommit(service.devUrl), result.commit.sha);
    assert.notEqual(await servedCommit(service.url), result.commit.sha);
    const entry = await (await fetch(`${service.devUrl}/api/v1/entries/preview-only`)).json();
    assert.ok(entry.url.startsWith('http://dev.vitae.test/'), 'links point at the dev site');
    // Admin reads take the branch; by slug they resolve through that branch's live build.
    assert.equal(assertOk(await api.get('/api/admin/file?slug=preview-only&branch=dev')).path, path);
    assertError(await api.get('/api/admin/file?slug=preview-only'), 404, 'not_found');
    assertError(await api.get(`/api/admin/file?path=${path}`), 404, 'not_found');
  });
});

describe('admin_promote POST /api/admin/promote', () => {
  it('fast-forwards main to dev when main has not moved, and publishes it', async () => {
    const oldMain = repo.head();
    const dev = repo.head('dev');
    const result = adminPromote.output.parse(assertOk(await promote({ message: 'Publish the preview' })));
    assert.equal(result.merged, true);
    assert.equal(result.fastForward, true);
    // a fast-forward makes no commit to carry the publisher's note: the audit trail keeps it
    const [event] = assertOk(await api.get('/api/admin/audit?limit=1')).events;
    assert.equal(event.action, 'promote');
    assert.equal(event.detail, `main ${dev.slice(0, 7)} (fast-forward): Publish the preview`);
    assert.equal(result.branch, 'main');
    assert.equal(result.commit.sha, dev);
    assert.equal(repo.head(), dev, 'main now is dev');
    assert.equal(repo.count(`${oldMain}..main`), 1, 'no merge commit');
    assert.deepEqual(result.files, [{ path: 'content/corpus/projects/preview-only.md', sha: repo.blobSha('main', 'content/corpus/projects/preview-only.md') }]);
    await idle();
    assert.equal(await entryStatus(service.url, 'preview-only'), 200, 'published on main');
    assert.equal(await servedCommit(service.url), dev);
    const run = service.services.pipeline.list('main', 1)[0]!;
    assert.equal(run.commit, dev);
    assert.equal(run.status, 'success');
  });

  it('answers 200 merged:false when there is nothing to merge, changing nothing', async () => {
    const main = repo.head();
    const runs = service.services.pipeline.list('main', 100).length;
    const result = assertOk(await promote());
    assert.equal(result.merged, false);
    assert.equal(result.fastForward, false);
    assert.equal(result.commit.sha, main);
    assert.deepEqual(result.files, []);
    assert.equal(repo.head(), main);
    await idle();
    assert.equal(service.services.pipeline.list('main', 100).length, runs, 'no run');
  });

  it('answers merged:false too when main is ahead of dev', async () => {
    assertOk(await api.put({ path: 'content/skills/main-ahead.md', content: skillFile('Main ahead'), message: 'main only' }));
    const main = repo.head();
    const result = assertOk(await promote());
    assert.equal(result.merged, false);
    assert.equal(repo.head(), main);
  });

  it('makes a merge commit when both branches moved, keeping both sides', async () => {
    const devWrite = assertOk(await api.put({ path: 'content/skills/from-dev.md', content: skillFile('From dev'), message: 'dev side', branch: 'dev' }));
    const mainBefore = repo.head();
    const result = assertOk(await promote({ message: 'Publish the dev work' }));
    assert.equal(result.merged, true);
    assert.equal(result.fastForward, false);
    assert.equal(result.commit.message, 'Publish the dev work');
    assert.equal(repo.head(), result.commit.sha);
    assert.deepEqual(repo.parents(result.commit.sha), [mainBefore, devWrite.commit.sha], 'main first, then dev');
    assert.equal(repo.git(['log', '-1', '--format=%s', 'main']), 'Publish the dev work');
    assert.ok(repo.show('main', 'content/skills/from-dev.md'), 'the dev side is in');
    assert.ok(repo.show('main', 'content/skills/main-ahead.md'), 'the main side is kept');
    assert.deepEqual(result.files, [{ path: 'content/skills/from-dev.md', sha: repo.blobSha('main', 'content/skills/from-dev.md') }], 'what changed on main');
    assert.equal(repo.head('dev'), devWrite.commit.sha, 'dev is not moved');
    await idle();
    assert.equal(await servedCommit(service.url), result.commit.sha);
  });

  it('uses a default message for the merge commit', async () => {
    assertOk(await api.put({ path: 'content/skills/from-dev-two.md', content: skillFile('From dev two'), message: 'dev side', branch: 'dev' }));
    const result = assertOk(await promote());
    assert.equal(result.fastForward, false);
    assert.match(result.commit.message, /dev/i);
    assert.equal(repo.parents(result.commit.sha).length, 2);
  });

  it('answers 409 naming the conflicting paths when both branches changed a file, changing nothing', async () => {
    await idle();
    const path = 'content/skills/typescript.md';
    assertOk(await api.put({ path, content: skillFile('TypeScript', 'Edited on dev.'), message: 'dev edit', branch: 'dev' }));
    assertOk(await api.put({ path, content: skillFile('TypeScript', 'Edited on main.'), message: 'main edit' }));
    assertOk(await api.put({ path: 'content/skills/python.md', content: skillFile('Python', 'Edited on dev.'), message: 'dev edit 2', branch: 'dev' }));
    assertOk(await api.put({ path: 'content/skills/python.md', content: skillFile('Python', 'Edited on main.'), message: 'main edit 2' }));
    await idle();
    const main = repo.head();
    const dev = repo.head('dev');
    const refs = repo.git(['for-each-ref']);
    const runs = service.services.pipeline.list('main', 100).length;
    const body = assertError(await promote(), 409, 'repo_error');
    assert.deepEqual([...body.conflicts].sort(), ['content/skills/python.md', path]);
    assert.match(body.message, /typescript\.md/);
    assert.match(body.message, /python\.md/);
    assert.equal(repo.head(), main);
    assert.equal(repo.head('dev'), dev);
    assert.equal(repo.git(['for-each-ref']), refs);
    assert.match(repo.show('main', path)!, /Edited on main/);
    await idle();
    assert.equal(service.services.pipeline.list('main', 100).length, runs, 'no run');
  });

  it('promotes once dev resolves the conflict by matching main', async () => {
    for (const path of ['content/skills/typescript.md', 'content/skills/python.md']) {
      assertOk(await api.put({ path, content: repo.show('main', path)!, message: `resolve ${path}`, branch: 'dev' }));
    }
    const result = assertOk(await promote());
    assert.equal(result.merged, true);
    assert.match(repo.show('main', 'content/skills/typescript.md')!, /Edited on main/);
  });

  it('answers 422 and changes nothing when each side is valid but the merge would not be', async () => {
    // A skill both branches have; dev deletes it while main starts using it.
    assertOk(await api.put({ path: 'content/skills/shared-skill.md', content: skillFile('Shared skill'), message: 'add shared', branch: 'dev' }));
    assertOk(await promote());
    assertOk(await api.call('DELETE', '/api/admin/file', { body: { path: 'content/skills/shared-skill.md', message: 'drop shared', branch: 'dev' } }));
    assertOk(
      await api.put({
        path: 'content/corpus/projects/uses-shared.md',
        content: projectFile('Uses shared', { skills: ['shared-skill'] }),
        message: 'use shared',
      }),
    );
    await idle();
    const main = repo.head();
    const dev = repo.head('dev');
    const body = assertError(await promote(), 422, 'invalid');
    assert.ok(
      body.errors.some((p: any) => p.path === 'content/corpus/projects/uses-shared.md' && p.pointer?.startsWith('/skills')),
      JSON.stringify(body.errors),
    );
    assert.equal(repo.head(), main);
    assert.equal(repo.head('dev'), dev);
  });

  it('answers 422 and changes nothing when a fast-forward would publish invalid content pushed to dev', async () => {
    // Reset dev to main (as an operator would), then push something invalid onto dev from outside.
    repo.git(['update-ref', 'refs/heads/dev', repo.head(), repo.head('dev')]);
    const bad = repo.commitOutside('dev', [{ path: 'content/skills/python.md', content: '---\nname: Python\n---\nNo category.\n' }], 'invalid on dev');
    const main = repo.head();
    const body = assertError(await promote(), 422, 'invalid');
    assert.ok(body.errors.some((p: any) => p.path === 'content/skills/python.md'));
    assert.equal(repo.head(), main);
    assert.equal(repo.head('dev'), bad);
  });

  it('never merges a symlink from dev into main (422), by fast-forward or by merge commit', async () => {
    repo.git(['update-ref', 'refs/heads/dev', repo.head(), repo.head('dev')]);
    const linked = repo.commitOutside('dev', [{ path: 'content/skills/link.md', content: '../../package.json', mode: '120000' }], 'symlink on dev');
    const main = repo.head();
    assertError(await promote(), 422, 'invalid'); // fast-forward
    assertOk(await api.put({ path: 'content/skills/main-moves.md', content: skillFile('Main moves'), message: 'diverge' }));
    const diverged = repo.head();
    const body = assertError(await promote(), 422, 'invalid'); // merge commit
    assert.ok(
      body.errors.some((p: any) => p.path === 'content/skills/link.md'),
      JSON.stringify(body.errors),
    );
    assert.equal(repo.head(), diverged);
    assert.notEqual(diverged, main);
    assert.equal(repo.head('dev'), linked);
    assert.ok(!repo.paths('main').includes('content/skills/link.md'));
  });

  it('answers 400 for a message that is not a string', async () => {
    assertError(await promote({ message: 42 }), 400, 'bad_request');
  });
});
