// REST throughput: the real service vs a bare node:http server sending the same bytes (issue "Foundation").
import { freePort, load, printTable, ratio, startProcess, startService, waitFor } from './lib.ts';

export async function benchApi(options: { duration: number }) {
  const server = await startService();
  const paths = ['/api/v1/entries', '/api/v1/search?q=hotel%20guest%20assistant'];
  try {
    const base = server.url;
    const bodies = Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await (await fetch(base + p)).text()] as const)));
    const barePort = await freePort();
    const bare = startProcess(['--import', 'tsx', 'bench/bare-server.ts', String(barePort), JSON.stringify(bodies)], {});
    try {
      await waitFor(`http://127.0.0.1:${barePort}/`);
      const rows = [];
      for (const path of paths) {
        await load(base + path, { duration: 2 }); // warm up both
        await load(`http://127.0.0.1:${barePort}${path}`, { duration: 2 });
        const vitae = await load(base + path, { duration: options.duration });
        const baseline = await load(`http://127.0.0.1:${barePort}${path}`, { duration: options.duration });
        rows.push({
          route: `GET ${path}`,
          'vitae req/s': Math.round(vitae.rps),
          'bare req/s': Math.round(baseline.rps),
          ratio: ratio(vitae.rps, baseline.rps),
          'vitae p99 ms': vitae.p99,
          'bare p99 ms': baseline.p99,
          errors: vitae.errors,
        });
      }
      printTable('REST throughput, 64 connections (goal: ≥ 0.5× bare, p99 ≤ 20 ms)', rows);
      return rows;
    } finally {
      bare.kill();
    }
  } finally {
    await server.stop();
  }
}
