// Details of the console an editor meets on the way: a new file's body starts empty, what it is for shown only as a
// placeholder (never saved); "Add image…" is reached and pressed by keyboard; Translate now's answer sits under the
// toolbar, not inside it; the preview's Close button holds its Esc; and on a phone the audit trail and Review fit
// the screen, the Review tab's count beside its label, the diffs given the screen.
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { adminToken, chatSite, ownClientIp, site } from './support/helpers.ts';
import { changeSet, editorText, git, readFile, signIn } from './support/console.ts';

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test.describe('at a desk', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a new file’s body starts empty, what it is for shown as a placeholder in the form and the source, never saved', async ({ page }) => {
    await signIn(page, { view: 'form' });
    const path = `content/skills/kotlin-${Date.now()}.md`;
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    await expect(page.getByRole('heading', { name: /New file/ })).toBeVisible();
    const body = page.getByLabel('how the subject uses it (Markdown)');
    await expect(body).toHaveValue('');
    await expect(body).toHaveAttribute('placeholder', 'How the subject uses it (Markdown).');

    await page.getByLabel(/^Name/).fill('Kotlin');
    await page.getByLabel(/^Category/).selectOption('engineering');
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    const kept = (await changeSet(page))[path]!;
    expect(kept).toMatch(/^name: Kotlin$/m);
    expect(kept).not.toMatch(/how the subject uses it/i);
    expect(kept).toMatch(/\n---\n$/); // the front matter, and no body

    // The source view shows the same hint where the body starts, as a widget, not as text of the file.
    await page.getByRole('button', { name: 'Source', exact: true }).click();
    const hint = page.locator('.editor-host .cm-body-hint');
    await expect(hint).toHaveText('How the subject uses it (Markdown).');
    expect(await editorText(page)).not.toMatch(/how the subject uses it/i);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const { violations } = await new AxeBuilder({ page }).include('.editor-main').analyze();
      expect(violations.map((v) => `${scheme}: ${v.id}`)).toEqual([]);
    }
    // Typing a body takes the hint away; the body is what was typed, and only that.
    await page.locator('.editor-host .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Server-side services.');
    await expect(hint).toHaveCount(0);
    expect(await editorText(page)).toMatch(/\n---\nServer-side services\.$/);
  });

  test('“Add image…” is reached by Tab after the toolbar and opens the file chooser with Enter or Space', async ({ page }) => {
    await signIn(page, { view: 'form' });
    await page.goto(`${chatSite}/admin/edit?path=content/skills/sql.md`);
    await page.getByRole('link', { name: /Review and commit/ }).focus();
    await page.keyboard.press('Tab');
    const add = page.getByRole('button', { name: 'Add image…' });
    await expect(add).toBeFocused();
    expect(await add.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');

    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#36c' } })
      .png()
      .toBuffer();
    for (const [key, name] of [
      ['Enter', 'Keyboard One.png'],
      [' ', 'Keyboard Two.png'],
    ] as const) {
      const chooser = page.waitForEvent('filechooser');
      await add.focus();
      await page.keyboard.press(key === ' ' ? 'Space' : key);
      await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: png });
    }
    await expect(page.locator('.media-added li').filter({ hasText: 'content/media/keyboard-one.png' })).toBeVisible();
    await expect(page.locator('.media-added li').filter({ hasText: 'content/media/keyboard-two.png' })).toBeVisible();
    expect(Object.keys(await changeSet(page)).sort()).toEqual(['content/media/keyboard-one.png', 'content/media/keyboard-two.png']);
  });

  test('Translate now’s error (no model) sits under the toolbar at its width; the preview’s Close holds its Esc', async ({ page }) => {
    // The service without a model: sign in there (the helper signs in to the one with the scripted model).
    await ownClientIp(page);
    expect((await page.request.post(`${site}/api/admin/login`, { data: { token: adminToken } })).status()).toBe(204);
    await page.goto(`${site}/admin/edit?path=content/i18n/fr/skills/sql.md`);
    const toolbar = page.getByRole('toolbar', { name: 'Editor' });
    const translate = toolbar.getByRole('button', { name: 'Translate now' });
    const preview = toolbar.getByRole('button', { name: 'Preview', exact: true });
    await translate.click();
    const message = page.locator('.toolbar-message');
    await expect(message).toContainText('Translating needs a model');
    // Not inside the toolbar, nothing of the toolbar moved below it, and as wide as the toolbar.
    await expect(toolbar.locator('.toolbar-message')).toHaveCount(0);
    const [bar, box, translateBox, previewBox] = await Promise.all([
      toolbar.boundingBox(),
      message.boundingBox(),
      translate.boundingBox(),
      preview.boundingBox(),
    ]);
    expect(box!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height - 1);
    expect(Math.abs(box!.width - bar!.width)).toBeLessThanOrEqual(2);
    expect(Math.abs(previewBox!.y - translateBox!.y)).toBeLessThanOrEqual(2);

    await preview.click();
    const close = page.locator('.preview-panel').getByRole('button', { name: /Close/ });
    const [closeBox, escBox] = await Promise.all([close.boundingBox(), close.locator('kbd').boundingBox()]);
    expect(escBox!.x).toBeGreaterThanOrEqual(closeBox!.x);
    expect(escBox!.x + escBox!.width).toBeLessThanOrEqual(closeBox!.x + closeBox!.width);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the audit trail and Review fit the screen, the Review count beside its tab, the diffs given the screen', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin/audit`);
    await expect(page.locator('table.audit')).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
    // The table scrolls in its own box, its Detail column words wide rather than one word a line.
    const detail = page.locator('table.audit th', { hasText: 'Detail' });
    expect((await detail.boundingBox())!.width).toBeGreaterThanOrEqual(200);

    const path = 'content/skills/public-speaking.md';
    const before = (await readFile(page, path))!.content;
    await page.evaluate(
      ([p, text, base]) =>
        localStorage.setItem(
          'vitae-console:changes:dev',
          JSON.stringify({ [p!]: { path: p, base: { sha: base, content: text }, content: `${text}\nA line read on a phone.\n`, updatedAt: Date.now() } }),
        ),
      [path, before, git('rev-parse', `dev:${path}`)],
    );
    await page.goto(`${chatSite}/admin/review`);
    await expect(page.locator('.review-item')).toHaveCount(1);
    expect(await noSidewaysScroll(page)).toBe(true);
    const nav = page.getByRole('navigation', { name: 'Console' });
    const [count, publish] = await Promise.all([nav.locator('.tab-count').boundingBox(), nav.getByRole('link', { name: 'Publish' }).boundingBox()]);
    const sameRow = Math.abs(count!.y - publish!.y) < publish!.height;
    expect(!sameRow || count!.x + count!.width <= publish!.x).toBe(true);
    // Neither the header nor the commit form stays over the diffs as they scroll.
    for (const selector of ['.console-header', '.commit-form'])
      expect(await page.locator(selector).evaluate((el) => getComputedStyle(el).position)).toBe('static');
  });
});
