// Images in the content repository, below HTTP: what the bytes are (sniffed, never the name), each refusal, the
// metadata stripped, and an image committed as a blob byte for byte on both backends (local git and the GitHub
// emulator) without ever being read as text by the content check or the build's files.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { AppError } from '../contract/errors.ts';
import { openLocalRepo, readContentDir, readMediaDir, seedRepo } from '../repo/local-repo.server.ts';
import { createContentRepo, type ContentRepo } from '../repo/content-repo.server.ts';
import { createGitHubRepo } from '../repo/github-repo.server.ts';
import { blobSha } from '../repo/change-checks.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { startGitHubEmulator, type GitHubEmulator } from '../../testing/github-emulator.ts';
import { GPS_MARK, imageKinds, makeImage, oversizePng, photoWithGps, SCRIPTED_SVG, tooWidePng, type ImageKind } from '../../testing/test-images.ts';
import { checkedImage, sniffImage } from './image-check.server.ts';

const refusedWith = (code: string, pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof AppError, String(e));
  assert.equal(e.code, code, e.message);
  assert.match(e.message, pattern);
  return true;
};

describe('an image checked by its bytes', () => {
  it('sniffs each type taken, and names what it found otherwise', async () => {
    for (const kind of Object.keys(imageKinds) as ImageKind[]) assert.deepEqual(sniffImage(await makeImage(kind)), { type: imageKinds[kind].type });
    assert.deepEqual(sniffImage(SCRIPTED_SVG), { other: 'an SVG image' });
    assert.deepEqual(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>')), { other: 'an SVG image' });
    assert.deepEqual(sniffImage(Buffer.from('just some text\n')), { other: 'text' });
    assert.deepEqual(
      sniffImage(
        await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
      ),
      { other: 'a GIF image' },
    );
    assert.deepEqual(sniffImage(Buffer.from([0, 1, 2, 3, 0xfe, 0xff, 0, 9])), { other: 'not an image format this service knows' });
  });

  it('takes each type under its own extension, re-encoded in the same type with its dimensions', async () => {
    for (const kind of Object.keys(imageKinds) as ImageKind[]) {
      const image = await checkedImage(`content/media/a.${imageKinds[kind].ext}`, await makeImage(kind, 48, 32));
      assert.equal(image.type, imageKinds[kind].type);
      assert.deepEqual([image.width, image.height], [48, 32]);
      assert.deepEqual(sniffImage(image.bytes), { type: imageKinds[kind].type });
    }
    assert.equal((await checkedImage('content/media/a.jpeg', await makeImage('jpeg'))).type, 'image/jpeg');
  });

  it('refuses a PNG named .jpg, text named .png, an SVG with a script, too many bytes, too many pixels, a broken file', async () => {
    await assert.rejects(
      checkedImage('content/media/a.jpg', await makeImage('png')),
      refusedWith('bad_request', /PNG image, so its name ends in \.png, not \.jpg/),
    );
    await assert.rejects(
      checkedImage('content/media/a.png', Buffer.from('hello, I am text\n')),
      refusedWith('unsupported_media_type', /is text, not an image/),
    );
    await assert.rejects(checkedImage('content/media/a.png', SCRIPTED_SVG), refusedWith('unsupported_media_type', /SVG image \(SVG can carry scripts/));
    await assert.rejects(checkedImage('content/media/a.png', oversizePng()), refusedWith('payload_too_large', /at most 8 MB/));
    await assert.rejects(checkedImage('content/media/a.png', await tooWidePng()), refusedWith('bad_request', /8001×4 pixels; at most 8000×8000/));
    const cut = (await makeImage('png', 200, 200, '#123456')).subarray(0, 60);
    await assert.rejects(checkedImage('content/media/a.png', cut), refusedWith('bad_request', /cannot be read as one/));
  });

  it('strips EXIF (the GPS location, the camera) and applies the orientation', async () => {
    const photo = await photoWithGps(60, 40);
    const before = await sharp(photo).metadata();
    assert.equal(before.orientation, 6);
    assert.ok(photo.toString('latin1').includes(GPS_MARK.camera), 'the test photo carries its EXIF');
    const image = await checkedImage('content/media/photo.jpg', photo);
    const meta = await sharp(image.bytes).metadata();
    assert.equal(meta.exif, undefined);
    assert.equal(meta.xmp, undefined);
    assert.equal(meta.orientation, undefined);
    assert.ok(!image.bytes.toString('latin1').includes(GPS_MARK.camera));
    assert.ok(!image.bytes.toString('latin1').includes('GPS'));
    assert.deepEqual([image.width, image.height, meta.width, meta.height], [40, 60, 40, 60], 'turned as its orientation says');
  });
});

/** The English demo content with an image in content/media/, as a content folder (seeded byte for byte). */
const SEEDED = 'content/media/seeded.png';
let seededBytes: Buffer;
async function contentWithImage(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'vitae-media-content-'));
  process.once('exit', () => execFileSync('rm', ['-rf', root]));
  const dir = join(root, 'content');
  await cp(englishOnlyContent(), dir, { recursive: true });
  await mkdir(join(dir, 'media'), { recursive: true }); // the demo ships images of its own
  seededBytes = await makeImage('png', 17, 9, '#f0a');
  await writeFile(join(dir, 'media', 'seeded.png'), seededBytes);
  return dir;
}

interface Opened {
  repo: ContentRepo;
  gitDir: string;
}

const backends: Array<{ name: string; open(): Promise<Opened>; close(): Promise<void> }> = [
  (() => {
    let dir: string | undefined;
    return {
      name: 'local',
      async open() {
        dir = await mkdtemp(join(tmpdir(), 'vitae-media-'));
        const git = await openLocalRepo(join(dir, 'content.git'));
        const content = await contentWithImage();
        await seedRepo(git, await readContentDir(content), undefined, await readMediaDir(content));
        return { repo: createContentRepo(git), gitDir: git.gitDir };
      },
      close: async () => void (dir && (await rm(dir, { recursive: true, force: true }))),
    };
  })(),
  (() => {
    let emulator: GitHubEmulator | undefined;
    return {
      name: 'github',
      async open() {
        emulator = await startGitHubEmulator({ seedDir: await contentWithImage() });
        const repo = createGitHubRepo({ token: emulator.token, repository: emulator.repository, apiUrl: emulator.url, writeIntervalMs: 0, retryBaseMs: 5 });
        return { repo, gitDir: emulator.bareDir };
      },
      close: async () => void (await emulator?.close()),
    };
  })(),
];

const blobAt = (gitDir: string, commit: string, path: string) => execFileSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', `${commit}:${path}`]);

for (const backend of backends) {
  describe(`images in the content repository on ${backend.name}`, () => {
    after(() => backend.close());

    it('commits each type as a blob, byte for byte, never read as text', async () => {
      const { repo, gitDir } = await backend.open();
      assert.ok(blobAt(gitDir, 'refs/heads/main', SEEDED).equals(seededBytes), 'an image of the content folder is seeded byte for byte');
      assert.equal((await repo.filesAt(await repo.head('main'))).texts.has(SEEDED), false);
      for (const kind of Object.keys(imageKinds) as ImageKind[]) {
        const path = `content/media/sample-${kind}.${imageKinds[kind].ext}`;
        const bytes = (await checkedImage(path, await makeImage(kind))).bytes;
        const outcome = await repo.commit('dev', [{ path, bytes }], `Add a ${kind} image`);
        assert.equal(outcome.changed, true);
        assert.deepEqual(outcome.files, [{ path, sha: blobSha(bytes) }]);
        assert.ok(blobAt(gitDir, outcome.commit.sha, path).equals(bytes), `${kind} stored byte for byte`);
        const files = await repo.filesAt(outcome.commit.sha);
        assert.ok(files.tree.some((e) => e.path === path && e.size === bytes.length));
        assert.equal(files.texts.has(path), false, 'an image is not among the texts the content check and the build read');
      }
      // The same bytes again change nothing; a later text commit keeps the images and the tree valid.
      const again = await repo.commit(
        'dev',
        [{ path: 'content/media/sample-png.png', bytes: (await checkedImage('content/media/x.png', await makeImage('png'))).bytes }],
        'again',
      );
      assert.equal(again.changed, false);
      assert.deepEqual(await repo.validate('dev', []), []);
      // An image is never text, and text never an image; an image is deleted like any file.
      const text = { path: 'content/media/sample-png.png', content: 'not an image' };
      await assert.rejects(async () => repo.commit('dev', [text], 'text'), refusedWith('bad_request', /upload it with admin_upload_media/));
      await assert.rejects(
        async () => repo.commit('dev', [{ path: 'content/skills/x.md', bytes: Buffer.from('x') }], 'bytes'),
        refusedWith('bad_request', /only images/),
      );
      await assert.rejects(
        async () => repo.commit('dev', [{ path: 'content/media/notes.md', content: 'x' }], 'md'),
        refusedWith('forbidden_path', /content\/media/),
      );
      const deleted = await repo.commit('dev', [{ path: 'content/media/sample-webp.webp', delete: true }], 'Remove an image');
      assert.deepEqual(deleted.files, [{ path: 'content/media/sample-webp.webp', sha: null }]);
      assert.ok(!(await repo.listFiles('dev', 'content/media')).some((f) => f.path === 'content/media/sample-webp.webp'));
    });
  });
}
