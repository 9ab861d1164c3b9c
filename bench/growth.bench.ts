// Growth with content (issue "Production-ready"): the demo's entries and their translations copied to 10×
// (and 100× with BENCH_GROWTH=1,10,100) under new slugs, valid, served by the real service as a child
// process. Each size: start → first 200 (fresh and again on the same DATA_DIR), resident memory right after the
// restart (the build worker's warm-up under way), its peak and after the run, commit → live (the first commit after the restart, and the next), the longest a reader waited
// meanwhile (GET /api/health every 10 ms), the latency of the entry list and of search, and a console's validation
// of one file against the whole tree (proportional to the change: flat from 1× to 100×). The 1× row is the baseline of the same run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { grownContent } from '../testing/content-fixture.ts';
import { startServerProcess } from '../testing/server-process.ts';
import { buildProduction, EDITED_PATH, editUntilLive, load, percentile, printTable, probeHealth, residentMb } from './lib.ts';

const TOKEN = 'bench-admin-token-0123456789abcdef';

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await run();
  return [value, performance.now() - started];
}

/** One edit's commit → live, with the longest wait a reader saw meanwhile. */
async function commitToLive(url: string): Promise<{ live: number; stall: number }> {
  const probe = probeHealth(url);
  const { live } = await editUntilLive(url, TOKEN, `Growth bench edit ${Date.now()}: an assistant that answers hotel guests.`);
  return { live, stall: Math.max(...(await probe.stop())) };
}

/** A console's keystrokes: one file validated against the whole tree, each time with a new text (median and p95 ms). */
async function validateLatency(url: string, runs = 40): Promise<[number, number]> {
  const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const content = ((await (await fetch(`${url}/api/admin/file?path=${EDITED_PATH}`, { headers })).json()) as { content: string }).content;
  const times: number[] = [];
  for (let i = -5; i < runs; i++) {
    const t = performance.now();
    const res = await fetch(`${url}/api/admin/validate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ path: EDITED_PATH, content: content.replace(/^summary: .*$/m, `summary: "Typed ${i}"`) }),
    });
    const answer = (await res.json()) as { valid: boolean; problems: unknown[] };
    if (!answer.valid) throw new Error(`the bench's edit did not validate: ${JSON.stringify(answer)}`);
    if (i >= 0) times.push(performance.now() - t);
  }
  return [percentile(times, 50), percentile(times, 95)];
}

async function searchLatency(url: string, runs = 100): Promise<number> {
  const queries = ['hotel guests assistant', 'evaluation harness', 'developer relations', 'machine learning', 'team lead'];
  const times: number[] = [];
  // The first searches of a process compile its search code: 20 unmeasured ones first, as a served site has had.
  for (let i = -20; i < runs; i++) {
    const t = performance.now();
    await (await fetch(`${url}/api/v1/search?q=${encodeURIComponent(queries[i % queries.length]!)}&limit=5`)).arrayBuffer();
    if (i >= 0) times.push(performance.now() - t);
  }
  return percentile(times, 95);
}

export async function benchGrowth(options: { sizes?: number[] } = {}) {
  const sizes = options.sizes ?? [1, 10];
  buildProduction(); // measured as production runs it: build/server.mjs
  const rows: Array<Record<string, string>> = [];
  for (const times of sizes) {
    const content = grownContent(times);
    const dataDir = await mkdtemp(join(tmpdir(), `vitae-bench-growth-${times}x-`));
    const env = { ADMIN_TOKEN: TOKEN, CONTENT_DIR: content, PREVIEW_PORT: '0', LOG_LEVEL: 'error' };
    const timeout = 30 * 60_000;
    try {
      const [freshServer, fresh] = await timed(() => startServerProcess(dataDir, env, timeout, { bundle: true }));
      await freshServer.stop();
      const [server, restart] = await timed(() => startServerProcess(dataDir, env, timeout, { bundle: true }));
      const rss = residentMb(server);
      const entries = await (await fetch(`${server.url}/api/v1/entries`)).arrayBuffer();
      // The first commit right after the restart meets the build worker's caches cold (they fill in the background
      // from the start); the next one is what a commit costs from then on.
      const first = await commitToLive(server.url);
      const next = await commitToLive(server.url);
      const list = await load(`${server.url}/api/v1/entries`, { connections: 16, duration: 3 });
      const search = await searchLatency(server.url);
      const validate = await validateLatency(server.url);
      const rssAfter = residentMb(server);
      const rssPeak = residentMb(server, 'peak');
      await server.stop();
      rows.push({
        content: `${times}×`,
        'start fresh s': (fresh / 1000).toFixed(1),
        'restart s': (restart / 1000).toFixed(1),
        'commit → live s (first after restart / next)': `${(first.live / 1000).toFixed(2)} / ${(next.live / 1000).toFixed(2)}`,
        'longest wait ms (first / next)': `${first.stall.toFixed(0)} / ${next.stall.toFixed(0)}`,
        'RSS at restart / peak / after MB': `${rss.toFixed(0)} / ${rssPeak.toFixed(0)} / ${rssAfter.toFixed(0)}`,
        'list kB, req/s, p99 ms': `${(entries.byteLength / 1024).toFixed(0)}, ${Math.round(list.rps)}, ${list.p99}`,
        'search p95 ms': search.toFixed(1),
        'validate one file ms (p50 / p95)': `${validate[0].toFixed(1)} / ${validate[1].toFixed(1)}`,
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(dirname(content), { recursive: true, force: true });
    }
  }
  printTable(
    'Growth with content (goals at 10×: commit → live ≤ 1.5 s, start ≤ 3 s, RSS ≤ 300 MB; at 100×: start ≤ 15 s, commit → live ≤ 3 s, RSS ≤ 1 GB, search p95 ≤ 5 ms; every size: longest wait ≤ 50 ms)',
    rows,
  );
  return rows;
}
