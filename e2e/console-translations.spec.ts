// Translations as a workflow, not a chain: a translation opens beside its English with what changed since it was
// made; "Translate now" drafts it with the model into the editor for review; a missing one starts from its English,
// valid; deleting an entry takes its translations with it in the same commit, listed on Review.
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { adminToken, chatPreview, chatSite, scriptModel } from './support/helpers.ts';
import { changeSet, editorText, git, readFile, signIn, waitForRuns, writeFile } from './support/console.ts';

test.use({ viewport: { width: 1280, height: 900 } });

const frontMatter = (text: string) => parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!) as Record<string, unknown>;
const bodyOf = (text: string) => text.replace(/^---\n[\s\S]*?\n---\n/, '').trim();

test('a stale translation opens beside its English, showing what changed since; Translate now drafts it for review', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const english = 'content/corpus/projects/pms-channel-bridge.md';
  const french = 'content/i18n/fr/corpus/projects/pms-channel-bridge.md';
  const before = (await readFile(page, english))!.content;
  const summary = `A bridge between hotel systems and booking channels, summarised again ${Date.now()}.`;
  await writeFile(page, english, before.replace(/^summary: .*$/m, `summary: "${summary}"`), 'A new summary for the bridge');
  await waitForRuns(page, 'dev'); // its publish run asks the model too: let it finish before scripting the draft

  await page.goto(`${chatSite}/admin/edit?path=${french}`);
  await expect(page.getByText(/This translation is stale/)).toBeVisible();
  const side = page.locator('.english-source');
  await expect(side.getByRole('heading', { name: 'The English' })).toBeVisible();
  await expect(side.getByText(/What changed in the English since this translation was made/)).toBeVisible();
  await expect(side.getByRole('region', { name: /What changed in/ })).toContainText(summary);

  // The model's draft: every English field back in "French", lists the same length.
  const fields = frontMatter((await readFile(page, english))!.content);
  const draft = Object.fromEntries(
    ['title', 'summary', 'keyResult', 'contributions', 'achievements', 'keyResults', 'whyItMatters']
      .filter((key) => fields[key] !== undefined)
      .map((key) => [key, Array.isArray(fields[key]) ? (fields[key] as string[]).map((x) => `[fr] ${x}`) : `[fr] ${String(fields[key])}`]),
  );
  await scriptModel([{ json: { ...draft, body: `[fr] ${bodyOf((await readFile(page, english))!.content)}` } }]);
  const head = git('rev-parse', 'dev');
  await page.getByRole('button', { name: 'Translate now', exact: true }).click();
  await expect.poll(() => editorText(page)).toContain(`[fr] ${summary}`);
  await expect(page.getByText(/This translation is stale/)).toHaveCount(0);
  await expect(page.getByText('The whole tree is valid with this text.')).toBeVisible();
  expect(git('rev-parse', 'dev')).toBe(head); // drafting commits nothing
  await page
    .getByRole('toolbar', { name: 'Editor' })
    .getByRole('link', { name: /Review and commit/ })
    .click();
  await expect(page.locator('.review-item')).toHaveCount(1);
  await page.getByLabel('Commit message').fill('Translate the bridge into French');
  await page.getByRole('button', { name: /Commit 1 file/ }).click();
  await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
  await waitForRuns(page, 'dev');
  const record = (await (await page.request.get(`${chatPreview}/api/v1/entries/pms-channel-bridge?locale=fr`)).json()) as {
    translated: boolean;
    summary: string;
  };
  expect(record).toMatchObject({ translated: true, summary: `[fr] ${summary}` });
});

test('from an English file, Translate now drafts every stale translation into the change set, and nothing more', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const english = 'content/corpus/projects/wallet-onboarding-kit.md';
  const before = (await readFile(page, english))!.content;
  await writeFile(page, english, before.replace(/^keyResult: .*$/m, 'keyResult: "Wallet set-up time down from 11 minutes to 3."'), 'A new key result');
  await waitForRuns(page, 'dev');
  const fields = frontMatter((await readFile(page, english))!.content);
  const reply = {
    json: {
      ...Object.fromEntries(
        ['title', 'summary', 'keyResult', 'contributions', 'achievements', 'keyResults', 'whyItMatters']
          .filter((key) => fields[key] !== undefined)
          .map((key) => [key, Array.isArray(fields[key]) ? (fields[key] as string[]).map((x) => `[t] ${x}`) : `[t] ${String(fields[key])}`]),
      ),
      body: `[t] ${bodyOf((await readFile(page, english))!.content)}`,
    },
  };
  await scriptModel(Array.from({ length: 6 }, () => reply));
  // The French has an edit of its own in the change set already: a draft must not replace it.
  const french = 'content/i18n/fr/corpus/projects/wallet-onboarding-kit.md';
  await page.goto(`${chatSite}/admin/edit?path=${french}`);
  await page.locator(`.editor-host[data-path="${french}"] .cm-content`).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('Corrigé à la main.\n');
  await expect.poll(async () => (await changeSet(page))[french]).toContain('Corrigé à la main.');
  await page.goto(`${chatSite}/admin/edit?path=${english}`);
  const head = git('rev-parse', 'dev');
  await page.getByRole('button', { name: 'Translate now (6)' }).click();
  await expect(page.getByText(/Drafted zh, zh-hant, ja, es, eo into your change set/)).toBeVisible();
  await expect(page.getByText('Your own edits to the fr translation are in the change set: not replaced.')).toBeVisible();
  expect((await changeSet(page))[french]).toContain('Corrigé à la main.');
  await page.getByRole('link', { name: 'Review the drafts' }).click();
  const items = page.locator('.review-item');
  await expect(items).toHaveCount(6);
  for (const path of await items.locator('h2 code').allTextContents())
    expect(path).toMatch(/^content\/i18n\/(zh|zh-hant|ja|fr|es|eo)\/corpus\/projects\/wallet-onboarding-kit\.md$/);
  await expect(page.getByText('The whole tree is valid with these changes.')).toBeVisible();
  expect(git('rev-parse', 'dev')).toBe(head);
  const discard = page.getByRole('button', { name: 'Discard' });
  while (await discard.count()) await discard.first().click();
});

test('a missing translation starts from its English and is valid as it stands', async ({ page }) => {
  await signIn(page);
  const path = 'content/i18n/eo/skills/seo.md';
  const res = await page.request.delete(`${chatSite}/api/admin/file`, {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { path, message: 'Remove the Esperanto SEO skill', branch: 'dev' },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  await expect(page.getByRole('heading', { name: /New file/ })).toBeVisible();
  await expect(page.locator('.english-source')).toContainText('This translation does not exist yet');
  await expect(page.getByText(/This translation is not finished: it starts as a copy of the English/)).toBeVisible();
  const text = await editorText(page);
  expect(frontMatter(text).name).toBe(frontMatter((await readFile(page, 'content/skills/seo.md'))!.content).name);
  expect(frontMatter(text).source).toBe('untranslated'); // stale, served in English, until translated and marked current
  await expect(page.getByText('The whole tree is valid with this text.')).toBeVisible();
});

test('deleting an entry deletes its translations in the same commit, listed on Review', async ({ page }) => {
  await signIn(page);
  const path = 'content/corpus/projects/clinical-notes-summariser.md';
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  await page.getByRole('button', { name: 'Delete…' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('and its 6 translations (zh, zh-hant, ja, fr, es, eo)');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await page.goto(`${chatSite}/admin/review`);
  await expect(page.locator('.review-item')).toHaveCount(1);
  const cascade = page.locator('.cascade li');
  await expect(cascade).toHaveCount(6);
  await expect(cascade.first()).toContainText('content/i18n/zh/corpus/projects/clinical-notes-summariser.md');
  await page.getByLabel('Commit message').fill('Retire the clinical notes project');
  await page.getByRole('button', { name: /Commit 1 file/ }).click();
  await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
  const deleted = git('diff-tree', '-r', '--no-commit-id', '--name-status', 'dev').split('\n');
  expect(deleted).toHaveLength(7);
  for (const line of deleted) expect(line).toMatch(/^D\tcontent\/(i18n\/[a-z-]+\/)?corpus\/projects\/clinical-notes-summariser\.md$/);
});
