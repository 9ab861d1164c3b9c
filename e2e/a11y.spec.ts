// Accessibility: axe-core finds no violations on any page type, in light and dark, in a Latin and a CJK locale,
// with the chat panel open too.
import { expect, test } from '@playwright/test';
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
