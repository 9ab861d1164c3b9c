// Accessibility: axe-core finds no violations on any page type, in light and dark, in a Latin and a CJK locale,
// with the chat panel open too; a client-side navigation moves focus and says the new page's title.
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

const pages = [
  '/',
  '/entries',
  '/entries?kind=project',
  '/entries/concierge-copilot',
  '/lenses',
  '/lenses/head-of-ai',
  '/documents',
  '/documents/capabilities',
  '/search?q=evaluation',
  '/no-such-page',
];

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} mode`, () => {
    test.use({ colorScheme: scheme });

    for (const locale of ['en', 'ja']) {
      test(`${locale}: no axe violations on any page type`, async ({ page }) => {
        for (const path of pages) {
          await page.goto(locale === 'en' ? path : `/${locale}${path === '/' ? '' : path}`);
          const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
          expect(
            results.violations.map(
              (v) =>
                `${path}: ${v.id} — ${v.nodes
                  .map((n) => n.target.join(' '))
                  .slice(0, 3)
                  .join(', ')}`,
            ),
          ).toEqual([]);
        }
      });
    }

    test('no axe violations with the chat panel and the language menu open', async ({ page }) => {
      await page.goto('/entries/concierge-copilot');
      await page.getByRole('button', { name: 'Ask about Noa' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.getByLabel('Your question').fill('ragcheck');
      await page.getByLabel('Your question').press('Enter');
      await expect(page.locator('.passages')).toBeVisible();
      await page.locator('.lang-menu summary').click();
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      expect(
        results.violations.map(
          (v) =>
            `${v.id} — ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
        ),
      ).toEqual([]);
    });
  });
}

// A client-side navigation (the header's links, Back and Forward) tells a screen reader what a full page load would:
// focus moves to the new page's h1 and its title is said in a polite live region (app/components/RouteAnnouncer.tsx).
test.describe('client-side navigation', () => {
  /** The page has hydrated (the chat launcher is a button only then): a click on a header link is a client navigation. */
  async function openHydrated(page: Page, path: string) {
    await page.goto(path);
    await expect(page.locator('button.chat-launcher')).toBeVisible();
    // Gone after a full page load: the tests below check that each step stayed in this document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  }
  const sameDocument = (page: Page) => page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument === true);
  const announcer = (page: Page) => page.getByTestId('route-announcer');

  // Clicked in English; followed with Enter in Japanese, where the focus ring would show if the heading had one.
  for (const { locale, entries, lenses, lensesTitle, nav, by } of [
    { locale: 'en', entries: '/entries', lenses: 'Lenses', lensesTitle: 'Role lenses', nav: 'Main', by: 'click' },
    { locale: 'ja', entries: '/ja/entries', lenses: 'ロール別の視点', lensesTitle: 'ロール別の視点', nav: 'メイン', by: 'keyboard' },
  ]) {
    test(`${locale}: a header link (${by}) moves focus to the new page's h1 and says its title`, async ({ page }) => {
      await openHydrated(page, entries);
      await expect(announcer(page)).toBeEmpty(); // nothing on the first load: the browser reads the page itself
      const link = page.getByRole('navigation', { name: nav }).getByRole('link', { name: lenses });
      if (by === 'click') await link.click();
      else {
        await link.focus();
        await page.keyboard.press('Enter');
      }
      await expect(page).toHaveURL(/\/lenses$/);
      const h1 = page.locator('main h1');
      await expect(h1).toHaveText(lensesTitle);
      await expect(h1).toBeFocused();
      await expect(h1).toHaveAttribute('tabindex', '-1');
      await expect(h1).toHaveCSS('outline-style', 'none');
      await expect(announcer(page)).toHaveAttribute('aria-live', 'polite');
      await expect(announcer(page)).toHaveText(await page.title());
      expect(await page.title()).toContain(lensesTitle);
      expect(await sameDocument(page)).toBe(true);
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      expect(results.violations.map((v) => `${v.id} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }

  test('Back and Forward move focus to the h1 of the page they show and say its title', async ({ page }) => {
    await openHydrated(page, '/entries');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lenses' }).click();
    await expect(page.locator('main h1')).toHaveText('Role lenses');
    await page.goBack();
    await expect(page).toHaveURL(/\/entries$/);
    await expect(page.locator('main h1')).toHaveText('Entries');
    await expect(page.locator('main h1')).toBeFocused();
    await expect(announcer(page)).toHaveText(await page.title());
    expect(await page.title()).toContain('Entries');
    await page.goForward();
    await expect(page.locator('main h1')).toHaveText('Role lenses');
    await expect(page.locator('main h1')).toBeFocused();
    await expect(announcer(page)).toHaveText(await page.title());
    expect(await sameDocument(page)).toBe(true);
  });

  test('a search on the same page changes only the query: focus stays on the button, nothing more is said', async ({ page }) => {
    await openHydrated(page, '/entries');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await expect(page.locator('main h1')).toBeFocused();
    const said = await page.title();
    await expect(announcer(page)).toHaveText(said);
    await page.getByLabel('Search the profile').fill('evaluation');
    const button = page.getByRole('search').getByRole('button', { name: 'Search' });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=evaluation$/);
    await expect(page.locator('.result-count')).toBeVisible();
    expect(await page.title()).not.toBe(said); // the title names the query: a new title alone is no new page
    await expect(button).toBeFocused();
    await expect(announcer(page)).toHaveText(said);
    expect(await sameDocument(page)).toBe(true);
  });

  test('the search box keeps focus through a search and shows the query Back returns to; the count is said from the first search', async ({ page }) => {
    await openHydrated(page, '/search');
    // the live region is on the page before anything is searched, so that the first count is said too
    await expect(page.locator('.result-count[role="status"]')).toHaveCount(1);
    const box = page.getByLabel('Search the profile');
    await box.fill('evaluation');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=evaluation$/);
    await expect(page.locator('.result-count')).toHaveText(/\d/);
    await expect(box).toBeFocused();
    await box.fill('hotel');
    await box.press('Enter');
    await expect(page).toHaveURL(/q=hotel$/);
    await page.goBack();
    await expect(page).toHaveURL(/q=evaluation$/);
    await expect(box).toHaveValue('evaluation');
  });

  test('choosing a filter keeps focus on it, so the next Tab goes on to the next filter', async ({ page }) => {
    await openHydrated(page, '/entries');
    const kind = page.locator('#filter-kind');
    const before = await page.getByTestId('entry-count').textContent();
    await kind.focus();
    await kind.selectOption('project');
    await expect(page).toHaveURL(/kind=project/);
    await expect(page.getByTestId('entry-count')).not.toHaveText(before!);
    await expect(kind).toBeFocused();
    await expect(kind).toHaveValue('project');
    await page.keyboard.press('Tab');
    await expect(page.locator('#filter-tag')).toBeFocused();
    expect(await sameDocument(page)).toBe(true);
  });

  test('a fragment keeps its place: Back to /#section focuses the section, a link within the page is left to the browser', async ({ page }) => {
    await openHydrated(page, '/#latest-heading');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Entries' }).click();
    await expect(page.locator('main h1')).toBeFocused();
    await page.goBack();
    await expect(page).toHaveURL(/\/#latest-heading$/);
    const section = page.locator('#latest-heading');
    await expect(section).toBeFocused();
    await expect(section).toBeInViewport();
    await expect(announcer(page)).toHaveText(await page.title());
    // The skip link, a fragment of this page: the browser moves focus to <main>, and nothing takes it back.
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/#main$/);
    await expect(page.locator('main')).toBeFocused();
    await page.waitForTimeout(200);
    await expect(page.locator('main')).toBeFocused();
    expect(await sameDocument(page)).toBe(true);
  });

  test('focus in the open chat panel stays there, the page that changed behind it is still said; a header link takes it to the page', async ({ page }) => {
    await openHydrated(page, '/entries');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lenses' }).click();
    await expect(page.locator('main h1')).toBeFocused();
    await page.getByRole('button', { name: 'Ask about Noa' }).click();
    const question = page.getByLabel('Your question');
    await expect(question).toBeFocused();
    await page.goBack();
    await expect(page.locator('main h1')).toHaveText('Entries');
    await expect(announcer(page)).toHaveText(await page.title());
    await expect(question).toBeFocused();
    // A header link followed with the panel still open: the visitor has left it for the page.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documents' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.locator('main h1')).toBeFocused();
    expect(await sameDocument(page)).toBe(true);
  });

  test('on a phone, where the open chat panel covers the page, focus is not sent to the page behind it', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await openHydrated(page, '/entries');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lenses' }).click();
    await expect(page.locator('main h1')).toBeFocused();
    await page.getByRole('button', { name: 'Ask about Noa' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()); // focus nowhere, the panel still open
    await page.goBack();
    await expect(page.locator('main h1')).toHaveText('Entries');
    await expect(announcer(page)).toHaveText(await page.title());
    await expect(page.locator('main h1')).not.toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.closest('main'))).toBeNull();
    expect(await sameDocument(page)).toBe(true);
  });
});
