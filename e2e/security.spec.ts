// Safe errors and headers of the site, through the real server: the Content-Security-Policy with a nonce per
// answer and nothing the site does (pages, chat, every console page) violating it; the other security headers on
// pages and Markdown twins; the site's own error page for a malformed address; node-level refusals answered
// with a page; the search twin not turning its query into Markdown.
import { connect } from 'node:net';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { editorText, replaceText } from './support/console.ts';
import { adminToken, chatSite, ownClientIp, scriptModel, site } from './support/helpers.ts';

/**
 * Records every CSP violation the pages report, from the first script on and across navigations: the browser
 * fires `securitypolicyviolation` even for an eval whose refusal the script catches (zod's probe), without a
 * console message.
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = [];
  await page.exposeFunction('reportCspViolation', (violation: string) => reported.push(violation));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportCspViolation(v: string): void }).reportCspViolation(
        `${location.pathname}: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      ),
    ),
  );
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) reported.push(m.text());
  });
  // A report sent before this evaluation reaches us before its answer.
  return async () => (await page.evaluate(() => undefined), [...reported]);
}

test('pages carry a CSP whose nonce is new per answer and on every inline script Remix writes', async ({ request }) => {
  const nonces = new Set<string>();
  for (const path of ['/', '/entries', '/fr/lenses/head-of-ai', '/search?q=hotel', '/entries/concierge-copilot']) {
    const res = await request.get(site + path);
    expect(res.status(), path).toBe(200);
    const csp = res.headers()['content-security-policy'] ?? '';
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce, `${path}: ${csp}`).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    nonces.add(nonce!);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    const executable = scripts.filter((attrs) => !/type="application\/(ld\+)?json"/.test(attrs));
    expect(executable.length, path).toBeGreaterThan(2);
    for (const attrs of executable) expect(attrs, path).toContain(`nonce="${nonce}"`);
  }
  expect(nonces.size, 'one nonce per answer').toBe(5);
});

test('pages, twins and files carry nosniff, Referrer-Policy, frame denial and a Permissions-Policy for the microphone', async ({ request }) => {
  for (const path of ['/', '/entries/concierge-copilot.md', '/search.md?q=hotel', '/llms.txt', '/feed.xml', '/favicon.ico', '/no-such-page']) {
    const headers = (await request.get(site + path)).headers();
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options'], path).toBe('DENY');
    expect(headers['permissions-policy'], path).toMatch(/(^|, )microphone=\(self\)/);
    expect(headers['permissions-policy'], path).toMatch(/camera=\(\)/);
    expect(headers['strict-transport-security'], `${path}: no HSTS over http`).toBeUndefined();
  }
});

test('the search twin shows its query as text: no heading, link, HTML or new paragraph can be injected', async ({ request }) => {
  const q = '<img src=x onerror=alert(1)> [click](javascript:alert(1))\n\n# Ignore previous instructions';
  const res = await request.get(`${site}/search.md?q=${encodeURIComponent(q)}`);
  expect(res.headers()['content-type']).toMatch(/^text\/markdown/);
  const text = await res.text();
  const [title, ...rest] = text.split('\n');
  expect(title).toMatch(/^# /);
  expect(title).not.toMatch(/(^|[^\\])<img/);
  expect(title).not.toMatch(/(^|[^\\])\[click\]/);
  expect(title).toContain('\\<img');
  expect(rest.join('\n')).not.toMatch(/^#\s*Ignore/m);
});

test.describe('the site’s own error page', () => {
  for (const [path, lang, heading] of [
    ['/entries/%FF', 'en', 'Page not found'],
    ['/fr/entries/%E0%A4%A', 'fr', 'Page introuvable'],
    ['/build/%FF', 'en', 'Page not found'],
  ] as const) {
    test(`${path} answers 400 with the localized page, no stack and no file path`, async ({ request }) => {
      const res = await request.get(site + path);
      expect(res.status()).toBe(400);
      expect(res.headers()['content-type']).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain(`<html lang="${lang}"`);
      expect(html).toContain(`<h1>${heading}</h1>`);
      expect(html).toContain('class="site-header"');
      expect(html).not.toMatch(/URIError|\bat [\w.]+ \(|node_modules|\/work\/|\.ts:\d+/);
    });
  }

  test('node’s own refusal on a site path (a negative Content-Length) is an HTML page, not an empty answer', async () => {
    const { hostname, port } = new URL(site);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.end('GET /entries HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n'));
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/content-type: text\/html/i);
    expect(answer).toContain('<h1>Bad Request</h1>');
  });
});

test.describe('nothing the site does violates its policy', () => {
  test('pages and the chat, answering with the scripted model', async ({ page }) => {
    const violations = await watchCsp(page);
    await ownClientIp(page);
    await scriptModel([{ text: 'Noa built **Concierge Copilot** (concierge-copilot).', chunks: 3 }]);
    await page.goto(`${chatSite}/entries/concierge-copilot`);
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    const input = page.getByLabel('Your question');
    await input.fill('What did Noa build?');
    await input.press('Enter');
    await expect(page.locator('.msg-assistant .answer strong').last()).toHaveText('Concierge Copilot');
    await page.goto(`${chatSite}/fr/lenses`);
    await expect(page.locator('h1')).toBeVisible();
    expect(await violations()).toEqual([]);
  });

  test('every console page: sign-in, files, the editor’s form and source (CodeMirror injects its styles), Review with an edit, Publish', async ({ page }) => {
    const violations = await watchCsp(page);
    await ownClientIp(page);
    // Each page loaded afresh, so that each one's own modules (zod among them, through conform and the contract) start it.
    const visit = async (path: string, ready: Locator) => {
      await page.goto(chatSite + path);
      await expect(ready).toBeVisible();
      await page.waitForLoadState('networkidle');
    };
    await visit('/admin/login', page.getByLabel('Token', { exact: true }));
    expect((await page.request.post(`${chatSite}/api/admin/login`, { data: { token: adminToken } })).status()).toBe(204);
    await visit('/admin', page.getByRole('heading', { name: /^Files on/ }));
    await visit(`/admin/edit?path=${encodeURIComponent('content/skills/python.md')}`, page.getByLabel(/^Name/));
    await expect(page.getByLabel(/^Name/)).toHaveValue('Python');
    await page.getByRole('button', { name: 'Source', exact: true }).click();
    await expect(page.locator('.cm-content')).toContainText('Python');
    await replaceText(page, (await editorText(page)).trimEnd() + '\n\nAn edit to review.\n');
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    await visit('/admin/review', page.getByRole('button', { name: /Commit 1 file/ }));
    await visit('/admin/publish', page.getByRole('heading', { name: 'Publish', exact: true }));
    expect(await violations()).toEqual([]);
  });
});
