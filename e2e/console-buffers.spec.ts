// One file, one buffer: whatever way an editor moves between files (the Files list, a translation's "Open the
// English", the badges to each translation, the Problems list's link to another file, a file's history, back and
// forward, a reload, a typed address), in the form view or the source view, each editor shows exactly its own
// file's text, and the change set only ever holds what was typed in that file. Random walks, checked after every
// step; fast-check shrinks a failing walk to its shortest form.
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

const steps = [
  'files-list',
  'open-english',
  'badge-es',
  'badge-fr',
  'break-skill',
  'problems-link',
  'history-and-back-to-edit',
  'view-form',
  'view-source',
  'back',
  'forward',
  'reload',
  'address',
  'type',
] as const;

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
  if (await inForm(page)) await expect(page.locator('#field-body')).toHaveCount(1);
  else await expect(page.locator(`.editor-host[data-path="${path}"] .cm-content`)).toHaveCount(1);
  return path;
}

const inForm = async (page: Page) => (await page.getByRole('button', { name: 'Form', exact: true }).getAttribute('aria-pressed')) === 'true';
const bodyOf = (text: string) => text.replace(/^---\n[\s\S]*?\n---\n/, '');

test('every editor shows exactly its file’s text, and the change set holds only what was typed in it, whatever the way between files', async ({ context }) => {
  test.setTimeout(300_000);
  const first = await context.newPage();
  await signIn(first);
  /** Each file's text on the branch, read the first time the walk meets it. */
  const original = new Map<string, string>();
  const originalOf = async (path: string) => {
    if (!original.has(path)) original.set(path, (await readFile(first, path))!.content);
    return original.get(path)!;
  };
  for (const path of paths) await originalOf(path);
  const errors: string[][] = [];
  let marker = 0;

  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom(...steps), { minLength: 8, maxLength: 14 }), fc.constantFrom(...paths), async (walk, start) => {
      // Each walk in a tab of its own, its history starting with the walk, and an empty change set.
      const page = await context.newPage();
      errors.push(collectErrors(page));
      /** What each file the walk changed should hold now. */
      const expected = new Map<string, string>();
      const textOf = async (path: string) => expected.get(path) ?? (await originalOf(path));
      await page.goto(`${chatSite}/admin`);
      await page.evaluate(() => localStorage.removeItem('vitae-console:changes:dev'));
      await page.goto(`${chatSite}/admin/edit?path=${start}`);
      for (const step of walk) {
        const here = await editorPath(page);
        const form = here !== null && (await inForm(page));
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
          case 'break-skill':
            // A skill with an unknown category is no skill: the entries naming it have problems, listed with links.
            if (here === skill && !form && !(await textOf(skill)).includes('category: cooking')) {
              await page.locator(`.editor-host[data-path="${skill}"] .cm-line`, { hasText: /^category:/ }).click();
              await page.keyboard.press('End');
              await page.keyboard.press('Shift+Home');
              await page.keyboard.insertText('category: cooking');
              const next = (await textOf(skill)).replace(/^category: .*$/m, 'category: cooking');
              expected.set(skill, next);
              await expect.poll(async () => (await changeSet(page))[skill]).toBe(next);
            }
            break;
          case 'problems-link':
            if (here) {
              await expect(page.locator('.problems')).not.toContainText('Checking the file against the whole tree');
              const link = page.locator('.problems li a').first();
              if (await link.count()) await link.click();
            }
            break;
          case 'history-and-back-to-edit':
            if (here) {
              await page.getByRole('link', { name: 'History of this file' }).click();
              await page.getByRole('link', { name: 'Edit the file' }).click();
            }
            break;
          case 'view-form':
          case 'view-source':
            if (here) await page.getByRole('button', { name: step === 'view-form' ? 'Form' : 'Source', exact: true }).click();
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
              // At the very end of the file: the body, in either view.
              const text = `Typed in ${here} (${++marker}).\n`;
              await page.locator(form ? '#field-body' : `.editor-host[data-path="${here}"] .cm-content`).click();
              await page.keyboard.press('Control+End');
              await page.keyboard.insertText(text);
              const next = (await textOf(here)) + text;
              expected.set(here, next);
              await expect.poll(async () => (await changeSet(page))[here]).toBe(next);
            }
            break;
        }
        const now = await editorPath(page);
        if (now) {
          const text = await textOf(now);
          if (await inForm(page)) await expect(page.locator('#field-body'), `the form of ${now} after ${step}`).toHaveValue(bodyOf(text));
          else expect(await editorText(page, now), `the editor of ${now} after ${step}`).toBe(text);
        }
        await expect.poll(() => changeSet(page), { message: `the change set after ${step}` }).toEqual(Object.fromEntries(expected));
      }
      await page.close();
    }),
    {
      numRuns: 8,
      endOnFailure: true,
      // Walks that surely take the Problems list's link from a broken skill to an entry naming it, and type in both views.
      examples: [
        [['view-source', 'break-skill', 'problems-link', 'type', 'back', 'view-form', 'type', 'forward', 'reload'], skill],
        [['view-form', 'type', 'badge-fr', 'type', 'open-english', 'view-source', 'back', 'history-and-back-to-edit'], english],
      ],
    },
  );
  expect(errors.flat().filter((e) => /Minified React error|hydrat/i.test(e))).toEqual([]);
});
