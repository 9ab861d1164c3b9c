// The GitHub emulator itself, through Octokit as a client of GitHub would use it: the token check, ETags,
// the Git Data API (blobs → tree on a base → commit → ref update without force, a non-fast-forward refused),
// the ref listener, the route hook, and the merges API's three answers. The backend's own suites
// (content-repo.test.ts, github-repo.test.ts) exercise the rest.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Octokit } from '@octokit/rest';
import { startGitHubEmulator, type GitHubEmulator, type RefUpdate } from './github-emulator.ts';
import { englishOnlyContent } from './content-fixture.ts';
import { contentGit, skillFile } from './content-git.ts';

let emulator: GitHubEmulator;
let octokit: Octokit;
let owner: string;
let repo: string;
before(async () => {
  emulator = await startGitHubEmulator({ seedDir: englishOnlyContent() });
  octokit = new Octokit({ auth: emulator.token, baseUrl: emulator.url, log: { debug() {}, info() {}, warn() {}, error() {} } });
  ({ owner, name: repo } = emulator);
});
after(() => emulator.close());

const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status,
  );

describe('GitHub emulator', () => {
  it('answers 401 without the token, and 304 to a matching If-None-Match', async () => {
    const stranger = new Octokit({ baseUrl: emulator.url, log: { debug() {}, info() {}, warn() {}, error() {} } });
    assert.equal(await status(stranger.rest.repos.get({ owner, repo })), 401);
    const first = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' });
    assert.ok(first.headers.etag);
    assert.equal(await status(octokit.rest.git.getRef({ owner, repo, ref: 'heads/main', headers: { 'if-none-match': first.headers.etag } })), 304);
  });

  it('commits through the Git Data API, moves refs only forward unless forced, and tells ref listeners', async () => {
    const updates: RefUpdate[] = [];
    const stop = emulator.onRefUpdate((u) => updates.push(u));
    const head = (await octokit.rest.git.getRef({ owner, repo, ref: 'heads/dev' })).data.object.sha;
    const base = (await octokit.rest.git.getCommit({ owner, repo, commit_sha: head })).data.tree.sha;
    const blob = (await octokit.rest.git.createBlob({ owner, repo, content: Buffer.from(skillFile('Data')).toString('base64'), encoding: 'base64' })).data.sha;
    const tree = (
      await octokit.rest.git.createTree({
        owner,
        repo,
        base_tree: base,
        tree: [
          { path: 'content/skills/data.md', mode: '100644', type: 'blob', sha: blob },
          { path: 'content/skills/python.md', mode: '100644', type: 'blob', sha: null },
        ],
      })
    ).data.sha;
    const commit = (await octokit.rest.git.createCommit({ owner, repo, message: 'Data API', tree, parents: [head] })).data.sha;
    await octokit.rest.git.updateRef({ owner, repo, ref: 'heads/dev', sha: commit, force: false });
    const git = contentGit(emulator.dir);
    assert.equal(git.head('dev'), commit);
    assert.deepEqual(git.changes(commit), ['A content/skills/data.md', 'D content/skills/python.md']);
    assert.equal(await status(octokit.rest.git.updateRef({ owner, repo, ref: 'heads/dev', sha: head, force: false })), 422, 'backwards is not a fast-forward');
    await octokit.rest.git.updateRef({ owner, repo, ref: 'heads/dev', sha: head, force: true });
    assert.equal(git.head('dev'), head);
    stop();
    assert.deepEqual(
      updates.map((u) => [u.branch, u.before, u.after, u.via]),
      [
        ['dev', head, commit, 'api'],
        ['dev', commit, head, 'api'],
      ],
    );
  });

  it('merges: 201 with the merge commit, 204 when there is nothing to merge, 409 on a conflict', async () => {
    await emulator.push('dev', [{ path: 'content/skills/merge-a.md', content: skillFile('A') }]);
    await emulator.push('main', [{ path: 'content/skills/merge-b.md', content: skillFile('B') }]);
    const merged = await octokit.rest.repos.merge({ owner, repo, base: 'main', head: 'dev' });
    assert.equal(merged.status, 201);
    assert.equal(merged.data.parents.length, 2);
    assert.equal((await octokit.rest.repos.merge({ owner, repo, base: 'main', head: 'dev' })).status, 204);
    await emulator.push('dev', [{ path: 'content/skills/merge-c.md', content: skillFile('C', 'dev') }]);
    await emulator.push('main', [{ path: 'content/skills/merge-c.md', content: skillFile('C', 'main') }]);
    assert.equal(await status(octokit.rest.repos.merge({ owner, repo, base: 'main', head: 'dev' })), 409);
  });

  it('lets other test support add endpoints, behind the same token check', async () => {
    emulator.route('GET', /^\/repos\/[^/]+\/[^/]+\/actions\/ping$/, ({ send }) => send(200, { pong: true }));
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/actions/ping', { owner, repo });
    assert.deepEqual(data, { pong: true });
    const stranger = new Octokit({ baseUrl: emulator.url, log: { debug() {}, info() {}, warn() {}, error() {} } });
    assert.equal(await status(stranger.request('GET /repos/{owner}/{repo}/actions/ping', { owner, repo })), 401);
  });
});

describe('emulated Actions', () => {
  it('close() stops the runs first: none reads the repository while it is removed', async () => {
    const { addActions } = await import('./github-emulator-actions.ts');
    const own = await startGitHubEmulator({ seedDir: englishOnlyContent() });
    const actions = addActions(own, { secret: 'emulator-test' });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const first = await own.push('dev', [{ path: 'content/skills/erlang.md', content: skillFile('erlang') }], 'Erlang');
      assert.equal((await actions.completed('dev', first)).conclusion, 'success');
      // A push, and the emulator closed at once: the run for it is under way when close() begins.
      const pushed = await own.push('dev', [{ path: 'content/skills/gleam.md', content: skillFile('gleam') }], 'Gleam');
      await own.close();
      const run = actions.runs.find((r) => r.head_sha === pushed);
      assert.ok(run, 'the push started a run');
      // Stopped before it read the content (still queued), or finished on the whole repository: never failed by a half-removed one.
      assert.ok(run.status === 'queued' || run.conclusion === 'success', `${run.status} ${run.conclusion}`);
      assert.deepEqual(actions.errors, []);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(rejections, []);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('starts runs in push order: a head a listing read before a push is not run again after it', async () => {
    const { addActions } = await import('./github-emulator-actions.ts');
    const own = await startGitHubEmulator({ seedDir: englishOnlyContent() });
    const actions = addActions(own, { secret: 'emulator-test' });
    try {
      const first = await own.push('dev', [{ path: 'content/skills/elixir.md', content: skillFile('elixir') }], 'Elixir');
      await actions.completed('dev', first);
      // A listing reads dev's head (the first commit), and the next push moves dev before the listing acts on it.
      const read = own.head.bind(own);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let readDev = () => {};
      const devRead = new Promise<void>((resolve) => (readDev = resolve));
      own.head = async (branch) => {
        const head = await read(branch);
        if (branch === 'dev') {
          readDev();
          await held;
        }
        return head;
      };
      const client = new Octokit({ auth: own.token, baseUrl: own.url, log: { debug() {}, info() {}, warn() {}, error() {} } });
      const listing = client.rest.actions.listWorkflowRuns({ owner: own.owner, repo: own.name, workflow_id: 'publish.yml', branch: 'dev' });
      await devRead;
      const second = await own.push('dev', [{ path: 'content/skills/clojure.md', content: skillFile('clojure') }], 'Clojure');
      release();
      await listing;
      await actions.completed('dev', second);
      await actions.settled();
      assert.deepEqual(
        actions.runs.filter((r) => r.head_branch === 'dev').map((r) => r.head_sha),
        [first, second],
        'no run for the first commit after the second one’s: the service would serve the older commit',
      );
    } finally {
      await own.close();
    }
  });
});
