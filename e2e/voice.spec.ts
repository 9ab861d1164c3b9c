// Voice input with Chromium's fake microphone: record, transcribe through /api/transcribe (the scripted
// model), and the transcript lands in the input for review. Denied permission and a missing microphone
// are stated plainly.
import { expect, test, type Page } from '@playwright/test';
import { chatSite, modelRequests, ownClientIp, scriptModel } from './support/helpers.ts';

test.use({
  baseURL: chatSite,
  permissions: ['microphone'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

async function openChat(page: Page) {
  await ownClientIp(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Ask about Noa' }).last().click();
  await expect(page.getByRole('dialog', { name: 'Ask about Noa' })).toBeVisible();
}

test('records from the microphone and puts the transcript in the input, not sent', async ({ page }) => {
  await scriptModel([], { transcript: 'What did Noa build at Orbitale?' });
  await openChat(page);
  const mic = page.getByRole('button', { name: 'Ask by voice' });
  await mic.click();
  const stop = page.getByRole('button', { name: 'Stop recording' });
  await expect(stop).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('voice-note')).toContainText('Recording…');
  await page.waitForTimeout(1200);
  await stop.click();
  await expect(page.getByLabel('Your question')).toHaveValue('What did Noa build at Orbitale?');
  await expect(page.getByLabel('Your question')).toBeFocused();
  await expect(page.getByTestId('voice-note')).toHaveText('Check the transcript, then send it.');
  await expect(page.locator('.msg-user')).toHaveCount(0);

  const upload = (await modelRequests()).find((r) => r.path.endsWith('/audio/transcriptions'));
  expect(upload, 'the recording reached the transcription model').toBeTruthy();
});

test('a denied microphone permission gets a clear message', async ({ page }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Ask by voice' }).click();
  await expect(page.getByTestId('voice-note')).toHaveText('Microphone access was denied. Allow it in the browser’s site settings, or type the question.');
  await expect(page.getByRole('button', { name: 'Ask by voice' })).toBeEnabled();
});

test('no microphone gets a clear message', async ({ page }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Ask by voice' }).click();
  await expect(page.getByTestId('voice-note')).toHaveText('No microphone was found. Connect one, or type the question.');
});
