// Pages rendered once per build, over real HTTP with the real web build: validators and cache headers on
// every page type in two locales, 304s, a fresh CSP nonce per answer of a cached page (in the header and in
// every inline script, gzip or not), nothing per visitor in the cache, a deploy that changes a page's ETag
// and content, the preview never stored, and the entries list a page at a time with its filters kept.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { startTestService, type TestService } from '../../testing/service.ts';
import { adminHttp, assertOk, eventually } from '../../testing/admin-http.ts';
import { projectFile } from '../../testing/content-git.ts';

const TOKEN = 'page-cache-suite-token-5d1e8a0c';
let service: TestService;
const api = adminHttp(() => service.url, TOKEN);

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN }, { site: true });
});
after(async () => {
  await service.stop();
});

/** A GET through node:http, so the request's headers (Accept-Encoding above all) are exactly the ones given. */
function raw(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1];

const pageTypes = (prefix: string) => [
  `${prefix}/`,
  `${prefix}/entries`,
  `${prefix}/entries?kind=project`,
  `${prefix}/entries/concierge-copilot`,
  `${prefix}/entries/concierge-copilot.md`,
  `${prefix}/lenses`,
  `${prefix}/lenses/head-of-ai`,
  `${prefix}/documents`,
  `${prefix}/documents/capabilities`,
  `${prefix}/search?q=retrieval`,
  `${prefix}/feed.xml`,
  `${prefix}/resume.json`,
];

describe('the page cache over HTTP', () => {
  it('sends a strong ETag, Last-Modified and shared-cache headers on every page type, and 304 on either validator', async () => {
    const paths = [...pageTypes(''), ...pageTypes('/fr'), '/sitemap.xml', '/llms.txt', '/robots.txt'];
    for (const path of paths) {
      const first = await raw(service.url + path, { 'Accept-Encoding': 'gzip' });
      assert.equal(first.status, 200, path);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[\w-]+"$/, `${path}: a strong ETag`);
      const cacheControl = String(first.headers['cache-control']);
      assert.match(cacheControl, /s-maxage=\d+/, path);
      assert.match(cacheControl, /stale-while-revalidate=\d+/, path);
      assert.match(cacheControl, /^public/, path);
      const lastModified = String(first.headers['last-modified']);
      assert.ok(Date.parse(lastModified) <= Date.now() && Date.parse(lastModified) > Date.parse('2020-01-01'), `${path}: Last-Modified ${lastModified}`);
      if (first.body.length >= 1024) assert.equal(first.headers.vary, 'Accept-Encoding', path);

      const byTag = await raw(service.url + path, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
      assert.equal(byTag.status, 304, `${path}: If-None-Match`);
      assert.equal(byTag.body.length, 0);
      assert.equal(byTag.headers.etag, etag);
      assert.equal(byTag.headers['content-security-policy'], undefined, `${path}: a 304 must not replace the stored page's CSP`);

      const byDate = await raw(service.url + path, { 'If-Modified-Since': lastModified });
      assert.equal(byDate.status, 304, `${path}: If-Modified-Since`);
      const older = await raw(service.url + path, { 'If-Modified-Since': new Date(Date.parse(lastModified) - 86_400_000).toUTCString() });
      assert.equal(older.status, 200, `${path}: modified since the day before`);
      const otherTag = await raw(service.url + path, { 'If-None-Match': '"something-else"', 'If-Modified-Since': lastModified });
      assert.equal(otherTag.status, 200, `${path}: If-None-Match wins over If-Modified-Since`);
    }
  });

  it('gives every answer of a cached page its own nonce, in the CSP and in every inline script, gzip or not', async () => {
    const url = `${service.url}/ja/entries/concierge-copilot`;
    const seen = new Set<string>();
    for (const encoding of ['gzip', 'identity', 'gzip', 'identity']) {
      const answer = await raw(url, { 'Accept-Encoding': encoding });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], encoding === 'gzip' ? 'gzip' : undefined);
      const html = (encoding === 'gzip' ? gunzipSync(answer.body) : answer.body).toString('utf8');
      assert.equal(Buffer.byteLength(html), encoding === 'gzip' ? gunzipSync(answer.body).length : Number(answer.headers['content-length']));
      const nonce = nonceOf(answer.headers['content-security-policy']);
      assert.ok(nonce && /^[A-Za-z0-9+/]{22}==$/.test(nonce), `a 128-bit nonce: ${nonce}`);
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      assert.ok(scripts.length >= 2, 'the page has its inline scripts');
      for (const tag of scripts.filter((s) => !/\bsrc=|application\/ld\+json/.test(s)))
        assert.ok(tag.includes(`nonce="${nonce}"`), `inline script carries this answer's nonce: ${tag}`);
      assert.ok(!html.includes('\0'), 'no NUL bytes');
      seen.add(nonce);
    }
    assert.equal(seen.size, 4, 'four answers, four nonces');
  });

  it('renders without the visitor: a cookie or a language preference changes nothing in the cached page', async () => {
    const plain = await raw(`${service.url}/lenses`, { 'Accept-Encoding': 'gzip' });
    const personal = await raw(`${service.url}/lenses`, { 'Accept-Encoding': 'gzip', Cookie: 'vitae_session=anything; theme=dark', 'Accept-Language': 'ja' });
    assert.equal(personal.headers.etag, plain.headers.etag);
    assert.equal(personal.headers['set-cookie'], undefined);
    assert.doesNotMatch(String(personal.headers.vary), /Cookie|Accept-Language/);
  });

  it('normalises the query: one page however its parameters are ordered', async () => {
    const a = await raw(`${service.url}/entries?kind=project&tag=ai`);
    const b = await raw(`${service.url}/entries?tag=ai&kind=project`);
    assert.equal(a.status, 200);
    assert.equal(a.headers.etag, b.headers.etag);
  });

  it('answers what is not a page as before: a 404 is not kept, the console and a malformed address go through the web app', async () => {
    const missing = await raw(`${service.url}/entries/no-such-entry`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.etag, undefined);
    assert.match(String(missing.headers['content-security-policy']), /'nonce-/);
    const login = await raw(`${service.url}/admin/login`);
    assert.equal(login.status, 200);
    assert.equal(login.headers.etag, undefined);
    const malformed = await raw(`${service.url}/entries/%FF`);
    assert.equal(malformed.status, 400);
  });

  it('serves the built scripts and styles from memory: gzip made once, immutable, validated; nothing outside public/', async () => {
    const home = await (await service.get('/')).text();
    const style = /href="(\/build\/_assets\/styles-[\w-]+\.css)"/.exec(home)?.[1];
    assert.ok(style, 'the home page links its stylesheet');
    const css = await raw(service.url + style, { 'Accept-Encoding': 'gzip' });
    assert.equal(css.status, 200);
    assert.equal(css.headers['content-encoding'], 'gzip');
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(gunzipSync(css.body).toString('utf8'), /[{}]/);
    assert.equal((await raw(service.url + style, { 'If-None-Match': String(css.headers.etag) })).status, 304);
    const plain = await raw(service.url + style);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.deepEqual(gunzipSync(css.body), plain.body);
    const icon = await raw(`${service.url}/favicon.ico`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers['cache-control'], 'public, max-age=3600');
    for (const path of ['/build/..%2F..%2Fpackage.json', '/build/%2e%2e/%2e%2e/package.json', '/../package.json', '/build/nothing-here.js']) {
      const answer = await raw(service.url + path);
      assert.ok(answer.status === 404 || answer.status === 400, `${path}: ${answer.status}`);
      assert.doesNotMatch(answer.body.toString('utf8'), /"name": "vitae"/);
    }
  });

  it('keeps images as they are: no gzip of a PNG, validated like a page', async () => {
    const png = await raw(`${service.url}/og/en/lens/developer-advocate.png`, { 'Accept-Encoding': 'gzip' });
    assert.equal(png.status, 200);
    assert.equal(png.headers['content-type'], 'image/png');
    assert.equal(png.headers['content-encoding'], undefined, 'a PNG is compressed already');
    assert.equal(png.headers.vary, undefined);
    assert.ok(png.body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])));
    assert.equal(Number(png.headers['content-length']), png.body.length);
    const again = await raw(`${service.url}/og/en/lens/developer-advocate.png`, { 'If-None-Match': String(png.headers.etag) });
    assert.equal(again.status, 304);
  });

  it('keeps the preview out of every cache and every index', async () => {
    const preview = await raw(`${service.devUrl}/entries`);
    assert.equal(preview.status, 200);
    assert.equal(preview.headers['cache-control'], 'no-store');
    assert.equal(preview.headers['x-robots-tag'], 'noindex');
    assert.equal(preview.headers.etag, undefined);
  });

  it('pages the entries list, keeping the filters, with a 404 after the last page', async () => {
    const total = (assertOk(await api.get('/api/v1/entries', { auth: false })) as { total: number }).total;
    assert.ok(total > 20, `the demo has more than one page of entries (${total})`);
    const slugs: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 20); page++) {
      const html = await (await service.get(page === 1 ? '/entries' : `/entries?page=${page}`)).text();
      const links = [...html.matchAll(/<a [^>]*href="\/entries\/([\w-]+)"/g)].map((m) => m[1]!);
      slugs.push(...new Set(links));
      if (page < Math.ceil(total / 20)) assert.ok(html.includes(`rel="next" href="/entries?page=${page + 1}"`), `page ${page} links the next`);
      if (page > 1) assert.ok(html.includes('rel="prev"'), `page ${page} links the one before`);
    }
    assert.equal(new Set(slugs).size, total, 'every entry on exactly one page');
    assert.equal((await service.get(`/entries?page=${Math.ceil(total / 20) + 1}`)).status, 404);
    const filtered = await (await service.get('/entries?kind=project&page=1')).text();
    assert.ok(!filtered.includes('href="/entries?page='), 'a filtered list keeps its filter in its page links');
    const twin = await (await service.get('/entries.md')).text();
    assert.match(twin, /\/entries\.md\?page=2\)/, 'the Markdown twin links its next page');
  });

  it('serves a deploy’s pages at once: the ETag and the content change with the build', async () => {
    const before = await raw(`${service.url}/entries`, { 'Accept-Encoding': 'gzip' });
    const title = 'Page cache probe: a project written by a test';
    const path = 'content/corpus/projects/page-cache-probe.md';
    assertOk(
      await api.put({ path, content: projectFile(title, { start: '2026-10' }).replace('end: "2020-06"', 'end: null'), message: 'Add a probe', branch: 'main' }),
    );
    await eventually('the probe to be live', async () => ((await service.get('/api/v1/entries/page-cache-probe')).status === 200 ? true : undefined));
    const afterDeploy = await raw(`${service.url}/entries`, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(before.headers.etag) });
    assert.equal(afterDeploy.status, 200, 'the old ETag no longer matches');
    assert.notEqual(afterDeploy.headers.etag, before.headers.etag);
    assert.ok(gunzipSync(afterDeploy.body).toString('utf8').includes('Page cache probe'), 'the new entry is listed');
    assert.ok(Date.parse(String(afterDeploy.headers['last-modified'])) >= Date.parse(String(before.headers['last-modified'])));
  });
});
