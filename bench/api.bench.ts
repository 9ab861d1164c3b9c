// REST throughput: the real service vs a bare node:http server sending the same bytes (issue "Foundation").
import { besideBaseline, freePort, printTable, startProcess, startService, waitFor } from './lib.ts';

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
        rows.push({ route: `GET ${path}`, ...(await besideBaseline(base + path, `http://127.0.0.1:${barePort}${path}`, { duration: options.duration })) });
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
