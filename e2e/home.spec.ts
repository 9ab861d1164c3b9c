// The web app is served by the same process as the API and reads through the same operations.
import { expect, test } from '@playwright/test';

test('the home page shows the brief and the entries of the live build', async ({ page, request }) => {
  const { entries } = await (await request.get('/api/v1/entries')).json();
  await page.goto('/');
  await expect(page.locator('main')).toContainText('Noa Castellan');
  await expect(page.locator('main')).toContainText(entries[0].title);
  await expect(page.locator('.entries li')).toHaveCount(entries.length);
  await page.screenshot({ path: 'e2e/artifacts/home.png', fullPage: false });
});
