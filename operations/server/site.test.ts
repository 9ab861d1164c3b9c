// get_site: who the site is about, its languages, the content commit, and each page's last change taken
// from the commits that changed what the page shows (not the build time), per locale.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { locales } from '../contract/shared.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { countryCode, placeOf } from '../corpus/country.ts';

const TOKEN = 'site-test-token-0123456789abcdef';
let service: TestService;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
});
after(() => service.stop());

const site = async (locale = 'en') => await (await service.get(`/api/v1/site?locale=${locale}`)).json();
const pageTime = (info: any, path: string) => info.pages.find((p: any) => p.path === path)?.updatedAt as string;

async function put(path: string, edit: (text: string) => string, message: string): Promise<string> {
  const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const file = (await (await service.get(`/api/admin/file?path=${encodeURIComponent(path)}`, { headers })).json()) as { content: string };
  const res = await service.get('/api/admin/file', { method: 'PUT', headers, body: JSON.stringify({ path, content: edit(file.content), message }) });
  assert.equal(res.status, 200, await res.clone().text());
  const sha = ((await res.json()) as { commit: { sha: string } }).commit.sha;
  for (let i = 0; i < 200 && (await site()).content.commit !== sha; i++) await sleep(50);
  assert.equal((await site()).content.commit, sha, 'the commit is live');
  return sha;
}

describe('get_site', () => {
  it('names the site, its subject (with an ISO country code and a portrait), contact, links, languages and content commit', async () => {
    const info = await site('fr');
    assert.equal(info.name, 'Noa Castellan');
    assert.equal(info.url, 'http://vitae.test');
    const { portrait, ...subject } = info.subject;
    assert.equal(portrait.path, 'content/media/noa-castellan-portrait.jpg');
    assert.match(portrait.alt, /^Portrait illustré de Noa Castellan/, 'the alt text in the requested locale');
    assert.deepEqual(subject, {
      name: 'Noa Castellan',
      headline: 'Directrice de l’IA chez Orbitale Travel : des produits LLM appliqués à l’hôtellerie, de la réception d’hôtel à la stratégie IA',
      location: 'Lisbon, Portugal',
      place: 'Lisbonne, Portugal',
      locality: 'Lisbon',
      country: 'PT',
      email: 'noa.castellan@example.com',
    });
    assert.deepEqual(info.contact, { email: 'noa.castellan@example.com', url: 'http://vitae.test/fr' });
    assert.match(info.description, /^Profil professionnel de Noa Castellan/, 'the description in the requested locale');
    // (in English, the English text; a locale the content gives none for falls back to it, as a link's label does)
    assert.match((await site('en')).subject.headline, /^Head of AI at Orbitale Travel/);
    assert.ok(info.links.length > 0);
    // a link's label in the locale asked for, where the content gives one (the English label elsewhere)
    assert.ok(
      info.links.some((l: any) => l.label === 'Conférences et écrits'),
      JSON.stringify(info.links),
    );
    assert.ok(info.links.some((l: any) => l.label === 'GitHub'));
    assert.ok((await site('en')).links.some((l: any) => l.label === 'Talks and writing'));
    assert.deepEqual(info.locales, [...locales]);
    const health = await (await service.get('/api/health')).json();
    assert.equal(info.content.commit, health.content.commit);
    assert.match(info.content.committedAt, /^\d{4}-\d\d-\d\dT/);
    assert.equal(info.locale, 'fr');
    assert.ok(info.skills.some((s: any) => s.slug === 'python'));
  });

  it('names the location as each language writes it: the city from the places table, the country from CLDR, in its order', async () => {
    const places = Object.fromEntries(await Promise.all(locales.map(async (l) => [l, (await site(l)).subject.place])));
    assert.deepEqual(places, {
      en: 'Lisbon, Portugal',
      zh: '葡萄牙里斯本',
      'zh-hant': '葡萄牙里斯本',
      ja: 'ポルトガル・リスボン',
      fr: 'Lisbonne, Portugal',
      es: 'Lisboa, Portugal',
      eo: 'Lisbono, Portugalujo',
    });
  });

  it('lists every content page in the locale asked for', async () => {
    const info = await site('ja');
    const paths = info.pages.map((p: any) => p.path);
    for (const path of ['/', '/entries', '/entries/concierge-copilot', '/lenses', '/lenses/head-of-ai', '/documents', '/documents/credentials'])
      assert.ok(paths.includes(path), path);
    assert.equal(info.pages.find((p: any) => p.path === '/').url, 'http://vitae.test/ja');
    assert.equal(info.pages.find((p: any) => p.path === '/lenses').url, 'http://vitae.test/ja/lenses');
  });

  it('refuses an unknown locale with 400', async () => {
    assert.equal((await service.get('/api/v1/site?locale=tlh')).status, 400);
  });

  it('dates a page by the commits that changed it: one entry’s edit moves that entry and its lists, not the others', async () => {
    const before = await site();
    const beforeFr = await site('fr');
    await sleep(1100); // commit times have a resolution of one second
    await put('content/corpus/projects/concierge-copilot.md', (t) => t.replace(/^summary: (.*)$/m, 'summary: $1 Edited.'), 'Edit one entry');
    const after = await site();
    const changed = pageTime(after, '/entries/concierge-copilot');
    assert.ok(changed > pageTime(before, '/entries/concierge-copilot'), 'the edited entry is newer');
    assert.equal(changed, after.content.committedAt, 'at the time of its commit');
    assert.equal(pageTime(after, '/entries'), changed, 'the list showing it too');
    const untouched = before.pages.find((p: any) => p.path.startsWith('/entries/') && p.path !== '/entries/concierge-copilot').path;
    assert.equal(pageTime(after, untouched), pageTime(before, untouched), 'another entry keeps its time');
    assert.equal(pageTime(after, '/documents/profile'), pageTime(before, '/documents/profile'), 'a document keeps its time');
    assert.ok(pageTime(before, '/documents/profile') <= before.content.committedAt);
    // The French page shows the entry too (its translation is now stale, so the English shows): it moved as well.
    assert.ok(pageTime(await site('fr'), '/entries/concierge-copilot') > pageTime(beforeFr, '/entries/concierge-copilot'));
  });
});

describe('ISO 3166 country codes from a location', () => {
  it('reads the country from the last part, in the site’s languages, or as a code', () => {
    assert.deepEqual(placeOf('Lisbon, Portugal'), { locality: 'Lisbon', country: 'PT' });
    assert.deepEqual(placeOf('Tokyo, 日本'), { locality: 'Tokyo', country: 'JP' });
    assert.deepEqual(placeOf('Montreux, Vaud, Suisse'), { locality: 'Montreux', country: 'CH' });
    assert.deepEqual(placeOf('Berlin, DE'), { locality: 'Berlin', country: 'DE' });
    assert.deepEqual(placeOf('Germany'), { country: 'DE' }, 'a current code, not a withdrawn one (DD)');
    assert.deepEqual(placeOf('Remote'), { locality: 'Remote' });
    assert.equal(countryCode('United Kingdom'), 'GB');
    assert.equal(countryCode('Atlantis'), undefined);
  });
});
