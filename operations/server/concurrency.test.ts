// Concurrent writers over real HTTP: writers to one branch are serialised, none is lost, a stale base
// sha loses cleanly with 409, the history stays linear and fsck-clean, and the newest commit is what
// ends up published.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { startTestService, type TestService } from '../../testing/service.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { contentGit, skillFile, type ContentGit } from '../../testing/content-git.ts';
import { adminHttp, assertError, assertOk } from '../../testing/admin-http.ts';

const TOKEN = 'concurrency-suite-token-4a7c1e9f3b5d';
let service: TestService;
let repo: ContentGit;
const api = adminHttp(() => service.url, TOKEN);

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() });
  repo = contentGit(service.dataDir);
});
after(() => service.stop());

const servedCommit = async (base: string) => (await (await fetch(`${base}/api/health`)).json()).content.commit as string;

describe('concurrent writers', () => {
  it('50 writers to 50 different files: 50 commits in a line, every file present, fsck clean', { timeout: 120_000 }, async () => {
    const base = repo.head();
    const writes = Array.from({ length: 50 }, (_, i) => ({
      path: `content/skills/concurrent-${String(i).padStart(2, '0')}.md`,
      content: skillFile(`Concurrent ${i}`),
      message: `writer ${i}`,
    }));
    const answers = await Promise.all(writes.map((w) => api.put(w)));
    for (const answer of answers) assertOk(answer);
    const shas = answers.map((a) => a.body.commit.sha as string);
    assert.equal(new Set(shas).size, 50, 'one distinct commit per writer');

    const history = repo.log(`${base}..main`);
    assert.equal(history.length, 50);
    assert.deepEqual(history.map((c) => c.sha).sort(), [...shas].sort(), 'exactly the answered commits, nothing else');
    const bySha = new Map(history.map((c) => [c.sha, c]));
    history.forEach((c, i) =>
      assert.deepEqual(c.parents, i + 1 < history.length ? [history[i + 1]!.sha] : [base], 'linear history: one parent, the previous commit'),
    );
    answers.forEach((answer, i) => {
      const commit = bySha.get(answer.body.commit.sha)!;
      assert.deepEqual(commit.changes, [`A ${writes[i]!.path}`], 'each commit holds its own write only');
      assert.equal(commit.subject, writes[i]!.message);
    });
    assert.deepEqual(
      repo.showMany(
        'main',
        writes.map((w) => w.path),
      ),
      writes.map((w) => w.content),
      'every file present, byte for byte',
    );

    const { status, output } = repo.fsck();
    assert.equal(status, 0, output);
    await service.services.pipeline.idle();
    assert.equal(await servedCommit(service.url), repo.head(), 'the newest commit is the one published');
    const runs = service.services.pipeline.list('main', 200).filter((r) => shas.includes(r.commit));
    assert.equal(runs.length, 50, 'a run for every commit');
    assert.ok(
      runs.every((r) => r.status === 'success' || (r.status === 'cancelled' && /superseded/.test(r.error ?? ''))),
      'older queued runs are superseded, none fails',
    );
    const entries = await fetch(`${service.url}/api/admin/files?dir=content/skills`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const listed = (await entries.json()).files.map((f: any) => f.path);
    for (const w of writes) assert.ok(listed.includes(w.path));
  });

  it('20 writers to one file with the same base sha: exactly one 200, 19 answers 409, nothing else written', { timeout: 120_000 }, async () => {
    const path = 'content/skills/python.md';
    const sha = repo.blobSha('main', path);
    const head = repo.head();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.put({ path, content: skillFile('Python', `Edited by racer ${i}.`), message: `racer ${i}`, sha })),
    );
    const winners = answers.filter((a) => a.status === 200);
    assert.equal(winners.length, 1, answers.map((a) => a.status).join(' '));
    for (const loser of answers.filter((a) => a.status !== 200)) {
      const body = assertError(loser, 409, 'repo_error');
      assert.equal(body.currentSha, winners[0]!.body.files[0].sha);
    }
    assert.equal(repo.count(`${head}..main`), 1);
    assert.equal(repo.head(), winners[0]!.body.commit.sha);
    const racer = answers.indexOf(winners[0]!);
    assert.equal(repo.show('main', path), skillFile('Python', `Edited by racer ${racer}.`));
    assert.equal(repo.fsck().status, 0);
  });

  it('8 writers to one file without a base sha: all succeed one after another, the last wins, none is lost from history', { timeout: 120_000 }, async () => {
    const path = 'content/skills/sql.md';
    const head = repo.head();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.put({ path, content: skillFile('SQL', `Version ${i}.`), message: `version ${i}` })),
    );
    for (const answer of answers) assertOk(answer);
    assert.equal(repo.count(`${head}..main`), 8);
    const last = repo.git(['log', '-1', '--format=%s', 'main']);
    assert.equal(repo.show('main', path), skillFile('SQL', `Version ${last.replace('version ', '')}.`));
    const messages = repo.log(`${head}..main`).map((c) => c.subject);
    for (let i = 0; i < 8; i++) assert.ok(messages.includes(`version ${i}`));
  });

  it('writers on main and dev with promotes in between: every write lands, branches stay consistent', { timeout: 120_000 }, async () => {
    const writes = Array.from({ length: 12 }, (_, i) => ({
      path: `content/skills/mixed-${i}.md`,
      content: skillFile(`Mixed ${i}`),
      message: `mixed ${i}`,
      branch: i % 2 ? 'dev' : 'main',
    }));
    const answers = await Promise.all([...writes.map((w) => api.put(w)), api.post('/api/admin/promote', {}), api.post('/api/admin/promote', {})]);
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    const final = assertOk(await api.post('/api/admin/promote', {}));
    assert.ok(final.merged || repo.isAncestor(repo.head('dev'), repo.head()));
    for (const branch of ['main', 'dev']) {
      const own = writes.filter((w) => w.branch === branch);
      assert.deepEqual(
        repo.showMany(
          branch,
          own.map((w) => w.path),
        ),
        own.map((w) => w.content),
        `the writes to ${branch}`,
      );
    }
    assert.deepEqual(
      repo.showMany(
        'main',
        writes.map((w) => w.path),
      ),
      writes.map((w) => w.content),
      'all promoted to main',
    );
    assert.ok(repo.isAncestor(repo.head('dev'), repo.head()), 'main contains all of dev');
    const { status, output } = repo.fsck();
    assert.equal(status, 0, output);
    await service.services.pipeline.idle();
    assert.equal(await servedCommit(service.url), repo.head());
    assert.equal(await servedCommit(service.devUrl), repo.head('dev'));
  });

  it('leaves no private index files behind', { timeout: 120_000 }, async () => {
    const leftovers = (await readdir(repo.gitDir)).filter((name) => name.startsWith('vitae-index-') || name.startsWith('index-'));
    assert.deepEqual(leftovers, []);
  });
});
