// Several editors in the console, end to end: the owner adds an editor on the Editors page and sees their token
// once; the editor signs in with it on the sign-in form, sees their name and role, is not offered main or Promote
// (and is told why), commits on dev; the owner's history names the editor as the commit's author and the audit
// trail lists the editor's sign-in and commit; then the owner issues and revokes a token and removes the editor.
import { expect, test, type Page } from '@playwright/test';
import { randomInt } from 'node:crypto';
import { adminToken, chatSite } from './support/helpers.ts';
import { collectErrors, editorText, git, replaceText, signIn } from './support/console.ts';

test.use({ viewport: { width: 1280, height: 900 } });

const PUBLISHER_NEEDED = 'Publishing to main needs the publisher role — ask a publisher to promote.';

/** Signs in on the console's own form with a token, and waits for the console. */
async function signInWith(page: Page, token: string) {
  await page.goto(`${chatSite}/admin/login`);
  await page.getByLabel('Token', { exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${chatSite}/admin$`));
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
}

/** The audit page's rows as "action who detail" (not the time, which moves on), newest first. */
const rowsOf = (page: Page) =>
  page
    .locator('tr.audit-event')
    .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-action'), ...[...r.querySelectorAll('td')].slice(2).map((td) => td.textContent)].join(' ')));

/** The header's "Signed in as …" line. */
const who = (page: Page) => page.locator('.console-header .console-who');

test('an editor added in the console signs in with their token, commits on dev, and the owner sees it', async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: chatSite });
  const errors = collectErrors(page);
  const n = randomInt(1e6);
  const name = `Ada Coach ${n}`;
  const email = `ada-${n}@example.org`;

  // The owner adds an editor; the token is shown once, with a copy button and the warning.
  await signIn(page);
  await page.goto(`${chatSite}/admin/editors`);
  await expect(who(page)).toContainText('Owner');
  await expect(who(page).locator('.role-badge')).toHaveText('publisher');
  await expect(page.locator('.account').first()).toContainText('ADMIN_TOKEN');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await expect(page.locator('.add-editor').getByLabel('Role')).toHaveValue('editor');
  await page.getByRole('button', { name: 'Add editor' }).click();
  const issued = page.locator('.issued-token');
  await expect(issued).toContainText(`${name} is added`);
  await expect(issued).toContainText('it is not shown again');
  const token = await page.getByRole('textbox', { name: `Token for ${name}` }).inputValue();
  expect(token).toMatch(/^vitae_[a-z0-9]{8}_/);
  await issued.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(issued.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  const card = page.locator('.account', { has: page.getByRole('heading', { name }) });
  await expect(card).toContainText(email);
  await expect(card.getByLabel('Role')).toHaveValue('editor');
  await expect(card.locator('.token-list li')).toHaveCount(1);
  await expect(card.locator('.token-list')).toContainText(token.slice(6, 14)); // its id, never the token
  await page.screenshot({ path: '/tmp/editors-page.png', fullPage: true });
  // Shown once: the listing (and a reload) never has it again.
  await page.reload();
  await expect(page.locator('.issued-token')).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await signOut(page);

  // The editor signs in with their own token on the form and sees who they are and what their role may do.
  await signInWith(page, token);
  await expect(who(page)).toContainText(`Signed in as ${name}`);
  await expect(who(page).locator('.role-badge')).toHaveText('editor');
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'Editors' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Audit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'main (live)' })).toBeDisabled();
  await expect(page.locator('#branch-reason')).toHaveText('main needs the publisher role');
  // The Editors page, opened by its address, says it needs the publisher role, in the service's words too.
  await page.goto(`${chatSite}/admin/editors`);
  await expect(page.getByText('Managing editors needs the publisher role').first()).toBeVisible();
  await expect(page.locator('.needs-role')).toContainText(`${name} is an editor`);

  // They commit a change on dev, authored by them.
  const path = 'content/skills/sql.md';
  const line = `Edited by editor ${n}.`;
  await page.goto(`${chatSite}/admin/edit?path=${path}`);
  await replaceText(page, (await editorText(page)).trimEnd() + `\n\n${line}\n`);
  await expect(page.getByText(/Kept in your change set/)).toBeVisible();
  await page.goto(`${chatSite}/admin/review`);
  await expect(page.getByRole('heading', { name: 'Review and commit to dev' })).toBeVisible();
  await page.getByLabel('Commit message').fill(`A line from ${name}`);
  await page.getByRole('button', { name: /Commit 1 file to dev/ }).click();
  await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
  expect(git('log', '-1', '--format=%an <%ae>|%s', 'dev')).toBe(`${name} <${email}>|A line from ${name}`);
  // Promote is not offered to an editor; the page says why, and names them as the commit's author.
  await expect(page.getByRole('button', { name: /Promote dev to main/ })).toHaveCount(0);
  await expect(page.locator('.promote')).toContainText(PUBLISHER_NEEDED);
  await expect(page.locator('.compare-commits li', { hasText: `A line from ${name}` }).locator('.commit-author')).toHaveText(name);
  await page.screenshot({ path: '/tmp/editors-editor-view.png', fullPage: false });
  // On main (by its address) the editor cannot unlock the editor: the reason is there instead.
  await page.goto(`${chatSite}/admin/edit?path=${path}&branch=main`);
  await expect(page.getByRole('button', { name: 'Edit main anyway' })).toHaveCount(0);
  await expect(page.locator('.editor-page .needs-role')).toHaveText(PUBLISHER_NEEDED);
  await expect(page.locator('.role-banner')).toContainText('Your edits go to dev');
  await page.goto(`${chatSite}/admin`);
  await signOut(page);

  // The owner's history names the editor; the audit trail has their sign-in and their commit.
  await signInWith(page, adminToken);
  await page.goto(`${chatSite}/admin/history`);
  const commit = page.locator('.history-item', { hasText: `A line from ${name}` });
  await expect(commit.locator('.commit-author')).toHaveText(name);
  await page.goto(`${chatSite}/admin/audit`);
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  const events = page.locator('tr.audit-event');
  await expect(events.filter({ hasText: name }).first()).toBeVisible();
  await expect(page.locator('tr.audit-event[data-action="sign-in"]', { hasText: name })).toHaveCount(1);
  const committed = page.locator('tr.audit-event[data-action="commit"]', { hasText: name });
  await expect(committed).toHaveCount(1);
  await expect(committed).toContainText(`A line from ${name}`);
  await expect(committed).toContainText(path);
  await expect(page.locator('tr.audit-event[data-action="editor-added"]', { hasText: email })).toHaveCount(1);
  await page.screenshot({ path: '/tmp/editors-audit.png', fullPage: false });
  // Newest first: the owner's own sign-in just now is above the editor's commit.
  const actions = await rowsOf(page);
  const ownSignIn = actions.findIndex((a) => a.startsWith('sign-in ') && a.includes('Owner'));
  expect(ownSignIn).toBeGreaterThanOrEqual(0);
  expect(ownSignIn).toBeLessThan(actions.findIndex((a) => a.startsWith('commit ') && a.includes(name)));
  // Older events, a page at a time by the trail's cursor: the second page goes on where the first stopped.
  await page.goto(`${chatSite}/admin/audit?limit=3`);
  expect(await rowsOf(page)).toEqual(actions.slice(0, 3));
  await page.getByRole('link', { name: 'Older events' }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByRole('link', { name: 'Back to the newest' })).toBeVisible();
  expect(await rowsOf(page)).toEqual(actions.slice(3, 6));

  // The owner issues the editor a second token (shown once), revokes it, and removes the editor, each confirmed.
  await page.goto(`${chatSite}/admin/editors`);
  await card.getByRole('button', { name: 'Issue a new token' }).click();
  await expect(page.locator('.issued-token')).toContainText(`A new token for ${name}`);
  const second = await page.getByRole('textbox', { name: `Token for ${name}` }).inputValue();
  expect(second).not.toBe(token);
  await expect(card.locator('.token-list li')).toHaveCount(2);
  const secondId = second.slice(6, 14);
  await card.getByRole('button', { name: `Revoke token ${secondId} of ${name}` }).click();
  await card.getByRole('alertdialog').getByRole('button', { name: 'Revoke the token' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Token ${secondId} of ${name} is revoked` })).toBeVisible();
  await expect(card.locator('.token-list li')).toHaveCount(1);
  const bearer = (t: string) => page.request.get(`${chatSite}/api/admin/whoami`, { headers: { Authorization: `Bearer ${t}` } });
  expect((await bearer(second)).status()).toBe(401);
  await card.getByRole('button', { name: `Remove ${name}…` }).click();
  await card
    .getByRole('alertdialog')
    .getByRole('button', { name: `Remove ${name}` })
    .click();
  await expect(page.getByRole('status').filter({ hasText: `${name} is removed` })).toBeVisible();
  await expect(page.locator('.account', { hasText: email })).toHaveCount(0);
  expect((await bearer(token)).status()).toBe(401);
  // Their commit keeps their name.
  expect(git('log', '-1', '--format=%an', 'dev', '--', path)).toBe(name);
  expect(errors).toEqual([]);
});
