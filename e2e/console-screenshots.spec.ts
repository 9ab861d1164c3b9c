// Screenshots of the admin console for the README (`npm run screenshots`): sign-in, the form generated from the
// schema, the source with a lint problem, a translation beside its English, an AI edit's merge view, the review
// screen, the three-way conflict view, the publish screen, the editors and audit pages, and the media picker.
import { test, type Page } from '@playwright/test';
import { adminToken, chatSite, ownClientIp, scriptModel } from './support/helpers.ts';
import { editorText, readFile, replaceText, signIn, writeFile } from './support/console.ts';

test.use({ viewport: { width: 1360, height: 860 }, deviceScaleFactor: 1, colorScheme: 'light' });

const shot = (page: Page, name: string) => page.screenshot({ path: `docs/screenshots/console-${name}.png` });

test('console screenshots', async ({ page, browser }) => {
  test.setTimeout(240_000);
  await ownClientIp(page);
  await page.goto(`${chatSite}/admin/login`);
  await page.getByLabel('Token', { exact: true }).fill('not-it');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('That token is not the admin token').waitFor();
  await shot(page, 'sign-in');

  await signIn(page, { view: 'form' });
  const path = 'content/corpus/projects/concierge-copilot.md';
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  await page.locator('#field-keyResult').fill('Two thirds of routine guest questions resolved without staff.');
  await page.getByText('The whole tree is valid with this text.').waitFor();
  await page.getByLabel(/^Title/).focus();
  await shot(page, 'form');

  await page.getByRole('button', { name: 'Source', exact: true }).click();
  const original = (await readFile(page, path))!.content;
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

  // A translation whose English changed: beside it, what changed since it was made.
  const english = 'content/corpus/projects/pms-channel-bridge.md';
  const before = (await readFile(page, english))!.content;
  await writeFile(page, english, before.replace(/^keyResult: .*$/m, 'keyResult: "Double bookings down to zero across 40 hotels."'), 'A sharper key result');
  await page.goto(`${chatSite}/admin/edit?path=content/i18n/fr/corpus/projects/pms-channel-bridge.md`);
  await page.locator('.english-source .diff-host .cm-content').waitFor();
  await page.getByRole('button', { name: 'Form', exact: true }).click();
  await page.locator('#field-keyResult').waitFor();
  await shot(page, 'translation');

  await page.goto(`${chatSite}/admin/edit?path=content/skills/python.md`);
  await page.getByRole('button', { name: 'Source', exact: true }).click();
  await replaceText(page, (await editorText(page)).replace(/^name: .*$/m, 'name: Python 3'));
  await page.goto(`${chatSite}/admin/review`);
  await page.getByText('The whole tree is valid with these changes.').waitFor();
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

  // Several editors: a publisher adds one (the token shown once), and the audit trail.
  await page.goto(`${chatSite}/admin/editors`);
  await page.getByLabel('Name').fill('Ada Coach');
  await page.getByLabel('Email').fill('ada@example.org');
  await page.getByRole('button', { name: 'Add editor' }).click();
  await page.getByText('Copy it now').waitFor();
  await shot(page, 'editors');
  await page.goto(`${chatSite}/admin/audit`);
  await page.locator('table').first().waitFor();
  await shot(page, 'audit');
});

test('console media picker screenshot', async ({ page }) => {
  const { default: sharp } = await import('sharp');
  await signIn(page, { view: 'form' });
  await page.goto(`${chatSite}/admin/edit?path=content/corpus/projects/concierge-copilot.md`);
  await page.locator('#field-keyResult').waitFor();
  // A picture of a sunset made here (no binary fixture): a gradient of warm colours.
  const width = 640;
  const height = 400;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.set([240 - y / 4, 120 + x / 8, 60 + y / 3], (y * width + x) * 3);
  const photo = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
  await page.getByTestId('media-input').setInputFiles({ name: 'Concierge at dusk.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.locator('.media-added li').first().waitFor();
  await shot(page, 'media-picker');
  await page.goto(`${chatSite}/admin/review`);
  await page.getByRole('img', { name: /New image/ }).waitFor();
  await page.getByText('The whole tree is valid with these changes.').waitFor();
  await page.getByRole('button', { name: 'Discard' }).click();
});
