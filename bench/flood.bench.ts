// Anonymous CPU without a budget (issue "Nothing anonymous costs much"): a reader asks for a kept page one request
// after another, alone and then while an anonymous client floods the service with work nobody asked for before —
// random /search?q= pages, cache-busting page addresses, first searches through the API — on 32 connections. The
// reader's p50/p99 under the flood are printed beside its own figures alone (same run, same process), with what
// the flood was answered (200 in turn, 503 when the work queue is full). Goal: the reader's p99 ≤ 20 ms.
import { percentile, printTable, ratio, startService } from './lib.ts';

async function reader(url: string, seconds: number): Promise<number[]> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`the reader was answered ${res.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

async function flood(base: string, seconds: number, connections: number): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const end = performance.now() + seconds * 1000;
  const word = () => Math.random().toString(36).slice(2, 8);
  const targets = [() => `/search?q=${word()}%20${word()}`, () => `/entries/concierge-copilot?utm=${word()}`, () => `/api/v1/search?q=${word()}`];
  await Promise.all(
    Array.from({ length: connections }, async (_, i) => {
      for (let n = i; performance.now() < end; n++) {
        const res = await fetch(base + targets[n % targets.length]!());
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

export async function benchFlood(options: { seconds: number; connections: number }) {
  const server = await startService();
  try {
    const page = `${server.url}/entries/concierge-copilot`;
    await reader(page, 1); // warm: the page is kept from here on
    const alone = await reader(page, options.seconds);
    const [flooded, statuses] = await Promise.all([reader(page, options.seconds), flood(server.url, options.seconds, options.connections)]);
    const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
    const row = (name: string, times: number[]) => ({
      reader: name,
      requests: times.length,
      'p50 ms': percentile(times, 50).toFixed(1),
      'p99 ms': percentile(times, 99).toFixed(1),
    });
    printTable(`A reader of a kept page while ${options.connections} connections flood uncached work (goal: p99 ≤ 20 ms)`, [
      row('alone', alone),
      { ...row('under the flood', flooded), 'p99 vs alone': ratio(percentile(flooded, 99), percentile(alone, 99)) },
    ]);
    printTable('What the flood was answered', [
      {
        answers: answered,
        'per second': (answered / options.seconds).toFixed(0),
        ...Object.fromEntries(Object.entries(statuses).map(([s, n]) => [`status ${s}`, n])),
      },
    ]);
  } finally {
    await server.stop();
  }
}
