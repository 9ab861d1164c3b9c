// The chat widget against the real service and the scripted OpenAI-compatible server: streaming, tool
// steps, sources, stop, retry, copy, the 16-message window, 429 and errors; and the search fallback of
// the service without a model; and the conversation kept for the tab across full page loads (another
// language, a reload, a link).
import { expect, test } from '@playwright/test';
import { chatSite, modelRequests, ownClientIp, scriptModel, site } from './support/helpers.ts';

const answer =
  'Noa built **Concierge Copilot** at Orbitale Travel (concierge-copilot): a guest assistant now live in 48 hotels.\n\n- resolves 64% of routine questions\n- hands over to staff when unsure';

test.describe('with a model', () => {
  test.use({ baseURL: chatSite });

  test.beforeEach(async ({ page }) => {
    await ownClientIp(page);
  });

  async function openChat(page: import('@playwright/test').Page, path = '/') {
    await page.goto(path);
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    await expect(page.getByRole('dialog', { name: 'Ask about Noa' })).toBeVisible();
    return page.getByLabel('Your question');
  }

  test('streams the answer as it comes, shows the tool steps, renders Markdown and links the sources to entry pages', async ({ page }) => {
    await scriptModel([{ toolCalls: [{ name: 'search_subject', arguments: { query: 'Orbitale' } }] }, { text: answer, chunks: 10, delayMs: 150 }]);
    const input = await openChat(page);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) asked.push(new URL(r.url()).pathname);
    });
    await input.fill('What did Noa build at Orbitale?');
    await input.press('Enter');

    const reply = page.locator('.msg-assistant').last();
    await expect(reply.locator('.chat-steps li')).toContainText('Searching the profile for “Orbitale”');
    // Part of the answer is on screen while the stream is still running (the Stop button is there).
    await expect(reply.locator('.answer')).toContainText('Noa built');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    expect(await reply.locator('.answer').innerText()).not.toContain('hands over to staff');

    await expect(reply.locator('.answer li')).toHaveCount(2);
    await expect(reply.locator('.answer strong')).toHaveText('Concierge Copilot');
    await expect(reply.locator('.chat-steps li.done')).toContainText(/\d+ sources/);
    const source = reply.locator('.chat-sources a');
    // Titled as the service named it in the done line (no further request): the entry and its organisation.
    await expect(source).toHaveText('Concierge Copilot: an LLM assistant for hotel guests — Orbitale Travel');
    await expect(source).toHaveAttribute('href', '/entries/concierge-copilot');
    // The slug in parentheses became a link to the entry too.
    await expect(reply.locator('.answer a[href="/entries/concierge-copilot"]')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
    // The done line named the sources with their titles and pages: the widget asked nothing more.
    expect(asked).toEqual(['/api/chat']);

    await source.click();
    await expect(page).toHaveURL(/\/entries\/concierge-copilot$/);
    await expect(page.locator('h1')).toHaveText('Concierge Copilot: an LLM assistant for hotel guests');
  });

  test('asks in the page’s language and links sources in that locale', async ({ page }) => {
    await scriptModel([
      { toolCalls: [{ name: 'get_entry', arguments: { slug: 'rag-evaluation-harness', locale: 'fr' } }] },
      { text: 'Elle maintient ragcheck (rag-evaluation-harness).' },
    ]);
    await page.goto('/fr');
    await page.getByRole('button', { name: 'Questions sur Noa' }).click();
    await page.getByLabel('Votre question').fill('Quel projet open source ?');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    const reply = page.locator('.msg-assistant').last();
    await expect(reply.locator('.chat-steps li')).toContainText('Lecture de l’élément « rag-evaluation-harness »');
    await expect(reply.locator('.chat-sources a')).toHaveAttribute('href', '/fr/entries/rag-evaluation-harness');
    const sent = (await modelRequests()).find((r) => r.path.endsWith('/chat/completions'))!;
    expect(JSON.stringify(sent.body.messages)).toContain('Answer in French');
  });

  test('stop aborts the stream, all the way to the model; retry asks again', async ({ page }) => {
    await scriptModel([{ hang: true }, { text: 'Second try: Noa is based in Lisbon.' }]);
    const input = await openChat(page);
    await input.fill('Where is Noa based?');
    await input.press('Enter');
    const reply = page.locator('.msg-assistant').last();
    await expect(reply.locator('.answer')).toContainText('…');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(reply.locator('.chat-status')).toHaveText('Stopped.');
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect.poll(async () => (await modelRequests()).some((r) => r.aborted), { timeout: 10_000 }).toBe(true);

    await reply.getByRole('button', { name: 'Retry' }).click();
    await expect(page.locator('.msg-assistant').last().locator('.answer')).toHaveText('Second try: Noa is based in Lisbon.');
    await expect(page.locator('.msg-user')).toHaveCount(1);
  });

  test('copy puts the answer’s Markdown on the clipboard', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: chatSite });
    await scriptModel([{ text: 'Noa speaks **six** languages.' }]);
    const input = await openChat(page);
    await input.fill('Languages?');
    await input.press('Enter');
    const reply = page.locator('.msg-assistant').last();
    await expect(reply.locator('.answer')).toHaveText('Noa speaks six languages.');
    await reply.getByRole('button', { name: 'Copy' }).click();
    await expect(reply.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Noa speaks **six** languages.');
  });

  test('a provider failure mid-answer shows an honest error with a retry', async ({ page }) => {
    await scriptModel([
      { status: 500, error: 'upstream exploded' },
      { status: 500, error: 'upstream exploded' },
    ]);
    const input = await openChat(page);
    await input.fill('Anything?');
    await input.press('Enter');
    const reply = page.locator('.msg-assistant').last();
    await expect(reply.getByTestId('chat-problem-unavailable')).toHaveText('The assistant could not answer just now. Please retry in a moment.');
    await expect(reply.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  test('429: says how long to wait, counts down, and blocks sending meanwhile', async ({ page, request }) => {
    const ip = await ownClientIp(page);
    // Spend this client's budget of 10 chat requests a minute.
    for (let i = 0; i < 10; i++) {
      await request.post(`${chatSite}/api/chat`, { headers: { 'X-Forwarded-For': ip }, data: { messages: [{ role: 'user', content: 'x' }] } });
    }
    const input = await openChat(page);
    await input.fill('One more?');
    await input.press('Enter');
    const problem = page.locator('.msg-assistant').last().getByTestId('chat-problem-rate');
    await expect(problem).toContainText(/You can ask again in \d+ s\./);
    const first = Number((await problem.innerText()).match(/in (\d+) s/)![1]);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(60);
    await expect(page.getByTestId('chat-wait')).toBeVisible();
    await input.fill('Again?');
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await expect.poll(async () => Number(((await problem.innerText()).match(/in (\d+) s/) ?? [])[1]), { timeout: 5000 }).toBeLessThan(first);
  });

  test('keeps at most 16 messages, on screen and in what it sends', async ({ page }) => {
    await scriptModel([]);
    const sent: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/chat')) sent.push(JSON.parse(r.postData()!).messages.length);
    });
    const input = await openChat(page);
    for (let i = 1; i <= 9; i++) {
      await input.fill(`Question ${i}?`);
      await input.press('Enter');
      await expect(page.locator('.msg-user').last()).toHaveText(`You: Question ${i}?`);
      await expect(page.locator('.msg-assistant').last()).toHaveAttribute('data-status', 'done');
    }
    await expect(page.locator('.chat-log .msg')).toHaveCount(16);
    await expect(page.locator('.chat-log')).toContainText('Only the last 16 messages are kept');
    await expect(page.locator('.msg-user').first()).toHaveText(/Question 2\?/);
    expect(sent).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 15]);
  });

  test('switching language keeps the conversation and the open panel, and the next question goes on from it', async ({ page }) => {
    await scriptModel([{ text: 'Noa is based in Lisbon.' }, { text: 'Noa speaks **six** languages.' }, { text: 'Elle parle portugais.' }]);
    const sent: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/chat')) sent.push(JSON.parse(r.postData()!).messages.length);
    });
    const input = await openChat(page);
    for (const question of ['Where is Noa based?', 'Which languages does Noa speak?']) {
      await input.fill(question);
      await input.press('Enter');
      await expect(page.locator('.msg-assistant').last()).toHaveAttribute('data-status', 'done');
    }

    // With the mouse: the open menu lies over the open panel (at this window's height they overlap).
    await page.locator('.lang-menu summary').click();
    await page.locator('.lang-menu a[data-locale="fr"]').click();
    await expect(page).toHaveURL(/\/fr\/?$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    const dialog = page.getByRole('dialog', { name: 'Questions sur Noa' });
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('button', { name: 'Questions sur Noa' })).toBeHidden();
    await expect(dialog.locator('.msg-user')).toHaveText([/Where is Noa based\?$/, /Which languages does Noa speak\?$/]);
    await expect(dialog.locator('.msg-assistant .answer')).toHaveText(['Noa is based in Lisbon.', 'Noa speaks six languages.']);
    // asked on the English page, they stay marked English on the French one (the panel's own words are French)
    for (const text of await dialog.locator('.msg-user p, .msg-assistant .answer').all())
      await expect(text.locator('xpath=ancestor-or-self::*[@lang][1]')).toHaveAttribute('lang', 'en');
    await expect(dialog.locator('.msg-assistant .msg-actions').first()).not.toHaveAttribute('lang', /./);
    await expect(dialog.locator('.msg-assistant .chat-status')).toHaveCount(0);

    // The model hears the kept conversation before the new question.
    await dialog.getByLabel('Votre question').fill('Et en portugais ?');
    await dialog.getByLabel('Votre question').press('Enter');
    await expect(dialog.locator('.msg-assistant').last().locator('.answer')).toHaveText('Elle parle portugais.');
    expect(sent).toEqual([1, 3, 5]);
    expect(JSON.stringify((await modelRequests()).at(-1)!.body.messages)).toContain('Noa speaks **six** languages.');
  });

  test('a reload keeps the conversation, the panel as it was, and a reply cut off mid-stream as far as it came, stopped', async ({ page }) => {
    await scriptModel([{ text: 'Noa is based in Lisbon.' }, { text: 'She first led the data team, then built the assistant.', chunks: 10, delayMs: 500 }]);
    const input = await openChat(page);
    await input.fill('Where is Noa based?');
    await input.press('Enter');
    await expect(page.locator('.msg-assistant').last()).toHaveAttribute('data-status', 'done');

    // Closed, it comes back closed, the conversation there for the launcher to reopen.
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.reload();
    const launcher = page.getByRole('button', { name: 'Ask about Noa' }).last();
    await expect(launcher).toBeVisible();
    await expect(page.getByRole('dialog')).toBeHidden();
    await launcher.click();
    await expect(page.locator('.msg-user')).toHaveText(['You: Where is Noa based?']);
    await expect(page.locator('.msg-assistant .answer')).toHaveText(['Noa is based in Lisbon.']);

    // Reloaded while the answer streams: what had arrived is kept, stopped, and not asked again.
    await input.fill('What did she do first?');
    await input.press('Enter');
    const reply = page.locator('.msg-assistant').last();
    await expect(reply.locator('.answer')).toContainText('She first');
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/chat') asked.push(r.url());
    });
    await page.reload();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.locator('.msg-user')).toHaveCount(2);
    await expect(reply).toHaveAttribute('data-status', 'stopped');
    await expect(reply.locator('.chat-status')).toHaveText('Stopped.');
    await expect(reply.locator('.answer')).toContainText('She first');
    await expect(reply.getByRole('button', { name: 'Retry' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect.poll(async () => (await modelRequests()).some((r) => r.aborted), { timeout: 10_000 }).toBe(true);
    await page.waitForTimeout(1500); // longer than a part of the stream takes: nothing more arrives
    await expect(reply.locator('.answer')).not.toContainText('built the assistant');
    expect(asked).toEqual([]);
  });

  test('a new conversation clears what was kept; another tab starts empty; a kept value that cannot be read is ignored and removed', async ({
    page,
    context,
  }) => {
    await scriptModel([{ text: 'Noa is based in Lisbon.' }]);
    const input = await openChat(page);
    await input.fill('Where is Noa based?');
    await input.press('Enter');
    await expect(page.locator('.msg-assistant').last()).toHaveAttribute('data-status', 'done');
    await page.reload();
    await expect(page.locator('.msg-user')).toHaveText(['You: Where is Noa based?']);

    const other = await context.newPage();
    await other.goto('/');
    await other.getByRole('button', { name: 'Ask about Noa' }).last().click();
    await expect(other.locator('.chat-suggestions')).toBeVisible();
    await expect(other.locator('.chat-log .msg')).toHaveCount(0);
    await other.close();

    await page.getByRole('dialog').getByRole('button', { name: 'New conversation' }).click();
    await expect(page.locator('.chat-log .msg')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Ask about Noa' }).last()).toBeVisible();
    await expect(page.getByRole('dialog')).toBeHidden();
    expect(await page.evaluate(() => sessionStorage.getItem('vitae:chat'))).toBeNull();

    for (const corrupt of ['{"v":1,"open":tr', JSON.stringify({ messages: [{ role: 'user', content: 'old format' }] })]) {
      await page.evaluate((value) => sessionStorage.setItem('vitae:chat', value), corrupt);
      await page.reload();
      // Removed as the page became interactive, before the panel was ever opened.
      const launcher = page.getByRole('button', { name: 'Ask about Noa' }).last();
      await expect(launcher).toBeVisible();
      expect(await page.evaluate(() => sessionStorage.getItem('vitae:chat'))).toBeNull();
      await launcher.click();
      await expect(page.locator('.chat-suggestions')).toBeVisible();
      await expect(page.locator('.chat-log .msg')).toHaveCount(0);
    }
  });

  test('Markdown from the model cannot inject HTML or unsafe links', async ({ page }) => {
    await scriptModel([
      { text: 'Hi <img src=x onerror="window.__pwned=1"> [click](javascript:window.__pwned=2) <script>window.__pwned=3</script> [ok](/lenses/head-of-ai)' },
    ]);
    const input = await openChat(page);
    await input.fill('Try it');
    await input.press('Enter');
    const reply = page.locator('.msg-assistant').last();
    await expect(reply.locator('.answer a')).toHaveCount(1);
    await expect(reply.locator('.answer a')).toHaveAttribute('href', '/lenses/head-of-ai');
    await expect(reply.locator('.answer img, .answer script')).toHaveCount(0);
    await expect(reply.locator('.answer')).toContainText('<img src=x');
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
  });
});

test.describe('without a model', () => {
  test.use({ baseURL: site });

  test('the chat says so plainly and answers with matching search passages that link to the pages', async ({ page }) => {
    await page.goto('/');
    const res = await page.request.post('/api/chat', { data: { messages: [{ role: 'user', content: 'x' }] } });
    expect(res.status()).toBe(503);
    expect((await res.json()).code).toBe('chat_not_configured');

    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    await expect(page.getByTestId('chat-search-mode')).toContainText('AI answers are not switched on for this site');
    await page.getByLabel('Your question').fill('ragcheck evaluation harness');
    await page.getByLabel('Your question').press('Enter');
    const reply = page.locator('.msg-assistant').last();
    await expect(reply.locator('.passages h3')).toHaveText('Matching passages');
    const first = reply.locator('.passages li a').first();
    await expect(first).toHaveAttribute('href', /^\/(entries|documents)\//);
    await first.click();
    await expect(page.locator('h1')).toBeVisible();
    expect(new URL(page.url()).origin).toBe(site);
  });

  test('the passages read as text and stay in the page’s language', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    await page.getByLabel('Your question').fill('What is she looking for?');
    await page.getByLabel('Your question').press('Enter');
    const passages = page.locator('.msg-assistant').last().locator('.passages li p');
    await expect(passages.first()).toContainText('What she is looking for');
    for (const text of await passages.allTextContents()) expect(text).not.toMatch(/^#|\*\*|^---|\n- /m);

    // The panel is open again on the French page, with the question asked in English (kept for the tab).
    await page.goto('/fr/');
    await expect(page.locator('.msg-user')).toHaveCount(1);
    const input = page.getByRole('dialog').locator('textarea');
    await input.fill('ragcheck');
    await input.press('Enter');
    await expect(page.locator('.msg-user')).toHaveCount(2);
    const links = page.locator('.msg-assistant').last().locator('.passages li a');
    await expect(links.first()).toBeVisible();
    for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))) expect(href).toMatch(/^\/fr\/(entries|documents)\//);
  });

  test('a second question is brought into view with its answer below it, not left under the first answer; passages are cut', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    for (const question of ['What is her experience with RAG evaluation?', 'Which languages does she speak?']) {
      await page.getByLabel('Your question').fill(question);
      await page.getByLabel('Your question').press('Enter');
      await expect(page.locator('.msg-assistant').last().locator('.passages li').first()).toBeVisible();
      const log = (await page.locator('.chat-log').boundingBox())!;
      const asked = (await page.locator('.msg-user').last().boundingBox())!;
      expect(asked.y, question).toBeGreaterThanOrEqual(log.y);
      expect(asked.y + asked.height, question).toBeLessThanOrEqual(log.y + log.height);
    }
    // a passage is cut at a word past 700 characters, as on the search page (a table of capabilities ran to 2,000)
    const texts = await page.locator('.msg-assistant .passages li p').allTextContents();
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(701);
  });

  test('the passages stay through links between pages and full loads; on a phone, a link from the panel closes it', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    await page.getByLabel('Your question').fill('ragcheck evaluation harness');
    await page.getByLabel('Your question').press('Enter');
    const passages = page.locator('.msg-assistant .passages li');
    await expect(passages.first()).toBeVisible();
    const titles = await passages.locator('a').allTextContents();

    // A link of the site's navigation (a page of the same app), then a passage's link (a full load).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Entries' }).click();
    await expect(page).toHaveURL(/\/entries$/);
    await expect(passages.locator('a')).toHaveText(titles);
    await passages.locator('a').first().click();
    await expect(page).toHaveURL(/\/(entries|documents)\/[^/]+$/);
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.locator('.msg-user')).toHaveText(['You: ragcheck evaluation harness']);
    await expect(passages.locator('a')).toHaveText(titles);

    await page.setViewportSize({ width: 390, height: 800 });
    await passages.locator('a').nth(1).click();
    await expect(page.locator('h1')).toBeVisible();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    await expect(passages.locator('a')).toHaveText(titles);
  });

  test('the voice button is not offered when transcription is not configured', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
    await expect(page.getByTestId('chat-search-mode')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ask by voice' })).toHaveCount(0);
  });
});

test.describe('the way into the chat', () => {
  test.use({ baseURL: site });
  const ask = (page: import('@playwright/test').Page) => page.locator('a, button').filter({ hasText: /^Ask about Noa$/, visible: true });

  test('a phone shows one "Ask about Noa" on the home page, and it opens the chat; a desktop keeps the hero button too', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.locator('button.chat-launcher')).toBeVisible(); // interactive
    await expect(ask(page)).toHaveCount(1);
    await ask(page).click();
    await expect(page.getByRole('dialog', { name: 'Ask about Noa' })).toBeVisible();

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await expect(page.locator('button.chat-launcher')).toBeVisible();
    await expect(page.locator('.hero').getByRole('link', { name: 'Ask about Noa' })).toBeVisible();
    await page.locator('.hero').getByRole('link', { name: 'Ask about Noa' }).click();
    await expect(page.getByRole('dialog', { name: 'Ask about Noa' })).toBeVisible();
  });

  test('without JavaScript a phone shows one too, leading to search', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${site}/`);
    await expect(ask(page)).toHaveCount(1);
    await expect(ask(page)).toHaveAttribute('href', '/search');
    await context.close();
  });
});
