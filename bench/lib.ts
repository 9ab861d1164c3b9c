// Benchmark helpers: child-process servers on loopback, autocannon runs and a table printer.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';

export { freePort } from '../testing/server-process.ts';

/**
 * Reads a streamed answer to its end: milliseconds from the request to the first chunk `ready` accepts (given that
 * chunk and everything read so far; NaN if none), and to the end.
 */
export async function timedStream(url: string, init: RequestInit, ready: (chunk: string, text: string) => boolean): Promise<{ first: number; end: number }> {
  const start = performance.now();
  const res = await fetch(url, init);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let first = NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    text += chunk;
    if (Number.isNaN(first) && ready(chunk, text)) first = performance.now() - start;
  }
  return { first, end: performance.now() - start };
}

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

/** A server process's resident memory (VmRSS) in MB. */
export function residentMb(server: ServerProcess, which: 'now' | 'peak' = 'now'): number {
  const field = which === 'now' ? 'VmRSS' : 'VmHWM'; // the kernel's high-water mark of the process's resident memory
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

let built = false;

/** Builds what production runs (`npm run build`: the web app and build/server.mjs), once per bench run, so benches measure this tree. */
export function buildProduction(): void {
  if (built) return;
  const result = spawnSync(process.execPath, ['scripts/start.mjs', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('npm run build failed');
  built = true;
}

export function startProcess(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

/** Starts the real service as production runs it (build/server.mjs) over a fresh DATA_DIR (no model unless `env` names one). */
export async function startService(env: Record<string, string> = {}): Promise<{ url: string; dataDir: string; stop(): Promise<void> }> {
  buildProduction();
  const dataDir = await mkdtemp(join(tmpdir(), 'vitae-bench-'));
  const server = await startServerProcess(dataDir, { PREVIEW_PORT: '0', LOG_LEVEL: 'error', ...env }, 60_000, { bundle: true });
  return {
    url: server.url,
    dataDir,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function load(
  url: string,
  options: { connections?: number; duration?: number; headers?: Record<string, string>; method?: string; body?: string } = {},
): Promise<LoadResult> {
  const { connections = 64, duration = 8, ...request } = options;
  const result = await autocannon({ url, connections, duration, ...Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined)) });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  console.log(`\n## ${title}`);
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const width = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(width[i]!)).join(' | ') + ' |';
  console.log(line(columns));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => String(row[c] ?? ''))));
}

export const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) + '×' : 'n/a');

/**
 * The service beside its baseline on the same load, one after the other after a warm-up of both: a table
 * row of requests/s, their ratio, p99 latencies and the service's errors.
 */
export async function besideBaseline(url: string, baseline: string, options: { duration: number; headers?: Record<string, string> }) {
  await load(url, { duration: 2, headers: options.headers });
  await load(baseline, { duration: 2, headers: options.headers });
  const vitae = await load(url, options);
  const bare = await load(baseline, options);
  return {
    'vitae req/s': Math.round(vitae.rps),
    'bare req/s': Math.round(bare.rps),
    ratio: ratio(vitae.rps, bare.rps),
    'vitae p99 ms': vitae.p99,
    'bare p99 ms': bare.p99,
    errors: vitae.errors,
  };
}

/** Asks `/api/health` every `everyMs` until stopped; `stop()` gives the latencies it saw (the waits a reader had). */
export function probeHealth(url: string, everyMs = 10): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${url}/api/health`)).arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return latencies;
    },
  };
}

const EDITED_SLUG = 'concierge-copilot';
export const EDITED_PATH = `content/corpus/projects/${EDITED_SLUG}.md`;

/**
 * Puts `summary` into one of the demo's entries through the admin API and waits until `/api/v1` serves it:
 * milliseconds from the PUT to its answer (a validated commit) and to the change being live.
 */
export async function editUntilLive(url: string, token: string, summary: string, timeoutMs = 600_000): Promise<{ answered: number; live: number }> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const current = ((await (await fetch(`${url}/api/admin/file?path=${EDITED_PATH}`, { headers })).json()) as { content: string }).content;
  const content = current.replace(/^summary: .*$/m, `summary: ${JSON.stringify(summary)}`);
  const started = performance.now();
  const res = await fetch(`${url}/api/admin/file`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ path: EDITED_PATH, content, message: `bench: ${summary}` }),
  });
  if (res.status !== 200) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  const answered = performance.now() - started;
  for (;;) {
    const entry = (await (await fetch(`${url}/api/v1/entries/${EDITED_SLUG}`)).json()) as { summary: string };
    if (entry.summary === summary) return { answered, live: performance.now() - started };
    if (performance.now() - started > timeoutMs) throw new Error(`the edit was not live after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
