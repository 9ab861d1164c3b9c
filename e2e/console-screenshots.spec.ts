// Screenshots of the admin console for the README (`npm run screenshots`): sign-in, the editor with a lint
// problem, an AI edit's merge view, the review screen, the three-way conflict view and the publish screen.
import { test, type Page } from '@playwright/test';
import { adminToken, chatSite, ownClientIp, scriptModel } from './support/helpers.ts';

test.use({ viewport: { width: 1360, height: 860 }, deviceScaleFactor: 1, colorScheme: 'light' });

const shot = (page: Page, name: string) => page.screenshot({ path: `docs/screenshots/console-${name}.png` });
const editorText = (page: Page) =>
  page
    .locator('.editor-host .cm-content')
    .evaluate((el) => (el as HTMLElement & { cmTile: { root: { view: { state: { doc: { toString(): string } } } } } }).cmTile.root.view.state.doc.toString());

async function replaceText(page: Page, text: string) {
  await page.locator('.editor-host .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

async function signIn(page: Page) {
  await ownClientIp(page);
  await page.request.post(`${chatSite}/api/admin/login`, { data: { token: adminToken } });
}

test('console screenshots', async ({ page, browser }) => {
  test.setTimeout(240_000);
  await ownClientIp(page);
  await page.goto(`${chatSite}/admin/login`);
  await page.getByLabel('Admin token').fill('not-it');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('That token is not the admin token').waitFor();
  await shot(page, 'sign-in');

  await signIn(page);
  const path = 'content/corpus/projects/concierge-copilot.md';
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  const original = await editorText(page);
  await replaceText(page, original.replace(/^tags: .*$/m, 'tags: [ai, hotels]'));
  await page.locator('.problems li').first().waitFor();
  await page.locator('.problems li button').first().click();
  await shot(page, 'editor-lint');

  await replaceText(page, original);
  await scriptModel([
    {
      text: original
        .replace(/^organisation: .*$/m, 'organisation: Orbitale Travel Group')
        .replace(/^keyResult: .*$/m, 'keyResult: "Two thirds of routine guest questions resolved without staff, with a 1.8% error rate."'),
    },
  ]);
  await page.getByRole('button', { name: 'AI edit' }).click();
  await page.getByLabel('What should change?').fill('Name the group, and say the key result in words.');
  await page.getByRole('button', { name: 'Propose an edit' }).click();
  await page.getByText('As proposed, the whole tree stays valid.').waitFor();
  await page.getByRole('button', { name: 'Accept this proposed change' }).first().click();
  await shot(page, 'ai-edit');
  await page.getByRole('button', { name: 'Use this text' }).click();

  await page.goto(`${chatSite}/admin/edit?path=content/skills/python.md`);
  await replaceText(page, (await editorText(page)).replace(/^name: .*$/m, 'name: Python 3'));
  await page.goto(`${chatSite}/admin/review`);
  await page.getByLabel('Commit message').fill('Name the group behind Concierge Copilot; Python 3');
  await shot(page, 'review');
  const discard = page.getByRole('button', { name: 'Discard' });
  while (await discard.count()) await discard.first().click();

  // A conflict: another editor commits to the lens while this one edits it.
  const lens = 'content/lenses/solution-architect.md';
  await page.goto(`${chatSite}/admin/edit?path=${lens}`);
  const text = await editorText(page);
  await replaceText(page, text.replace(/^title: .*$/m, 'title: "Solution Architect (LLM systems)"'));
  const other = await browser.newContext();
  await other.request.put(`${chatSite}/api/admin/file`, {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { path: lens, branch: 'dev', message: 'Retitle the solution architect lens', content: text.replace(/^title: .*$/m, 'title: "Solutions Architect"') },
  });
  await other.close();
  await page.goto(`${chatSite}/admin/review`);
  await page.getByLabel('Commit message').fill('Retitle the lens for LLM work');
  await page.getByRole('button', { name: /Commit 1 file/ }).click();
  await page.locator('.conflict-chunk').first().waitFor();
  await page.getByLabel('Keep yours').first().check();
  await shot(page, 'conflict');
  await page.getByRole('button', { name: /Not now/ }).click();
  await page.getByRole('button', { name: 'Discard' }).click();

  await page.goto(`${chatSite}/admin/publish`);
  await page.locator('.run').first().waitFor();
  await shot(page, 'publish');
});
