// The demo's images where machines read the profile (needs the web build): the pages' <img> with srcset, sizes,
// width and height (eager at the top, lazy below), JSON-LD's Person image and the entry page's primaryImageOfPage,
// JSON Resume's basics.image, the Atom feed's logo and enclosures, llms.txt's images — each pointing at a variant
// that is served.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../testing/service.ts';

let service: TestService;
before(async () => {
  service = await startTestService({}, { site: true });
});
after(() => service.stop());

/** The site's address in the records (BASE_URL), on this test's listener. */
const local = (url: string) => url.replace('http://vitae.test', service.url);
const jsonLd = (html: string) => [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));

async function served(url: string, type: RegExp): Promise<void> {
  const res = await fetch(local(url));
  assert.equal(res.status, 200, url);
  assert.match(res.headers.get('content-type')!, type);
  await res.arrayBuffer();
}

describe('the demo’s images', () => {
  it('the home page shows the portrait at the top, eager, with its size and variants; the cards’ covers lazy', async () => {
    const html = await (await service.get('/')).text();
    const portrait = /<picture class="hero-portrait">(.*?)<\/picture>/s.exec(html)?.[1];
    assert.ok(portrait, 'the portrait is on the home page');
    assert.match(portrait, /<source type="image\/avif" srcset="\/media\/[0-9a-f]{16}-320\.avif 320w, [^"]+" sizes="160px"\/>/i);
    const img = /<img ([^>]*)>/.exec(portrait)![1]!;
    assert.match(img, /width="1200" height="1200"/);
    assert.match(img, /alt="Illustrated portrait of Noa Castellan/);
    assert.match(img, /loading="eager"/);
    assert.match(img, /fetchpriority="high"/i);
    const covers = [...html.matchAll(/<picture class="entry-card-cover">(.*?)<\/picture>/gs)];
    assert.ok(covers.length >= 4, 'the featured entries show their covers');
    for (const [, cover] of covers) {
      assert.match(cover!, /loading="lazy"/);
      assert.match(cover!, /width="1600" height="900"/);
    }
  });

  it('an entry page shows its cover and gallery, and names its cover as the page’s main image', async () => {
    const html = await (await service.get('/entries/concierge-copilot')).text();
    assert.match(html, /<picture class="entry-cover">.*?loading="eager".*?<\/picture>/s);
    const gallery = /<section class="entry-section entry-gallery">(.*?)<\/section>/s.exec(html)?.[1];
    assert.ok(gallery);
    assert.equal([...gallery.matchAll(/<img /g)].length, 2);
    assert.match(gallery, /loading="lazy"/);
    const page = jsonLd(html).find((d) => d['@type'] === 'ItemPage');
    assert.equal(page.primaryImageOfPage['@type'], 'ImageObject');
    assert.match(page.primaryImageOfPage.contentUrl, /^http:\/\/vitae\.test\/media\/[0-9a-f]{16}-1600\.webp$/);
    assert.match(page.primaryImageOfPage.caption, /service bell/);
    await served(page.primaryImageOfPage.contentUrl, /image\/webp/);
  });

  it('the Person of JSON-LD, JSON Resume, the feed and llms.txt point at the images', async () => {
    const person = jsonLd(await (await service.get('/')).text())
      .flatMap((d) => [d, d.mainEntity])
      .find((d) => d?.['@type'] === 'Person');
    assert.match(person.image.contentUrl, /\/media\/[0-9a-f]{16}-1200\.webp$/);
    assert.deepEqual([person.image.width, person.image.height], [1200, 1200]);
    const resume = await (await service.get('/resume.json')).json();
    assert.equal(resume.basics.image, person.image.contentUrl);
    const feed = await (await service.get('/fr/feed.xml')).text();
    assert.match(feed, new RegExp(`<logo>${person.image.contentUrl.replace(/[.]/g, '\\.')}</logo>`));
    const enclosures = [...feed.matchAll(/<link rel="enclosure" type="image\/webp" title="([^"]+)" href="([^"]+)"\/>/g)];
    assert.ok(enclosures.length >= 4);
    await served(enclosures[0]![2]!, /image\/webp/);
    const llms = await (await service.get('/llms.txt')).text();
    assert.match(llms, /## Images\n\n- \[Portrait\]\(http:\/\/vitae\.test\/media\/[0-9a-f]{16}-1200\.webp\): Illustrated portrait/);
    assert.match(llms, /- \[Concierge Copilot[^\]]*\]\(http:\/\/vitae\.test\/media\/[0-9a-f]{16}-1600\.webp\): Illustration of a brass hotel service bell/);
  });

  it('gives each locale the alt text in its language', async () => {
    for (const locale of ['fr', 'ja', 'zh-hant', 'eo']) {
      const site = await (await service.get(`/api/v1/site?locale=${locale}`)).json();
      const entry = await (await service.get(`/api/v1/entries/concierge-copilot?locale=${locale}`)).json();
      const english = await (await service.get('/api/v1/entries/concierge-copilot')).json();
      assert.notEqual(site.subject.portrait.alt, (await (await service.get('/api/v1/site')).json()).subject.portrait.alt, locale);
      assert.ok(entry.translated, `${locale}: the translation is current`);
      assert.notEqual(entry.cover.alt, english.cover.alt, locale);
      assert.equal(entry.gallery.length, 2);
      assert.notEqual(entry.gallery[1].alt, english.gallery[1].alt, locale);
      const html = await (await service.get(`/${locale}/entries/concierge-copilot`)).text();
      assert.ok(html.includes(`alt="${entry.cover.alt.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`), `${locale}: the page shows the translated alt`);
    }
  });
});
