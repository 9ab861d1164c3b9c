// Browser tests drive Debian's Chromium (no downloaded browsers) against the real server with its own DATA_DIR.
import { defineConfig } from '@playwright/test';
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.E2E_PORT ?? 3917);
const chromium = process.env.CHROMIUM_PATH ?? execSync('command -v chromium || command -v chromium-browser || true', { shell: '/bin/sh' }).toString().trim();
if (!chromium) throw new Error('Chromium was not found: install Debian\'s "chromium" package or set CHROMIUM_PATH.');
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'vitae-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-read this config; keep one server's directory

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'e2e/artifacts/results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'npx remix build && node --import tsx server.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(port), PREVIEW_PORT: '0', DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}` },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
