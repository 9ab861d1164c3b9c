// Screenshots for the README: home, entry, lens, chat and compare with a role, light and dark, desktop and phone, saved into
// docs/screenshots/ by `npm run screenshots`, not by `npm test` (they are evidence: look at them).
import { expect, test, type Page } from '@playwright/test';
import { chatSite, ownClientIp, scriptModel } from './support/helpers.ts';

const sizes = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } } as const;

async function showChat(page: Page) {
  await ownClientIp(page);
  await scriptModel([
    { toolCalls: [{ name: 'search_subject', arguments: { query: 'Orbitale Concierge Copilot' } }] },
    { toolCalls: [{ name: 'get_entry', arguments: { slug: 'concierge-copilot' } }] },
    {
      text: 'At Orbitale Travel Noa leads **Concierge Copilot** (concierge-copilot), a multilingual assistant that answers hotel guests from each property’s own information:\n\n- live in **48 partner hotels**\n- resolves **64%** of routine questions without staff\n- hands anything about money, safety or complaints to a person',
      chunks: 6,
    },
  ]);
  await page.goto(`${chatSite}/`);
  await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
  await page.getByLabel('Your question').fill('What did Noa build at Orbitale?');
  await page.getByLabel('Your question').press('Enter');
  await expect(page.locator('.chat-sources a')).toHaveText('Concierge Copilot: an LLM assistant for hotel guests');
  // Show the conversation from the question down.
  await page.locator('.chat-log').evaluate((log) => (log.scrollTop = 0));
}

/** A job description compared on the service without a model (the search-only form), the result in view. */
async function showMatch(page: Page) {
  await page.goto('/match');
  await page
    .locator('#match-description')
    .fill(
      'Head of AI\n\nRequirements:\n- Led engineering teams and hired engineers\n- Shipped LLM products to production\n- Evaluation of retrieval-augmented generation systems\n- Kubernetes cluster administration\n- Experience in the energy sector\n\nNice to have:\n- Fluent in French\n- MBA degree',
    );
  await page.getByLabel('Role title (optional)').fill('Head of AI');
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByTestId('match-status')).toHaveText(/^Done/, { timeout: 30_000 });
  // The result from its heading down, below the sticky header.
  await page.locator('#match-result').evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 74));
}

for (const scheme of ['light', 'dark'] as const) {
  for (const [device, viewport] of Object.entries(sizes)) {
    test.describe(`${scheme} ${device}`, () => {
      test.use({ colorScheme: scheme, viewport, deviceScaleFactor: 1 });

      test('screenshots', async ({ page }) => {
        const shots: Array<[string, () => Promise<unknown>]> = [
          ['home', () => page.goto('/')],
          ['entry', () => page.goto('/entries/concierge-copilot')],
          ['lens', () => page.goto('/lenses/head-of-ai')],
          ['chat', () => showChat(page)],
          ['match', () => showMatch(page)],
        ];
        for (const [name, open] of shots) {
          await open();
          await page.evaluate(() => document.fonts.ready);
          await page.screenshot({ path: `docs/screenshots/${name}-${scheme}-${device}.png` });
        }
      });
    });
  }
}

test('a CJK page, for the record', async ({ page }) => {
  await page.setViewportSize(sizes.desktop);
  await page.goto('/ja/lenses/hospitality');
  await page.screenshot({ path: 'docs/screenshots/lens-ja-light-desktop.png' });
});

// The Open Graph card of an entry in Japanese (its title, eyebrow and dates in Japanese, the portrait), as a page shares it.
test('Japanese card', async ({ request }) => {
  const card = await request.get('/og/ja/entry/concierge-copilot.png');
  expect(card.status()).toBe(200);
  const { writeFile } = await import('node:fs/promises');
  await writeFile('docs/screenshots/og-card-ja.png', await card.body());
});
