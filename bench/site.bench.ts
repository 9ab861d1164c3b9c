// The public website (issue "The public website"): JavaScript the home page loads (gzip), and Lighthouse
// performance and accessibility scores of the home page and an entry page on Debian's Chromium.
// Goals: home JS ≤ 120 kB gzip, performance ≥ 95, accessibility 100.
import { spawnSync, execSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { median, printTable, startService } from './lib.ts';

const chromiumPath = () =>
  process.env.CHROMIUM_PATH ?? execSync('command -v chromium || command -v chromium-browser || true', { shell: '/bin/sh' }).toString().trim();

/** Bytes of every script a page loads (raw and gzip level 6, as a CDN would send it). */
async function scriptBytes(url: string, executablePath: string, openChat = false) {
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const bodies = new Map<string, Buffer>();
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script') bodies.set(res.url(), await res.body().catch(() => Buffer.alloc(0)));
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const atLoad = new Set(bodies.keys());
    let chat = { raw: 0, gzip: 0, files: 0 };
    if (openChat) {
      await page
        .getByRole('button', { name: /Ask about/ })
        .last()
        .click();
      await page.getByRole('dialog').waitFor();
      await page.waitForLoadState('networkidle');
      const extra = [...bodies].filter(([u]) => !atLoad.has(u)).map(([, b]) => b);
      chat = { raw: extra.reduce((n, b) => n + b.length, 0), gzip: extra.reduce((n, b) => n + gzipSync(b, { level: 6 }).length, 0), files: extra.length };
    }
    const initial = [...atLoad].map((u) => bodies.get(u)!);
    return {
      raw: initial.reduce((n, b) => n + b.length, 0),
      gzip: initial.reduce((n, b) => n + gzipSync(b, { level: 6 }).length, 0),
      files: initial.length,
      chat,
    };
  } finally {
    await browser.close();
  }
}

async function lighthouseScores(url: string, port: number) {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
  const lhr = result!.lhr;
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && lhr.categories.accessibility!.auditRefs.some((r) => r.id === a.id && r.weight > 0))
    .map((a) => a.id);
  return {
    performance: Math.round((lhr.categories.performance!.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility!.score ?? 0) * 100),
    lcp: lhr.audits['largest-contentful-paint']!.numericValue ?? NaN,
    tbt: lhr.audits['total-blocking-time']!.numericValue ?? NaN,
    cls: lhr.audits['cumulative-layout-shift']!.numericValue ?? NaN,
    failing,
  };
}

export async function benchSite(options: { runs: number }) {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium was not found: install Debian\'s "chromium" package or set CHROMIUM_PATH.');
  const build = spawnSync('npx', ['remix', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('remix build failed');
  const service = await startService();
  const chrome = await chromeLauncher.launch({
    chromePath: executablePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const js = await scriptBytes(`${service.url}/`, executablePath, true);
    const pages = { home: `${service.url}/`, entry: `${service.url}/entries/concierge-copilot` };
    const scores: Record<string, Awaited<ReturnType<typeof lighthouseScores>>[]> = { home: [], entry: [] };
    for (const [name, url] of Object.entries(pages)) {
      await lighthouseScores(url, chrome.port); // warm up the server and Chromium's caches of the build
      for (let i = 0; i < options.runs; i++) scores[name]!.push(await lighthouseScores(url, chrome.port));
    }
    const row = (name: string) => {
      const runs = scores[name]!;
      return {
        performance: median(runs.map((r) => r.performance)),
        accessibility: Math.min(...runs.map((r) => r.accessibility)),
        lcp: median(runs.map((r) => r.lcp)),
        tbt: median(runs.map((r) => r.tbt)),
        cls: median(runs.map((r) => r.cls)),
        failing: [...new Set(runs.flatMap((r) => r.failing))],
      };
    };
    const home = row('home');
    const entry = row('entry');
    const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
    const rows = [
      { measure: `home page JS, gzip (${js.files} files; raw ${kb(js.raw)})`, value: kb(js.gzip), goal: '≤ 120 kB', met: js.gzip <= 120 * 1024 ? 'yes' : 'NO' },
      { measure: `chat panel JS on first open, gzip (${js.chat.files} files)`, value: kb(js.chat.gzip), goal: '(loaded on demand)', met: '—' },
      {
        measure: `Lighthouse performance, home (median of ${options.runs}; LCP ${Math.round(home.lcp)} ms, TBT ${Math.round(home.tbt)} ms, CLS ${home.cls.toFixed(3)})`,
        value: String(home.performance),
        goal: '≥ 95',
        met: home.performance >= 95 ? 'yes' : 'NO',
      },
      {
        measure: `Lighthouse performance, entry page (median of ${options.runs}; LCP ${Math.round(entry.lcp)} ms, TBT ${Math.round(entry.tbt)} ms, CLS ${entry.cls.toFixed(3)})`,
        value: String(entry.performance),
        goal: '≥ 95',
        met: entry.performance >= 95 ? 'yes' : 'NO',
      },
      {
        measure: 'Lighthouse accessibility, home (lowest run)',
        value: String(home.accessibility),
        goal: '100',
        met: home.accessibility === 100 ? 'yes' : `NO: ${home.failing.join(', ')}`,
      },
      {
        measure: 'Lighthouse accessibility, entry page (lowest run)',
        value: String(entry.accessibility),
        goal: '100',
        met: entry.accessibility === 100 ? 'yes' : `NO: ${entry.failing.join(', ')}`,
      },
    ];
    printTable('Public website: home page JS and Lighthouse (mobile preset, simulated throttling) on Debian Chromium', rows);
    return { js, home, entry };
  } finally {
    chrome.kill();
    await service.stop();
  }
}
