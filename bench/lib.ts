// Benchmark helpers: child-process servers on loopback, autocannon runs and a table printer.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

export { freePort } from '../operations/testing/server-process.ts';
import { freePort } from '../operations/testing/server-process.ts';

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

export function startProcess(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

/** Starts the real service as a child process on a free port over a fresh DATA_DIR. */
export async function startService(env: Record<string, string> = {}): Promise<{ url: string; dataDir: string; stop(): Promise<void> }> {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dataDir = await mkdtemp(join(tmpdir(), 'vitae-bench-'));
  const port = await freePort();
  const child = startProcess(['--import', 'tsx', 'server.ts'], { PORT: String(port), PREVIEW_PORT: '0', DATA_DIR: dataDir, NODE_ENV: 'production', ...env });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`);
  return {
    url,
    dataDir,
    async stop() {
      child.kill();
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function load(url: string, options: { connections?: number; duration?: number; headers?: Record<string, string>; method?: string; body?: string } = {}): Promise<LoadResult> {
  const { connections = 64, duration = 8, ...request } = options;
  const result = await autocannon({ url, connections, duration, ...Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined)) });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  console.log(`\n## ${title}`);
  const columns = Object.keys(rows[0] ?? {});
  const width = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(width[i]!)).join(' | ') + ' |';
  console.log(line(columns));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => String(row[c]))));
}

export const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) + '×' : 'n/a');
