// Shared pieces of the console's browser tests: signing in, the content repository of the service with the
// scripted model (read through git and the admin API), and the editor's text as CodeMirror holds it.
import { expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { adminToken, chatSite, ownClientIp } from './helpers.ts';

export { collectErrors } from './helpers.ts';

const gitDir = () => join(process.env.E2E_CHAT_DATA_DIR!, 'content.git');

/** git in the chat service's content repository. */
export const git = (...args: string[]) =>
  execFileSync('git', args, { env: { ...process.env, GIT_DIR: gitDir() } })
    .toString('utf8')
    .trim();

/**
 * Signs the page's context in through the admin API (the sign-in form has its own test). The editor opens on the
 * view asked for (the form is every new editor's default; most tests type into the source).
 */
export async function signIn(page: Page, { view = 'source' }: { view?: 'form' | 'source' } = {}) {
  await ownClientIp(page);
  const res = await page.request.post(`${chatSite}/api/admin/login`, { data: { token: adminToken } });
  expect(res.status()).toBe(204);
  await page.context().addInitScript((chosen) => {
    if (!sessionStorage.getItem('e2e-view-set')) {
      localStorage.setItem('vitae-console:view', chosen);
      sessionStorage.setItem('e2e-view-set', '1');
    }
  }, view);
}

const bearer = { Authorization: `Bearer ${adminToken}` };

/** A file on a branch through the admin API, or null when it does not exist there. */
export async function readFile(page: Page, path: string, branch = 'dev'): Promise<{ content: string; sha: string } | null> {
  const res = await page.request.get(`${chatSite}/api/admin/file?path=${encodeURIComponent(path)}&branch=${branch}`, { headers: bearer });
  if (res.status() === 404) return null;
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { content: string; sha: string };
}

/** Writes a file straight to a branch (as another editor or a script would). */
export async function writeFile(page: Page, path: string, content: string, message: string, branch = 'dev') {
  const res = await page.request.put(`${chatSite}/api/admin/file`, { headers: bearer, data: { path, content, message, branch } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { commit: { sha: string } };
}

/** Waits until no publish run of the branch is queued or running. */
export async function waitForRuns(page: Page, branch: 'dev' | 'main') {
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`${chatSite}/api/admin/deploys?branch=${branch}&limit=5`, { headers: bearer });
        const { runs } = (await res.json()) as { runs: Array<{ status: string }> };
        return runs.some((r) => r.status === 'queued' || r.status === 'running');
      },
      { timeout: 30_000 },
    )
    .toBe(false);
}

/**
 * The editor's text, as CodeMirror holds it (the view is reachable from its content element, as EditorView.findFromDOM
 * does); with `path`, the editor of that file only.
 */
export const editorText = (page: Page, path?: string) =>
  page.locator(path ? `.editor-host[data-path="${path}"] .cm-content` : '.editor-host .cm-content').evaluate((el) => {
    const view = (el as HTMLElement & { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } }).cmTile?.root?.view;
    if (!view) throw new Error('no CodeMirror view on .cm-content');
    return view.state.doc.toString();
  });

/** Replaces the editor's whole text by typing it through the keyboard's select-all (in the source view). */
export async function replaceText(page: Page, text: string) {
  await page.locator('.editor-host .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

/** The change set of a branch as the console keeps it in this browser: path → text (null: to be deleted). */
export const changeSet = (page: Page, branch = 'dev') =>
  page.evaluate((b) => {
    const raw = localStorage.getItem(`vitae-console:changes:${b}`);
    const set = raw ? (JSON.parse(raw) as Record<string, { content: string | null }>) : {};
    return Object.fromEntries(Object.entries(set).map(([path, change]) => [path, change.content]));
  }, branch);
