// Forms from the schema: every file kind edited through labelled fields, pickers and list controls generated from
// admin_schema, switchable at any moment with the raw source over the same buffer (unknown keys kept); a field
// the schema gains appears in the form with no UI code; an English list item added through the form commits, and
// its translations turn stale (the site shows the English) instead of refusing the commit.
import { expect, test } from '@playwright/test';
import { chatPreview, chatSite } from './support/helpers.ts';
import { changeSet, collectErrors, editorText, git, readFile, signIn, waitForRuns } from './support/console.ts';

test.use({ viewport: { width: 1280, height: 900 } });

test('edits through the form and the source as two views of one text, keeping keys the schema does not know', async ({ page }) => {
  await signIn(page, { view: 'form' });
  const errors = collectErrors(page);
  const path = 'content/corpus/projects/helpdesk-knowledge-base.md';
  const original = (await readFile(page, path))!.content;
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  await expect(page.getByRole('button', { name: 'Form', exact: true })).toHaveAttribute('aria-pressed', 'true');
  // Labelled fields with their help and required marks, pickers with titles, a month picker.
  const title = page.getByLabel(/^Title/);
  await expect(title).toHaveValue(/\S/);
  await expect(page.getByText('Role, project or degree name')).toBeVisible();
  await expect(page.getByRole('group', { name: /Tags/ }).getByRole('checkbox', { name: /Hospitality/ })).toBeVisible();
  await expect(page.getByLabel(/^Start/)).toHaveAttribute('type', 'month');

  await title.fill('Helpdesk knowledge base, edited in the form');
  await page.getByRole('button', { name: 'Add contribution' }).click();
  await page.keyboard.insertText('Wrote the first article on password resets.');
  await page
    .getByRole('group', { name: /Tags/ })
    .getByRole('checkbox', { name: /Consulting/ })
    .check();

  await page.getByRole('button', { name: 'Source', exact: true }).click();
  const text = await editorText(page);
  expect(text).toMatch(/^title: Helpdesk knowledge base, edited in the form$/m);
  expect(text).toMatch(/^ {2}- Wrote the first article on password resets\.$/m);
  expect(text).toMatch(/^tags: \[.*consulting.*\]$/m);
  // Everything else is byte for byte what it was: the form changes only the fields it changes.
  const untouched = (t: string) => t.split('\n').filter((line) => !/^(title|tags):|password resets/.test(line));
  expect(untouched(text)).toEqual(untouched(original));

  // A key the schema does not know, typed in the source: the form lists it and keeps it through a form edit.
  await page.locator('.cm-line', { hasText: /^title:/ }).click();
  await page.keyboard.press('End');
  await page.keyboard.insertText('\nreviewNote: keep me');
  await page.getByRole('button', { name: 'Form', exact: true }).click();
  await expect(page.locator('.sf-unknown')).toContainText('reviewNote');
  await page.getByLabel(/^Summary/).fill('A summary written in the form.');
  await page.getByRole('button', { name: 'Source', exact: true }).click();
  expect(await editorText(page)).toContain('reviewNote: keep me');
  expect(await editorText(page)).toMatch(/^summary: A summary written in the form\.$/m);
  await expect.poll(async () => (await changeSet(page))[path]).toContain('reviewNote: keep me');
  // Loaded again with the edit kept, in the form: it hydrates with no error (React #421, #418, #423).
  await page.getByRole('button', { name: 'Form', exact: true }).click();
  await page.reload();
  await expect(page.getByLabel(/^Title/)).toHaveValue('Helpdesk knowledge base, edited in the form');
  await page.goto(`${chatSite}/admin/review`);
  await page.getByRole('button', { name: 'Discard' }).click();
  expect(errors).toEqual([]);
});

test('a field the schema gains appears in the form, labelled and explained, with no UI code for it', async ({ page }) => {
  await signIn(page, { view: 'form' });
  await page.goto(`${chatSite}/admin`);
  // The editor's data as a schema with one more field would send it (a client navigation fetches it as JSON).
  await page.route(/\/admin\/edit\?.*_data=routes%2Fadmin\.edit/, async (route) => {
    const response = await route.fetch();
    const data = (await response.json()) as { schema: { fileKinds: Array<{ kind: string; jsonSchema: { properties: Record<string, unknown> } }> } };
    const skill = data.schema.fileKinds.find((k) => k.kind === 'skill')!;
    skill.jsonSchema.properties.yearsOfUse = { type: 'integer', minimum: 0, description: 'Years the subject has used it at work' };
    await route.fulfill({ response, json: data });
  });
  await page.getByLabel('Filter').fill('sql');
  await page.locator('.file-row', { hasText: 'content/skills/sql.md' }).locator('.file-link').click();
  const field = page.getByLabel(/^Years of use/);
  await expect(field).toBeVisible();
  await expect(field).toHaveAttribute('type', 'number');
  await expect(page.getByText('Years the subject has used it at work')).toBeVisible();
});

test('an English list item added through the form commits, and its translations turn stale while the site shows the English', async ({ page }) => {
  await signIn(page, { view: 'form' });
  const slug = 'sdk-quickstarts';
  const path = `content/corpus/projects/${slug}.md`;
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  const item = `Added through the form ${Date.now()}.`;
  await page.getByRole('button', { name: 'Add contribution' }).click();
  // The new item takes the focus once it is drawn: typing before that would go nowhere (it did, on a loaded CI machine).
  await expect(page.getByRole('textbox', { name: /^Contribution \d+$/ }).last()).toBeFocused();
  await page.keyboard.insertText(item);
  await expect(page.getByText('The whole tree is valid with this text.')).toBeVisible();
  await page
    .getByRole('toolbar', { name: 'Editor' })
    .getByRole('link', { name: /Review and commit/ })
    .click();
  await page.getByLabel('Commit message').fill('One more contribution, in English only');
  await page.getByRole('button', { name: /Commit 1 file/ }).click();
  await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
  expect(git('diff-tree', '-r', '--no-commit-id', '--name-only', 'dev')).toBe(path);
  await waitForRuns(page, 'dev');
  // On the dev preview, the French record falls back to the English, new item included.
  const fr = (await (await page.request.get(`${chatPreview}/api/v1/entries/${slug}?locale=fr`)).json()) as { translated: boolean; contributions: string[] };
  expect(fr.translated).toBe(false);
  expect(fr.contributions).toContain(item);
  await page.goto(`${chatSite}/admin`);
  const row = page.locator('.file-row', { hasText: path });
  await expect(row.locator('.badge-stale')).toHaveCount(6);
});
