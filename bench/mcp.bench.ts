// MCP throughput: the same read over MCP and over REST, same server, same run (issue 18, goal ≥ 0.5×).
// `tools/call get_entry` and `resources/read` of the same entry are answered from the per-build cache once
// warm (as REST is); `completion/complete` is never cached and goes through the prepared SDK server every
// time, so the last row shows the cost of the SDK's own path. Rounds alternate REST and MCP so that load
// from elsewhere on the machine falls on both; the table gives the median of the rounds.
import { load, median, printTable, startService, type LoadResult } from './lib.ts';

/** The figure before issue 18 (a server and transport built per request), measured at commit 95c3340 on the same machine. */
const PREVIOUS = { ratio: '0.12×', note: '3.9k vs 32.6k req/s' };

export async function benchMcp(options: { duration: number; rounds?: number }) {
  const service = await startService();
  const rounds = options.rounds ?? Number(process.env.BENCH_ROUNDS ?? 3);
  try {
    const rest = `${service.url}/api/v1/entries/concierge-copilot`;
    const post = (method: string, params: unknown) => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const reads = [
      { label: 'tools/call get_entry', request: post('tools/call', { name: 'get_entry', arguments: { slug: 'concierge-copilot' } }) },
      { label: 'resources/read entry', request: post('resources/read', { uri: 'vitae://entries/concierge-copilot' }) },
      {
        label: 'completion/complete (SDK path, never cached)',
        request: post('completion/complete', {
          ref: { type: 'ref/resource', uri: 'vitae://entries/{slug}{?locale}' },
          argument: { name: 'locale', value: 'zh' },
        }),
      },
    ];
    for (const { label, request } of reads) {
      const check = (await (await fetch(`${service.url}/mcp`, request)).json()) as { result?: unknown };
      if (!check.result) throw new Error(`${label} did not answer: ${JSON.stringify(check)}`);
      await load(`${service.url}/mcp`, { ...request, duration: 2 });
    }
    await load(rest, { duration: 2 });

    const rows = [];
    for (const { label, request } of reads) {
      const viaRest: LoadResult[] = [];
      const viaMcp: LoadResult[] = [];
      for (let round = 0; round < rounds; round++) {
        viaRest.push(await load(rest, { duration: options.duration }));
        viaMcp.push(await load(`${service.url}/mcp`, { ...request, duration: options.duration }));
      }
      const ratios = viaMcp.map((m, i) => m.rps / viaRest[i]!.rps);
      rows.push({
        'MCP read': label,
        'MCP req/s': Math.round(median(viaMcp.map((r) => r.rps))),
        'REST GET req/s': Math.round(median(viaRest.map((r) => r.rps))),
        ratio: `${median(ratios).toFixed(2)}×`,
        'rounds (ratio)': ratios.map((r) => r.toFixed(2)).join(' '),
        previous: label.startsWith('tools/call') ? `${PREVIOUS.ratio} (${PREVIOUS.note})` : '—',
        'MCP p99 ms': median(viaMcp.map((r) => r.p99)),
        'REST p99 ms': median(viaRest.map((r) => r.p99)),
        errors: [...viaMcp, ...viaRest].reduce((n, r) => n + r.errors, 0),
      });
    }
    printTable(`MCP vs REST, the same entry, 64 connections, median of ${rounds} rounds (goal: ≥ 0.5×)`, rows);
    return rows;
  } finally {
    await service.stop();
  }
}
