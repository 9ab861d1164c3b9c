// Resident memory (issue "Production-ready": ≤ 200 MB after start, no more than 1.5× that after a minute of
// mixed reads). The service runs as production runs it (`npm run build`, then build/server.mjs) over a fresh
// DATA_DIR with the demo content; beside it, the same tree run from its TypeScript sources through tsx (how
// `npm start` ran before the bundle) as the baseline of the same run. The reads cycle through every sitemap
// page in every locale, their Markdown twins, the REST list, entries, documents and search, and MCP tool
// calls, on 16 connections for BENCH_MEMORY_SECONDS (default 60); memory is sampled every second.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { buildProduction, printTable, residentMb } from './lib.ts';

const settle = () => new Promise((r) => setTimeout(r, 2000));

/** Paths of the site and API that a minute of traffic would visit, from the service's own sitemap. */
async function readPaths(url: string): Promise<Array<{ method: string; path: string; headers?: Record<string, string>; body?: string }>> {
  const sitemap = await (await fetch(`${url}/sitemap.xml`)).text();
  const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const entries = ((await (await fetch(`${url}/api/v1/entries`)).json()) as { entries: Array<{ slug: string }> }).entries;
  const words = ['platform', 'leadership', 'kubernetes', 'données', 'equipo', 'プロダクト', '团队', 'teamo', 'mentoring', 'latency'];
  const mcp = (name: string, args: Record<string, unknown>) => ({
    method: 'POST',
    path: '/mcp',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return [
    ...pages.map((path) => ({ method: 'GET', path, headers: { 'Accept-Encoding': 'gzip' } })),
    ...pages.filter((p) => p.split('/').length > 2).map((path) => ({ method: 'GET', path: `${path}.md` })),
    ...entries.map((e) => ({ method: 'GET', path: `/api/v1/entries/${e.slug}` })),
    ...words.map((w) => ({ method: 'GET', path: `/api/v1/search?q=${encodeURIComponent(w)}` })),
    ...words.map((w) => mcp('search_subject', { q: w })),
    { method: 'GET', path: '/api/v1/entries' },
    { method: 'GET', path: '/api/v1/brief' },
    { method: 'GET', path: '/openapi.json' },
    ...entries.slice(0, 5).map((e) => mcp('get_entry', { slug: e.slug })),
  ];
}

async function mixedReads(server: ServerProcess, seconds: number): Promise<{ peak: number; requests: number; errors: number }> {
  const requests = await readPaths(server.url);
  let peak = residentMb(server);
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(server))), 1000);
  try {
    const result = await autocannon({ url: server.url, connections: 16, duration: seconds, requests });
    return { peak, requests: result.requests.total, errors: result.errors + result.non2xx };
  } finally {
    clearInterval(sampler);
  }
}

export async function benchMemory(options: { seconds: number }) {
  buildProduction();
  const rows: Array<Record<string, string>> = [];
  for (const bundle of [false, true]) {
    const dataDir = await mkdtemp(join(tmpdir(), 'vitae-bench-memory-'));
    const server = await startServerProcess(dataDir, { PREVIEW_PORT: '0', LOG_LEVEL: 'error' }, 60_000, { bundle });
    try {
      await settle();
      const start = residentMb(server);
      const row: Record<string, string> = {
        run: bundle ? 'build/server.mjs (production)' : 'server.ts through tsx (before)',
        'after start MB': start.toFixed(0),
      };
      if (bundle) {
        const reads = await mixedReads(server, options.seconds);
        await settle();
        const after = residentMb(server);
        Object.assign(row, {
          [`after ${options.seconds} s of reads MB`]: after.toFixed(0),
          'peak MB': reads.peak.toFixed(0),
          'after / start': `${(after / start).toFixed(2)}×`,
          requests: String(reads.requests),
          'non-2xx': String(reads.errors),
        });
      }
      rows.push(row);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  const [before, after] = rows;
  if (before && after) after['after start MB'] += ` (${(Number(after['after start MB']) / Number(before['after start MB'])).toFixed(2)}× tsx)`;
  printTable('Resident memory, demo content (goals: ≤ 200 MB after start; after a minute of mixed reads ≤ 1.5× that)', rows);
  return rows;
}
