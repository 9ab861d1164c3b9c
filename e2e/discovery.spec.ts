// The discovery bundle: <head> metadata, JSON-LD, llms.txt, Markdown twins, JSON Resume, the Atom feed,
// the sitemap and robots.txt. Every document is parsed, and its required fields checked.
import { expect, test, type Page } from '@playwright/test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createRequire } from 'node:module';
import { json, locales, prefix, site } from './support/helpers.ts';

const require = createRequire(import.meta.url);
const resumeSchema = require('@jsonresume/schema/schema.json');

/** Parses XML in the browser; fails on any parser error. */
async function parseXml(page: Page, xml: string) {
  await page.goto('/robots.txt');
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    const error = doc.querySelector('parsererror');
    if (error) throw new Error(error.textContent ?? 'parse error');
    return doc.documentElement.outerHTML.length;
  }, xml);
}

test.describe('page metadata', () => {
  test('every page type has its own title, description and Open Graph tags', async ({ page }) => {
    const titles = new Set<string>();
    for (const path of [
      '/',
      '/entries',
      '/entries/concierge-copilot',
      '/lenses',
      '/lenses/head-of-ai',
      '/documents',
      '/documents/profile',
      '/search',
      '/fr/entries/concierge-copilot',
    ]) {
      await page.goto(path);
      const title = await page.title();
      expect(title, path).toBeTruthy();
      titles.add(title);
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description?.length, path).toBeGreaterThan(20);
      for (const property of ['og:title', 'og:description', 'og:url', 'og:type', 'og:site_name', 'og:locale']) {
        await expect(page.locator(`meta[property="${property}"]`), `${path} ${property}`).toHaveAttribute('content', /.+/);
      }
      await expect(page.locator('link[rel="alternate"][type="text/markdown"]'), path).toHaveCount(1);
    }
    expect(titles.size).toBe(9);
    // a description is the page's text, not the heading of its first section ("Positionnement Noa Castellan dirige…")
    for (const [path, start] of [
      ['/fr', /^Noa Castellan/],
      ['/documents/profile', /^Noa Castellan/],
    ] as const) {
      await page.goto(path);
      expect(await page.locator('meta[name="description"]').getAttribute('content'), path).toMatch(start);
    }
    await page.goto('/fr/entries/concierge-copilot');
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'fr_FR');
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', `${site}/fr/entries/concierge-copilot`);
    // Its own card, in French: a PNG the crawler can fetch.
    const card = `${site}/og/fr/entry/concierge-copilot.png`;
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', card);
    const image = await page.request.get(card);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
  });

  test('the home page has JSON-LD: a ProfilePage whose mainEntity is the Person', async ({ page }) => {
    for (const locale of ['en', 'ja']) {
      await page.goto(`${prefix(locale)}/`);
      const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
      expect(blocks).toHaveLength(1);
      const data = JSON.parse(blocks[0]!);
      expect(data['@context']).toBe('https://schema.org');
      expect(data['@type']).toBe('ProfilePage');
      expect(data.url).toBe(`${site}${locale === 'en' ? '/' : `/${locale}`}`);
      expect(data.inLanguage).toBe(locale);
      const person = data.mainEntity;
      expect(person['@type']).toBe('Person');
      expect(person['@id']).toBe(`${site}/#person`);
      expect(person.name).toBe('Noa Castellan');
      expect(person.jobTitle).toBeTruthy();
      expect(person.worksFor).toEqual({ '@type': 'Organization', name: 'Orbitale Travel' });
      expect(person.address.addressLocality).toBe('Lisbon');
      expect(person.sameAs.length).toBeGreaterThan(0);
      expect(person.alumniOf.length).toBeGreaterThan(0);
    }
    await page.goto('/entries/concierge-copilot');
    const entry = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(entry.about).toEqual({ '@id': `${site}/#person` });
  });
});

test.describe('machine-readable documents', () => {
  test('llms.txt follows the llmstxt.org shape and every link answers', async ({ request }) => {
    const res = await request.get('/llms.txt');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/plain');
    const text = await res.text();
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Noa Castellan');
    expect(lines.find((l) => l.startsWith('> '))).toBeTruthy();
    for (const section of ['## Profile', '## Entries', '## Role lenses', '## API', '## Optional']) expect(lines).toContain(section);
    const profile = await json<{ summary: string }>(request, '/api/v1/documents/profile');
    expect(lines).toContain(`- [Core profile](${site}/documents/profile.md): ${profile.summary}`);
    const links = [...text.matchAll(/^- \[([^\]]+)\]\((\S+)\)/gm)].map((m) => m[2]!);
    expect(links.length).toBeGreaterThan(26 + 11 + 5);
    for (const link of links) {
      expect(link.startsWith(site), link).toBe(true);
      const answer = await request.get(link);
      expect(answer.status(), link).toBe(200);
    }
  });

  test('every page has a Markdown twin', async ({ request }) => {
    const twins: Array<[string, string]> = [
      ['/index.md', '# Noa Castellan'],
      ['/fr/index.md', '# Noa Castellan'],
      ['/entries.md', '# Entries'],
      ['/entries.md?kind=education', 'MSc'],
      ['/entries/concierge-copilot.md', '# Concierge Copilot: an LLM assistant for hotel guests — Orbitale Travel'],
      ['/ja/entries/concierge-copilot.md', '**主な成果:**'],
      ['/lenses.md', '# Role lenses'],
      ['/lenses/head-of-ai.md', '## Honest gaps'],
      ['/documents.md', '# Documents'],
      ['/documents/capabilities.md', '| Capability |'],
      ['/search.md?q=ragcheck', 'ragcheck'],
    ];
    for (const [path, text] of twins) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      expect(res.headers()['content-type'], path).toContain('text/markdown');
      expect(await res.text(), path).toContain(text);
    }
    expect((await request.get('/entries/no-such-entry.md')).status()).toBe(404);
    expect((await request.get('/xx/entries.md')).status()).toBe(404);
    // A page without a twin (a feed, a resource) has none either; a page that redirects sends its twin along.
    expect((await request.get('/feed.xml.md')).status()).toBe(404);
    expect((await request.get('/robots.txt.md')).status()).toBe(404);
    const moved = await request.get('/en/entries.md', { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers()['location']).toBe('/entries.md');
    // The list of documents says what each one holds, in the document's own words (its summary).
    const documentsTwin = await (await request.get('/fr/documents.md')).text();
    for (const name of ['profile', 'credentials', 'capabilities', 'talks', 'thinking']) {
      const doc = await json<{ title: string; summary: string }>(request, `/api/v1/documents/${name}?locale=fr`);
      expect(documentsTwin).toContain(`(${site}/fr/documents/${name}.md): ${doc.summary}`);
    }
    const entries = await (await request.get('/entries.md?kind=education')).text();
    expect(entries.match(/^- \[/gm)).toHaveLength(3);
  });

  test('a page that does not exist offers no Markdown version of itself; one that does links a twin that answers', async ({ page, request }) => {
    for (const path of ['/entries/nope', '/fr/documents/nope', '/nothing-here']) {
      expect((await page.goto(path))?.status(), path).toBe(404);
      await expect(page.locator('button.chat-launcher'), path).toBeVisible(); // interactive: the hydrated page agrees
      await expect(page.locator('link[rel="alternate"][type="text/markdown"]'), path).toHaveCount(0);
      await expect(page.locator('a[type="text/markdown"]'), path).toHaveCount(0);
      await expect(page.locator('.machine-links a[href="/llms.txt"]'), path).toBeVisible(); // the rest of the footer stays
    }
    for (const path of ['/entries/concierge-copilot', '/fr/documents/profile']) {
      await page.goto(path);
      for (const twin of [page.locator('link[rel="alternate"][type="text/markdown"]'), page.locator('a[type="text/markdown"]')]) {
        const href = (await twin.getAttribute('href'))!;
        expect(href, path).toBe(`${path}.md`);
        expect((await request.get(href)).status(), href).toBe(200);
      }
    }
  });

  test('/resume.json is valid JSON Resume and carries the career', async ({ request }) => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(resumeSchema);
    const { entries } = await json<{ entries: Array<{ kind: string }> }>(request, '/api/v1/entries');
    for (const locale of ['en', 'zh-hant']) {
      const res = await request.get(`${prefix(locale)}/resume.json`);
      expect(res.status()).toBe(200);
      const resume = await res.json();
      const valid = validate(resume);
      expect(validate.errors ?? [], locale).toEqual([]);
      expect(valid).toBe(true);
      expect(resume.basics.name).toBe('Noa Castellan');
      expect(resume.basics.email).toBe('noa.castellan@example.com');
      expect(resume.basics.profiles.length).toBeGreaterThan(0);
      expect(resume.work).toHaveLength(entries.filter((e) => e.kind === 'experience').length);
      expect(resume.education).toHaveLength(entries.filter((e) => e.kind === 'education').length);
      expect(resume.projects).toHaveLength(entries.filter((e) => e.kind === 'project').length);
      expect(resume.volunteer).toHaveLength(entries.filter((e) => e.kind === 'community').length);
      expect(resume.skills.length).toBeGreaterThan(10);
      expect(resume.work[0].startDate).toMatch(/^\d{4}-\d{2}$/);
    }
  });

  test('/feed.xml is an Atom feed of the newest entries', async ({ page, request }) => {
    const res = await request.get('/feed.xml');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/atom+xml');
    const xml = await res.text();
    await parseXml(page, xml);
    const { entries } = await json<{ entries: Array<{ title: string; url: string }> }>(request, '/api/v1/entries');
    const feed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const ns = 'http://www.w3.org/2005/Atom';
      const root = doc.documentElement;
      const child = (el: Element, name: string) => el.getElementsByTagNameNS(ns, name)[0]?.textContent ?? null;
      return {
        root: `${root.namespaceURI} ${root.localName}`,
        id: child(root, 'id'),
        title: child(root, 'title'),
        updated: child(root, 'updated'),
        author: child(root, 'name'),
        self: [...root.children].find((c) => c.localName === 'link' && c.getAttribute('rel') === 'self')?.getAttribute('href'),
        entries: [...root.getElementsByTagNameNS(ns, 'entry')].map((e) => ({
          id: child(e, 'id'),
          title: child(e, 'title'),
          updated: child(e, 'updated'),
          link: e.getElementsByTagNameNS(ns, 'link')[0]?.getAttribute('href'),
        })),
      };
    }, xml);
    expect(feed.root).toBe('http://www.w3.org/2005/Atom feed');
    expect(feed.id && feed.title && feed.author).toBeTruthy();
    expect(feed.updated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(feed.self).toBe(`${site}/feed.xml`);
    expect(feed.entries.length).toBe(20);
    expect(feed.entries[0]!.link).toBe(entries[0]!.url);
    for (const e of feed.entries) {
      expect(e.id && e.title).toBeTruthy();
      // When a commit last changed the entry (get_site's page times), not when its period began.
      expect(e.updated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(e.updated! <= feed.updated!).toBe(true);
    }
    expect((await request.get('/ja/feed.xml')).status()).toBe(200);
  });

  test('/sitemap.xml lists every page in every locale with hreflang alternates', async ({ page, request }) => {
    const res = await request.get('/sitemap.xml');
    expect(res.status()).toBe(200);
    const xml = await res.text();
    await parseXml(page, xml);
    const urls = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return [...doc.getElementsByTagNameNS('http://www.sitemaps.org/schemas/sitemap/0.9', 'url')].map((u) => ({
        loc: u.getElementsByTagNameNS('http://www.sitemaps.org/schemas/sitemap/0.9', 'loc')[0]!.textContent,
        alternates: u.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'link').length,
      }));
    }, xml);
    const pages = 1 + 1 + 26 + 1 + 11 + 1 + 5;
    expect(urls).toHaveLength(pages * locales.length);
    expect(urls.every((u) => u.alternates === locales.length + 1)).toBe(true);
    expect(urls.map((u) => u.loc)).toContain(`${site}/zh-hant/lenses/head-of-ai`);
    for (const loc of urls.slice(0, 12).map((u) => u.loc)) expect((await request.get(loc)).status(), loc).toBe(200);
  });

  test('robots.txt allows the site, keeps crawlers out of the admin surface and points at the sitemap', async ({ request }) => {
    const text = await (await request.get('/robots.txt')).text();
    expect(text).toContain('User-agent: *');
    expect(text).toContain('Disallow: /api/admin');
    expect(text).toContain(`Sitemap: ${site}/sitemap.xml`);
  });

  test('static build assets are cached immutably', async ({ request }) => {
    const html = await (await request.get('/')).text();
    const assets = [...html.matchAll(/"(\/build\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets.slice(0, 5)) {
      const res = await request.get(asset);
      expect(res.status(), asset).toBe(200);
      expect(res.headers()['cache-control'], asset).toContain('immutable');
      expect(res.headers()['cache-control'], asset).toContain('max-age=31536000');
    }
  });
});
