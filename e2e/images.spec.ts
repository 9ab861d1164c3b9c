// The profile's images in a real browser: the portrait and the covers load in the best format Chromium takes (AVIF),
// at a width the layout needs rather than the widest, nothing moves when they arrive (no layout shift), the gallery
// loads when scrolled to, and a reader moving between pages and back sees them again from the cache.
import { expect, test, type Page } from '@playwright/test';

/** Every layout shift the page has had so far (a PerformanceObserver from the start, buffered). */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
            if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );

const loaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((imgs) => (imgs as HTMLImageElement[]).map((img) => ({ natural: img.naturalWidth, src: img.currentSrc, complete: img.complete })));

test.use({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });

test('the home page shows the portrait and the covers, in AVIF at the width they need, without moving', async ({ page }) => {
  await page.goto('/');
  const portrait = page.locator('.hero-portrait img');
  await expect(portrait).toHaveAttribute('alt', /Illustrated portrait of Noa Castellan/);
  await expect.poll(async () => (await loaded(page, '.hero-portrait img'))[0]?.natural).toBeGreaterThan(0);
  const [shown] = await loaded(page, '.hero-portrait img');
  // 160 CSS pixels at 1×: the 320 px variant, not the 1200 px original.
  expect(shown!.src).toMatch(/\/media\/[0-9a-f]{16}-320\.avif$/);
  await page.locator('#highlights-heading').scrollIntoViewIfNeeded();
  await expect.poll(async () => (await loaded(page, '.entry-card-cover img')).filter((i) => i.natural > 0).length).toBeGreaterThanOrEqual(4);
  for (const cover of await loaded(page, '.entry-card-cover img')) if (cover.natural) expect(cover.src).toMatch(/-(320|640)\.avif$/);
  expect(await layoutShift(page)).toBeLessThan(0.01);
});

test('the entries and lens lists show each cover as a thumbnail beside the text, never wider than the variant fetched', async ({ page }) => {
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 860 });
    for (const path of ['/entries', '/lenses/head-of-ai']) {
      await page.goto(path);
      const covers = page.locator('.entry-list .entry-card-cover img');
      await covers.first().scrollIntoViewIfNeeded();
      await expect.poll(async () => (await loaded(page, '.entry-list .entry-card-cover img'))[0]?.natural ?? 0).toBeGreaterThan(0);
      const [first] = await covers.evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).map((img) => ({
          shown: img.getBoundingClientRect().width,
          natural: img.naturalWidth,
          card: img.closest('.entry-card')!.clientWidth,
        })),
      );
      const where = `${path} at ${width}px`;
      expect(first!.natural, `${where}: a ${first!.natural}px variant shown ${first!.shown}px wide`).toBeGreaterThanOrEqual(Math.floor(first!.shown));
      // beside the text above 700px (a banner over the whole card would take the first screen), across the card below
      if (width >= 700) expect(first!.shown, where).toBeLessThan(first!.card / 3);
    }
  }
});

test('an entry shows its cover at once and its gallery when scrolled to; back and forth keeps them', async ({ page }) => {
  const variants: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/media/')) variants.push(res.url());
  });
  await page.goto('/');
  await page
    .getByRole('link', { name: /Concierge Copilot/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/entries\/concierge-copilot$/);
  await expect.poll(async () => (await loaded(page, '.entry-cover img'))[0]?.natural).toBeGreaterThan(0);
  await expect(page.locator('.entry-cover img')).toHaveAttribute('alt', /service bell/);
  const gallery = page.locator('.entry-gallery img');
  await expect(gallery).toHaveCount(2);
  expect(
    (await loaded(page, '.entry-gallery img')).every((i) => i.natural === 0),
    'the gallery waits below the fold',
  ).toBe(true);
  await page.locator('.entry-gallery').scrollIntoViewIfNeeded();
  await expect.poll(async () => (await loaded(page, '.entry-gallery img')).every((i) => i.natural > 0)).toBe(true);
  expect(await layoutShift(page)).toBeLessThan(0.01);
  // Back to the home page and forward again: the immutable variants come from the cache, not the network.
  const fetched = variants.length;
  await page.goBack();
  await page.goForward();
  await expect.poll(async () => (await loaded(page, '.entry-cover img'))[0]?.natural).toBeGreaterThan(0);
  const again = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.name.includes('/media/')).map((r) => r.transferSize),
  );
  expect(
    again.every((size) => size === 0),
    `variants fetched again after ${fetched}: ${again.join(', ')}`,
  ).toBe(true);
});

test('a Japanese entry page gives the alt text in Japanese', async ({ page }) => {
  await page.goto('/ja/entries/concierge-copilot');
  const alt = await page.locator('.entry-cover img').getAttribute('alt');
  expect(alt).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
});
