// Images in a change set, on both backends over REST: admin_commit_changes commits a text and an image as ONE commit
// (the image checked and stripped of its metadata as admin_upload_media does it), admin_validate_changes says what that
// commit would do, a bad image refuses the whole set with nothing written, and admin_compare and admin_read_file answer
// for an image (its blob, size and bytes) rather than breaking on a file that has no text.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { runVitae } from '../../cli/run-vitae.ts';
import { backends, startServiceOn, type BackendService } from '../../testing/backend-service.ts';
import { GPS_MARK, makeImage, oversizePng, photoWithGps, SCRIPTED_SVG } from '../../testing/test-images.ts';
import { sniffImage } from './image-check.server.ts';

const TOKEN = 'media-changes-admin-token-0123456789';
const SKILL = 'content/skills/image-making.md';
const skillText = '---\nname: Image making\ncategory: engineering\n---\nTakes the pictures on this site.\n';
const b64 = (bytes: Buffer) => bytes.toString('base64');

for (const backend of backends) {
  describe(`images in a change set on ${backend}`, () => {
    let service: BackendService;
    before(async () => {
      service = await startServiceOn(backend, { ADMIN_TOKEN: TOKEN });
    });
    after(() => service?.stop());

    const git = (...args: string[]) => execFileSync('git', ['--git-dir', service.gitDir, ...args]);
    const devHead = () => git('rev-parse', 'refs/heads/dev').toString().trim();

    async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
      const res = await fetch(`${service.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    }

    it('validates, then commits a text and an image in one commit, the image without its EXIF', async () => {
      const photo = await photoWithGps(60, 40);
      const changes = [
        { path: SKILL, content: skillText, sha: null },
        { path: 'content/media/photographer.jpg', contentBase64: b64(photo), sha: null },
      ];
      const check = await call('POST', '/api/admin/changes/validate', { branch: 'dev', changes });
      assert.equal(check.status, 200, JSON.stringify(check.body));
      assert.equal(check.body.valid, true, JSON.stringify(check.body.problems));
      assert.deepEqual(
        check.body.files.map((f: any) => [f.path, f.status]),
        [
          [SKILL, 'added'],
          ['content/media/photographer.jpg', 'added'],
        ],
      );

      const before = devHead();
      const { status, body } = await call('POST', '/api/admin/changes', { branch: 'dev', message: 'A skill and its picture', changes });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.changed, true);
      assert.deepEqual(body.files.map((f: any) => f.path).sort(), ['content/media/photographer.jpg', SKILL]);
      assert.equal(git('rev-parse', `${body.commit.sha}^`).toString().trim(), before, 'one commit on top of dev');
      const names = git('diff-tree', '--no-commit-id', '--name-only', '-r', body.commit.sha).toString().trim().split('\n').sort();
      assert.deepEqual(names, ['content/media/photographer.jpg', SKILL]);
      assert.equal(git('cat-file', 'blob', `${body.commit.sha}:${SKILL}`).toString(), skillText);
      const stored = git('cat-file', 'blob', `${body.commit.sha}:content/media/photographer.jpg`);
      assert.deepEqual(sniffImage(stored), { type: 'image/jpeg' });
      assert.equal((await sharp(stored).metadata()).exif, undefined);
      assert.ok(!stored.toString('latin1').includes(GPS_MARK.camera), 'the camera and GPS location are gone');
      assert.equal(
        body.files.find((f: any) => f.path === 'content/media/photographer.jpg').sha,
        git('rev-parse', `${body.commit.sha}:content/media/photographer.jpg`).toString().trim(),
      );

      // admin_read_file gives the image's bytes; admin_compare lists it as an image, with its blob and size.
      const read = await call('GET', '/api/admin/file?path=content/media/photographer.jpg&branch=dev');
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.equal(read.body.content, '');
      assert.ok(Buffer.from(read.body.contentBase64, 'base64').equals(stored));
      const compare = await call('GET', '/api/admin/compare?base=main&head=dev');
      assert.equal(compare.status, 200, JSON.stringify(compare.body));
      const image = compare.body.files.find((f: any) => f.path === 'content/media/photographer.jpg');
      assert.equal(image.status, 'added');
      assert.deepEqual(image.media, { before: null, after: { sha: read.body.sha, size: stored.length } });
      assert.match(image.diff, /^Binary files/);
      assert.ok(compare.body.files.some((f: any) => f.path === SKILL && f.diff.includes('+name: Image making')));

      // Replacing the image: the same set with a new picture and the base sha, then compare says modified.
      const replaced = await call('POST', '/api/admin/changes', {
        branch: 'dev',
        message: 'A better picture',
        changes: [{ path: 'content/media/photographer.jpg', contentBase64: b64(await makeImage('jpeg', 20, 20, '#0f0')), sha: read.body.sha }],
      });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      const again = await call('GET', '/api/admin/compare?base=main&head=dev');
      assert.equal(again.body.files.find((f: any) => f.path === 'content/media/photographer.jpg').status, 'added', 'still new against main');
      const old = await call('GET', `/api/admin/file?path=content/media/photographer.jpg&branch=dev&ref=${body.commit.sha}`);
      assert.ok(Buffer.from(old.body.contentBase64, 'base64').equals(stored), 'an older version is read by ref');
    });

    it('a bad image refuses the whole set (415, 413, 400) and nothing is written', async () => {
      const head = devHead();
      const text = { path: 'content/skills/drawing.md', content: skillText.replace('Image making', 'Drawing'), sha: null };
      const cases: Array<[string, object, number, string, RegExp]> = [
        ['an SVG', { path: 'content/media/logo.png', contentBase64: b64(SCRIPTED_SVG) }, 415, 'unsupported_media_type', /SVG/],
        ['over 8 MB', { path: 'content/media/huge.png', contentBase64: b64(oversizePng()) }, 413, 'payload_too_large', /8 MB/],
        ['a PNG named .jpg', { path: 'content/media/renamed.jpg', contentBase64: b64(await makeImage('png')) }, 400, 'bad_request', /PNG image/],
        [
          'bytes for a text file',
          { path: 'content/skills/x.md', contentBase64: b64(await makeImage('png')) },
          400,
          'bad_request',
          /only for an image under content\/media/,
        ],
        ['an image named badly', { path: 'content/media/Bad Name.png', contentBase64: b64(await makeImage('png')) }, 403, 'forbidden_path', /lowercase/],
      ];
      for (const [name, image, status, code, says] of cases) {
        for (const route of ['/api/admin/changes', '/api/admin/changes/validate']) {
          const answer = await call('POST', route, { branch: 'dev', message: 'Two files', changes: [text, image] });
          assert.equal(answer.status, status, `${name} on ${route}: ${JSON.stringify(answer.body)}`);
          assert.equal(answer.body.code, code, name);
          assert.match(answer.body.message, says, name);
        }
      }
      const both = await call('POST', '/api/admin/changes', { branch: 'dev', message: 'x', changes: [{ path: SKILL, content: 'x', delete: true }] });
      assert.equal(both.status, 400);
      assert.match(both.body.message, /exactly one of content, contentBase64 or delete/);
      assert.equal(devHead(), head, 'no refused set committed anything');
      assert.equal((await call('GET', '/api/admin/file?path=content/skills/drawing.md&branch=dev')).status, 404, 'not even the text');
    });

    it('CLI: vitae admin commit <changes.json> plans an image by its sha (dry run), then commits it with the text', async () => {
      const scratch = await mkdtemp(join(tmpdir(), 'vitae-media-changes-cli-'));
      try {
        const changes = [
          { path: 'content/skills/sketching.md', content: skillText.replace('Image making', 'Sketching'), sha: null },
          { path: 'content/media/sketch.webp', contentBase64: b64(await makeImage('webp')), sha: null },
        ];
        await writeFile(join(scratch, 'changes.json'), JSON.stringify(changes));
        const env = { env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN }, cwd: scratch, timeoutMs: 60_000 };
        const args = ['admin', 'commit', 'changes.json', '--message', 'Sketching, with a sketch', '--branch', 'dev', '--json'];
        const dry = await runVitae([...args, '--dry-run'], env);
        assert.equal(dry.code, 0, dry.stderr);
        assert.deepEqual(
          JSON.parse(dry.stdout).steps.map((s: any) => [s.action, s.path]),
          [
            ['create', 'content/skills/sketching.md'],
            ['create', 'content/media/sketch.webp'],
          ],
        );
        const done = await runVitae([...args, '--yes'], env);
        assert.equal(done.code, 0, done.stderr);
        const answer = JSON.parse(done.stdout);
        assert.deepEqual(answer.files.map((f: any) => f.path).sort(), ['content/media/sketch.webp', 'content/skills/sketching.md']);
        assert.deepEqual(sniffImage(git('cat-file', 'blob', `${answer.commit.sha}:content/media/sketch.webp`)), { type: 'image/webp' });
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    });
  });
}
