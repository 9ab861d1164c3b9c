// MCP throughput: tools/call get_entry over Streamable HTTP vs GET /api/v1/entries/{slug}, same server,
// same run (issue "MCP servers", goal ≥ 0.3×).
import { load, printTable, ratio, startService } from './lib.ts';

export async function benchMcp(options: { duration: number }) {
  const service = await startService();
  try {
    const rest = `${service.url}/api/v1/entries/concierge-copilot`;
    const call = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_entry', arguments: { slug: 'concierge-copilot' } } }),
    };
    const check = await fetch(`${service.url}/mcp`, call);
    if (!(await check.json()).result?.structuredContent) throw new Error('tools/call get_entry did not answer');
    await load(rest, { duration: 2 });
    await load(`${service.url}/mcp`, { ...call, duration: 2 });
    const viaRest = await load(rest, { duration: options.duration });
    const viaMcp = await load(`${service.url}/mcp`, { ...call, duration: options.duration });
    const row = {
      'MCP tools/call req/s': Math.round(viaMcp.rps),
      'REST GET req/s': Math.round(viaRest.rps),
      ratio: ratio(viaMcp.rps, viaRest.rps),
      'MCP p99 ms': viaMcp.p99,
      'REST p99 ms': viaRest.p99,
      errors: viaMcp.errors + viaRest.errors,
    };
    printTable('MCP vs REST, get_entry, 64 connections (goal: ≥ 0.3×)', [row]);
    return row;
  } finally {
    await service.stop();
  }
}
