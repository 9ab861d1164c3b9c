import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../contract/errors.ts';
import { createGit, gitHelperPid, type Git } from './git.server.ts';

let dir: string;
let git: Git;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vitae-git-'));
  git = createGit(join(dir, 'repo.git'));
  await git.run(['init', '--bare', '--quiet']);
});
after(() => rm(dir, { recursive: true, force: true }));

describe('git through its helper process', () => {
  it('runs git in another process than the service, and passes bytes both ways unchanged', async () => {
    const blob = Buffer.alloc(2 * 1024 * 1024);
    for (let i = 0; i < blob.length; i++) blob[i] = (i * 7919) & 0xff; // every byte value, not text
    const sha = await git.text(['hash-object', '-w', '--stdin'], { input: blob });
    const pid = gitHelperPid();
    assert.ok(pid && pid !== process.pid, 'a helper process ran the command');
    const back = (await git.run(['cat-file', 'blob', sha])).stdout;
    assert.ok(back.equals(blob));
  });

  it('words a failure with git’s own line, and takes exit codes that are answers', async () => {
    await assert.rejects(git.run(['cat-file', '-p', 'no-such-object']), (error: unknown) => {
      assert.ok(error instanceof AppError && error.code === 'repo_error');
      assert.match(error.message, /^git cat-file failed \(exit 128\): fatal: /);
      return true;
    });
    const { code } = await git.run(['rev-parse', '--verify', '--quiet', 'refs/heads/none'], { okCodes: [1] });
    assert.equal(code, 1);
  });

  it('runs many commands at once', async () => {
    const shas = await Promise.all(Array.from({ length: 40 }, (_, i) => git.text(['hash-object', '-w', '--stdin'], { input: `file ${i}\n` })));
    assert.equal(new Set(shas).size, 40);
  });

  it('goes on when the helper is killed: the next command starts a new one', async () => {
    await git.text(['--version']);
    const first = gitHelperPid()!;
    process.kill(first, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    assert.match(await git.text(['--version']), /^git version/);
    const second = gitHelperPid();
    assert.ok(second && second !== first);
  });

  it('a helper killed under a command: the command is run again directly and still answers', async () => {
    await git.text(['--version']);
    const pid = gitHelperPid()!;
    const pending = git.text(['hash-object', '--stdin'], { input: 'x'.repeat(10_000) });
    process.kill(pid, 'SIGKILL');
    assert.match(await pending, /^[0-9a-f]{40}$/);
  });

  it('ignores the terminal’s Ctrl-C: the service drains, and its git commands must finish meanwhile', async () => {
    await git.text(['--version']);
    const pid = gitHelperPid()!;
    process.kill(pid, 'SIGINT');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(gitHelperPid(), pid);
    assert.match(await git.text(['--version']), /^git version/);
  });
});

describe('hashObjects', () => {
  it('stores blobs with one process and gives the shas git gives, in order, loose or packed', async () => {
    const { hashObjects, readBlobs } = await import('./local-repo.server.ts');
    for (const count of [3, 150]) {
      const contents = Array.from({ length: count }, (_, i) =>
        i === 0 ? Buffer.alloc(0) : Buffer.from(`blob ${i} of ${count}\n${'é\u0000\n'.repeat(i % 7)}data 12\nblob\n`, 'utf8'),
      );
      const shas = await hashObjects(git, contents);
      assert.equal(shas.length, count);
      for (const i of [0, 1, count - 1]) assert.equal(shas[i], await git.text(['hash-object', '--stdin'], { input: contents[i]! }));
      const back = await readBlobs(git, shas);
      assert.ok(shas.every((sha, i) => back.get(sha)!.equals(contents[i]!)));
    }
  });
});
