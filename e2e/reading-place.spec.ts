// Switching language keeps the reader's place: heading ids are the translated headings', so the place travels as
// the section's position and the translated page opens at the same section, named by its own id.
import { expect, test, type Page } from '@playwright/test';

const headings = (page: Page) => page.locator('.document-body h2');

/** Scrolls a heading to the top of the window (below the sticky header), then a little into its section. */
async function readInto(page: Page, heading: ReturnType<Page['locator']>) {
  await heading.evaluate((h) => h.scrollIntoView({ block: 'start', behavior: 'instant' }));
  await page.mouse.wheel(0, 120);
  await page.waitForFunction(() => window.scrollY > 0);
}

/** A pointer's click where the element is: Playwright's own click scrolls the sticky header's menu "into view" first. */
async function clickInPlace(page: Page, target: ReturnType<Page['locator']>) {
  const box = (await target.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

async function switchTo(page: Page, locale: string, scripts = true) {
  await clickInPlace(page, page.locator('.lang-menu summary'));
  await clickInPlace(page, page.locator(`.lang-menu a[data-locale="${locale}"]`));
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  if (scripts) await expect(page.locator('button.chat-launcher')).toBeVisible(); // interactive: the place is restored
}

/** The heading sits at the top of the window, below the sticky header. */
async function expectAtTop(page: Page, heading: ReturnType<Page['locator']>) {
  await expect(heading).toBeInViewport();
  const header = (await page.locator('.site-header').boundingBox())!;
  const box = (await heading.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
  expect(box.y).toBeLessThan(header.y + header.height + 60);
}

test.describe('the language switcher keeps the reader’s place', () => {
  test.use({ viewport: { width: 1280, height: 740 } });

  test('from English to French on a document, after scrolling to its third section, lands on the third section', async ({ page }) => {
    await page.goto('/documents/profile');
    await expect(page.locator('button.chat-launcher')).toBeVisible(); // interactive
    await readInto(page, headings(page).nth(2));
    await switchTo(page, 'fr');
    await expect(page).toHaveURL(/\/fr\/documents\/profile#/);
    const third = headings(page).nth(2);
    // the address names the section by its French id, as a section link would
    expect(decodeURIComponent(new URL(page.url()).hash.slice(1))).toBe(await third.getAttribute('id'));
    await expectAtTop(page, third);
    // and back, from there, to the same English section
    await switchTo(page, 'en');
    expect(new URL(page.url()).pathname).toBe('/documents/profile');
    expect(decodeURIComponent(new URL(page.url()).hash.slice(1))).toBe(await headings(page).nth(2).getAttribute('id'));
    await expectAtTop(page, headings(page).nth(2));
  });

  test('a section linked to near the end of the page, which cannot scroll to the top, is the place too', async ({ page }) => {
    await page.goto('/documents/profile');
    await expect(page.locator('button.chat-launcher')).toBeVisible();
    await headings(page).last().locator('a').click();
    await switchTo(page, 'ja');
    expect(decodeURIComponent(new URL(page.url()).hash.slice(1))).toBe(await headings(page).last().getAttribute('id'));
    await expect(headings(page).last()).toBeInViewport();
  });

  test('an entry, whose headings have no ids, opens at the same section with a clean address', async ({ page }) => {
    await page.goto('/entries/concierge-copilot');
    await expect(page.locator('button.chat-launcher')).toBeVisible();
    const sections = page.locator('main h2');
    await readInto(page, sections.nth(1));
    const name = await page.locator('main h2').nth(1).textContent();
    await switchTo(page, 'fr');
    await expect(page).toHaveURL(/\/fr\/entries\/concierge-copilot$/);
    await expectAtTop(page, sections.nth(1));
    expect(await sections.nth(1).textContent()).not.toBe(name); // (the French one)
  });

  test('at the top of the page, the other language opens at its top', async ({ page }) => {
    await page.goto('/documents/profile');
    await expect(page.locator('button.chat-launcher')).toBeVisible();
    await switchTo(page, 'fr');
    await expect(page).toHaveURL(/\/fr\/documents\/profile$/);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('without JavaScript the switcher is a plain link to the translated page', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${baseURL}/documents/profile`);
    await readInto(page, headings(page).nth(2));
    await switchTo(page, 'fr', false);
    await expect(page).toHaveURL(/\/fr\/documents\/profile$/);
    await expect(page.locator('h1')).toBeInViewport();
    await context.close();
  });
});
