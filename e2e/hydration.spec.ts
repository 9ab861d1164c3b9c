// Pages hydrate without a React error: the browser's first render writes what the server wrote. Dates and numbers
// are where they part, since Node's ICU and Chromium's differ (Chromium has no Esperanto and falls back to English).
import { expect, test, type Page } from '@playwright/test';
import { collectErrors, json, locales, prefix } from './support/helpers.ts';
import { esperantoMonths } from '../app/i18n/esperanto.ts';

/** Opens `path` and waits for hydration (the chat launcher is a button only then); a hydration error is logged before. */
async function openHydrated(page: Page, path: string) {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  await expect(page.locator('button.chat-launcher'), path).toBeVisible();
  await page.evaluate(() => new Promise((settled) => requestAnimationFrame(settled)));
}

test.describe('hydration', () => {
  test('the Esperanto documents hydrate with no error and give their date in Esperanto', async ({ page, request }) => {
    const errors = collectErrors(page);
    const { updatedAt } = await json<{ updatedAt: string }>(request, '/api/v1/documents/profile?locale=eo');
    const [year, month, day] = updatedAt.split('-').map(Number) as [number, number, number];
    const date = `Ĝisdatigita ${day} ${esperantoMonths[month - 1]} ${year}`;

    await openHydrated(page, '/eo/documents/profile');
    await expect(page.locator('.page-header .muted')).toHaveText(date);
    await openHydrated(page, '/eo/documents');
    await expect(page.locator('.doc-date').first()).toHaveText(/^Ĝisdatigita \d{1,2} [a-zŭ]+ \d{4}$/);
    await expect(page.locator('.doc-date', { hasText: date }).first()).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('every page type hydrates with no error in Esperanto, and the pages with dates do in every locale', async ({ page }) => {
    const errors = collectErrors(page);
    const paths = ['/', '/entries', '/entries/concierge-copilot', '/lenses', '/lenses/head-of-ai', '/search?q=hotel', '/match'].map(
      (path) => `/eo${path === '/' ? '' : path}`,
    );
    for (const locale of locales) paths.push(`${prefix(locale)}/documents`, `${prefix(locale)}/documents/capabilities`);
    const errorsByPath: Record<string, string[]> = {};
    for (const path of paths) {
      await openHydrated(page, path);
      if (errors.length) errorsByPath[path] = errors.splice(0).map((error) => error.split('\n')[0]!);
    }
    expect(errorsByPath).toEqual({});
  });

  test('the browser writes Esperanto numbers as the server does ("12 000", not "12,000")', async ({ page }) => {
    await openHydrated(page, '/eo/match');
    await expect(page.locator('#match-length')).toHaveText('0 / 12\u202f000 signoj');
  });
});
