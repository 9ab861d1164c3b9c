// Browser tests drive Debian's Chromium (no downloaded browsers) against the real server, in two set-ups,
// each with its own DATA_DIR:
//   E2E_PORT             the service without a model (chat falls back to search), with its dev preview on E2E_PORT - 1
//   E2E_PORT + 1         the service with the scripted OpenAI-compatible server (e2e/support/chat-stack.ts),
//                        whose control endpoint is on E2E_PORT + 2 and its dev preview on E2E_PORT + 3
// E2E_PORT defaults to one with all five of these ports free, so two runs on one machine do not collide.
// `npx playwright test` (part of `npm test`) runs every spec but the screenshot specs (e2e/*screenshots.spec.ts),
// which only rewrite the README's images in docs/screenshots/: `npm run screenshots` (E2E_SCREENSHOTS=1) runs
// those alone, on the same set-up.
import { defineConfig } from '@playwright/test';
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port p with p - 1 … p + 3 free on loopback, found by binding them. */
async function freePortBlock(): Promise<number> {
  const bind = (port: number) =>
    new Promise<Server | undefined>((resolve) => {
      const server = createServer().once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000); // below Linux's ephemeral range (32768–60999)
    const servers = await Promise.all([base - 1, base, base + 1, base + 2, base + 3].map(bind));
    await Promise.all(servers.map((server) => new Promise((closed) => (server ? server.close(closed) : closed(undefined)))));
    if (servers.every(Boolean)) return base;
  }
  throw new Error('No five free consecutive loopback ports were found; set E2E_PORT.');
}

// Set in the environment, as the data directories below are: workers re-read this config, and e2e/support reads it.
process.env.E2E_PORT ||= String(await freePortBlock());
const port = Number(process.env.E2E_PORT);
const ports = { site: port, preview: port - 1, chat: port + 1, control: port + 2, chatPreview: port + 3 };
const adminToken = 'e2e-admin-token-0123456789';
const chromium = process.env.CHROMIUM_PATH ?? execSync('command -v chromium || command -v chromium-browser || true', { shell: '/bin/sh' }).toString().trim();
if (!chromium) throw new Error('Chromium was not found: install Debian\'s "chromium" package or set CHROMIUM_PATH.');
process.env.CHROMIUM_PATH = chromium;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'vitae-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-read this config; keep one server's directory
const chatDataDir = process.env.E2E_CHAT_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'vitae-e2e-chat-'));
process.env.E2E_CHAT_DATA_DIR = chatDataDir;

const screenshots = /screenshots\.spec\.ts$/; // screenshots.spec.ts, console-screenshots.spec.ts …

export default defineConfig({
  testDir: 'e2e',
  ...(process.env.E2E_SCREENSHOTS ? { testMatch: screenshots } : { testIgnore: screenshots }),
  outputDir: 'e2e/artifacts/results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // What production runs (`npm run serve`: build/server.mjs in production mode). `npm test` has built it
      // already; on its own, Playwright builds it first.
      command: `${process.env.VITAE_WEB_BUILT ? '' : 'node scripts/start.mjs build && '}node scripts/start.mjs serve`,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        PREVIEW_PORT: String(ports.preview),
        DATA_DIR: dataDir,
        BASE_URL: `http://127.0.0.1:${port}`,
        DEV_URL: `http://127.0.0.1:${ports.preview}`,
        ADMIN_TOKEN: adminToken,
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
      },
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node --import tsx e2e/support/chat-stack.ts',
      url: `http://127.0.0.1:${ports.chat}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        CHAT_PORT: String(ports.chat),
        CHAT_PREVIEW_PORT: String(ports.chatPreview),
        CONTROL_PORT: String(ports.control),
        DATA_DIR: chatDataDir,
        ADMIN_TOKEN: adminToken,
        WAIT_FOR: `http://127.0.0.1:${port}/api/health`,
      },
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
