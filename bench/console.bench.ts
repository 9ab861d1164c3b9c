// The admin console (issues "Admin console" and "The console an editor trusts"): the JavaScript the editor route
// loads (gzip) in each of its views — the form generated from the schema (yaml's document model, no CodeMirror)
// and the source (CodeMirror, no form) — and after switching from one to the other, beside the public home page's;
// and the round trip of live validation — admin_validate of a one-file change against the whole demo tree —
// beside a trivial request to the same server (/api/health), over real HTTP. Goals: editor route ≤ 300 kB gzip in
// either view; validate p95 ≤ 50 ms.
import { execSync, spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { percentile, printTable, ratio, startService } from './lib.ts';

const TOKEN = 'bench-console-token-0123456789abcdef';
const PATH = 'content/corpus/projects/concierge-copilot.md';

const chromiumPath = () =>
  process.env.CHROMIUM_PATH ?? execSync('command -v chromium || command -v chromium-browser || true', { shell: '/bin/sh' }).toString().trim();

/**
 * gzip bytes of every script a signed-in page loads until the network is idle, with the editor's view chosen
 * beforehand (`view`) and optionally switched to the other one afterwards (`then`).
 */
async function scriptsOf(base: string, path: string, view?: 'form' | 'source', then?: 'form' | 'source'): Promise<{ gzip: number; files: number }> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext();
    const login = await context.request.post(`${base}/api/admin/login`, { data: { token: TOKEN } });
    if (login.status() !== 204) throw new Error(`sign-in answered ${login.status()}`);
    const page = await context.newPage();
    if (view) await page.addInitScript((chosen) => localStorage.setItem('vitae-console:view', chosen), view);
    const bodies = new Map<string, Buffer>();
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script') bodies.set(res.url(), await res.body().catch(() => Buffer.alloc(0)));
    });
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
    if (then) {
      const reads: Array<Promise<unknown>> = [];
      page.on('response', (res) => reads.push(res.finished()));
      await page.getByRole('button', { name: then === 'form' ? 'Form' : 'Source', exact: true }).click();
      await page
        .locator(then === 'form' ? '.sf-field' : '.cm-editor')
        .first()
        .waitFor();
      await Promise.all(reads);
      await page.waitForTimeout(200); // the body reads the first listener started
    }
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
    const editorPath = `/admin/edit?path=${PATH}`;
    const form = await scriptsOf(base, editorPath, 'form');
    const source = await scriptsOf(base, editorPath, 'source');
    const both = await scriptsOf(base, editorPath, 'form', 'source');
    const home = await scriptsOf(base, '/');
    const kB = (n: number) => (n / 1024).toFixed(1);
    printTable('Console JavaScript, gzip (goal: editor route ≤ 300 kB in either view; public pages unchanged)', [
      { page: 'public home page /', files: home.files, 'gzip kB': kB(home.gzip), goal: '≤ 120 kB' },
      { page: 'editor, form view (schema form, yaml)', files: form.files, 'gzip kB': kB(form.gzip), goal: '≤ 300 kB' },
      { page: 'editor, source view (CodeMirror)', files: source.files, 'gzip kB': kB(source.gzip), goal: '≤ 300 kB' },
      { page: 'editor, form then source (both loaded)', files: both.files, 'gzip kB': kB(both.gzip), goal: '—' },
    ]);
    const editor = { gzip: Math.max(form.gzip, source.gzip) };

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
