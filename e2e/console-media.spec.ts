// The editor's media picker: an image chosen with the button, one pasted and one dropped onto the editor join the
// change set beside an edited text, each shown with its thumbnail on Review and removable there; committing sends the
// texts and images as ONE commit, whose images are stored at content/media/<slugified name>.<ext>. A file that is not
// an image this site takes is refused in the browser, in words.
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { chatSite } from './support/helpers.ts';
import { changeSet, editorText, git, replaceText, signIn } from './support/console.ts';

test.use({ viewport: { width: 1280, height: 900 } });

const image = (format: 'png' | 'jpeg', background: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .toFormat(format)
    .toBuffer();

/** Hands the editor an image as a paste or a drop would (a DataTransfer holding a File), in the page. */
async function handOver(page: Page, how: 'paste' | 'drop', name: string, type: string, bytes: Buffer) {
  await page.locator('.editor-main').evaluate(
    (host, { how, name, type, data }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name, { type }));
      const event =
        how === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true })
          : new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
      host.querySelector('.cm-content')!.dispatchEvent(event);
    },
    { how, name, type, data: bytes.toString('base64') },
  );
}

test('images picked, pasted and dropped are committed with the text in one commit', async ({ page }) => {
  await signIn(page);
  const path = 'content/skills/sql.md';
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  await replaceText(page, (await editorText(page)).trimEnd() + '\n\nNow with pictures.\n');
  await expect(page.getByText(/Kept in your change set/)).toBeVisible();

  // The button (a file input), then a paste and a drop onto the editor.
  await page.getByTestId('media-input').setInputFiles({ name: 'Query Plan.PNG', mimeType: 'image/png', buffer: await image('png', '#36c') });
  const added = page.locator('.media-added li');
  await expect(added.filter({ hasText: 'content/media/query-plan.png' })).toBeVisible();
  await handOver(page, 'paste', 'image.jpeg', 'image/jpeg', await image('jpeg', '#c63'));
  await expect(added.filter({ hasText: 'content/media/image.jpg' })).toBeVisible();
  await handOver(page, 'drop', 'Schéma final.jpg', 'image/jpeg', await image('jpeg', '#3c6'));
  await expect(added.filter({ hasText: 'content/media/schema-final.jpg' })).toBeVisible();
  // Not an image the site takes: refused here, in words, and not added.
  await page.getByTestId('media-input').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') });
  await expect(page.locator('.media-picker .problem-list')).toContainText('SVG and GIF are not taken');
  expect(Object.keys(await changeSet(page)).sort()).toEqual([
    'content/media/image.jpg',
    'content/media/query-plan.png',
    'content/media/schema-final.jpg',
    path,
  ]);

  await page.goto(`${chatSite}/admin/review`);
  await expect(page.locator('.review-item')).toHaveCount(4);
  await expect(page.getByRole('img', { name: 'New image: content/media/query-plan.png' })).toBeVisible();
  await expect(page.locator('.review-item').filter({ hasText: 'content/media/image.jpg' })).toContainText('New image: JPEG');
  // Removable like any change.
  await page.locator('.review-item').filter({ hasText: 'content/media/schema-final.jpg' }).getByRole('button', { name: 'Discard' }).click();
  await expect(page.locator('.review-item')).toHaveCount(3);
  await expect(page.getByText('The whole tree is valid with these changes.')).toBeVisible();
  await page.getByLabel('Commit message').fill('SQL, with two pictures');
  const before = git('rev-parse', 'dev');
  await page.getByRole('button', { name: /Commit 3 files/ }).click();
  await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
  const sha = git('rev-parse', 'dev');
  expect(git('rev-parse', `${sha}^`)).toBe(before);
  expect(git('diff-tree', '--no-commit-id', '--name-only', '-r', sha).split('\n').sort()).toEqual([
    'content/media/image.jpg',
    'content/media/query-plan.png',
    path,
  ]);
  expect(git('log', '-1', '--format=%s', sha)).toBe('SQL, with two pictures');
  expect(await changeSet(page)).toEqual({});
  // What promote would publish shows the images as images, not as text.
  const compared = page.locator('.compare-file').filter({ hasText: 'content/media/query-plan.png' });
  await expect(compared).toContainText('binary image');
  await compared.locator('summary').click();
  await expect(compared.getByRole('img', { name: 'On dev: content/media/query-plan.png' })).toBeVisible();
  // The image's history shows the picture of the commit, none before it.
  await page.goto(`${chatSite}/admin/history?path=content/media/query-plan.png`);
  await page.getByRole('button', { name: /SQL, with two pictures/ }).click();
  await expect(page.getByRole('img', { name: `After commit ${sha.slice(0, 7)}: content/media/query-plan.png` })).toBeVisible();
  await expect(page.locator('.history-body')).toContainText('Before: none');
  // An image opened from the files shows itself, not an empty editor.
  await page.goto(`${chatSite}/admin/edit?path=content/media/image.jpg`);
  await expect(page.getByRole('img', { name: 'On dev: content/media/image.jpg' })).toBeVisible();
});
