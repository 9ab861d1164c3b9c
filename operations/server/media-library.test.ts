// The media library on its own: an image is examined once per content hash (across builds and restarts: its facts
// are kept on disk), a variant is made once and then read from disk, only the widths and formats offered are made,
// and a build of a commit whose image cannot be read fails naming the file.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { AppError } from '../contract/errors.ts';
import { blobSha } from '../repo/change-checks.ts';
import type { TreeFile } from '../repo/local-repo.server.ts';
import { makeImage, photoWithGps } from '../../testing/test-images.ts';
import { imageRecord, variantName, variantWidths } from '../content/media-refs.ts';
import { openMediaLibrary } from './media-library.server.ts';

/** Commits as a tree of images, and a count of the blobs read. */
function imagesRepo(commits: Record<string, Record<string, Buffer>>) {
  const blobs = new Map<string, Buffer>();
  const trees = new Map<string, TreeFile[]>();
  for (const [commit, files] of Object.entries(commits)) {
    trees.set(
      commit,
      Object.entries(files).map(([path, bytes]) => {
        const sha = blobSha(bytes);
        blobs.set(sha, bytes);
        return { path, sha, mode: '100644' } as TreeFile;
      }),
    );
  }
  const reads = { count: 0 };
  return {
    reads,
    repo: {
      mediaAt: async (commit: string) => trees.get(commit) ?? [],
      bytes: async (sha: string) => {
        reads.count++;
        return blobs.get(sha)!;
      },
    },
  };
}

describe('the media library', () => {
  const dirs: string[] = [];
  const scratch = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vitae-media-library-'));
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('offers widths up to the image’s own, at most 1600', () => {
    assert.deepEqual(variantWidths(200), [200]);
    assert.deepEqual(variantWidths(700), [320, 640, 700]);
    assert.deepEqual(variantWidths(1600), [320, 640, 960, 1280, 1600]);
    assert.deepEqual(variantWidths(4000), [320, 640, 960, 1280, 1600]);
  });

  it('examines an image once per content hash, across builds and a restart, with its orientation applied', async () => {
    const dir = await scratch();
    const photo = await photoWithGps(60, 40); // turned on its side by its EXIF: 40×60 as shown
    const { repo, reads } = imagesRepo({
      one: { 'content/media/a.png': await makeImage('png', 900, 300), 'content/media/photo.jpg': photo },
      two: { 'content/media/a.png': await makeImage('png', 900, 300), 'content/media/b.webp': await makeImage('webp', 30, 20) },
    });
    const library = await openMediaLibrary(dir, repo);
    const facts = await library.factsAt('one');
    assert.deepEqual(
      [...facts].map(([path, f]) => [path, f.type, f.width, f.height]),
      [
        ['content/media/a.png', 'image/png', 900, 300],
        ['content/media/photo.jpg', 'image/jpeg', 40, 60],
      ],
    );
    assert.equal(library.counts.examined, 2);
    await library.factsAt('two');
    assert.equal(library.counts.examined, 3, 'only the new image of the second commit');
    const restarted = await openMediaLibrary(dir, repo);
    const readsBefore = reads.count;
    await restarted.factsAt('one');
    await restarted.factsAt('two');
    assert.equal(restarted.counts.examined, 0, 'a restart examines nothing again');
    assert.equal(reads.count, readsBefore, 'nor reads an image');
  });

  it('makes a variant once, then reads it from disk, and only the widths and formats offered', async () => {
    const dir = await scratch();
    const { repo } = imagesRepo({ one: { 'content/media/a.jpg': await makeImage('jpeg', 1000, 500) } });
    const library = await openMediaLibrary(dir, repo);
    const facts = (await library.factsAt('one')).get('content/media/a.jpg')!;
    const name = variantName(facts.sha, 640, 'avif');
    const [first, second] = await Promise.all([library.variant(name), library.variant(name)]);
    assert.equal(library.counts.made, 1, 'asked twice at once, made once');
    assert.deepEqual(first, second);
    assert.equal(first!.type, 'image/avif');
    const meta = await sharp(first!.bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [640, 320]);
    const restarted = await openMediaLibrary(dir, repo);
    assert.deepEqual((await restarted.variant(name))!.bytes, first!.bytes);
    assert.equal(restarted.counts.made, 0, 'a restart serves the variant made before');
    assert.equal(await library.variant(variantName(facts.sha, 1280, 'webp')), undefined, 'wider than the image');
    assert.equal(await library.variant(variantName(facts.sha, 500, 'webp')), undefined, 'a width not offered');
    assert.equal(await library.variant(`${facts.sha.slice(0, 16)}-640.png`), undefined, 'a format not offered');
    assert.equal(await library.variant('../../etc/passwd'), undefined);
    const record = imageRecord('content/media/a.jpg', 'Alt', new Map([['content/media/a.jpg', facts]]), 'https://site.example');
    assert.equal(record!.url, `https://site.example/media/${variantName(facts.sha, 1000, 'webp')}`);
    assert.deepEqual([record!.width, record!.height], [1000, 500]);
  });

  it('fails a commit whose image cannot be read, naming each such file', async () => {
    const dir = await scratch();
    const cut = (await makeImage('png', 300, 300, '#123456')).subarray(0, 80);
    const { repo } = imagesRepo({
      bad: { 'content/media/cut.png': cut, 'content/media/fine.png': await makeImage('png'), 'content/media/text.jpg': Buffer.from('hello\n') },
    });
    const library = await openMediaLibrary(dir, repo);
    await assert.rejects(library.factsAt('bad'), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'invalid');
      assert.deepEqual(
        error.errors?.map((p) => p.path),
        ['content/media/cut.png', 'content/media/text.jpg'],
      );
      assert.match(error.message, /content\/media\/cut\.png: the image cannot be read/);
      assert.match(error.message, /content\/media\/text\.jpg: the image cannot be read/);
      return true;
    });
  });
});
