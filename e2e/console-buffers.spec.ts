// One file, one buffer: whatever way an editor moves between files (the Files list, a translation's "Open the
// English", the badges to each translation, a file's history, back and forward, a reload, a typed address), each
// editor shows exactly its own file's text, and the change set only ever holds what was typed in that file.
// Random walks, checked after every step; fast-check shrinks a failing walk to its shortest form.
import { expect, test, type Page } from '@playwright/test';
import fc from 'fast-check';
import { chatSite } from './support/helpers.ts';
import { changeSet, collectErrors, editorText, readFile, signIn } from './support/console.ts';

test.use({ viewport: { width: 1280, height: 900 } });

const english = 'content/corpus/projects/concierge-copilot.md';
const spanish = 'content/i18n/es/corpus/projects/concierge-copilot.md';
const french = 'content/i18n/fr/corpus/projects/concierge-copilot.md';
const skill = 'content/skills/python.md';
const paths = [english, spanish, french, skill];

type Step = 'files-list' | 'open-english' | 'badge-es' | 'badge-fr' | 'history-and-back-to-edit' | 'back' | 'forward' | 'reload' | 'address' | 'type';
const steps: Step[] = ['files-list', 'open-english', 'badge-es', 'badge-fr', 'history-and-back-to-edit', 'back', 'forward', 'reload', 'address', 'type'];

/**
 * The path of the editor on screen once the navigation has settled (a client-side navigation changes the address
 * only when the next page's data is in) and its editor is ready, or null on a page that is not an editor.
 */
async function editorPath(page: Page): Promise<string | null> {
  await page.waitForFunction(
    () => (window as { __remixRouter?: { state: { navigation: { state: string } } } }).__remixRouter?.state.navigation.state === 'idle',
  );
  if (!new URL(page.url()).pathname.endsWith('/admin/edit')) return null;
  const path = new URL(page.url()).searchParams.get('path')!;
  await expect(page.getByRole('heading', { level: 1 }).locator('code')).toHaveText(path);
  await expect(page.locator(`.editor-host[data-path="${path}"] .cm-content`)).toHaveCount(1);
  return path;
}

test('every editor shows exactly its file’s text, and the change set holds only what was typed in it, whatever the way between files', async ({ context }) => {
  test.setTimeout(240_000);
  const first = await context.newPage();
  await signIn(first);
  const original = Object.fromEntries(await Promise.all(paths.map(async (p) => [p, (await readFile(first, p))!.content] as const)));
  const errors: string[][] = [];
  let marker = 0;

  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom(...steps), { minLength: 8, maxLength: 12 }), fc.constantFrom(...paths), async (walk, start) => {
      // Each walk in a tab of its own, its history starting with the walk, and an empty change set.
      const page = await context.newPage();
      errors.push(collectErrors(page));
      const typed: Record<string, string> = {};
      await page.goto(`${chatSite}/admin`);
      await page.evaluate(() => localStorage.removeItem('vitae-console:changes:dev'));
      await page.goto(`${chatSite}/admin/edit?path=${start}`);
      for (const step of walk) {
        const here = await editorPath(page);
        switch (step) {
          case 'files-list': {
            const target = paths[marker % paths.length]!;
            if (target.startsWith('content/i18n/')) break; // the Files list shows sources; their translations are reached through them
            await page.getByRole('link', { name: 'Files', exact: true }).first().click();
            await page.getByLabel('Filter').fill(target.split('/').pop()!.replace('.md', ''));
            await page.locator('.file-row', { hasText: target }).locator('.file-link').click();
            break;
          }
          case 'open-english':
            if (here === spanish || here === french) await page.locator('.english-source').getByRole('link', { name: 'Open it' }).click();
            break;
          case 'badge-es':
          case 'badge-fr':
            if (here === english)
              await page
                .locator('.page-head .translation-badges')
                .getByRole('link', { name: new RegExp(`^${step.slice(-2)}`) })
                .click();
            break;
          case 'history-and-back-to-edit':
            if (here) {
              await page.getByRole('link', { name: 'History of this file' }).click();
              await page.getByRole('link', { name: 'Edit the file' }).click();
            }
            break;
          case 'back':
            await page.goBack();
            if (!page.url().startsWith(chatSite)) await page.goForward(); // not past the walk's first page
            break;
          case 'forward':
            await page.goForward();
            break;
          case 'reload':
            await page.reload();
            break;
          case 'address':
            await page.goto(`${chatSite}/admin/edit?path=${paths[(marker + 1) % paths.length]}`);
            break;
          case 'type':
            if (here) {
              const text = `Typed in ${here} (${++marker}).\n`;
              await page.locator('.editor-host .cm-content').click();
              await page.keyboard.press('Control+End');
              await page.keyboard.insertText(text);
              typed[here] = (typed[here] ?? '') + text;
              await expect.poll(async () => (await changeSet(page))[here]).toBe(original[here] + typed[here]);
            }
            break;
        }
        const now = await editorPath(page);
        if (now) expect(await editorText(page, now), `the editor of ${now} after ${step}`).toBe(original[now]! + (typed[now] ?? ''));
        const expected = Object.fromEntries(Object.entries(typed).map(([path, text]) => [path, original[path]! + text]));
        await expect.poll(() => changeSet(page), { message: `the change set after ${step}` }).toEqual(expected);
      }
      await page.close();
    }),
    { numRuns: 6, endOnFailure: true },
  );
  expect(errors.flat().filter((e) => /Minified React error|hydrat/i.test(e))).toEqual([]);
});
