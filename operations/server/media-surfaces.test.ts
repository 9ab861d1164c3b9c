// admin_upload_media on every surface and both backends: REST (`POST /api/admin/media`, base64 JSON), the admin MCP
// endpoint through the SDK's client, and the `vitae admin upload <path> <file>` process. Each type taken commits an
// image whose stored bytes are that type, without the photo's EXIF (GPS location, camera); each refusal says what it
// found, with the same code everywhere, and writes nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { backends, startServiceOn, type BackendService } from '../../testing/backend-service.ts';
import { GPS_MARK, imageKinds, makeImage, oversizePng, photoWithGps, SCRIPTED_SVG, tooWidePng, type ImageKind } from '../../testing/test-images.ts';
import { runVitae } from '../../cli/run-vitae.ts';
import { sniffImage } from './image-check.server.ts';

const TOKEN = 'media-surfaces-admin-token-0123456789';
const kinds = Object.keys(imageKinds) as ImageKind[];

interface Upload {
  status: number;
  body: any;
}

/** The refusals every surface answers alike: the bytes, where they go, and the status and code. */
async function refusals(): Promise<Array<{ name: string; path: string; bytes: Buffer; status: number; code: string; says: RegExp }>> {
  return [
    { name: 'a PNG named .jpg', path: 'content/media/renamed.jpg', bytes: await makeImage('png'), status: 400, code: 'bad_request', says: /PNG image/ },
    {
      name: 'text named .png',
      path: 'content/media/text.png',
      bytes: Buffer.from('# not an image\n'),
      status: 415,
      code: 'unsupported_media_type',
      says: /is text/,
    },
    { name: 'an SVG with a script', path: 'content/media/logo.png', bytes: SCRIPTED_SVG, status: 415, code: 'unsupported_media_type', says: /SVG/ },
    { name: 'over 8 MB', path: 'content/media/huge.png', bytes: oversizePng(), status: 413, code: 'payload_too_large', says: /8 MB/ },
    { name: 'over 8000 pixels wide', path: 'content/media/wide.png', bytes: await tooWidePng(), status: 400, code: 'bad_request', says: /8001×4/ },
  ];
}

const input = (path: string, bytes: Buffer, message = `Upload ${path}`) => ({ path, contentBase64: bytes.toString('base64'), message, branch: 'dev' });

for (const backend of backends) {
  describe(`admin_upload_media on ${backend}`, () => {
    let service: BackendService;
    let scratch: string;
    before(async () => {
      service = await startServiceOn(backend, { ADMIN_TOKEN: TOKEN });
      scratch = await mkdtemp(join(tmpdir(), 'vitae-media-cli-'));
    });
    after(async () => {
      await service?.stop();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    const stored = (commit: string, path: string) => execFileSync('git', ['--git-dir', service.gitDir, 'cat-file', 'blob', `${commit}:${path}`]);
    const devHead = () => execFileSync('git', ['--git-dir', service.gitDir, 'rev-parse', 'refs/heads/dev']).toString().trim();

    async function rest(body: unknown): Promise<Upload> {
      const res = await fetch(`${service.url}/api/admin/media`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    }

    async function mcp<T>(use: (client: Client) => Promise<T>): Promise<T> {
      const client = new Client({ name: 'media-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${service.url}/mcp/admin`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
      );
      try {
        return await use(client);
      } finally {
        await client.close();
      }
    }

    const cli = (args: string[]) =>
      runVitae(['admin', 'upload', ...args, '--json', '--yes'], { env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN }, cwd: scratch, timeoutMs: 60_000 });

    async function checkStored(answer: any, kind: ImageKind, path: string) {
      assert.equal(answer.path, path);
      assert.equal(answer.type, imageKinds[kind].type);
      assert.equal(answer.branch, 'dev');
      assert.equal(answer.changed, true);
      assert.deepEqual(answer.files, [{ path, sha: answer.sha }]);
      const bytes = stored(answer.commit.sha, path);
      assert.deepEqual(sniffImage(bytes), { type: imageKinds[kind].type });
      const meta = await sharp(bytes).metadata();
      assert.deepEqual([meta.width, meta.height], [answer.width, answer.height]);
      assert.equal(answer.size, bytes.length);
      return bytes;
    }

    it('REST: each type taken commits an image of that type', async () => {
      for (const kind of kinds) {
        const path = `content/media/rest-${kind}.${imageKinds[kind].ext}`;
        const { status, body } = await rest(input(path, await makeImage(kind, 30 + kinds.indexOf(kind), 20)));
        assert.equal(status, 200, JSON.stringify(body));
        await checkStored(body, kind, path);
        assert.deepEqual([body.width, body.height], [30 + kinds.indexOf(kind), 20]);
      }
    });

    it('REST: the GPS location and camera of a photo are gone, its orientation applied', async () => {
      const { status, body } = await rest(input('content/media/holiday.jpg', await photoWithGps(60, 40)));
      assert.equal(status, 200, JSON.stringify(body));
      const bytes = await checkStored(body, 'jpeg', 'content/media/holiday.jpg');
      assert.deepEqual([body.width, body.height], [40, 60]);
      assert.equal((await sharp(bytes).metadata()).exif, undefined);
      assert.ok(!bytes.toString('latin1').includes(GPS_MARK.camera));
    });

    it('REST: each refusal answers its status and code, and nothing is written', async () => {
      const head = devHead();
      for (const refusal of await refusals()) {
        const { status, body } = await rest(input(refusal.path, refusal.bytes));
        assert.equal(status, refusal.status, `${refusal.name}: ${JSON.stringify(body)}`);
        assert.equal(body.code, refusal.code, refusal.name);
        assert.match(body.message, refusal.says, refusal.name);
      }
      const notBase64 = await rest({ ...input('content/media/x.png', Buffer.from('')), contentBase64: '<svg onload="alert(1)"/>' });
      assert.equal(notBase64.status, 400, JSON.stringify(notBase64.body));
      assert.match(notBase64.body.message, /contentBase64 must be base64-encoded/);
      const outside = await rest(input('content/skills/photo.png', await makeImage('png')));
      assert.equal(outside.status, 403, JSON.stringify(outside.body));
      assert.equal(devHead(), head, 'no refusal committed anything');
    });

    it('admin MCP: each type taken, and the refusals with the same codes', async () => {
      await mcp(async (client) => {
        // The admin MCP endpoint reads at most 1 MB (operations/adapters/mcp-http.server.ts): more is its own 413.
        const overLimit = async (bytes: Buffer) => {
          const refused = await client.callTool({ name: 'admin_upload_media', arguments: input('content/media/huge.png', bytes) }).then(
            (result) => JSON.parse((result.content as any)[0].text).code,
            (error: Error) => (/413|payload_too_large/.test(error.message) ? 'payload_too_large' : error.message),
          );
          assert.equal(refused, 'payload_too_large');
        };
        for (const kind of kinds) {
          const path = `content/media/mcp-${kind}.${imageKinds[kind].ext}`;
          const result = await client.callTool({ name: 'admin_upload_media', arguments: input(path, await makeImage(kind, 24, 24, '#0a0')) });
          assert.notEqual(result.isError, true, JSON.stringify(result.content));
          await checkStored(result.structuredContent ?? JSON.parse((result.content as any)[0].text), kind, path);
        }
        for (const refusal of await refusals()) {
          if (refusal.code === 'payload_too_large') {
            await overLimit(refusal.bytes);
            continue;
          }
          const result = await client.callTool({ name: 'admin_upload_media', arguments: input(refusal.path, refusal.bytes) });
          assert.equal(result.isError, true, refusal.name);
          const body = JSON.parse((result.content as any)[0].text);
          assert.equal(body.code, refusal.code, `${refusal.name}: ${JSON.stringify(body)}`);
          assert.match(body.message, refusal.says, refusal.name);
        }
      });
    });

    it('admin MCP: an image of a few MB (the admin surface reads as much as its largest tool takes over REST)', async () => {
      const noise = await sharp(randomBytes(1000 * 700 * 3), { raw: { width: 1000, height: 700, channels: 3 } })
        .png()
        .toBuffer();
      assert.ok(noise.length > 1.5 * 1024 * 1024);
      await mcp(async (client) => {
        const result = await client.callTool({ name: 'admin_upload_media', arguments: input('content/media/noise.png', noise) });
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
      });
    });

    it('CLI: vitae admin upload <path> <file> reads the file as bytes; a refusal exits non-zero naming it', async () => {
      await writeFile(join(scratch, 'photo.jpg'), await photoWithGps(30, 20));
      const ok = await cli(['content/media/cli-photo.jpg', 'photo.jpg', '--message', 'Upload from the CLI', '--branch', 'dev']);
      assert.equal(ok.code, 0, ok.stderr);
      const answer = JSON.parse(ok.stdout);
      const bytes = await checkStored(answer, 'jpeg', 'content/media/cli-photo.jpg');
      assert.ok(!bytes.toString('latin1').includes(GPS_MARK.camera));
      const dryRun = await runVitae(
        ['admin', 'upload', 'content/media/cli-photo.jpg', 'photo.jpg', '--message', 'Again', '--branch', 'dev', '--dry-run', '--json'],
        {
          env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN },
          cwd: scratch,
        },
      );
      assert.equal(dryRun.code, 0, dryRun.stderr);
      assert.deepEqual(JSON.parse(dryRun.stdout).steps, [{ action: 'replace', path: 'content/media/cli-photo.jpg', sha: answer.sha }]);
      await writeFile(join(scratch, 'logo.svg'), SCRIPTED_SVG);
      const svg = await cli(['content/media/logo.png', 'logo.svg', '--message', 'An SVG', '--branch', 'dev']);
      assert.equal(svg.code, 2, svg.stderr);
      assert.match(svg.stdout + svg.stderr, /SVG/);
      await writeFile(join(scratch, 'renamed.jpg'), await makeImage('webp'));
      const renamed = await cli(['content/media/renamed.jpg', 'renamed.jpg', '--message', 'A WebP named .jpg', '--branch', 'dev']);
      assert.equal(renamed.code, 2, renamed.stderr);
      assert.match(renamed.stdout + renamed.stderr, /WebP image/);
    });
  });
}
