// SplicedText: any text, any number of holes, any value: the gzip stream made by copying bytes is a valid
// stream (node's gunzip and the gzip CLI agree) of exactly the text with the value in every hole. And the
// page cache it serves from keeps to its byte budget, renders a page once however many ask at once, and drops
// a build's pages when the next build goes live.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { SplicedText } from './spliced-gzip.ts';
import { Body } from './edge.server.ts';
import { createPageCache, normaliseQuery, type PageCacheStats } from './page-cache.server.ts';

const MARK = 'zQ7markzQ7';

describe('SplicedText', () => {
  it('makes a valid gzip stream of the text with the value in every hole', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 3000 }), { minLength: 1, maxLength: 6 }), fc.string({ maxLength: 40 }), (parts, value) => {
        const text = Buffer.from(parts.join(MARK));
        const spliced = new SplicedText(text, MARK);
        assert.equal(spliced.holes, parts.length - 1);
        const expected = parts.join(value);
        assert.equal(gunzipSync(spliced.gzip(value)).toString('utf8'), expected);
        assert.equal(spliced.text(value).toString('utf8'), expected);
      }),
      { numRuns: 200 },
    );
  });

  it('passes the gzip command’s own check', () => {
    const text = Buffer.from(`<p>${'Grüße, 世界. '.repeat(5000)}</p><script nonce="${MARK}">go()</script><script nonce="${MARK}">x</script>`);
    const gz = new SplicedText(text, MARK).gzip('AAAAAAAAAAAAAAAAAAAAAA==');
    assert.equal(execFileSync('gzip', ['-dc'], { input: gz }).toString('utf8'), text.toString('utf8').replaceAll(MARK, 'AAAAAAAAAAAAAAAAAAAAAA=='));
  });
});

describe('memory kept by cached answers', () => {
  it('a spliced page holds its compressed parts in one piece of memory of their size', () => {
    const page = Buffer.from(
      `<main>${'<p>An assistant for hotel guests.</p>'.repeat(40)}<script nonce="${MARK}">a()</script><p>and</p><script nonce="${MARK}">b()</script></main>`,
    );
    const spliced = new SplicedText(page, MARK);
    const memory = new Set((spliced as unknown as { deflated: Buffer[] }).deflated.map((part) => part.buffer));
    assert.equal(memory.size, 1);
    assert.equal([...memory][0]!.byteLength, spliced.size - 18, 'the parts, without the gzip header (10 bytes) and trailer (8)');
  });

  it('a kept body and its compressed forms hold only their own bytes', () => {
    const body = Body.of(JSON.stringify({ entries: Array.from({ length: 40 }, (_, i) => ({ slug: `entry-${i}`, title: 'An assistant for hotel guests' })) }));
    for (const bytes of [body.bytes, body.encode('gzip'), body.encode('br')]) {
      assert.ok(bytes.length < 4096, 'small enough to have come from a shared pool or a 16 kB chunk');
      assert.equal(bytes.buffer.byteLength, bytes.byteLength);
    }
  });
});

describe('normaliseQuery', () => {
  it('orders parameters by name and keeps repeated ones in order', () => {
    assert.equal(normaliseQuery('tag=ai&kind=project'), 'kind=project&tag=ai');
    assert.equal(normaliseQuery('b=2&a=1&b=1'), 'a=1&b=2&b=1');
    assert.equal(normaliseQuery(''), '');
    assert.equal(normaliseQuery('q=caf%C3%A9+au+lait'), 'q=caf%C3%A9+au+lait');
  });
});

async function withCache(
  budgetBytes: number,
  run: (get: (path: string) => Promise<string>, state: { buildId: string; renders: string[]; logged: string[] }, stats: () => PageCacheStats) => Promise<void>,
) {
  const state = { buildId: 'b1', renders: [] as string[], logged: [] as string[] };
  const cache = createPageCache({
    build: () => ({ id: state.buildId, committedAt: '2026-01-01T00:00:00Z' }),
    budgetBytes,
    bypass: (path) => path.startsWith('/admin'),
    logError: (error, url) => state.logged.push(`${url}: ${(error as Error).message}`),
    securityHeaders: (_branch, nonce) => ({ 'Content-Security-Policy': `script-src 'nonce-${nonce}'` }),
    render: async (target) => {
      state.renders.push(target);
      if (target === '/boom') throw new Error('the renderer failed');
      await new Promise((r) => setTimeout(r, 20));
      // Text that does not compress (the cache holds compressed bytes): about 8 kB each.
      return new Response(`<html>${state.buildId} ${target} ${randomBytes(6000).toString('base64')}</html>`, { headers: { 'Content-Type': 'text/html' } });
    },
  });
  const server: Server = createServer((req, res) => {
    if (!cache.serve(req, res, 'main')) {
      res.writeHead(299);
      res.end('passed on');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const get = (path: string) =>
    new Promise<string>((resolve, reject) =>
      request(`http://127.0.0.1:${port}${path}`, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      })
        .on('error', reject)
        .end(),
    );
  try {
    await run(get, state, cache.stats);
  } finally {
    server.close();
  }
}

describe('the page cache', () => {
  it('renders a page once however many ask at once, then answers from memory', async () => {
    await withCache(10 * 1024 * 1024, async (get, state, stats) => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => get('/entries')));
      assert.ok(answers.every((a) => a.startsWith('200 <html>b1 /entries')));
      await get('/entries');
      assert.deepEqual(state.renders, ['/entries']);
      assert.equal(stats().pages, 1);
    });
  });

  it('keeps to its byte budget, dropping the least recently used page first', async () => {
    await withCache(40_000, async (get, state, stats) => {
      for (let i = 0; i < 10; i++) await get(`/p${i}`);
      assert.ok(stats().bytes <= 40_000, `holds ${stats().bytes} bytes`);
      assert.ok(stats().pages >= 3 && stats().pages < 10, `keeps some pages: ${stats().pages}`);
      assert.ok(stats().evicted > 0);
      await get('/p9');
      assert.equal(state.renders.filter((r) => r === '/p9').length, 1, 'the newest page stayed');
      await get('/p0');
      assert.equal(state.renders.filter((r) => r === '/p0').length, 2, 'the oldest was dropped and rendered again');
    });
  });

  it('drops a build’s pages when the next one goes live, and passes the console on', async () => {
    await withCache(10 * 1024 * 1024, async (get, state, stats) => {
      await get('/a');
      await get('/b');
      state.buildId = 'b2';
      assert.match(await get('/a'), /^200 <html>b2 \/a/);
      assert.equal(stats().pages, 1, 'the old build’s pages are gone');
      assert.equal(await get('/admin/edit'), '299 passed on');
    });
  });

  it('answers a failed render with a plain 500, logs it, and keeps nothing', async () => {
    await withCache(10 * 1024 * 1024, async (get, state, stats) => {
      assert.equal(await get('/boom'), '500 The page could not be rendered.\n');
      assert.deepEqual(state.logged, ['/boom: the renderer failed']);
      assert.equal(stats().pages, 0);
    });
  });
});
