// The search page with the visitor's own text in it: a query of any length stays within the page.
import { expect, test, type Page } from '@playwright/test';

/** A query of one word far longer than any line, from a link (the input stops at 500 characters; the page keeps 500). */
const longQuery = 'a'.repeat(3000);
const shownWord = longQuery.slice(0, 500);

/** How far the page runs past the viewport's width (0 when nothing scrolls sideways). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The query's heading and empty result hold the word, and the page is no wider than the viewport of `width`. */
async function expectWrapped(page: Page, width: number) {
  await page.goto(`/search?q=${longQuery}`);
  await expect(page.locator('#results-heading')).toContainText(shownWord);
  await expect(page.locator('.results .empty')).toContainText(shownWord);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  // a phone widens its layout viewport to the content (to 1,560 px for this page before it wrapped)
  expect(await page.evaluate(() => window.innerWidth)).toBe(width);
}

test.describe('a very long query wraps in the heading and the empty result instead of widening the page', () => {
  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    test('390 px wide', ({ page }) => expectWrapped(page, 390));
  });

  test.describe('on a desktop', () => {
    test.use({ viewport: { width: 1280, height: 800 } });
    test('1280 px wide', ({ page }) => expectWrapped(page, 1280));
  });
});

test('a passage from a table reads row by row, each cell beside its header', async ({ page }) => {
  await page.goto('/search?q=' + encodeURIComponent('Which languages does she speak natively?'));
  const credentials = page.locator('.results li', { has: page.locator('a[href*="/documents/credentials"]') }).first();
  await expect(credentials.locator('.passage')).toContainText('Language: French, Level: Native');
  await expect(credentials.locator('.passage')).not.toContainText('|');
});
