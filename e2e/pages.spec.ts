// The public pages: every page type in every locale, filters, the language switcher, English fallbacks,
// 404s, pages without JavaScript, and the dev preview.
import { expect, test } from '@playwright/test';
import { htmlLang, json, locales, prefix, preview, site, adminToken } from './support/helpers.ts';

interface Entry {
  slug: string;
  title: string;
  kind: string;
  tags: string[];
  lenses: string[];
  url: string;
  translated: boolean;
  featured: boolean;
}

test.describe('every page type in every locale', () => {
  for (const locale of locales) {
    test(`${locale}: home, entries, entry, lenses, lens, documents, document and search answer 200 with lang="${htmlLang[locale]}"`, async ({
      page,
      request,
    }) => {
      const { entries } = await json<{ entries: Entry[] }>(request, `/api/v1/entries?locale=${locale}`);
      const { lenses } = await json<{ lenses: Array<{ id: string; title: string }> }>(request, `/api/v1/lenses?locale=${locale}`);
      const doc = await json<{ title: string }>(request, `/api/v1/documents/capabilities?locale=${locale}`);
      const entry = entries.find((e) => e.slug === 'concierge-copilot')!;
      const pages: Array<[string, string]> = [
        [`${prefix(locale)}/`, 'Noa Castellan'],
        [`${prefix(locale)}/entries`, entries[0]!.title],
        [new URL(entry.url).pathname, entry.title],
        [`${prefix(locale)}/lenses`, lenses[0]!.title],
        [`${prefix(locale)}/lenses/head-of-ai`, lenses.find((l) => l.id === 'head-of-ai')!.title],
        [`${prefix(locale)}/documents`, doc.title],
        [`${prefix(locale)}/documents/capabilities`, doc.title],
        [`${prefix(locale)}/search?q=ragcheck`, 'ragcheck'],
      ];
      for (const [path, text] of pages) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(200);
        await expect(page.locator('html'), path).toHaveAttribute('lang', htmlLang[locale]!);
        await expect(page.locator('main'), path).toContainText(text);
        await expect(page.locator('h1'), path).toHaveCount(1);
      }
      // A word every language writes the same way ("ragcheck") finds the page's own translation, linked in its locale.
      const links = await page.locator('.result-list li h3 a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      expect(links.length).toBeGreaterThan(0);
      for (const href of links) expect(href).toMatch(new RegExp(`^${prefix(locale)}/(entries|documents)/`));
    });
  }

  test('the entry page lives at the url the API gives, in every locale', async ({ page, request }) => {
    for (const locale of locales) {
      const { entries } = await json<{ entries: Entry[] }>(request, `/api/v1/entries?locale=${locale}`);
      const url = new URL(entries[3]!.url);
      expect(url.pathname).toBe(`${prefix(locale)}/entries/${entries[3]!.slug}`);
      expect((await page.goto(url.pathname))?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveText(entries[3]!.title);
    }
  });

  test('the home page says where the subject is in its own language', async ({ page }) => {
    for (const [path, place] of [
      ['/', 'Lisbon, Portugal'],
      ['/fr/', 'Lisbonne, Portugal'],
      ['/ja/', 'ポルトガル・リスボン'],
    ]) {
      await page.goto(path!);
      await expect(page.locator('.hero-location')).toHaveText(place!);
    }
  });

  test('the home page shows the brief, the featured highlights, every lens and the latest entries', async ({ page, request }) => {
    const { entries } = await json<{ entries: Entry[] }>(request, '/api/v1/entries');
    const { lenses } = await json<{ lenses: unknown[] }>(request, '/api/v1/lenses');
    await page.goto('/');
    await expect(page.locator('#brief-heading')).toBeVisible();
    await expect(page.locator('.brief')).toContainText('Positioning');
    const featured = entries.filter((e) => e.featured);
    expect(featured.length).toBeGreaterThan(0);
    await expect(page.locator('section[aria-labelledby="highlights-heading"] .entry-card')).toHaveCount(featured.length);
    for (const e of featured) await expect(page.locator('section[aria-labelledby="highlights-heading"]')).toContainText(e.title);
    await expect(page.locator('.lens-tile')).toHaveCount(lenses.length);
    await expect(page.getByRole('link', { name: /All entries \(26\)/ })).toBeVisible();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a table wider than the screen scrolls in its own box, by keyboard too, with a shadow at the edge it runs past', async ({ page }) => {
    await page.goto('/documents/capabilities');
    const wrap = page.locator('.table-wrap').first();
    const box = await wrap.evaluate((el) => ({
      overflows: el.scrollWidth > el.clientWidth,
      page: document.documentElement.scrollWidth <= innerWidth,
      attachment: getComputedStyle(el).backgroundAttachment,
    }));
    expect(box.overflows, 'the table is wider than its box').toBe(true);
    expect(box.page, 'the page itself does not scroll sideways').toBe(true);
    // the covers move with the table (local), the shadows stay at the box's edges (scroll)
    expect(box.attachment).toMatch(/local.*scroll/);
    await wrap.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => wrap.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });
});

test.describe('words about the subject come from the content', () => {
  test('the list of documents shows each document’s own summary, marked English where it fell back', async ({ page, request }) => {
    for (const locale of ['en', 'ja', 'es']) {
      const names = ['profile', 'credentials', 'capabilities', 'talks', 'thinking'];
      const docs = await Promise.all(
        names.map((name) => json<{ summary: string; translated: boolean }>(request, `/api/v1/documents/${name}?locale=${locale}`)),
      );
      await page.goto(`${prefix(locale)}/documents`);
      const blurbs = page.locator('.doc-blurb');
      await expect(blurbs).toHaveCount(names.length);
      for (const [i, doc] of docs.entries()) {
        expect(doc.summary.length, `${locale} ${names[i]}`).toBeGreaterThan(5);
        await expect(blurbs.nth(i)).toHaveText(doc.summary);
        if (!doc.translated && locale !== 'en') await expect(blurbs.nth(i)).toHaveAttribute('lang', 'en');
      }
    }
  });

  test('Markdown is rendered on the server: tables, lists, emphasis and links, with no raw Markdown left', async ({ page }) => {
    await page.goto('/documents/capabilities');
    await expect(page.locator('.document-body table th').first()).toHaveText('Capability');
    expect(await page.locator('.document-body table tbody tr').count()).toBeGreaterThan(5);
    await page.goto('/ja/');
    await expect(page.locator('.brief-body h3').first()).toBeVisible();
    await expect(page.locator('.brief-body li strong').first()).toBeVisible();
    await expect(page.locator('.brief-body')).not.toContainText('**');
    await expect(page.locator('.brief-body')).not.toContainText('## ');
  });
});

test.describe('locales in the URL', () => {
  test('an unknown locale prefix is a 404 page, and so is an unknown page in a known locale', async ({ page }) => {
    for (const path of [
      '/xx',
      '/xx/entries',
      '/de/lenses/head-of-ai',
      '/fr/nothing-here',
      '/entries/no-such-entry',
      '/lenses/no-such-lens',
      '/documents/nope',
      '/ja/entries/no-such-entry',
    ]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.locator('h1'), path).toBeVisible();
    }
    await page.goto('/fr/nothing-here');
    await expect(page.locator('h1')).toHaveText('Page introuvable');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  });

  test('/en/… redirects to the unprefixed English page', async ({ page }) => {
    await page.goto('/en/entries?kind=project');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/entries?kind=project');
  });

  test('each page declares hreflang alternates for the seven locales and x-default, and a canonical link', async ({ page }) => {
    await page.goto('/ja/lenses/head-of-ai');
    const alternates = await page
      .locator('link[rel="alternate"][hreflang]')
      .evaluateAll((links) => links.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]));
    expect(alternates).toEqual([
      ['en', `${site}/lenses/head-of-ai`],
      ['zh-Hans', `${site}/zh/lenses/head-of-ai`],
      ['zh-Hant', `${site}/zh-hant/lenses/head-of-ai`],
      ['ja', `${site}/ja/lenses/head-of-ai`],
      ['fr', `${site}/fr/lenses/head-of-ai`],
      ['es', `${site}/es/lenses/head-of-ai`],
      ['eo', `${site}/eo/lenses/head-of-ai`],
      ['x-default', `${site}/lenses/head-of-ai`],
    ]);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${site}/ja/lenses/head-of-ai`);
  });

  test('the language switcher keeps the page and its query', async ({ page }) => {
    await page.goto('/entries?kind=project&tag=ai');
    await page.locator('.lang-menu summary').click();
    await page.locator('.lang-menu a[data-locale="ja"]').click();
    await expect(page).toHaveURL(/\/ja\/entries\?kind=project&tag=ai$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.locator('h1')).toHaveText('経歴');
    await page.locator('.lang-menu summary').click();
    await page.locator('.lang-menu a[data-locale="en"]').click();
    await expect(page).toHaveURL(/\/entries\?kind=project&tag=ai$/);
    await expect(page.locator('h1')).toHaveText('Entries');

    await page.goto('/fr/entries/concierge-copilot');
    const links = await page.locator('.lang-menu a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links).toEqual([
      '/entries/concierge-copilot',
      '/zh/entries/concierge-copilot',
      '/zh-hant/entries/concierge-copilot',
      '/ja/entries/concierge-copilot',
      '/fr/entries/concierge-copilot',
      '/es/entries/concierge-copilot',
      '/eo/entries/concierge-copilot',
    ]);
  });

  test('a record that fell back to English says so, and its text is marked lang="en"', async ({ page, request }) => {
    const { entries } = await json<{ entries: Entry[] }>(request, '/api/v1/entries?locale=es');
    const stale = entries.find((e) => !e.translated);
    expect(stale, 'the demo content has one stale Spanish translation').toBeTruthy();
    await page.goto(new URL(stale!.url).pathname);
    await expect(page.getByTestId('fallback-note')).toHaveText('Aún sin traducir: esta parte se muestra en el original en inglés.');
    await expect(page.locator('h1')).toHaveText(stale!.title);
    await expect(page.locator('.entry-header')).toHaveAttribute('lang', 'en');
    await expect(page.locator('.entry-main h2').first()).toHaveAttribute('lang', 'es');
    // A translated one has no note.
    const translated = entries.find((e) => e.translated)!;
    await page.goto(new URL(translated.url).pathname);
    await expect(page.getByTestId('fallback-note')).toHaveCount(0);
    // In lists, the stale card carries the note too.
    await page.goto('/es/entries');
    const card = page.locator('.entry-card', { hasText: stale!.title });
    await expect(card.locator('.fallback-inline')).toBeVisible();
    // its text is English, its kind and period the page's words
    await expect(card).toHaveAttribute('lang', 'en');
    await expect(card.locator('.entry-meta')).toHaveAttribute('lang', 'es');
    await page.goto(new URL(stale!.url).pathname);
    await expect(page.locator('.entry-header .eyebrow')).toHaveAttribute('lang', 'es');
  });
});

test.describe('sections of a document', () => {
  test('each heading has an address it links to, in a Latin and a CJK locale', async ({ page }) => {
    for (const path of ['/documents/profile', '/ja/documents/profile']) {
      await page.goto(path);
      const headings = page.locator('.document-body h2');
      expect(await headings.count(), path).toBeGreaterThan(2);
      for (const heading of await headings.all()) {
        const id = (await heading.getAttribute('id'))!;
        expect(id, path).toBeTruthy();
        await expect(heading.locator('a.section-link')).toHaveAttribute('href', `#${encodeURIComponent(id)}`);
      }
    }
    // following one puts the section in the address bar, where a reader copies it from
    const last = page.locator('.document-body h2').last();
    await last.locator('a').click();
    expect(decodeURIComponent(new URL(page.url()).hash.slice(1))).toBe(await last.getAttribute('id'));
    await expect(last).toBeInViewport();
  });

  test('a search hit in a document opens the page at the section that answered, below the header', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 740 });
    await page.goto('/ja/search?q=' + encodeURIComponent('どんな役割を求めていますか？'));
    const hit = page.locator('.result-list a[href*="/documents/profile#"]').first();
    await hit.click();
    await expect(page).toHaveURL(/\/ja\/documents\/profile#/);
    const section = page.locator('.document-body h2:target');
    await expect(section).toHaveText('求めている役割');
    const header = (await page.locator('.site-header').boundingBox())!;
    expect((await section.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
    await expect(section).toBeInViewport();
  });
});

test.describe('entries filters', () => {
  test('kind, industry and lens filters live in the URL and combine like the API', async ({ page, request }) => {
    const combos = ['kind=project', 'tag=hospitality', 'lens=developer-advocate', 'kind=experience&tag=ai', 'kind=education&lens=head-of-ai'];
    for (const query of combos) {
      const { entries, total } = await json<{ entries: Entry[]; total: number }>(request, `/api/v1/entries?${query}`);
      await page.goto(`/entries?${query}`);
      await expect(page.getByTestId('entry-count')).toHaveText(`${total} ${total === 1 ? 'entry' : 'entries'}`);
      await expect(page.locator('.entry-list .entry-card')).toHaveCount(entries.length);
      for (const e of entries) await expect(page.locator('.entry-list')).toContainText(e.title);
    }
  });

  test('choosing a filter updates the URL and the list (with JavaScript)', async ({ page, request }) => {
    const { total } = await json<{ total: number }>(request, '/api/v1/entries?kind=community');
    await page.goto('/entries');
    await page.getByLabel('Kind').selectOption('community');
    // only the filter chosen, in place of the unfiltered list: Back leaves the list, Apply adds nothing
    await expect(page).toHaveURL(/\/entries\?kind=community$/);
    await expect(page.getByTestId('entry-count')).toHaveText(`${total} entries`);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/\/entries\?kind=community$/);
    expect(await page.evaluate(() => history.length)).toBe(2);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page.getByTestId('entry-count')).toHaveText('26 entries');
  });

  test('a filter chosen while the page is still loading is kept once it is interactive, and Apply applies it', async ({ page }) => {
    let release!: () => void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/build\/.*\.js$/, async (route) => {
      await loaded;
      await route.continue();
    });
    await page.goto('/entries', { waitUntil: 'domcontentloaded' });
    await page.getByLabel('Kind').selectOption('community');
    release();
    await expect(page.locator('button.chat-launcher')).toBeVisible(); // interactive now
    await expect(page.getByLabel('Kind')).toHaveValue('community');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/\/entries\?kind=community$/);
  });

  test('an unknown filter value is ignored rather than failing the page', async ({ page }) => {
    expect((await page.goto('/entries?kind=spaceship'))?.status()).toBe(200);
    await expect(page.getByTestId('entry-count')).toHaveText('26 entries');
  });
});

test.describe('the lens page', () => {
  test('shows the case and the honest gaps side by side with equal weight, and links the evidence', async ({ page, request }) => {
    const { lenses } = await json<{ lenses: Array<{ id: string; honestGaps: string[]; evidence: { entries: number } }> }>(request, '/api/v1/lenses');
    const lens = lenses.find((l) => l.id === 'engineering-manager')!;
    await page.goto('/lenses/engineering-manager');
    const gaps = page.getByTestId('honest-gaps');
    await expect(gaps.locator('h2')).toHaveText('Honest gaps');
    await expect(gaps.locator('li')).toHaveCount(lens.honestGaps.length);
    for (const gap of lens.honestGaps) await expect(gaps).toContainText(gap);
    const [caseBox, gapBox] = await Promise.all([page.locator('.case-gaps .case').boundingBox(), gaps.boundingBox()]);
    expect(Math.abs(caseBox!.width - gapBox!.width)).toBeLessThan(2);
    expect(Math.abs(caseBox!.y - gapBox!.y)).toBeLessThan(2);
    const cards = page.locator('.lens-page .entry-list .entry-card');
    await expect(cards).toHaveCount(lens.evidence.entries);
    await cards.first().locator('h3 a').click();
    await expect(page).toHaveURL(/\/entries\//);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the search page reads a typo and the words for the person: the first answer is the one the question spelt right finds', async ({ page }) => {
    const first = page.locator('.result-list li h3 a').first();
    await page.goto(`/search?q=${encodeURIComponent('Has she spoken at conferences?')}`);
    const right = await first.getAttribute('href');
    expect(right).toBeTruthy();
    await page.goto(`/search?q=${encodeURIComponent('Has the candidate spoken at conferwnces?')}`);
    await expect(first).toHaveAttribute('href', right!);
    // the passage is shown as text, not as its Markdown (the talks list's **bold** and dashes)
    const passage = (await page.locator('.result-list li .passage').first().textContent()) ?? '';
    expect(passage).toMatch(/Kansai Web Meetup/);
    expect(passage).not.toMatch(/\*\*|^- /);
    // a sector the profile lacks, in a recruiter's frame: nothing, said plainly
    await page.goto(`/search?q=${encodeURIComponent('Has she worked in the energy sector?')}`);
    await expect(page.locator('.result-list')).toHaveCount(0);
    await expect(page.locator('.results .empty')).toBeVisible();
  });

  test('pages render, filters and search work as plain GET forms, and the chat launcher leads to search', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('h1')).toHaveText('Noa Castellan');
    await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(1);

    await page.goto('/entries');
    await page.getByLabel('Kind').selectOption('education');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/\/entries\?kind=education/);
    await expect(page.locator('.entry-list .entry-card')).toHaveCount(3);

    await page.goto('/fr/search');
    await page.getByLabel('Chercher dans le profil').fill('ragcheck');
    await page.getByRole('button', { name: 'Chercher' }).click();
    await expect(page).toHaveURL(/\/fr\/search\?q=ragcheck/);
    await expect(page.locator('.result-list li').first()).toBeVisible();

    await page.goto('/lenses/hospitality');
    await expect(page.getByTestId('honest-gaps')).toBeVisible();
    await page.goto('/documents/capabilities');
    await expect(page.locator('table')).toBeVisible();

    const launcher = page.locator('a.chat-launcher');
    await expect(launcher).toHaveAttribute('href', '/search');

    // The language menu is a <details>: it opens without JavaScript.
    await page.goto('/entries/concierge-copilot');
    await page.locator('.lang-menu summary').click();
    await page.locator('.lang-menu a[data-locale="zh-hant"]').click();
    await expect(page).toHaveURL(/\/zh-hant\/entries\/concierge-copilot$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  });
});

test.describe('keyboard', () => {
  test('the skip link comes first and moves focus to the content; focus is visible', async ({ page }) => {
    await page.goto('/entries');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
  });

  test('the chat opens, takes a question and closes with the keyboard alone', async ({ page }) => {
    await page.goto('/');
    await page.locator('button.chat-launcher').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Your question')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.locator('#chat-panel')).toBeHidden();
    await expect(page.locator('button.chat-launcher')).toBeFocused();
  });
});

test.describe('the dev preview', () => {
  test('renders the dev build: a change committed to dev shows on the preview and not on the site', async ({ page, request }) => {
    const path = 'content/corpus/projects/concierge-copilot.md';
    const file = await (await request.get(`${site}/api/admin/file?path=${path}&branch=dev`, { headers: { Authorization: `Bearer ${adminToken}` } })).json();
    const changed = file.content.replace(/^title: .*$/m, 'title: "Concierge Copilot (preview edit)"');
    const put = await request.put(`${site}/api/admin/file`, {
      headers: { Authorization: `Bearer ${adminToken}` },
      data: { path, content: changed, message: 'Preview edit from the browser tests', branch: 'dev' },
    });
    expect(put.status()).toBe(200);
    await expect
      .poll(async () => (await (await request.get(`${preview}/api/v1/entries/concierge-copilot`)).json()).title, { timeout: 30_000 })
      .toBe('Concierge Copilot (preview edit)');

    await page.goto(`${preview}/entries/concierge-copilot`);
    await expect(page.locator('h1')).toHaveText('Concierge Copilot (preview edit)');
    await expect(page.locator('.preview-banner')).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    expect(await (await request.get(`${preview}/robots.txt`)).text()).toContain('Disallow: /');

    await page.goto(`${site}/entries/concierge-copilot`);
    await expect(page.locator('h1')).toHaveText('Concierge Copilot: an LLM assistant for hotel guests');
    await expect(page.locator('.preview-banner')).toHaveCount(0);
  });
});

test.describe('print', () => {
  test('the home page prints as the brief: no buttons, cards or lists, on one A4 page for the demo subject', async ({ page }) => {
    await page.goto('/');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('#brief-heading')).toBeVisible();
    for (const hidden of ['.home .actions', '#highlights-heading', '#lenses-heading', '#latest-heading', '.site-footer'])
      await expect(page.locator(hidden).first(), hidden).toBeHidden();
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
  });
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('no page type scrolls sideways at 360 px, in a Latin and a CJK locale', async ({ page }) => {
    for (const locale of ['', '/ja', '/fr']) {
      for (const path of [
        '/',
        '/entries',
        '/entries/concierge-copilot',
        '/lenses',
        '/lenses/head-of-ai',
        '/documents',
        '/documents/capabilities',
        '/search?q=hotel',
      ]) {
        await page.goto(`${locale}${path === '/' && locale ? '' : path}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${locale}${path}`).toBeLessThanOrEqual(0);
      }
    }
  });

  test('a link to a heading shows it below the sticky header, on a phone as on a desktop', async ({ page }) => {
    for (const [width, path, id] of [
      [360, '/fr/lenses/hospitality', 'gaps-heading'],
      [360, '/', 'brief-heading'],
      [1280, '/', 'brief-heading'],
    ] as const) {
      await page.setViewportSize({ width, height: 740 });
      await page.goto(`${path}#${id}`);
      const header = (await page.locator('.site-header').boundingBox())!;
      const heading = (await page.locator(`#${id}`).boundingBox())!;
      expect(heading.y, `${width} ${path}#${id}`).toBeGreaterThanOrEqual(header.y + header.height);
    }
  });

  test('Tab stays within the chat while it covers the phone screen, both ways', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    await expect(page.getByLabel('Your question')).toBeFocused();
    const inside = () => page.evaluate(() => !!document.activeElement?.closest('#chat-panel'));
    for (const key of [...Array(8).fill('Tab'), ...Array(8).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      expect(await inside(), key).toBe(true);
    }
  });

  test('the chat panel fills the phone screen and closes again', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    const box = await page.getByRole('dialog').boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
  });
});
