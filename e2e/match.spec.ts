// The "Compare with a role" page against the service without a model (the search-only form): the page in two
// languages with axe clean, a pasted description answered row by row through the REST stream, the same table from
// a plain form post without JavaScript (and a refused input said next to its field), Copy as Markdown, a 429 said
// plainly with the text kept, and the links to the page from the home page, the lenses and the navigation.
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { chatSite, json, modelRequests, scriptModel, site } from './support/helpers.ts';

const description = [
  'Head of AI',
  '',
  'Requirements:',
  '- Led engineering teams and hired engineers',
  '- Shipped LLM products to production',
  '- Evaluation of retrieval-augmented generation systems',
  '',
  'Nice to have:',
  '- Speaks Japanese',
].join('\n');

const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(axeTags).analyze();
  return results.violations.map(
    (v) =>
      `${v.id} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
}

/** Fills the form and compares; resolves once the page says the comparison is done. */
async function compare(page: Page, text = description, done = /^(Done|完了)/) {
  await page.locator('#match-description').fill(text);
  await page.locator('.match-form button[type="submit"]').click();
  await expect(page.getByTestId('match-status')).toHaveText(done, { timeout: 30_000 });
}

/** Every row of both tables is a requirement with its status in words and an icon, and evidence that links to a page of the site. */
async function expectWellFormedRows(page: Page) {
  const rows = page.locator('.match-table tbody tr');
  expect(await rows.count()).toBeGreaterThan(0);
  for (const row of await rows.all()) {
    await expect(row.locator('.match-requirement')).not.toBeEmpty();
    await expect(row.locator('.match-badge')).toHaveText(/^(Met|Partly met|Gap)$/);
    await expect(row.locator('.match-badge svg')).toHaveCount(1);
    for (const link of await row.locator('.match-evidence a').all()) {
      expect(await link.getAttribute('href')).toMatch(/^\/(entries|documents)\/[a-z0-9-]+$/);
    }
  }
  // Each piece of evidence carries its quote as a quotation.
  const evidence = page.locator('.match-evidence li');
  expect(await evidence.count()).toBe(await page.locator('.match-evidence li q').count());
}

test.describe('the page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme}: in English and Japanese, empty and answered, without axe violations`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [path, title, label] of [
        ['/match', 'Compare with a role', 'Job description'],
        ['/ja/match', '求人と照らし合わせる', '求人票'],
      ] as const) {
        await page.goto(path);
        await expect(page.locator('h1')).toHaveText(title);
        await expect(page.getByLabel(label)).toBeVisible();
        expect(await axeViolations(page), `${path} empty`).toEqual([]);
        await compare(page, description, path === '/match' ? /^Done/ : /^完了/);
        expect(await axeViolations(page), `${path} answered`).toEqual([]);
      }
    });
  }

  test('says that nothing pasted is stored, counts the characters, and has a Markdown twin', async ({ page, request }) => {
    await page.goto('/match');
    await expect(page.locator('#match-description')).toHaveAttribute('maxlength', '12000');
    await expect(page.locator('#match-description-hint')).toContainText('never stored');
    await page.locator('#match-description').fill('Kubernetes');
    await expect(page.locator('#match-length')).toHaveText('10 / 12,000 characters');

    const twin = await request.get(`${site}/match.md`);
    expect(twin.headers()['content-type']).toMatch(/^text\/markdown/);
    const text = await twin.text();
    expect(text).toMatch(/^# Compare with a role\n/);
    expect(text).toContain(`${site}/api/v1/match`);
  });
});

test.describe('with JavaScript, without a model', () => {
  test('a pasted description streams into the search-only table; the text stays', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site });
    await page.goto('/match');
    const asked: Array<{ accept?: string; body: unknown }> = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/match') asked.push({ accept: r.headers()['accept'], body: r.postDataJSON() });
    });
    // Pasted, as a recruiter would.
    await page.evaluate((text) => navigator.clipboard.writeText(text), description);
    await page.locator('#match-description').focus();
    await page.keyboard.press('ControlOrMeta+V');
    await expect(page.locator('#match-description')).toHaveValue(description);
    await page.getByLabel('Role title (optional)').fill('Head of AI');
    await page.getByRole('button', { name: 'Compare' }).click();

    await expect(page.getByTestId('match-status')).toHaveText(/^Done: \d+ requirements? compared\.$/, { timeout: 30_000 });
    expect(asked).toEqual([{ accept: 'application/x-ndjson', body: { jobDescription: description, locale: 'en', title: 'Head of AI' } }]);
    await expect(page.getByRole('heading', { name: 'How the profile matches “Head of AI”' })).toBeVisible();
    await expect(page.getByTestId('match-search-form')).toHaveText(
      'Matched by search: no model is configured on this site, so each line of the description was looked up in the profile.',
    );
    await expect(page.getByTestId('match-must').locator('tbody tr').first()).toBeVisible();
    await expect(page.getByTestId('match-nice')).toContainText('Speaks Japanese');
    await expectWellFormedRows(page);

    // The counts add up to the rows.
    const rows = await page.locator('.match-table tbody tr').count();
    const counts = await page.locator('.match-counts strong').allTextContents();
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(rows);
    // The description is still there to edit and compare again.
    await expect(page.locator('#match-description')).toHaveValue(description);
  });

  test('Copy as Markdown puts the finished tables on the clipboard, with absolute links', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site });
    await page.goto('/match');
    await page.getByLabel('Role title (optional)').fill('Head of AI');
    await compare(page);
    await page.getByRole('button', { name: 'Copy as Markdown' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown).toMatch(/^# How the profile matches “Head of AI”\n/);
    expect(markdown).toContain('> Matched by search: no model is configured on this site');
    expect(markdown).toContain('## Must-haves\n\n| Requirement | Status | Evidence |\n| --- | --- | --- |\n');
    expect(markdown).toMatch(/\| (✓ Met|◐ Partly met|✗ Gap) \|/);
    expect(markdown).toMatch(new RegExp(`\\]\\(${site.replace(/[.]/g, '\\.')}/(entries|documents)/[a-z0-9-]+\\): “`));
    // One table row per row on the page.
    const rows = await page.locator('.match-table tbody tr').count();
    expect(markdown.split('\n').filter((l) => /^\| (?!Requirement|---)/.test(l))).toHaveLength(rows);
  });

  test('an empty description is said next to the field, in the page’s words, without a request', async ({ page }) => {
    await page.goto('/match');
    let asked = 0;
    page.on('request', (r) => void (new URL(r.url()).pathname === '/api/v1/match' && asked++));
    for (const empty of ['', '   ']) {
      await page.locator('#match-description').fill(empty);
      await page.getByRole('button', { name: 'Compare' }).click();
      await expect(page.locator('#match-description-error')).toHaveText('Paste a job description to compare.');
      await expect(page.locator('#match-description')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#match-description')).toBeFocused();
    }
    expect(asked).toBe(0);
  });

  test('a description with nothing to compare is said next to the field, in the page’s language', async ({ page }) => {
    await page.goto('/es/match');
    await page.locator('#match-description').fill('Python');
    await page.getByRole('button', { name: 'Comparar', exact: true }).click();
    await expect(page.locator('#match-description-error')).toHaveText(
      'No se pudo leer ningún requisito en esta oferta. Pega lo que pide el puesto, un requisito por línea o viñeta.',
    );
    await expect(page.locator('#match-description')).toHaveValue('Python');
  });

  test('a 429 says how long to wait, blocks Compare meanwhile, and keeps the text', async ({ page }) => {
    // The service's refusal as it sends it (the budget itself is the operation's, tested where it is spent).
    await page.route('**/api/v1/match', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '42' },
        body: JSON.stringify({ code: 'rate_limited', message: 'Too many requests; retry in 42 seconds.' }),
      }),
    );
    await page.goto('/match');
    await page.locator('#match-description').fill(description);
    await page.getByRole('button', { name: 'Compare' }).click();
    await expect(page.getByTestId('match-problem-rate_limited')).toHaveText(
      /^That is a lot of comparisons in one minute\. You can compare again in (42|41|40) s\.$/,
    );
    await expect(page.getByRole('button', { name: 'Compare' })).toBeDisabled();
    await expect(page.locator('#match-description')).toHaveValue(description);
    await expect(page.locator('#match-result')).toHaveCount(0);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts and the page answers the finished table; the text stays in the form', async ({ page }) => {
    await page.goto('/match');
    await page.locator('#match-description').fill(description);
    await page.getByLabel('Role title (optional)').fill('Head of AI');
    await page.getByRole('button', { name: 'Compare' }).click();
    await expect(page).toHaveURL(/\/match#match-result$/);
    await expect(page.getByRole('heading', { name: 'How the profile matches “Head of AI”' })).toBeVisible();
    await expect(page.getByTestId('match-status')).toHaveText(/^Done: \d+ requirements? compared\.$/);
    await expect(page.getByTestId('match-search-form')).toBeVisible();
    await expect(page.getByTestId('match-nice')).toContainText('Speaks Japanese');
    await expectWellFormedRows(page);
    // The posted text is back in the form, ready to change.
    await expect(page.locator('#match-description')).toHaveValue(description);
    await expect(page.getByLabel('Role title (optional)')).toHaveValue('Head of AI');
    // Copy and Print need scripts: not offered (the browser's own print still works).
    await expect(page.getByRole('button', { name: 'Copy as Markdown' })).toHaveCount(0);
  });

  test('a refused description is said next to the field, in the page’s language', async ({ page }) => {
    await page.goto('/fr/match');
    // Only spaces: the browser sends it (the field is not empty), the operation refuses it.
    await page.locator('#match-description').fill('   ');
    await page.getByRole('button', { name: 'Comparer', exact: true }).click();
    await expect(page.locator('#match-description-error')).toHaveText('Collez une offre d’emploi à comparer.');
    await expect(page.locator('#match-description')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#match-result')).toHaveCount(0);
  });
});

test.describe('links to the page', () => {
  test('from the home page and back', async ({ page }) => {
    await page.goto('/');
    await page.locator('.hero').getByRole('link', { name: 'Compare with a role' }).click();
    await expect(page).toHaveURL(`${site}/match`);
    await expect(page.locator('h1')).toHaveText('Compare with a role');
    await page.goBack();
    await expect(page).toHaveURL(`${site}/`);
    await expect(page.locator('h1')).toHaveText('Noa Castellan');
  });

  test('from a lens page, in its language, and back', async ({ page }) => {
    await page.goto('/fr/lenses/head-of-ai');
    await page.getByRole('link', { name: 'Comparer une offre d’emploi avec le profil' }).click();
    await expect(page).toHaveURL(`${site}/fr/match`);
    await expect(page.locator('h1')).toHaveText('Comparer à un poste');
    await page.goBack();
    await expect(page).toHaveURL(`${site}/fr/lenses/head-of-ai`);
  });

  test('from the navigation, marked as the current page, on a wide screen and on a phone', async ({ page }) => {
    await page.goto('/ja/entries');
    const nav = page.getByRole('navigation', { name: 'メイン' });
    await nav.getByRole('link', { name: '求人と照合' }).click();
    await expect(page).toHaveURL(`${site}/ja/match`);
    await expect(nav.getByRole('link', { name: '求人と照合' })).toHaveAttribute('aria-current', 'page');
    // (a phone takes the items on a second row: none gives way)
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/fr/entries');
    const link = page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Comparer un poste' });
    await expect(link).toBeInViewport();
    await link.click();
    await expect(page).toHaveURL(`${site}/fr/match`);
  });
});

test.describe('with the scripted model', () => {
  test.use({ baseURL: chatSite });

  test('rows appear one by one as the model writes them, each checked: an invented quote never reaches the page', async ({ page, request }) => {
    const summary: string = (await json(request, `${chatSite}/api/v1/entries/concierge-copilot`)).summary;
    const lines = [
      { requirement: 'Shipped LLM products to production', kind: 'must', status: 'met', evidence: [{ slug: 'concierge-copilot', quote: summary }] },
      {
        requirement: 'Led a research lab of 40',
        kind: 'must',
        status: 'met',
        evidence: [{ slug: 'head-of-ai-orbitale', quote: 'She ran a research lab of forty scientists at a bank' }],
      },
      { requirement: 'Speaks Japanese', kind: 'nice', status: 'partial', evidence: [] },
    ];
    await scriptModel([
      {
        text: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n${JSON.stringify({ summary: 'A close fit on shipping LLM products.' })}`,
        chunks: 16,
        delayMs: 150,
      },
    ]);
    await page.goto('/match');
    await page.locator('#match-description').fill(description);
    await page.getByRole('button', { name: 'Compare' }).click();
    // The first row is on the page while the model is still writing (the Stop button is there).
    await expect(page.locator('.match-table tbody tr').first()).toContainText('Shipped LLM products to production');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(page.getByTestId('match-status')).toHaveText(/^Done/, { timeout: 30_000 });
    await expect(page.locator('.match-table tbody tr')).toHaveCount(3);
    const [shipped, lab] = await page.locator('.match-table tbody tr').all();
    await expect(shipped!.locator('.match-badge')).toHaveText('Met');
    await expect(shipped!.locator('.match-evidence q')).toHaveText(summary);
    await expect(lab!.locator('.match-badge')).toHaveText('Gap');
    await expect(page.locator('body')).not.toContainText('forty scientists');
    await expect(page.getByTestId('match-removed')).toBeVisible();
    await expect(page.getByTestId('match-search-form')).toHaveCount(0);
    await expect(page.locator('.match-result')).toContainText('A close fit on shipping LLM products.');
  });

  test('Stop ends the stream, all the way to the model, and keeps the text', async ({ page }) => {
    await scriptModel([{ hang: true }]);
    await page.goto('/match');
    await page.locator('#match-description').fill(description);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByTestId('match-status')).toHaveText(/^Stopped/);
    await expect(page.getByRole('button', { name: 'Compare' })).toBeEnabled();
    await expect(page.locator('#match-description')).toHaveValue(description);
    await expect.poll(async () => (await modelRequests()).some((r) => r.aborted), { timeout: 10_000 }).toBe(true);
  });
});
