// The admin console in real Chromium against the real service (with its scripted model): sign-in, editing
// with live lint, completion and preview, a change set committed as one commit, an AI edit decided chunk by
// chunk, the three-way merge of two editors, publish to dev then promote to main, history and restore,
// unsaved edits surviving a reload, and sign-out refusing the old cookie.
import { expect, test, type BrowserContext } from '@playwright/test';
import { adminToken, chatPreview, chatSite, ownClientIp, scriptModel } from './support/helpers.ts';
import { editorText, git, readFile, replaceText, signIn, waitForRuns, writeFile } from './support/console.ts';

test.use({ viewport: { width: 1280, height: 900 } });

test.describe('signing in', () => {
  test('sends a visitor to sign-in, says when the token is wrong, and comes back to the page asked for', async ({ page }) => {
    await ownClientIp(page);
    await page.goto(`${chatSite}/admin/history`);
    await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Fhistory/);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await page.getByLabel('Token', { exact: true }).fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('That token is not the admin token')).toBeVisible();
    await page.getByLabel('Token', { exact: true }).fill(adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/admin\/history$/);
    await expect(page.getByRole('heading', { name: /History of dev/ })).toBeVisible();
  });

  test('tells a throttled address how long to wait', async ({ page }) => {
    await ownClientIp(page);
    await page.goto(`${chatSite}/admin/login`);
    // Ten failed checks per address and quarter hour (CREDENTIAL_FAILURES), then even the right token waits.
    for (let i = 0; i < 10; i++) {
      await page.getByLabel('Token', { exact: true }).fill(`wrong-${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('That token is not the admin token')).toBeVisible();
    }
    await page.getByLabel('Token', { exact: true }).fill(adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText(/try again in \d+ seconds/);
  });
});

test.describe('the file browser and the editor', () => {
  test('groups files with titles and translation states, and edits with live lint, completion and preview', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin`);
    await expect(page.getByRole('heading', { name: /^Projects/ })).toBeVisible();
    const row = page.locator('.file-row', { hasText: 'content/corpus/projects/concierge-copilot.md' });
    await expect(row.locator('.file-title')).toHaveText(/Concierge Copilot/);
    await expect(row.locator('.badge-stale')).toContainText('es');
    await page.getByLabel('Filter').fill('wallet');
    await expect(page.locator('.file-row')).toHaveCount(1);
    await page.locator('.file-row .file-link').first().click();

    await expect(page.getByRole('heading', { name: /Edit content\/corpus\/projects\/wallet-onboarding-kit\.md/ })).toBeVisible();
    await expect(page.getByText('The whole tree is valid with this text.')).toBeVisible();
    // A tag the schema does not allow: a lint mark at its line and a problem in the list.
    const original = await editorText(page);
    await replaceText(page, original.replace(/^tags: .*$/m, 'tags: [cooking]'));
    await expect(page.locator('.problems li').first()).toContainText(/tags/);
    await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();
    await page.locator('.problems li button').first().click();
    await expect(page.locator('.cm-activeLine')).toContainText('tags: [cooking]');
    // Completion of an allowed value.
    await replaceText(page, original.replace(/^tags: .*$/m, 'tags: [hosp'));
    await page.locator('.cm-line', { hasText: 'tags: [hosp' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Control+Space');
    await expect(page.locator('.cm-tooltip-autocomplete')).toContainText('hospitality');
    await page.locator('.cm-tooltip-autocomplete li', { hasText: 'hospitality' }).click();
    expect(await editorText(page)).toMatch(/^tags: \[hospitality$/m);
    await replaceText(page, original.replace(/^title: .*$/m, 'title: "Wallet kit, as previewed"'));
    // The preview renders the unsaved text with the site's own components.
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(page.frameLocator('.preview-frame').locator('h1')).toHaveText('Wallet kit, as previewed');
    await page.getByLabel('Language').selectOption('fr');
    await expect(page.frameLocator('.preview-frame').locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.frameLocator('.preview-frame').getByText('Pas encore traduit', { exact: false }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('.preview-panel')).toHaveCount(0);
    // The edit is in the change set.
    await expect(page.getByRole('link', { name: /Review/ }).first()).toContainText('1');
    await page.goto(`${chatSite}/admin/review`);
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByText('Nothing to commit')).toBeVisible();
  });

  test('keeps unsaved edits through a reload and offers to discard them', async ({ page }) => {
    await signIn(page);
    const path = 'content/skills/python.md';
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    const original = await editorText(page);
    await replaceText(page, original.replace(/^name: .*$/m, 'name: Python, edited before a reload'));
    await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    await page.reload();
    await expect(page.getByText(/was kept in this browser and is restored here/)).toBeVisible();
    expect(await editorText(page)).toContain('Python, edited before a reload');
    await page.getByRole('button', { name: 'Discard my edit' }).click();
    expect(await editorText(page)).toBe(original);
  });
});

test.describe('committing', () => {
  test('commits a change set of three files as one commit', async ({ page }) => {
    await signIn(page);
    const paths = ['content/skills/sql.md', 'content/skills/typescript.md', 'content/skills/mlops.md'];
    for (const path of paths) {
      await page.goto(`${chatSite}/admin/edit?path=${path}`);
      const text = await editorText(page);
      await replaceText(page, text.trimEnd() + '\n\nReviewed in the console.\n');
      await page.keyboard.press('Control+s');
      await expect(page.getByText(/Kept in your change set/)).toBeVisible();
    }
    const before = git('rev-parse', 'dev');
    await page.goto(`${chatSite}/admin/review`);
    await expect(page.locator('.review-item')).toHaveCount(3);
    await page.getByLabel('Commit message').fill('Review three skills');
    await page.getByRole('button', { name: /Commit 3 files to dev/ }).click();
    await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
    const head = git('rev-parse', 'dev');
    expect(git('rev-parse', `${head}^`)).toBe(before);
    expect(git('log', '-1', '--format=%s', head)).toBe('Review three skills');
    expect(git('diff-tree', '-r', '--no-commit-id', '--name-only', head).split('\n').sort()).toEqual([...paths].sort());
  });

  test('merges an edit with another editor’s commit to the same file in the three-way view', async ({ browser }) => {
    const contexts: BrowserContext[] = [
      await browser.newContext({ viewport: { width: 1280, height: 900 } }),
      await browser.newContext({ viewport: { width: 1280, height: 900 } }),
    ];
    try {
      const [alice, bob] = await Promise.all(contexts.map((c) => c.newPage()));
      await signIn(alice!);
      await signIn(bob!);
      const path = 'content/lenses/support-engineer.md';
      for (const page of [alice!, bob!]) await page.goto(`${chatSite}/admin/edit?path=${path}`);
      const text = await editorText(alice!);
      const lines = text.split('\n');
      const titleLine = lines.findIndex((l) => l.startsWith('title:'));
      // Alice changes the title and the body's last line; Bob changes the title differently, and commits first.
      await replaceText(alice!, text.replace(/^title: .*$/m, 'title: "Support engineer (Alice)"').trimEnd() + '\n\nAlice was here.\n');
      await replaceText(bob!, text.replace(/^title: .*$/m, 'title: "Support engineer (Bob)"'));
      await bob!.goto(`${chatSite}/admin/review`);
      await bob!.getByLabel('Commit message').fill('Bob renames the lens');
      await bob!.getByRole('button', { name: /Commit 1 file/ }).click();
      await expect(bob!).toHaveURL(/\/admin\/publish/);

      await alice!.goto(`${chatSite}/admin/review`);
      await alice!.getByLabel('Commit message').fill('Alice renames the lens');
      await alice!.getByRole('button', { name: /Commit 1 file/ }).click();
      await expect(alice!.getByRole('heading', { name: /changed on dev while you were editing/ })).toBeVisible();
      await expect(alice!.getByText('Bob renames the lens')).toBeVisible();
      await expect(alice!.locator('.conflict-chunk')).toHaveCount(1);
      await expect(alice!.locator('.conflict-chunk')).toContainText('Support engineer (Bob)');
      await alice!.getByLabel('Edit by hand').check();
      await alice!.getByLabel('Text for conflict 1').fill('title: "Support engineer (Alice and Bob)"\n');
      await alice!.getByRole('button', { name: 'Use the merged text and commit again' }).click();
      await expect(alice!).toHaveURL(/\/admin\/publish/);
      const merged = (await readFile(alice!, path))!.content;
      expect(merged.split('\n')[titleLine]).toBe('title: "Support engineer (Alice and Bob)"');
      expect(merged).toContain('Alice was here.');
      expect(git('log', '-2', '--format=%s', 'dev').split('\n')).toEqual(['Alice renames the lens', 'Bob renames the lens']);
    } finally {
      await Promise.all(contexts.map((c) => c.close()));
    }
  });
});

test.describe('AI edit', () => {
  test('shows the proposal as chunks to accept or reject, with its problems, and never commits', async ({ page }) => {
    await signIn(page);
    const path = 'content/corpus/projects/concierge-copilot.md';
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    const current = await editorText(page);
    const proposed = current
      .replace(/^organisation: .*$/m, 'organisation: Orbitale Travel Group')
      .replace(/^keyResult: .*$/m, 'keyResult: "Proposed key result."');
    await scriptModel([{ text: proposed }]);
    const head = git('rev-parse', 'dev');
    await page.getByRole('button', { name: 'AI edit' }).click();
    await page.getByLabel('What should change?').fill('Name the group and shorten the key result.');
    await page.getByRole('button', { name: 'Propose an edit' }).click();
    await expect(page.getByText('As proposed, the whole tree stays valid.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accept this proposed change' })).toHaveCount(2);
    await page.getByRole('button', { name: 'Accept this proposed change' }).first().click();
    await page.getByRole('button', { name: 'Reject this proposed change' }).first().click();
    await expect(page.getByText('every change is decided')).toBeVisible();
    await page.getByRole('button', { name: 'Use this text' }).click();
    const result = await editorText(page);
    expect(result).toMatch(/^organisation: Orbitale Travel Group$/m);
    expect(result).not.toContain('Proposed key result.');
    expect(git('rev-parse', 'dev')).toBe(head);
    await page.goto(`${chatSite}/admin/review`);
    await page.getByRole('button', { name: 'Discard' }).click();
  });
});

test.describe('publishing', () => {
  test('publishes a commit to the dev preview, then promotes it to the live site', async ({ page }) => {
    await signIn(page);
    const slug = 'kansai-nights-photo-zine';
    const path = `content/corpus/projects/${slug}.md`;
    const marker = `Promoted from the console ${Date.now()}.`;
    await page.goto(`${chatSite}/admin/edit?path=${path}`);
    await replaceText(page, (await editorText(page)).replace(/^keyResult: .*$/m, `keyResult: "${marker}"`));
    await page.keyboard.press('Control+Enter');
    await expect(page).toHaveURL(/\/admin\/review/);
    await page.getByLabel('Commit message').fill('Rename a skill for the promote test');
    await page.getByRole('button', { name: /Commit 1 file/ }).click();
    await expect(page).toHaveURL(/\/admin\/publish\?commit=/);
    await expect(page.locator('.run-highlight .status').first()).toHaveText('success', { timeout: 30_000 });
    await expect(page.locator('.run-highlight').getByRole('link', { name: 'Open the preview' })).toHaveAttribute('href', chatPreview);
    const keyResult = async (base: string) => ((await (await page.request.get(`${base}/api/v1/entries/${slug}`)).json()) as { keyResult: string }).keyResult;
    expect(await keyResult(chatPreview)).toBe(marker);
    expect(await keyResult(chatSite)).not.toBe(marker);

    await waitForRuns(page, 'dev');
    await page.reload();
    await expect(page.getByText(/commits? on dev that main does not have/)).toBeVisible();
    await expect(page.locator('.compare-file', { hasText: path })).toBeVisible();
    await page.getByRole('button', { name: 'Promote dev to main…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page
      .getByRole('dialog')
      .getByLabel(/Why it is published/)
      .fill('Publish the renamed skill');
    await page.getByRole('dialog').getByRole('button', { name: 'Promote' }).click();
    await expect(page.getByText(/Live now\./)).toBeVisible({ timeout: 30_000 });
    expect(await keyResult(chatSite)).toBe(marker);
    // a fast-forward makes no commit to carry the note: the audit trail keeps it
    await page.goto(`${chatSite}/admin/audit`);
    await expect(page.getByRole('row', { name: /promote/ }).first()).toContainText('(fast-forward): Publish the renamed skill');
  });
});

test.describe('history', () => {
  test('shows a file’s commits with their diffs and restores an older version as a new commit', async ({ page }) => {
    await signIn(page);
    const path = 'content/skills/customer-service.md';
    const original = (await readFile(page, path))!.content;
    await writeFile(page, path, original.replace(/^name: .*$/m, 'name: Customer service, changed by a script'), 'A script renames a skill');
    await page.goto(`${chatSite}/admin/history?path=${path}`);
    await page.getByRole('button', { name: /A script renames a skill/ }).click();
    await expect(page.locator('.commit-file')).toContainText('changed by a script');
    // Restore the version before the script: the seed commit's.
    const seed = git('rev-list', '--max-parents=0', 'dev');
    await page.goto(`${chatSite}/admin/history?path=${path}`);
    await page.getByRole('button', { name: new RegExp(git('log', '-1', '--format=%s', seed)) }).click();
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await expect(page).toHaveURL(/\/admin\/review/);
    await page.getByLabel('Commit message').fill('Restore the skill’s name');
    const commits = Number(git('rev-list', '--count', 'dev'));
    await page.getByRole('button', { name: /Commit 1 file/ }).click();
    await expect(page).toHaveURL(/\/admin\/publish/);
    expect(Number(git('rev-list', '--count', 'dev'))).toBe(commits + 1);
    expect((await readFile(page, path))!.content).toBe(original);
  });
});

test.describe('signing out', () => {
  test('ends the session: the old cookie is refused afterwards', async ({ page }) => {
    await signIn(page);
    await page.goto(`${chatSite}/admin`);
    const cookie = (await page.context().cookies(chatSite)).find((c) => c.name === 'vitae_session')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/admin\/login/);
    const res = await page.request.get(`${chatSite}/api/admin/whoami`, { headers: { Cookie: `${cookie.name}=${cookie.value}` } });
    expect(res.status()).toBe(401);
  });
});

test.describe('the console’s operations at their REST routes', () => {
  test('run as the signed-in editor by the session cookie, with the operation’s own errors; strangers and other sites are refused', async ({ page }) => {
    const url = `${chatSite}/api/admin/validate`;
    const input = { path: 'content/brief.md', content: 'not front matter', branch: 'dev' };
    // No session: the operation refuses, in its own words.
    const anonymous = await page.request.post(url, { data: input, headers: { Origin: chatSite } });
    expect(anonymous.status()).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('unauthorized');

    await signIn(page);
    const res = await page.request.post(url, { data: input, headers: { Origin: chatSite } });
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { valid: boolean; problems: Array<{ path: string }> };
    expect(body.valid).toBe(false);
    expect(body.problems[0]!.path).toBe('content/brief.md');

    const invalid = await page.request.post(url, { data: { path: 'content/brief.md' }, headers: { Origin: chatSite } });
    expect(invalid.status()).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: 'bad_request', message: 'content is required.' });
    expect((await page.request.post(`${chatSite}/api/admin/no_such_thing`, { data: {}, headers: { Origin: chatSite } })).status()).toBe(404);
    // The second door the console once had is gone: its operations are only at their REST routes.
    expect((await page.request.post(`${chatSite}/admin/api/admin_validate`, { data: input, headers: { Origin: chatSite } })).ok()).toBe(false);
    // A write with the session cookie from another site is refused, and nothing is committed.
    const before = git('rev-parse', 'dev');
    const foreign = await page.request.put(`${chatSite}/api/admin/file`, {
      data: { path: 'content/brief.md', content: 'x', message: 'csrf', branch: 'dev' },
      headers: { Origin: 'http://evil.test' },
    });
    expect(foreign.status()).toBe(403);
    expect(git('rev-parse', 'dev')).toBe(before);
  });
});
