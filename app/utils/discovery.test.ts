// The discovery bundle as served by the site (needs the web build): JSON Resume valid against the official
// schema and complete where the content knows the answer, sitemap and feed dated by the content's commits,
// and the person's JSON-LD with an ISO 3166 country code. All of it read through get_site.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startTestService, type TestService } from '../../testing/service.ts';

// The official validator (CommonJS, untyped): the schema's own validate(resume, callback).
const resumeSchema = createRequire(import.meta.url)('@jsonresume/schema') as {
  validate(resume: unknown, callback: (errors: unknown[] | null, valid: boolean) => void): void;
};

let service: TestService;
before(async () => {
  service = await startTestService({}, { site: true });
});
after(() => service.stop());

const w3c = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');
const site = async (locale = 'en') => await (await service.get(`/api/v1/site?locale=${locale}`)).json();

function validResume(resume: unknown): Promise<unknown[]> {
  return new Promise((resolve) => resumeSchema.validate(resume, (errors) => resolve(errors ?? [])));
}

describe('/resume.json (JSON Resume)', () => {
  for (const locale of ['en', 'fr', 'ja']) {
    it(`is valid against @jsonresume/schema (${locale})`, async () => {
      const res = await service.get(locale === 'en' ? '/resume.json' : `/${locale}/resume.json`);
      assert.equal(res.status, 200);
      assert.deepEqual(await validResume(await res.json()), []);
    });
  }

  it('is checked for real: a résumé breaking the schema is refused', async () => {
    assert.ok((await validResume({ basics: { name: 42 }, languages: 'French' })).length >= 2);
  });

  it('has what the content knows: languages, study types, certificates, an ISO country code, the content’s commit time', async () => {
    const resume = await (await service.get('/resume.json')).json();
    assert.deepEqual(
      resume.languages.map((l: any) => l.language),
      ['French', 'English', 'Japanese', 'Spanish', 'Mandarin Chinese', 'Esperanto'],
    );
    assert.deepEqual(resume.languages[0], { language: 'French', fluency: 'Native' });
    const studies = Object.fromEntries(resume.education.map((e: any) => [e.institution, [e.studyType, e.area]]));
    assert.deepEqual(studies['Lakeshore School of Hospitality'], ['BSc', 'International Hospitality Management']);
    assert.deepEqual(studies['Northbridge Open University'], ['MSc', 'Computer Science']);
    assert.deepEqual(studies['Kestrel Institute of Technology'], ['Certificate', 'Applied Machine Learning']);
    assert.ok(resume.education.every((e: any) => e.courses.length > 0));
    assert.deepEqual(resume.certificates[0], { name: 'IT Service Management Foundation', issuer: 'Service Practice Institute', date: '2014' });
    assert.equal(resume.certificates.length, 4);
    assert.deepEqual(resume.basics.location, { city: 'Lisbon', countryCode: 'PT' });
    assert.equal(resume.meta.lastModified, (await site()).content.committedAt.slice(0, 19));
  });

  it('takes languages in the page’s language from the translated document', async () => {
    const resume = await (await service.get('/fr/resume.json')).json();
    assert.equal(resume.languages.length, 6);
    assert.equal(resume.languages[0].language, 'Français');
  });
});

describe('sitemap and feed dated by the content’s commits', () => {
  it('gives each sitemap URL the time its page last changed in its locale (not the build date)', async () => {
    const xml = await (await service.get('/sitemap.xml')).text();
    for (const locale of ['en', 'ja']) {
      const info = await site(locale);
      for (const page of info.pages) {
        const block = new RegExp(`<loc>${page.url.replace(/[.?*+^$[\]\\(){}|-]/g, '\\$&')}</loc>\\s*<lastmod>([^<]+)</lastmod>`).exec(xml);
        assert.ok(block, `${page.url} is in the sitemap`);
        assert.equal(block[1], w3c(page.updatedAt), page.url);
      }
    }
    assert.doesNotMatch(xml, /<lastmod>\d{4}-\d\d-\d\d<\/lastmod>/, 'a time, not the build date');
  });

  it('dates the feed and each entry by the commits that changed them', async () => {
    const xml = await (await service.get('/feed.xml')).text();
    const info = await site();
    const times = info.pages.filter((p: any) => p.path.startsWith('/entries/')).map((p: any) => w3c(p.updatedAt));
    const feedUpdated = /<feed[^>]*>[\s\S]*?<updated>([^<]+)<\/updated>/.exec(xml)![1]!;
    const entryUpdated = [...xml.matchAll(/<entry>[\s\S]*?<updated>([^<]+)<\/updated>/g)].map((m) => m[1]!);
    assert.ok(entryUpdated.length > 0);
    for (const time of entryUpdated) assert.ok(times.includes(time), time);
    assert.equal(feedUpdated, [...entryUpdated].sort().at(-1));
  });
});

describe('JSON-LD', () => {
  it('gives the person’s address an ISO 3166 country code', async () => {
    const html = await (await service.get('/')).text();
    assert.match(html, /"addressLocality":"Lisbon","addressCountry":"PT"/);
  });
});

describe('og:image per page', () => {
  it('links each page to its own card in its locale, as a large image named by the page', async () => {
    for (const [path, card] of [
      ['/', '/og/en/home.png'],
      ['/fr/entries/concierge-copilot', '/og/fr/entry/concierge-copilot.png'],
      ['/zh-hant/entries/concierge-copilot', '/og/zh-hant/entry/concierge-copilot.png'],
      ['/ja/lenses', '/og/ja/lenses.png'],
      ['/eo/lenses/developer-advocate', '/og/eo/lens/developer-advocate.png'],
      ['/documents/credentials', '/og/en/document/credentials.png'],
      ['/es/match', '/og/es/match.png'],
    ]) {
      const html = await (await service.get(path!)).text();
      const url = `http://vitae.test${card}`.replace(/[.]/g, '\\.');
      assert.match(html, new RegExp(`<meta property="og:image" content="${url}"/>`), path);
      assert.match(html, new RegExp(`<meta name="twitter:image" content="${url}"/>`), path);
      assert.match(html, /<meta name="twitter:card" content="summary_large_image"\/>/);
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
      assert.ok(title && html.includes(`<meta property="og:image:alt" content="${title}"/>`), `${path}: the alt text is the page's title`);
    }
  });

  it('serves each card as a 1200×630 PNG with an ETag (304 when unchanged), made once per build', async () => {
    for (const card of [
      '/og/en/home.png',
      '/og/ja/entries.png',
      '/og/zh-hant/entry/concierge-copilot.png',
      '/og/eo/lens/developer-advocate.png',
      '/og/fr/document/credentials.png',
    ]) {
      const res = await service.get(card);
      assert.equal(res.status, 200, card);
      assert.equal(res.headers.get('content-type'), 'image/png');
      const png = Buffer.from(await res.arrayBuffer());
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
      assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630]);
      const etag = res.headers.get('etag');
      assert.ok(etag, card);
      assert.equal((await service.get(card, { headers: { 'If-None-Match': etag } })).status, 304, card);
    }
    const card = async (path: string) => Buffer.from(await (await service.get(path)).arrayBuffer());
    const first = await card('/og/fr/entry/concierge-copilot.png');
    assert.ok(first.equals(await card('/og/fr/entry/concierge-copilot.png')));
    assert.ok(!first.equals(await card('/og/ja/entry/concierge-copilot.png')), 'each locale its own card');
    assert.ok(!first.equals(await card('/og/fr/entry/kansai-web-meetup.png')), 'each entry its own card');
    const etags = await Promise.all(
      ['/og/fr/entry/concierge-copilot.png', '/og/ja/entry/concierge-copilot.png'].map(async (p) => (await service.get(p)).headers.get('etag')),
    );
    assert.notEqual(etags[0], etags[1], 'each card its own ETag');
  });

  it('answers 404 for a card of nothing: an unknown slug, type or locale', async () => {
    for (const path of [
      '/og/en/entry/no-such-entry.png',
      '/og/fr/lens/no-such-lens.png',
      '/og/ja/document/nope.png',
      '/og/en/nope.png',
      '/og/de/home.png',
      '/og/en/entry.png',
      '/og/lens.png',
    ]) {
      assert.equal((await service.get(path)).status, 404, path);
    }
  });
});
