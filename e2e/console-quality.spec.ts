// The console for everyone: no axe violations on any console page in either theme, the diff and merge views
// included; a whole edit made and committed by keyboard alone; review and publish usable on a phone; read-only
// (and saying so) below the editing width.
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { adminToken, chatSite, ownClientIp, scriptModel } from './support/helpers.ts';
import { editorText, git, readFile, replaceText, signIn } from './support/console.ts';

test.use({ viewport: { width: 1280, height: 900 } });

async function axeClean(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${what}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Every console page in light and dark, `prepare` run once before (e.g. to put edits in the change set). */
async function eachTheme(page: Page, path: string, ready: (page: Page) => Promise<void> = async () => {}) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${chatSite}${path}`);
    await page.waitForLoadState('networkidle');
    await ready(page);
    await axeClean(page, `${path} (${scheme})`);
  }
}

test.describe('no axe violations, light and dark', () => {
  for (const path of [
    '/admin',
    '/admin?q=hotel',
    '/admin/publish',
    '/admin/history',
    '/admin/history?path=content/brief.md',
    '/admin/editors',
    '/admin/audit',
  ]) {
    test(`on ${path}`, async ({ page }) => {
      await signIn(page);
      await eachTheme(page, path);
    });
  }

  test('on the sign-in page, with a wrong token’s message', async ({ page }) => {
    await ownClientIp(page);
    await eachTheme(page, '/admin/login', async (p) => {
      await p.getByLabel('Token', { exact: true }).fill('not-the-token');
      await p.getByRole('button', { name: 'Sign in' }).click();
      await expect(p.getByText('That token is not the admin token')).toBeVisible();
    });
  });

  test('on the editor, in the form and the source view, and on a translation beside its English', async ({ page }) => {
    await signIn(page, { view: 'form' });
    await eachTheme(page, '/admin/edit?path=content/corpus/projects/concierge-copilot.md', (p) => expect(p.getByLabel(/^Title/)).toBeVisible());
    await eachTheme(page, '/admin/edit?path=content/site.json', (p) => expect(p.getByLabel(/^Short name/)).toBeVisible());
    await eachTheme(page, '/admin/edit?path=content/i18n/es/corpus/projects/concierge-copilot.md', (p) =>
      expect(p.locator('.english-source')).toContainText('The English'),
    );
    await page.getByRole('button', { name: 'Source', exact: true }).click();
    await eachTheme(page, '/admin/edit?path=content/brief.md', (p) => expect(p.locator('.cm-editor')).toBeVisible());
  });

  test('on Review with its diffs side by side and unified, and in the three-way merge', async ({ page }) => {
    await signIn(page);
    const path = 'content/lenses/hospitality.md';
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    const text = await editorText(page);
    await replaceText(page, text.replace(/^title: .*$/m, 'title: "Hospitality (reviewed)"'));
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    await eachTheme(page, '/admin/review', (p) => expect(p.locator('.cm-mergeView')).toBeVisible());
    await page.getByRole('button', { name: 'Unified' }).click();
    await axeClean(page, 'review, unified (dark)');
    // Someone else commits to the lens first: the commit opens the three-way merge.
    const other = await page.request.put(`${chatSite}/api/admin/file`, {
      headers: { Authorization: `Bearer ${adminToken}` },
      data: { path, branch: 'dev', message: 'Retitle the hospitality lens', content: text.replace(/^title: .*$/m, 'title: "Hospitality and travel"') },
    });
    expect(other.status()).toBe(200);
    await page.getByLabel('Commit message').fill('Review the hospitality lens');
    await page.getByRole('button', { name: /Commit 1 file/ }).click();
    await expect(page.locator('.conflict-chunk')).toHaveCount(1);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await axeClean(page, `three-way merge (${scheme})`);
    }
    await page.getByRole('button', { name: /Not now/ }).click();
    await page.getByRole('button', { name: 'Discard' }).click();
  });
});

test('no axe violations in an AI edit’s proposal, its accept and reject buttons 44 pixels tall', async ({ page }) => {
  await signIn(page);
  const path = 'content/corpus/projects/wallet-onboarding-kit.md';
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  const current = await editorText(page);
  await scriptModel([{ text: current.replace(/^organisation: .*$/m, 'organisation: A renamed organisation') }]);
  await page.getByRole('button', { name: 'AI edit' }).click();
  await page.getByLabel('What should change?').fill('Rename the organisation.');
  await page.getByRole('button', { name: 'Propose an edit' }).click();
  const accept = page.getByRole('button', { name: 'Accept this proposed change' });
  await expect(accept).toHaveCount(1);
  const box = await accept.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await axeClean(page, `AI edit proposal (${scheme})`);
  }
});

test('a whole edit, from the file list to the commit, by keyboard alone', async ({ page }) => {
  await signIn(page, { view: 'form' });
  const path = 'content/skills/photography.md';
  await page.goto(`${chatSite}/admin`);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  // To the filter, narrow the list, then Tab on to the file and open it.
  await page.getByLabel('Filter').focus();
  await page.keyboard.type('photography');
  const link = page.locator('.file-row', { hasText: path }).locator('.file-link');
  for (let i = 0; i < 30 && !(await link.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(link).toBeFocused();
  const outline = await link.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  // Tab to the first field of the form, change it, keep it with Ctrl+S, go on to Review with Ctrl+Enter.
  const name = page.getByLabel(/^Name/);
  for (let i = 0; i < 30 && !(await name.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(name).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.type(' (film and digital)');
  await page.keyboard.press('Control+s');
  await expect(page.getByText(/Kept in your change set/)).toBeVisible();
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(/\/admin\/review/);
  await expect(page.getByText('The whole tree is valid with these changes.')).toBeVisible();
  const message = page.getByLabel('Commit message');
  for (let i = 0; i < 60 && !(await message.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(message).toBeFocused();
  await page.keyboard.type('Name the photography skill fully');
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
  expect(git('log', '-1', '--format=%s', 'dev')).toBe('Name the photography skill fully');
  expect((await readFile(page, path))!.content).toMatch(/^name: .*\(film and digital\)$/m);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  test('review and publish fit the screen and work', async ({ page }) => {
    await signIn(page);
    // An edit made at a desk, committed from the phone.
    const path = 'content/skills/public-speaking.md';
    const before = (await readFile(page, path))!.content;
    await page.goto(`${chatSite}/admin`);
    await page.evaluate(
      ([p, text, base]) =>
        localStorage.setItem(
          'vitae-console:changes:dev',
          JSON.stringify({ [p!]: { path: p, base: { sha: base, content: text }, content: `${text}\nCommitted from a phone.\n`, updatedAt: Date.now() } }),
        ),
      [path, before, git('rev-parse', `dev:${path}`)],
    );
    await page.goto(`${chatSite}/admin/review`);
    await expect(page.locator('.review-item')).toHaveCount(1);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.getByLabel('Commit message').fill('A line added from a phone');
    const commit = page.getByRole('button', { name: /Commit 1 file/ });
    await expect(commit).toBeEnabled();
    await commit.click();
    await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
    await expect(page.locator('.run-highlight .status').first()).toHaveText('success', { timeout: 30_000 });
    expect(await noSidewaysScroll(page)).toBe(true);
    const card = await page.locator('.run-highlight').boundingBox();
    expect(card!.x).toBeGreaterThanOrEqual(0);
    expect(card!.x + card!.width).toBeLessThanOrEqual(390);
  });

  test('the editor is read-only below 1024 pixels, and says so', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin/edit?path=content/brief.md`);
    await expect(page.getByText(/edits on screens at least 1024 pixels wide/)).toBeVisible();
    await expect(page.locator('.editor-host .cm-content')).toHaveAttribute('contenteditable', 'false');
  });
});
