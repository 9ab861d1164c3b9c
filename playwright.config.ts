// Browser tests drive Debian's Chromium (no downloaded browsers) against the real server, in two set-ups,
// each with its own DATA_DIR:
//   E2E_PORT (3917)      the service without a model (chat falls back to search), with its dev preview on E2E_PORT - 1
//   E2E_PORT + 1 (3918)  the service with the scripted OpenAI-compatible server (e2e/support/chat-stack.ts),
//                        whose control endpoint is on E2E_PORT + 2
import { defineConfig } from '@playwright/test';
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.E2E_PORT ?? 3917);
const ports = { site: port, preview: port - 1, chat: port + 1, control: port + 2 };
const adminToken = 'e2e-admin-token-0123456789';
const chromium = process.env.CHROMIUM_PATH ?? execSync('command -v chromium || command -v chromium-browser || true', { shell: '/bin/sh' }).toString().trim();
if (!chromium) throw new Error('Chromium was not found: install Debian\'s "chromium" package or set CHROMIUM_PATH.');
process.env.CHROMIUM_PATH = chromium;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'vitae-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-read this config; keep one server's directory
const chatDataDir = process.env.E2E_CHAT_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'vitae-e2e-chat-'));
process.env.E2E_CHAT_DATA_DIR = chatDataDir;

export default defineConfig({
  testDir: 'e2e',
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
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: [
    {
      command: 'npx remix build && node --import tsx server.ts',
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
      env: { CHAT_PORT: String(ports.chat), CONTROL_PORT: String(ports.control), DATA_DIR: chatDataDir, WAIT_FOR: `http://127.0.0.1:${port}/api/health` },
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
