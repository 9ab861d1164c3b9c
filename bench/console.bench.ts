// The admin console (issue "Admin console"): the JavaScript the editor route loads (gzip, CodeMirror
// included) beside the public home page's, and the round trip of live validation — admin_validate of a
// one-file change against the whole demo tree — beside a trivial request to the same server (/api/health),
// over real HTTP. Goals: editor route ≤ 300 kB gzip; validate p95 ≤ 50 ms.
import { execSync, spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { percentile, printTable, ratio, startService } from './lib.ts';

const TOKEN = 'bench-console-token-0123456789abcdef';
const PATH = 'content/corpus/projects/concierge-copilot.md';

const chromiumPath = () =>
  process.env.CHROMIUM_PATH ?? execSync('command -v chromium || command -v chromium-browser || true', { shell: '/bin/sh' }).toString().trim();

/** gzip bytes of every script a signed-in page loads until the network is idle. */
async function scriptsOf(base: string, path: string): Promise<{ gzip: number; files: number }> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext();
    const login = await context.request.post(`${base}/api/admin/login`, { data: { token: TOKEN } });
    if (login.status() !== 204) throw new Error(`sign-in answered ${login.status()}`);
    const page = await context.newPage();
    const bodies = new Map<string, Buffer>();
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script') bodies.set(res.url(), await res.body().catch(() => Buffer.alloc(0)));
    });
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
    const all = [...bodies.values()];
    return { gzip: all.reduce((n, b) => n + gzipSync(b, { level: 6 }).length, 0), files: all.length };
  } finally {
    await browser.close();
  }
}

async function roundTrips(run: () => Promise<Response>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count + 10; i++) {
    const started = performance.now();
    const res = await run();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`answered ${res.status}`);
    if (i >= 10) times.push(performance.now() - started); // the first ten warm up
  }
  return times;
}

export async function benchConsole(options: { runs?: number } = {}) {
  const runs = options.runs ?? 200;
  // The console's routes must be in the web build the server loads.
  const build = spawnSync('npx', ['remix', 'build'], { stdio: 'ignore' });
  if (build.status !== 0) throw new Error('remix build failed');
  const server = await startService({ ADMIN_TOKEN: TOKEN });
  const base = server.url;
  const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  try {
    const editor = await scriptsOf(base, `/admin/edit?path=${PATH}`);
    const home = await scriptsOf(base, '/');
    printTable('Console JavaScript, gzip (goal: editor route ≤ 300 kB; public pages unchanged)', [
      { page: 'public home page /', files: home.files, 'gzip kB': (home.gzip / 1024).toFixed(1), goal: '≤ 120 kB' },
      { page: `editor /admin/edit (CodeMirror)`, files: editor.files, 'gzip kB': (editor.gzip / 1024).toFixed(1), goal: '≤ 300 kB' },
    ]);

    const original = ((await (await fetch(`${base}/api/admin/file?path=${PATH}`, { headers })).json()) as { content: string }).content;
    let n = 0;
    const validate = await roundTrips(
      () =>
        fetch(`${base}/api/admin/validate`, {
          method: 'POST',
          headers,
          // A different text each time, as typing makes it: nothing can be answered from a cache of the text.
          body: JSON.stringify({
            path: PATH,
            branch: 'dev',
            content: original.replace(/^summary: .*$/m, `summary: "Typed ${++n} characters into the summary."`),
          }),
        }),
      runs,
    );
    const health = await roundTrips(() => fetch(`${base}/api/health`), runs);
    const row = (what: string, values: number[], goal: string) => ({
      request: what,
      'p50 ms': percentile(values, 50).toFixed(1),
      'p95 ms': percentile(values, 95).toFixed(1),
      goal,
    });
    printTable(`Live validation round trip, ${runs} one-file changes on the demo tree (goal: p95 ≤ 50 ms)`, [
      row('POST /api/admin/validate (whole tree with the change)', validate, '≤ 50 ms p95'),
      row('baseline: GET /api/health, same server', health, '—'),
      {
        request: 'validate ÷ baseline (p95)',
        'p50 ms': ratio(percentile(validate, 50), percentile(health, 50)),
        'p95 ms': ratio(percentile(validate, 95), percentile(health, 95)),
        goal: '—',
      },
    ]);
    return { editorGzip: editor.gzip, homeGzip: home.gzip, validateP50: percentile(validate, 50), validateP95: percentile(validate, 95) };
  } finally {
    await server.stop();
  }
}
