// The brief names where to explore further as paths of the site in bold: each is a link, in the reader's language.
import { expect, test } from '@playwright/test';

test('the brief’s paths are links to the pages in the reader’s language, and the API’s index, not the MCP endpoint', async ({ page }) => {
  await page.goto('/fr');
  const brief = page.locator('main');
  await expect(brief.getByRole('link', { name: '/entries', exact: true })).toHaveAttribute('href', '/fr/entries');
  await expect(brief.getByRole('link', { name: '/documents', exact: true })).toHaveAttribute('href', '/fr/documents');
  await expect(brief.getByRole('link', { name: '/api/v1', exact: true })).toHaveAttribute('href', '/api/v1');
  await expect(brief.getByRole('link', { name: '/mcp', exact: true })).toHaveCount(0);
  await brief.getByRole('link', { name: '/lenses', exact: true }).click();
  await expect(page).toHaveURL(/\/fr\/lenses$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});
