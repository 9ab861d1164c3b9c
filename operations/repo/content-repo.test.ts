// The content repository below HTTP, on a real bare git repository: the compare-and-swap that protects
// an outside push racing a commit, git failures as 502, and what a crash can leave behind (lock files,
// private index files) not blocking the next start.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../contract/errors.ts';
import { createGit, type Git } from './git.server.ts';
import { openLocalRepo, readContentDir, seedRepo } from './local-repo.server.ts';
import { createContentRepo } from './content-repo.server.ts';
import { contentGit, skillFile } from '../../testing/content-git.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';

let dataDir: string;
let seedFiles: Map<string, string>;
before(async () => {
  seedFiles = await readContentDir(englishOnlyContent());
});
after(() => rm(dataDir, { recursive: true, force: true }));

async function freshRepo() {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = await mkdtemp(join(tmpdir(), 'vitae-repo-'));
  const git = await openLocalRepo(join(dataDir, 'content.git'));
  await seedRepo(git, seedFiles);
  return { git, outside: contentGit(dataDir) };
}

const isRepoError = (status: number) => (e: unknown) => e instanceof AppError && e.code === 'repo_error' && e.status === status;

describe('commit', () => {
  it('answers 409 and keeps the outside commit when a push lands between validation and update-ref', async () => {
    const { git, outside } = await freshRepo();
    let pushed = '';
    // A git that lets an outside push land right after our commit object is made, before the ref moves.
    const racing: Git = {
      ...git,
      async run(args, options) {
        const result = await git.run(args, options);
        if (args[0] === 'commit-tree' && !pushed)
          pushed = outside.commitOutside('main', [{ path: 'content/skills/pushed.md', content: skillFile('Pushed') }], 'outside push');
        return result;
      },
      async text(args, options) {
        return (await racing.run(args, options)).stdout.toString('utf8').trim();
      },
    };
    const repo = createContentRepo(racing);
    await assert.rejects(repo.commit('main', [{ path: 'content/skills/ours.md', content: skillFile('Ours') }], 'ours'), isRepoError(409));
    assert.equal(outside.head(), pushed, 'the outside push is kept, not overwritten');
    assert.equal(outside.show('main', 'content/skills/ours.md'), undefined, 'nothing of ours was written');
    // The next attempt builds on the pushed commit.
    const retry = await createContentRepo(git).commit('main', [{ path: 'content/skills/ours.md', content: skillFile('Ours') }], 'ours');
    assert.deepEqual(outside.parents(retry.commit.sha), [pushed]);
    assert.ok(outside.show('main', 'content/skills/pushed.md'));
  });

  it('answers 502 with git’s own words when git fails, not a misleading 409', async () => {
    const { git, outside } = await freshRepo();
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

  it('answers 502 when the repository is not there at all', async () => {
    const repo = createContentRepo(createGit(join(tmpdir(), 'vitae-no-such-repo', 'content.git')));
    await assert.rejects(repo.listFiles('main', 'content'), isRepoError(502));
    await assert.rejects(repo.commit('main', [{ path: 'content/skills/x.md', content: skillFile('X') }], 'x'), isRepoError(502));
  });

  it('stores content byte for byte (UTF-8, CRLF, no final newline) and leaves no private index behind', async () => {
    const { git, outside } = await freshRepo();
    const repo = createContentRepo(git);
    const content = '---\r\nname: Ünïcödé 日本語\r\ncategory: language\r\n---\r\nBody with emoji 🙂 and no final newline';
    const result = await repo.commit('main', [{ path: 'content/skills/unicode.md', content }], 'unicode');
    assert.equal(outside.show('main', 'content/skills/unicode.md'), content);
    assert.equal((await repo.readFile('main', 'content/skills/unicode.md')).content, content);
    assert.equal(result.files[0]!.sha, outside.blobSha('main', 'content/skills/unicode.md'));
    assert.deepEqual(
      (await readdir(git.gitDir)).filter((n) => n.includes('index')),
      [],
    );
  });
});

describe('opening the repository after a crash', () => {
  it('clears stale ref locks and private index files, so writes work again', async () => {
    const { git, outside } = await freshRepo();
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
    const { outside } = await freshRepo();
    assert.equal(outside.git(['config', 'core.fsync']), 'committed');
    assert.equal(outside.git(['config', 'core.logAllRefUpdates']), 'always');
    assert.equal(outside.git(['config', 'gc.auto']), '0');
  });
});

describe('the files of a commit made here', () => {
  it('are what git itself reads at that commit: tree (paths, shas, sizes, modes) and texts, after writes and a delete', async () => {
    const { git } = await freshRepo();
    const repo = createContentRepo(git);
    const changes = [
      { path: 'content/skills/zz-new.md', content: skillFile('Zz new') },
      { path: 'content/skills/aa-new.md', content: skillFile('Ünïcode') },
    ];
    await repo.commit('main', changes, 'two new skills');
    const outcome = await repo.commit(
      'main',
      [
        { path: 'content/skills/zz-new.md', delete: true },
        { path: 'content/brief.md', content: seedFiles.get('content/brief.md')! + '\nMore.\n' },
      ],
      'a delete and an edit',
    );
    const remembered = await repo.filesAt(outcome.commit.sha);
    const fromGit = await createContentRepo(git).filesAt(outcome.commit.sha); // a fresh repository object reads git
    assert.deepEqual(remembered.tree, fromGit.tree);
    assert.deepEqual([...remembered.texts].sort(), [...fromGit.texts].sort());
    assert.ok(!remembered.texts.has('content/skills/zz-new.md'));
    assert.ok(remembered.texts.get('content/brief.md')!.endsWith('More.\n'));
  });
});
