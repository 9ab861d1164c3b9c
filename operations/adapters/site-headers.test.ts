// The site's pages behind an https BASE_URL, through real HTTP: HSTS and upgrade-insecure-requests only
// where the site is https (the dev preview here is not). Needs the web build (`npm test` makes it first).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config.server.ts';
import { remixWeb, startService, type RunningService } from '../../server.ts';

let service: RunningService;
let dataDir: string;

describe('security headers of pages over https', () => {
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vitae-site-headers-'));
    const config = loadConfig({ LOG_LEVEL: 'error', BASE_URL: 'https://vitae.test', DEV_URL: 'http://dev.vitae.test', DATA_DIR: dataDir });
    service = await startService(config, { web: remixWeb, listen: { main: 0, dev: 0 } });
  });
  after(async () => {
    await service?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('sends HSTS (without subdomains) and upgrade-insecure-requests on the https site, neither on the http preview', async () => {
    const page = await fetch(`${service.urls.main}/entries`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('strict-transport-security'), 'max-age=31536000');
    assert.match(page.headers.get('content-security-policy') ?? '', /upgrade-insecure-requests/);
    const preview = await fetch(`${service.urls.dev}/entries`);
    assert.equal(preview.status, 200);
    assert.equal(preview.headers.get('strict-transport-security'), null);
    assert.doesNotMatch(preview.headers.get('content-security-policy') ?? '', /upgrade-insecure-requests/);
  });

  it('answers a malformed address with the site’s 400 page whatever NODE_ENV says', async () => {
    const res = await fetch(`${service.urls.main}/ja/entries/%FF`);
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /<html lang="ja"/);
    assert.doesNotMatch(html, /URIError|node_modules|\/work\//);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self' 'nonce-/);
  });
});
