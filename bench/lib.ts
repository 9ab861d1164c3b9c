// Benchmark helpers: child-process servers on loopback, autocannon runs and a table printer.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

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

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function load(url: string, options: { connections?: number; duration?: number; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const result = await autocannon({ url, connections: options.connections ?? 64, duration: options.duration ?? 8, headers: options.headers });
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
