// The content repository below HTTP, on both backends — `local` (a bare git repository) and `github` (the
// GitHub emulator over a real bare git repository) — as one suite, since the policy above the GitBackend port is
// one: the compare-and-swap that protects an outside push racing a commit (and the retry onto a push that left our
// files alone), a repository that is not there as 502, content stored byte for byte, and the files of a commit made
// here. What only one backend can meet (git's lock files, what a crash leaves behind,
// the fsync settings) is tested for it alone; the github backend's faults are in github-repo.test.ts.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../contract/errors.ts';
import { createGit, type Git } from './git.server.ts';
import { openLocalRepo, readContentDir, readMediaDir, seedRepo } from './local-repo.server.ts';
import { createContentRepo, type ContentRepo } from './content-repo.server.ts';
import { createGitHubRepo } from './github-repo.server.ts';
import { contentGit, skillFile, type ContentGit } from '../../testing/content-git.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { startGitHubEmulator, type GitHubEmulator } from '../../testing/github-emulator.ts';

interface Fresh {
  repo: ContentRepo;
  /** Plain git on the repository behind the backend. */
  outside: ContentGit;
  /** A second backend object on the same repository (it reads everything again). */
  reopen(): ContentRepo;
  /** Runs `push` once, after the backend made its commit object and before the branch moves to it. */
  raceBeforeRefUpdate(push: () => void): void;
  /** The backend pointed at a repository that does not exist. */
  missing(): ContentRepo;
}

interface Backend {
  name: 'local' | 'github';
  fresh(): Promise<Fresh>;
  close(): Promise<void>;
}

function localBackend(): Backend & { git(): Git } {
  let dataDir: string | undefined;
  let git: Git;
  return {
    name: 'local',
    git: () => git,
    async fresh() {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      dataDir = await mkdtemp(join(tmpdir(), 'vitae-repo-'));
      git = await openLocalRepo(join(dataDir, 'content.git'));
      await seedRepo(git, await readContentDir(englishOnlyContent()), undefined, await readMediaDir(englishOnlyContent()));
      let race: (() => void) | undefined;
      // A git that lets an outside push land right after our commit object is made, before the ref moves.
      const racing: Git = {
        ...git,
        async run(args, options) {
          const result = await git.run(args, options);
          if (args[0] === 'commit-tree' && race) {
            const push = race;
            race = undefined;
            push();
          }
          return result;
        },
        async text(args, options) {
          return (await racing.run(args, options)).stdout.toString('utf8').trim();
        },
      };
      return {
        repo: createContentRepo(racing),
        outside: contentGit(dataDir),
        reopen: () => createContentRepo(git),
        raceBeforeRefUpdate: (push) => (race = push),
        missing: () => createContentRepo(createGit(join(tmpdir(), 'vitae-no-such-repo', 'content.git'))),
      };
    },
    async close() {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function githubBackend(): Backend {
  let emulator: GitHubEmulator | undefined;
  return {
    name: 'github',
    async fresh() {
      await emulator?.close();
      emulator = await startGitHubEmulator({ seedDir: englishOnlyContent() });
      const emu = emulator;
      const open = (repository = emu.repository) => createGitHubRepo({ token: emu.token, repository, apiUrl: emu.url, writeIntervalMs: 0, retryBaseMs: 5 });
      return {
        repo: open(),
        outside: contentGit(emu.dir),
        reopen: () => open(),
        raceBeforeRefUpdate: (push) => (emu.faults.beforeRefUpdate = () => push()),
        missing: () => open('nobody/nothing-here'),
      };
    },
    async close() {
      await emulator?.close();
    },
  };
}

const isRepoError = (status: number) => (e: unknown) => e instanceof AppError && e.code === 'repo_error' && e.status === status;

const local = localBackend();
for (const backend of [local, githubBackend()]) {
  describe(`content repository on ${backend.name}`, () => {
    after(() => backend.close());

    describe('commit', () => {
      it('answers 409 and keeps the outside commit when a push changing the same file lands before the branch moves', async () => {
        const { repo, outside, reopen, raceBeforeRefUpdate } = await backend.fresh();
        let pushed = '';
        raceBeforeRefUpdate(() => {
          pushed = outside.commitOutside('main', [{ path: 'content/skills/ours.md', content: skillFile('Theirs') }], 'outside push');
        });
        await assert.rejects(repo.commit('main', [{ path: 'content/skills/ours.md', content: skillFile('Ours') }], 'ours'), isRepoError(409));
        assert.ok(pushed, 'the push happened mid-commit');
        assert.equal(outside.head(), pushed, 'the outside push is kept, not overwritten');
        assert.equal(outside.show('main', 'content/skills/ours.md'), skillFile('Theirs'), 'nothing of ours was written');
        // The next attempt, based on what is there now, builds on the pushed commit.
        const sha = outside.blobSha('main', 'content/skills/ours.md');
        const retry = await reopen().commit('main', [{ path: 'content/skills/ours.md', content: skillFile('Ours'), sha }], 'ours');
        assert.deepEqual(outside.parents(retry.commit.sha), [pushed]);
        assert.equal(outside.show('main', 'content/skills/ours.md'), skillFile('Ours'));
      });

      it('builds on a push that lands before the branch moves and leaves our files alone: one commit on top of it', async () => {
        const { repo, outside, raceBeforeRefUpdate } = await backend.fresh();
        let pushed = '';
        raceBeforeRefUpdate(() => {
          pushed = outside.commitOutside('main', [{ path: 'content/skills/theirs.md', content: skillFile('Theirs') }], 'outside push');
        });
        const outcome = await repo.commit('main', [{ path: 'content/skills/ours.md', content: skillFile('Ours') }], 'ours');
        assert.ok(pushed, 'the push happened mid-commit');
        assert.deepEqual(outside.parents(outcome.commit.sha), [pushed]);
        assert.equal(outside.head(), outcome.commit.sha);
        assert.deepEqual(outside.changes(outcome.commit.sha), ['A content/skills/ours.md']);
        assert.equal((await repo.readFile('main', 'content/skills/theirs.md')).content, skillFile('Theirs'), 'the push is kept');
      });

      it('answers 409 for a stale base sha, and writes nothing', async () => {
        const { repo, outside } = await backend.fresh();
        const before = outside.head();
        const sha = outside.blobSha('main', 'content/brief.md');
        outside.commitOutside('main', [{ path: 'content/brief.md', content: outside.show('main', 'content/brief.md') + '\nEdited outside.\n' }]);
        const moved = outside.head();
        assert.notEqual(moved, before);
        await assert.rejects(repo.commit('main', [{ path: 'content/brief.md', content: 'x', sha }], 'stale'), (e: unknown) => {
          assert.ok(isRepoError(409)(e));
          assert.match((e as AppError).message, /content\/brief\.md.*changed since/);
          return true;
        });
        assert.equal(outside.head(), moved);
      });

      it('answers 502 when the repository is not there at all', async () => {
        const { missing } = await backend.fresh();
        const repo = missing();
        await assert.rejects(repo.listFiles('main', 'content'), isRepoError(502));
        await assert.rejects(repo.commit('main', [{ path: 'content/skills/x.md', content: skillFile('X') }], 'x'), isRepoError(502));
      });

      it('stores content byte for byte (UTF-8, CRLF, no final newline) and leaves no private index behind', async () => {
        const { repo, outside } = await backend.fresh();
        const content = '---\r\nname: Ünïcödé 日本語\r\ncategory: language\r\n---\r\nBody with emoji 🙂 and no final newline';
        const result = await repo.commit('main', [{ path: 'content/skills/unicode.md', content }], 'unicode');
        assert.equal(outside.show('main', 'content/skills/unicode.md'), content);
        assert.equal((await repo.readFile('main', 'content/skills/unicode.md')).content, content);
        assert.equal(result.files[0]!.sha, outside.blobSha('main', 'content/skills/unicode.md'));
        assert.deepEqual(
          (await readdir(outside.gitDir)).filter((n) => n.includes('index')),
          [],
        );
      });

      it('commits writes and deletes as one commit, and an identical write as none', async () => {
        const { repo, outside } = await backend.fresh();
        const before = outside.head();
        const outcome = await repo.commit(
          'main',
          [
            { path: 'content/skills/one.md', content: skillFile('One') },
            { path: 'content/skills/two.md', content: skillFile('Two') },
          ],
          'two at once',
        );
        assert.deepEqual(outside.parents(outcome.commit.sha), [before]);
        const next = await repo.commit(
          'main',
          [
            { path: 'content/skills/one.md', delete: true },
            { path: 'content/skills/three.md', content: skillFile('Three') },
          ],
          'a delete and a write',
        );
        assert.deepEqual(outside.changes(next.commit.sha), ['A content/skills/three.md', 'D content/skills/one.md']);
        assert.deepEqual(next.files, [
          { path: 'content/skills/one.md', sha: null },
          { path: 'content/skills/three.md', sha: outside.blobSha('main', 'content/skills/three.md') },
        ]);
        const same = await repo.commit('main', [{ path: 'content/skills/two.md', content: skillFile('Two') }], 'again');
        assert.equal(same.changed, false);
        assert.equal(outside.head(), next.commit.sha);
        await assert.rejects(repo.commit('main', [{ path: 'content/skills/python.md', content: '---\nname: Python\n---\n' }], 'break'), (e: unknown) => {
          assert.ok(e instanceof AppError && e.code === 'invalid');
          return true;
        });
        assert.equal(outside.head(), next.commit.sha, 'nothing written for invalid content');
      });
    });

    describe('deleting a source file', () => {
      // A skill with hand-made translations (any `source` will do: a stale translation is valid).
      const translated = (name: string) => [
        { path: `content/skills/${name}.md`, content: skillFile(name) },
        ...['fr', 'ja'].map((locale) => ({
          path: `content/i18n/${locale}/skills/${name}.md`,
          content: `---\nsource: made-by-hand\nname: ${name} (${locale})\n---\nTranslated.\n`,
        })),
      ];

      it('deletes its translations in the same commit, and lists them among the commit’s files', async () => {
        const { repo, outside } = await backend.fresh();
        await repo.commit('main', translated('cascade'), 'a translated skill');
        const outcome = await repo.commit('main', [{ path: 'content/skills/cascade.md', delete: true }], 'delete the skill');
        assert.deepEqual(outcome.files, [
          { path: 'content/skills/cascade.md', sha: null },
          { path: 'content/i18n/ja/skills/cascade.md', sha: null },
          { path: 'content/i18n/fr/skills/cascade.md', sha: null },
        ]);
        assert.deepEqual(outside.changes(outcome.commit.sha), [
          'D content/i18n/fr/skills/cascade.md',
          'D content/i18n/ja/skills/cascade.md',
          'D content/skills/cascade.md',
        ]);
        assert.deepEqual(
          (await repo.filesAt(outcome.commit.sha)).tree.filter((e) => e.path.includes('cascade')),
          [],
        );
      });

      it('takes a change set that deletes some translations itself, and refuses one that writes a translation of it', async () => {
        const { repo, outside } = await backend.fresh();
        await repo.commit('main', translated('named'), 'a translated skill');
        const review = await repo.review('main', [
          { path: 'content/i18n/fr/skills/named.md', delete: true },
          { path: 'content/skills/named.md', delete: true },
        ]);
        assert.deepEqual(review, {
          problems: [],
          files: [
            { path: 'content/i18n/fr/skills/named.md', status: 'deleted', cascade: false },
            { path: 'content/skills/named.md', status: 'deleted', cascade: false },
            { path: 'content/i18n/ja/skills/named.md', status: 'deleted', cascade: true },
          ],
        });
        const before = outside.head();
        await assert.rejects(
          repo.commit(
            'main',
            [
              { path: 'content/skills/named.md', delete: true },
              { path: 'content/i18n/ja/skills/named.md', content: '---\nsource: x\nname: Kept\n---\nKept.\n' },
            ],
            'keep a translation of nothing',
          ),
          (e: unknown) => e instanceof AppError && e.code === 'invalid' && e.errors!.some((p) => p.path === 'content/i18n/ja/skills/named.md'),
        );
        assert.equal(outside.head(), before, 'nothing written');
        const outcome = await repo.commit(
          'main',
          [
            { path: 'content/i18n/fr/skills/named.md', delete: true },
            { path: 'content/skills/named.md', delete: true },
          ],
          'delete it all',
        );
        assert.deepEqual(outcome.files.map((f) => f.path).sort(), [
          'content/i18n/fr/skills/named.md',
          'content/i18n/ja/skills/named.md',
          'content/skills/named.md',
        ]);
      });
    });

    describe('a file’s versions', () => {
      it('are its text after each commit that changed it, newest first, null where it was deleted, at most the limit', async () => {
        const { repo, reopen } = await backend.fresh();
        const path = 'content/skills/versioned.md';
        const commit = async (change: { path: string; content?: string; delete?: true }, message: string) =>
          (await repo.commit('main', [change], message)).commit.sha;
        const one = await commit({ path, content: skillFile('One') }, 'one');
        await commit({ path: 'content/skills/other.md', content: skillFile('Other') }, 'another file');
        const two = await commit({ path, content: skillFile('Two') }, 'two');
        const gone = await commit({ path, delete: true }, 'gone');
        const three = await commit({ path, content: skillFile('Three') }, 'three');
        const versions = async (limit: number) => {
          const found = [];
          for await (const version of reopen().fileVersions('main', path, limit)) found.push(version);
          return found;
        };
        assert.deepEqual(await versions(10), [
          { commit: three, text: skillFile('Three') },
          { commit: gone, text: null },
          { commit: two, text: skillFile('Two') },
          { commit: one, text: skillFile('One') },
        ]);
        assert.deepEqual(await versions(2), [
          { commit: three, text: skillFile('Three') },
          { commit: gone, text: null },
        ]);
      });
    });

    describe('the files of a commit made here', () => {
      it('are what git itself reads at that commit: tree (paths, shas, sizes, modes) and texts, after writes and a delete', async () => {
        const { repo, reopen, outside } = await backend.fresh();
        const changes = [
          { path: 'content/skills/zz-new.md', content: skillFile('Zz new') },
          { path: 'content/skills/aa-new.md', content: skillFile('Ünïcode') },
        ];
        await repo.commit('main', changes, 'two new skills');
        const outcome = await repo.commit(
          'main',
          [
            { path: 'content/skills/zz-new.md', delete: true },
            { path: 'content/brief.md', content: outside.show('main', 'content/brief.md') + '\nMore.\n' },
          ],
          'a delete and an edit',
        );
        const remembered = await repo.filesAt(outcome.commit.sha);
        const fromRepo = await reopen().filesAt(outcome.commit.sha); // a fresh repository object reads it all again
        assert.deepEqual(remembered.tree, fromRepo.tree);
        assert.deepEqual([...remembered.texts].sort(), [...fromRepo.texts].sort());
        assert.ok(!remembered.texts.has('content/skills/zz-new.md'));
        assert.ok(remembered.texts.get('content/brief.md')!.endsWith('More.\n'));
      });

      it('have the times git gives: each path’s last change on the first-parent line, and the commit’s own time', async () => {
        const { repo, outside, reopen } = await backend.fresh();
        const first = await repo.commit('main', [{ path: 'content/skills/timed.md', content: skillFile('Timed') }], 'timed');
        const times = await reopen().fileTimes(first.commit.sha);
        const committed = new Date(outside.git(['show', '-s', '--format=%cI', first.commit.sha]));
        assert.equal((await repo.committedAt(first.commit.sha)).getTime(), committed.getTime());
        assert.equal(times.get('content/skills/timed.md')?.getTime(), committed.getTime());
        const seed = outside.git(['rev-list', '--max-parents=0', first.commit.sha]);
        assert.equal(times.get('content/brief.md')?.getTime(), new Date(outside.git(['show', '-s', '--format=%cI', seed])).getTime());
        assert.deepEqual(await repo.recentCommits('main', 5), [first.commit.sha, seed]);
        // Times made from the parent's and the commit's diff are the times the whole history gives.
        await repo.fileTimes(first.commit.sha);
        const second = await repo.commit(
          'main',
          [
            { path: 'content/skills/timed.md', delete: true },
            { path: 'content/brief.md', content: outside.show('main', 'content/brief.md') + '\nLater.\n' },
          ],
          'later',
        );
        const stamps = (times: Map<string, Date>) => [...times].map(([path, time]) => [path, time.getTime()]).sort();
        const incremental = await repo.fileTimes(second.commit.sha);
        assert.equal(incremental.get('content/brief.md')?.getTime(), (await repo.committedAt(second.commit.sha)).getTime());
        assert.deepEqual(stamps(incremental), stamps(await reopen().fileTimes(second.commit.sha)));
      });
    });

    describe('history, compare and promote', () => {
      it('pages history with a cursor, compares dev with main, and promotes (fast-forward, then nothing to merge)', async () => {
        const { repo, outside } = await backend.fresh();
        for (const n of [1, 2, 3]) await repo.commit('dev', [{ path: `content/skills/h${n}.md`, content: skillFile(`H${n}`) }], `h${n}`);
        const page1 = await repo.history('dev', { limit: 2 });
        assert.deepEqual(
          page1.commits.map((c) => c.message),
          ['h3', 'h2'],
        );
        assert.deepEqual(page1.commits[0]!.files, ['content/skills/h3.md']);
        const page2 = await repo.history('dev', { limit: 2, cursor: page1.next! });
        assert.deepEqual(
          page2.commits.map((c) => c.message),
          ['h1', 'Seed content from the product'],
        );
        assert.equal(page2.next, null);
        // A cursor of the right shape naming no commit here: the caller's 400, not git's or GitHub's words.
        await assert.rejects(repo.history('dev', { limit: 2, cursor: `${'ab'.repeat(20)}:2` }), (error: { code?: string; message: string }) => {
          assert.equal(error.code, 'bad_request');
          assert.match(error.message, /cursor is not one this service gave out/);
          return true;
        });
        const oneFile = await repo.history('dev', { limit: 5, path: 'content/skills/h2.md' });
        assert.deepEqual(
          oneFile.commits.map((c) => c.message),
          ['h2'],
        );

        const comparison = await repo.compare('main', 'dev');
        assert.equal(comparison.aheadBy, 3);
        assert.deepEqual(
          comparison.commits.map((c) => c.message),
          ['h3', 'h2', 'h1'],
        );
        assert.deepEqual(
          comparison.files.map((f) => [f.path, f.before, f.after !== null]),
          [
            ['content/skills/h1.md', null, true],
            ['content/skills/h2.md', null, true],
            ['content/skills/h3.md', null, true],
          ],
        );

        const promoted = await repo.promote(undefined);
        assert.equal(promoted.merged, true);
        assert.equal(promoted.fastForward, true);
        assert.equal(outside.head('main'), outside.head('dev'));
        assert.deepEqual(promoted.files.map((f) => f.path).sort(), ['content/skills/h1.md', 'content/skills/h2.md', 'content/skills/h3.md']);
        assert.equal((await repo.promote(undefined)).merged, false);
      });

      it('merges when both moved, and refuses a conflict with 409 naming the file, changing nothing', async () => {
        const { repo, outside } = await backend.fresh();
        await repo.commit('dev', [{ path: 'content/skills/on-dev.md', content: skillFile('On dev') }], 'dev side');
        await repo.commit('main', [{ path: 'content/skills/on-main.md', content: skillFile('On main') }], 'main side');
        const merged = await repo.promote('Merge it');
        assert.equal(merged.merged, true);
        assert.equal(merged.fastForward, false);
        assert.equal(outside.parents(outside.head('main')).length, 2, 'a merge commit');
        assert.deepEqual(
          merged.files.map((f) => f.path),
          ['content/skills/on-dev.md'],
        );
        assert.deepEqual(outside.git(['for-each-ref', '--format=%(refname)', 'refs/heads']).split('\n').sort(), ['refs/heads/dev', 'refs/heads/main']);

        await repo.commit('dev', [{ path: 'content/skills/both.md', content: skillFile('Both', 'Dev.') }], 'dev both');
        await repo.commit('main', [{ path: 'content/skills/both.md', content: skillFile('Both', 'Main.') }], 'main both');
        const before = outside.head('main');
        await assert.rejects(repo.promote(undefined), (e: unknown) => {
          assert.ok(isRepoError(409)(e));
          assert.match((e as AppError).message, /content\/skills\/both\.md/);
          assert.deepEqual((e as AppError).details, { conflicts: ['content/skills/both.md'] });
          return true;
        });
        assert.equal(outside.head('main'), before, 'nothing changed');
      });
    });

    describe('commits by an editor', () => {
      const ada = { name: 'Ada Lovelace', email: 'ada@example.test' };
      const trailer = 'Co-authored-by: Ada Lovelace <ada@example.test>';
      /** git's author, committer and whole message of a commit, as the repository behind the backend has them. */
      const recorded = (outside: ContentGit, rev: string) => {
        const [author, committer, ...message] = outside.git(['log', '-1', '--format=%an <%ae>%x1f%cn <%ce>%x1f%B', rev]).split('\x1f');
        return { author: author!, committer: committer!, message: message.join('\x1f').trim() };
      };
      const coAuthorLines = (message: string) => message.split('\n').filter((line) => /^co-authored-by:/i.test(line));

      it('records who wrote a commit (git author locally, a Co-authored-by trailer on GitHub) and history names them', async () => {
        const { repo, outside, reopen } = await backend.fresh();
        await repo.commit('dev', [{ path: 'content/skills/service.md', content: skillFile('Service') }], 'by the service');
        const service = recorded(outside, 'dev');
        assert.equal(service.message, 'by the service', 'without an author, the message as it was');
        const made = await repo.commit('dev', [{ path: 'content/skills/ada.md', content: skillFile('Ada') }], 'Add Ada', ada);
        assert.equal(made.commit.message, 'Add Ada', 'the answer gives the message as written');
        const mine = recorded(outside, 'dev');
        assert.equal(mine.committer, service.committer, 'the committer is the service, as before');
        if (backend.name === 'local') {
          assert.equal(mine.author, 'Ada Lovelace <ada@example.test>');
          assert.equal(mine.message, 'Add Ada', 'no trailer where git records the author');
        } else {
          assert.equal(mine.author, service.author, "GitHub's author stays the token's user");
          assert.equal(mine.message, `Add Ada\n\n${trailer}`);
        }
        // As this backend object knows the commit it made, and as one that reads it afresh.
        for (const reader of [repo, reopen()]) {
          const { commits } = await reader.history('dev', { limit: 2 });
          assert.deepEqual(
            commits.map((c) => [c.message, c.author]),
            [
              ['Add Ada', 'Ada Lovelace'],
              ['by the service', service.author.replace(/ <.*$/, '')],
            ],
          );
        }
        const compared = await repo.compare('main', 'dev');
        assert.deepEqual(
          compared.commits.map((c) => c.author),
          ['Ada Lovelace', service.author.replace(/ <.*$/, '')],
        );
      });

      it('adds the trailer once, first among the co-authors a message names itself', async () => {
        const { repo, outside } = await backend.fresh();
        const message = `Credit\n\nCo-authored-by: Someone Else <else@example.test>\n${trailer}`;
        await repo.commit('dev', [{ path: 'content/skills/credit.md', content: skillFile('Credit') }], message, ada);
        const { message: stored } = recorded(outside, 'dev');
        const lines = coAuthorLines(stored);
        // Locally too, since history names the first co-author: a name written into the message never stands in for the author's.
        assert.deepEqual(lines, [trailer, 'Co-authored-by: Someone Else <else@example.test>']);
        if (backend.name === 'local') assert.equal(recorded(outside, 'dev').author, 'Ada Lovelace <ada@example.test>');
        const [listed] = (await repo.history('dev', { limit: 1 })).commits;
        assert.deepEqual([listed!.message, listed!.author], ['Credit', 'Ada Lovelace']);
      });

      it('lets no name or address forge a second trailer or another address', async () => {
        const { repo, outside } = await backend.fresh();
        const eve = { name: 'Eve\nCo-authored-by: Mallory <mallory@example.test>', email: 'eve@example.test>\nSigned-off-by: x' };
        await repo.commit('dev', [{ path: 'content/skills/eve.md', content: skillFile('Eve') }], 'By Eve', eve);
        const mine = recorded(outside, 'dev');
        assert.deepEqual(
          coAuthorLines(mine.message),
          backend.name === 'github' ? ['Co-authored-by: Eve Co-authored-by: Mallory mallory@example.test <eve@example.testSigned-off-by:x>'] : [],
        );
        assert.doesNotMatch(mine.message, /^Signed-off-by/m);
        if (backend.name === 'local') assert.equal(mine.author, 'Eve Co-authored-by: Mallory mallory@example.test <eve@example.testSigned-off-by:x>');
        const [listed] = (await repo.history('dev', { limit: 1 })).commits;
        assert.equal(listed!.author, 'Eve Co-authored-by: Mallory mallory@example.test');
        assert.equal(listed!.message, 'By Eve');
      });

      it('authors a promotion’s merge commit; a fast-forward makes none', async () => {
        const { repo, outside } = await backend.fresh();
        await repo.commit('dev', [{ path: 'content/skills/on-dev.md', content: skillFile('On dev') }], 'dev side');
        const ff = await repo.promote(undefined, ada);
        assert.equal(ff.fastForward, true);
        assert.equal(recorded(outside, 'main').message, 'dev side', 'a fast-forward writes nothing, so nobody is named');
        await repo.commit('dev', [{ path: 'content/skills/dev-2.md', content: skillFile('Dev 2') }], 'dev again');
        await repo.commit('main', [{ path: 'content/skills/on-main.md', content: skillFile('On main') }], 'main side');
        const service = recorded(outside, 'main');
        const merged = await repo.promote('Merge by Ada', ada);
        assert.equal(merged.fastForward, false);
        assert.equal(merged.commit.message, 'Merge by Ada');
        assert.equal(outside.parents(outside.head('main')).length, 2, 'a merge commit');
        const merge = recorded(outside, 'main');
        assert.equal(merge.committer, service.committer);
        if (backend.name === 'local') {
          assert.equal(merge.author, 'Ada Lovelace <ada@example.test>');
          assert.equal(merge.message, 'Merge by Ada');
        } else assert.equal(merge.message, `Merge by Ada\n\n${trailer}`);
        const [listed] = (await repo.history('main', { limit: 1 })).commits;
        assert.deepEqual([listed!.message, listed!.author], ['Merge by Ada', 'Ada Lovelace']);
      });
    });
  });
}

describe('local only: git itself', () => {
  after(() => local.close());

  it('answers 502 with git’s own words when git fails, not a misleading 409', async () => {
    const { outside } = await local.fresh();
    const git = local.git();
    const head = outside.head();
    // What a crash inside `git update-ref` leaves behind.
    await writeFile(join(git.gitDir, 'refs', 'heads', 'main.lock'), '');
    const repo = createContentRepo(git);
    await assert.rejects(repo.commit('main', [{ path: 'content/skills/x.md', content: skillFile('X') }], 'x'), (e: unknown) => {
      assert.ok(e instanceof AppError);
      assert.equal(e.code, 'repo_error');
      assert.equal(e.status, 502, e.message);
      assert.match(e.message, /lock/);
      return true;
    });
    assert.equal(outside.head(), head);
  });

  it('clears stale ref locks and private index files when opened after a crash, so writes work again', async () => {
    const { outside } = await local.fresh();
    const git = local.git();
    await writeFile(join(git.gitDir, 'refs', 'heads', 'main.lock'), '');
    await writeFile(join(git.gitDir, 'refs', 'heads', 'dev.lock'), '');
    await writeFile(join(git.gitDir, 'packed-refs.lock'), '');
    await writeFile(join(git.gitDir, 'vitae-index-123-456-abc'), 'half an index');
    const reopened = await openLocalRepo(git.gitDir);
    const repo = createContentRepo(reopened);
    const main = await repo.commit('main', [{ path: 'content/skills/after-crash.md', content: skillFile('After crash') }], 'after crash');
    const dev = await repo.commit('dev', [{ path: 'content/skills/after-crash.md', content: skillFile('After crash') }], 'after crash');
    assert.equal(outside.head(), main.commit.sha);
    assert.equal(outside.head('dev'), dev.commit.sha);
    assert.deepEqual(
      (await readdir(git.gitDir)).filter((n) => n.endsWith('.lock') || n.includes('index')),
      [],
    );
    assert.equal(outside.fsck().status, 0);
  });

  it('keeps the settings that make an answered commit durable', async () => {
    const { outside } = await local.fresh();
    assert.equal(outside.git(['config', 'core.fsync']), 'committed');
    assert.equal(outside.git(['config', 'core.logAllRefUpdates']), 'always');
    assert.equal(outside.git(['config', 'gc.auto']), '0');
  });
});
