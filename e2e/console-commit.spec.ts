// The commit path an editor can trust: one commit per submission (the button and Ctrl+Enter alike) with a
// confirmation naming it; the whole change set checked before the button is enabled; the message kept across a
// reload and whatever was typed before the page was ready; discards that can be undone; warnings before
// editing main and before signing out with edits not committed; restored edits without hydration errors.
import { expect, test } from '@playwright/test';
import { chatSite } from './support/helpers.ts';
import { changeSet, collectErrors, editorText, git, readFile, replaceText, signIn, writeFile } from './support/console.ts';

test.use({ viewport: { width: 1280, height: 900 } });

test.describe('committing from Review', () => {
  test('Ctrl+Enter commits once, and the confirmation names the commit and follows its run', async ({ page }) => {
    await signIn(page);
    const path = 'content/skills/sql.md';
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    await replaceText(page, (await editorText(page)).trimEnd() + '\n\nCommitted with the keyboard.\n');
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    await page.keyboard.press('Control+Enter'); // from the editor: on to Review
    await expect(page).toHaveURL(/\/admin\/review/);
    await expect(page.getByText('The whole tree is valid with these changes.')).toBeVisible();
    await page.getByLabel('Commit message').fill('Commit once by keyboard');
    const before = Number(git('rev-list', '--count', 'dev'));
    // Held down, the shortcut repeats: still one commit.
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Control');
    await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
    const sha = git('rev-parse', 'dev');
    await expect(page.getByRole('status').filter({ hasText: 'Committed' })).toContainText(`Committed ${sha.slice(0, 7)} to dev: “Commit once by keyboard”`);
    await expect(page.locator('.run-highlight')).toHaveCount(1);
    expect(Number(git('rev-list', '--count', 'dev'))).toBe(before + 1);
    expect(await changeSet(page)).toEqual({});
  });

  test('keeps the message across a reload, and a message typed as soon as the page appears', async ({ page }) => {
    await signIn(page);
    const path = 'content/skills/typescript.md';
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    await replaceText(page, (await editorText(page)).trimEnd() + '\n\nMessage kept.\n');
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    await page.goto(`${chatSite}/admin/review`);
    // Typed the moment the field appears, before the check of the change set has answered.
    await page.getByLabel('Commit message').pressSequentially('Typed straight away');
    await page.reload();
    await expect(page.getByLabel('Commit message')).toHaveValue('Typed straight away');
    await page.getByRole('button', { name: /Commit 1 file/ }).click();
    await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
    expect(git('log', '-1', '--format=%s', 'dev')).toBe('Typed straight away');
    await page.goto(`${chatSite}/admin/review`);
    await expect(page.getByText('Nothing to commit')).toBeVisible();
  });

  test('checks the whole change set before the commit button is enabled, and shows each file’s problems', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin/edit?path=content/skills/mlops.md`);
    const original = await editorText(page);
    await replaceText(page, original.replace(/^category: .*$/m, 'category: cooking'));
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    await page.goto(`${chatSite}/admin/review`);
    await page.getByLabel('Commit message').fill('An invalid category');
    // Its own problem at the file; the entries naming the skill name a file that is there, so nothing elsewhere.
    await expect(page.getByText(/The change set has 1 problem/)).toBeVisible();
    await expect(page.locator('.review-item .problem-list')).toContainText('category');
    await expect(page.locator('.elsewhere')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Commit 1 file/ })).toBeDisabled();
    await page.keyboard.press('Control+Enter');
    await expect(page).toHaveURL(/\/admin\/review/);
    // Discard, then undo the discard, then discard for good.
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByText('Nothing to commit')).toBeVisible();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.locator('.review-item')).toHaveCount(1);
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await changeSet(page)).toEqual({});
    // Deleting the skill breaks the entries naming it: those problems are listed below, as the other files'.
    await page.goto(`${chatSite}/admin/edit?path=content/skills/mlops.md`);
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.goto(`${chatSite}/admin/review`);
    await expect(page.locator('.elsewhere')).toContainText('skill "mlops" does not exist');
    await expect(page.getByRole('button', { name: /Commit 1 file/ })).toBeDisabled();
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await changeSet(page)).toEqual({});
  });
});

test.describe('the editor', () => {
  test('restores an unsaved edit after a reload without a hydration error', async ({ page }) => {
    await signIn(page);
    const errors = collectErrors(page);
    const path = 'content/skills/customer-service.md';
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    await replaceText(page, (await editorText(page)).replace(/^name: .*$/m, 'name: Customer service, restored'));
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    const kept = await page.evaluate((p) => JSON.parse(localStorage.getItem('vitae-console:changes:dev')!)[p], path);
    await page.reload();
    await expect(page.getByText(/was kept in this browser and is restored here/)).toBeVisible();
    expect(await editorText(page)).toContain('Customer service, restored');
    // Discarded, then undone: the edit is back with the sha it started from (a change made meanwhile still merges).
    await page.getByRole('button', { name: 'Discard my edit' }).click();
    await expect.poll(async () => (await changeSet(page))[path]).toBeUndefined();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.evaluate((p) => JSON.parse(localStorage.getItem('vitae-console:changes:dev') ?? '{}')[p]?.base, path)).toEqual(kept.base);
    expect(await editorText(page)).toContain('Customer service, restored');
    await page.goto(`${chatSite}/admin/review`);
    await expect(page.locator('.review-item')).toHaveCount(1);
    expect(errors).toEqual([]);
    await page.getByRole('button', { name: 'Discard' }).click();
  });

  test('asks before editing main, the live site', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin/edit?path=content/brief.md&branch=main`);
    await expect(page.getByText('This is main, the live site.')).toBeVisible();
    await expect(page.locator('.editor-host .cm-content')).toHaveAttribute('contenteditable', 'false');
    await page.getByRole('button', { name: 'Edit main anyway' }).click();
    await expect(page.locator('.editor-host .cm-content')).toHaveAttribute('contenteditable', 'true');
    await page.getByRole('link', { name: 'Edit on dev instead' }).waitFor({ state: 'detached' });
  });

  test('warns before signing out with edits not committed', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin/edit?path=content/skills/sql.md`);
    await replaceText(page, (await editorText(page)).trimEnd() + '\n\nNot committed yet.\n');
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    const warning = page.getByRole('alertdialog');
    await expect(warning).toContainText('1 file has edits that are not committed');
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/admin\/edit/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('alertdialog').getByRole('link', { name: 'Review them' }).click();
    await expect(page).toHaveURL(/\/admin\/review/);
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/admin\/login/);
  });

  test('completes values while typing, with titles beside ids, and continues lists on Enter', async ({ page }) => {
    await signIn(page);
    const path = 'content/corpus/projects/rag-evaluation-harness.md';
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    const original = await editorText(page);
    await replaceText(page, original.replace(/^achievements:\n(?: {2}- .*\n)+/m, 'achievements:\n'));
    // Enter after `achievements:` starts an item, Enter after an item starts the next, Enter on an empty one ends the list.
    await page.locator('.cm-line', { hasText: /^achievements:$/ }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('First new item');
    await page.keyboard.press('Enter');
    expect(await editorText(page)).toContain('achievements:\n  - First new item\n  - \nkeyResults:');
    await page.keyboard.press('Enter');
    expect(await editorText(page)).toContain('achievements:\n  - First new item\n\nkeyResults:');
    // A skill by its title, offered as it is typed (no Ctrl+Space), its name beside its id.
    await replaceText(page, original.replace(/^skills: \[(.*)\]$/m, 'skills: [$1, pyt'));
    await page.locator('.cm-line', { hasText: 'skills: [' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type('h');
    const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'python' });
    await expect(option).toContainText('Python');
    await page.goto(`${chatSite}/admin/review`);
    await page.getByRole('button', { name: 'Discard' }).click();
  });

  test('moves focus to the new page’s heading after a navigation', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin`);
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: /Files on dev/ })).toBeFocused();
  });
});

test.describe('finding content', () => {
  test('searches the text of every file in every language, and filters to what needs translation', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin`);
    await page.getByLabel('Search the text').fill('ホテル');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\?q=/);
    const results = page.locator('.search-results .file-row');
    await expect(results.first()).toBeVisible();
    expect(await results.locator('.file-path').allTextContents()).toContain('content/i18n/ja/corpus/projects/concierge-copilot.md');
    for (const match of await results.locator('.file-match').allTextContents()) expect(match).toContain('ホテル');
    await page.getByLabel(/Needs translation/).check();
    const rows = page.locator('.file-group:not(.search-results) .file-row');
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) await expect(row.locator('.badge-stale, .badge-missing').first()).toBeVisible();
  });
});

test.describe('files as they are', () => {
  test('keeps a file’s CRLF line endings through the source view and the form', async ({ page }) => {
    await signIn(page);
    const path = 'content/skills/hiring.md';
    const lf = (await readFile(page, path))!.content;
    await writeFile(page, path, lf.replace(/\n/g, '\r\n'), 'Hiring with Windows line endings');
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    await page.locator('.editor-host .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('Typed in the source.');
    await expect.poll(async () => (await changeSet(page))[path]).toContain('Typed in the source.');
    await page.getByRole('button', { name: 'Form', exact: true }).click();
    await page.getByLabel(/^Name/).fill('Hiring, edited in the form');
    await expect.poll(async () => (await changeSet(page))[path]).toContain('Hiring, edited in the form');
    const kept = (await changeSet(page))[path]!;
    expect(kept.split('\r\n').length).toBe(kept.split('\n').length); // every line still ends with CRLF
    await page.goto(`${chatSite}/admin/review`);
    await page.getByRole('button', { name: 'Discard' }).click();
  });

  test('opens a stray file under content/i18n/ (one the Problems list names) so it can be fixed or deleted', async ({ page }) => {
    await signIn(page);
    const path = 'content/i18n/de/skills/seo.md';
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    await expect(page.getByRole('heading', { name: /New file/ })).toBeVisible();
    await page.locator('.editor-host .cm-content').click();
    await page.keyboard.insertText('---\nname: SEO\n---\n');
    await expect(page.locator('.problems')).toContainText('"de" is not a translation locale');
    await page.goto(`${chatSite}/admin/review`);
    await page.getByRole('button', { name: 'Discard' }).click();
  });
});
