// The demo's own images (content/media/, drawn by scripts/make-demo-media.ts): each one an image under a name an
// editor could have uploaded it by, modest in size, and seeded into a new content repository byte for byte on both
// branches, next to the texts that readContentDir reads (which never include an image).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isMediaPath, writablePathProblem } from '../content/paths.ts';
import { sniffImage } from '../server/image-check.server.ts';
import { openLocalRepo, readContentDir, readMediaDir, seedRepo } from './local-repo.server.ts';

const content = resolve('content');
const typeOf: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif' };

describe('the demo images in content/media/', () => {
  let dir: string | undefined;
  after(async () => void (dir && (await rm(dir, { recursive: true, force: true }))));

  it('are images named as an upload would be, each at most 250 kB and 1.2 MB together', async () => {
    const names = await readdir(join(content, 'media'));
    assert.ok(names.length > 0, 'the demo has images');
    let total = 0;
    for (const name of names) {
      const path = `content/media/${name}`;
      assert.equal(writablePathProblem(path), undefined, path);
      const bytes = await readFile(join(content, 'media', name));
      assert.deepEqual(sniffImage(bytes), { type: typeOf[name.split('.').pop()!] }, path);
      assert.ok(bytes.length <= 250 * 1024, `${path} is ${bytes.length} bytes`);
      total += bytes.length;
    }
    assert.ok(total <= 1200 * 1024, `the demo images weigh ${total} bytes together`);
  });

  it('are seeded into a new repository byte for byte, on main and dev, and never read as text', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vitae-demo-media-'));
    const git = await openLocalRepo(join(dir, 'content.git'));
    const texts = await readContentDir(content);
    const media = await readMediaDir(content);
    assert.equal([...texts.keys()].filter(isMediaPath).length, 0, 'no image is read as text');
    assert.deepEqual([...media.keys()].sort(), (await readdir(join(content, 'media'))).map((name) => `content/media/${name}`).sort());
    await seedRepo(git, texts, undefined, media);
    for (const branch of ['main', 'dev']) {
      const listed = execFileSync('git', ['--git-dir', git.gitDir, 'ls-tree', '-r', branch, 'content/media'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/));
      assert.equal(listed.length, media.size, branch);
      for (const [mode, , sha, path] of listed) {
        assert.equal(mode, '100644', path);
        const expected = execFileSync('git', ['hash-object', join(content, '..', path!)], { encoding: 'utf8' }).trim();
        assert.equal(sha, expected, `${branch}:${path}`);
      }
    }
  });
});
