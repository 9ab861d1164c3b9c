// The console's writes through HTTP, with the web app: limits and the caller decided before a body is read
// (anonymous 100 MB bodies leave the memory as it was), the REST API's input rules (415, 400 for bad UTF-8 or JSON,
// 413), documented 4xx answers instead of 500 on each route that failed with one, and the console's answers kept
// out of shared caches. Also the service-wide budget of bytes being read, and transcription refusing before reading.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { startTestService, type TestService } from '../../testing/service.ts';
import { bytesBeingRead, readBody, READ_BUDGET } from './edge.server.ts';

const TOKEN = 'console-gate-admin-token-0123456789';
const ORIGIN = 'http://vitae.test';
/** The site's host as a proxy in front of the service passes it on: the service itself listens on loopback. */
const SITE_HOST = { 'X-Forwarded-Host': 'vitae.test' };
let service: TestService;
let cookie: string;

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN }, { site: true });
  const res = await service.get('/api/admin/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: TOKEN }),
  });
  assert.equal(res.status, 204);
  cookie = res.headers.get('set-cookie')!.split(';')[0]!;
});
after(() => service.stop());

/** A console write as the signed-in editor's browser sends it (cookie and Origin), unless `headers` say otherwise. */
const write = (path: string, body: BodyInit | undefined, headers: Record<string, string> = {}) =>
  service.get(path, { method: 'POST', redirect: 'manual', headers: { Cookie: cookie, Origin: ORIGIN, ...SITE_HOST, ...headers }, body });

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `a JSON error body (status ${res.status})`);
  const body = (await res.json()) as { code: string; message: string };
  return { status: res.status, code: body.code, message: body.message };
}

/**
 * Sends `size` bytes to `path` as fast as the server takes them (chunked unless `declare`), and resolves with the
 * status once the server answers, which it must do without waiting for the rest: the upload then stops.
 */
function upload(path: string, size: number, { declare = false, headers = {} }: { declare?: boolean; headers?: Record<string, string> } = {}) {
  return new Promise<number>((resolve, reject) => {
    const url = new URL(service.url + path);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(declare ? { 'Content-Length': String(size) } : {}), ...headers },
      },
      (res) => {
        answered = true;
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      },
    );
    let answered = false;
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('a stranger’s large body', () => {
  it('is refused unread on a console route: 100 bodies of 100 MB, declared and chunked, leave the memory within 50 MB of idle', async () => {
    global.gc?.();
    const idle = process.memoryUsage().rss;
    const MB100 = 100 * 1024 * 1024;
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        upload(['/admin/preview', '/admin/preview', '/admin/review', '/admin/login'][i % 4]!, MB100, {
          declare: Math.floor(i / 4) % 2 === 0,
          headers: { 'Content-Type': i % 4 < 2 ? 'application/json' : 'application/x-www-form-urlencoded' },
        }),
      ),
    );
    const grown = (process.memoryUsage().rss - idle) / (1024 * 1024);
    // Declared: 413 before anything else. Chunked: the caller is decided first (401, or sign-in for a form), and
    // sign-in's own small limit cuts its body (413).
    assert.deepEqual(new Set(statuses), new Set([413, 401, 303]));
    assert.ok(grown <= 50, `resident memory grew by ${grown.toFixed(0)} MB`);
    assert.equal(bytesBeingRead(), 0);
  });
});

describe('console routes take the REST API’s input rules', () => {
  it('answers 415 for a body that is not of the route’s type', async () => {
    for (const [path, type, body] of [
      ['/admin/preview', 'text/plain', '{"changes":[]}'],
      ['/admin/preview', 'application/xml', '<changes/>'],
      ['/admin/preview', 'multipart/form-data; boundary=x', '--x--'],
      ['/admin/review', 'application/json', '{}'],
      ['/admin/login', 'multipart/form-data; boundary=zz', '--zz\r\ngarbage'],
    ] as const) {
      const error = await errorOf(await write(path, body, { 'Content-Type': type }));
      assert.deepEqual([error.status, error.code], [415, 'unsupported_media_type'], `${path} ${type}`);
    }
  });

  it('answers 400 for text that is not UTF-8, malformed or too deep JSON, and malformed form encoding, and commits nothing', async () => {
    const notUtf8 = Buffer.concat([Buffer.from('{"changes":[{"path":"content/skills/x.md","content":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}]}')]);
    const cases: Array<[string, BodyInit, string]> = [
      ['/admin/preview', new Uint8Array(notUtf8), 'application/json'],
      ['/admin/preview', '{"changes":', 'application/json'],
      ['/admin/preview', '['.repeat(100) + ']'.repeat(100), 'application/json'],
      ['/admin/review', 'message=Hello&changes=%FF%FE', 'application/x-www-form-urlencoded'],
      ['/admin/review', 'message=%E0%A4', 'application/x-www-form-urlencoded'],
    ];
    for (const [path, body, type] of cases) {
      const error = await errorOf(await write(path, body, { 'Content-Type': type }));
      assert.deepEqual([error.status, error.code], [400, 'bad_request'], `${path}: ${error.message}`);
    }
  });

  it('answers 413 for a body over the route’s limit, declared or not', async () => {
    const big = JSON.stringify({ changes: [{ path: 'content/skills/x.md', content: 'a'.repeat(1100 * 1024) }] });
    assert.equal((await errorOf(await write('/admin/preview', big, { 'Content-Type': 'application/json' }))).status, 413);
    const login = await errorOf(await write('/admin/login', `token=${'a'.repeat(20 * 1024)}`, { 'Content-Type': 'application/x-www-form-urlencoded' }));
    assert.equal(login.status, 413);
  });

  it('answers documented 4xx, never 500, where a route failed with one', async () => {
    // The preview with fields it cannot use, signed in and signed out.
    const preview = await errorOf(await write('/admin/preview', '{"path":3}', { 'Content-Type': 'application/json' }));
    assert.deepEqual([preview.status, preview.code], [400, 'bad_request']);
    const signedOut = await errorOf(await service.get('/admin/preview', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' }));
    assert.deepEqual([signedOut.status, signedOut.code], [401, 'unauthorized']);
    assert.match(signedOut.message, /Sign in to the console first \(at \/admin\/login\)/, 'says where, to someone who never signed in');
    // Review with a change set that is not JSON: the form says so.
    const review = await write('/admin/review?branch=dev', 'message=Add+a+skill&changes=%7Bnot-json', { 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(review.status, 200);
    assert.match(await review.text(), /not valid JSON/);
    // A write from another site: refused before the web app, not its 500.
    const foreign = await errorOf(await write('/admin/logout', '', { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' }));
    assert.deepEqual([foreign.status, foreign.code], [403, 'forbidden']);
    // Sign-out without an Origin: refused as a cross-site write.
    const logout = await errorOf(
      await service.get('/admin/logout', { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' }),
    );
    assert.deepEqual([logout.status, logout.code], [403, 'forbidden']);
  });

  it('sends a signed-out form to sign-in and back, unread, and still does the console’s work for the editor', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN, ...SITE_HOST };
    const page = await service.get('/admin/review?branch=dev', { method: 'POST', redirect: 'manual', headers: form, body: 'message=x&changes=%5B%5D' });
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), '/admin/login?next=%2Fadmin%2Freview%3Fbranch%3Ddev');
    const data = await service.get('/admin/review?branch=dev&_data=routes%2Fadmin.review', { method: 'POST', headers: form, body: 'message=x' });
    assert.equal(data.status, 204);
    assert.equal(data.headers.get('x-remix-redirect'), '/admin/login?next=%2Fadmin%2Freview%3Fbranch%3Ddev');

    const skill = '---\nname: Gate Probe\ncategory: engineering\n---\nChecked by the gate test.\n';
    const preview = await write('/admin/preview', JSON.stringify({ branch: 'dev', locale: 'en', path: 'content/skills/gate-probe.md', content: skill }), {
      'Content-Type': 'application/json',
    });
    assert.equal(preview.status, 200, await preview.clone().text());
    assert.equal(preview.headers.get('cache-control'), 'no-store');
    assert.match(preview.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.match(await preview.text(), /A skill has no page of its own/);
  });

  it('keeps the console’s pages out of shared caches', async () => {
    const page = await service.get('/admin?branch=dev', { headers: { Cookie: cookie } });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'private, no-store');
    assert.match(page.headers.get('vary') ?? '', /Cookie/);
    await page.text();
  });
});

describe('the service-wide budget of bytes being read', () => {
  /** A request-like stream that says it carries `declared` bytes and sends them when told. */
  const pending = (declared: number) => {
    const stream = new Readable({ read() {} }) as Readable & { headers: Record<string, string> };
    stream.headers = { 'content-length': String(declared) };
    return stream;
  };

  it('answers 503 with Retry-After for a body that would pass it, and frees what each read held', async () => {
    const first = pending(READ_BUDGET - 1024);
    const reading = readBody(first as unknown as IncomingMessage, READ_BUDGET);
    await assert.rejects(readBody(pending(4096) as unknown as IncomingMessage, READ_BUDGET), (error: { code?: string; headers?: Record<string, string> }) => {
      assert.equal(error.code, 'unavailable');
      assert.equal(error.headers?.['Retry-After'], '1');
      return true;
    });
    first.push(Buffer.alloc(10));
    first.push(null);
    assert.equal((await reading).length, 10);
    assert.equal(bytesBeingRead(), 0);
    const next = pending(4096);
    next.push(Buffer.alloc(4096));
    next.push(null);
    assert.equal((await readBody(next as unknown as IncomingMessage, READ_BUDGET)).length, 4096);
  });
});

describe('transcription', () => {
  it('refuses before reading the recording when no provider is configured', async () => {
    // Only the first 64 kB of a declared 10 MB are sent: an answer proves nothing waited for the rest.
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(service.url);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/transcribe',
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 * 1024) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write(Buffer.alloc(64 * 1024, 0x61));
    });
    assert.equal(status, 503);
  });
});
