// Writes under load (issue "Production-ready"): 50 concurrent single-file writers on the demo tree, each a
// validated commit that queues a rebuild; meanwhile a reader asks GET /api/health every 10 ms, so the
// longest wait it sees is the longest the event loop was held (by a build, validation or git). Baseline:
// the same reader on the same idle server. Also: start → first 200 on a fresh and on an existing DATA_DIR.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../testing/server-process.ts';
import { percentile, printTable, probeHealth, buildProduction } from './lib.ts';

const TOKEN = 'bench-admin-token-0123456789abcdef';
const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
const skill = (name: string) => `---\nname: ${name}\ncategory: engineering\n---\nA skill written by the writers benchmark.\n`;

export async function benchWriters(options: { writers?: number } = {}) {
  const writers = options.writers ?? 50;
  const dataDir = await mkdtemp(join(tmpdir(), 'vitae-bench-writers-'));
  const env = { ADMIN_TOKEN: TOKEN, PREVIEW_PORT: '0', LOG_LEVEL: 'error' };
  buildProduction();
  try {
    let started = performance.now();
    let server = await startServerProcess(dataDir, env, 60_000, { bundle: true });
    const freshStart = performance.now() - started;
    const idle = probeHealth(server.url);
    await new Promise((r) => setTimeout(r, 2_000));
    const idleLatencies = await idle.stop();

    const busy = probeHealth(server.url);
    const times: number[] = [];
    started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: writers }, async (_, i) => {
        const t = performance.now();
        const res = await fetch(`${server.url}/api/admin/file`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ path: `content/skills/bench-writer-${i}.md`, content: skill(`Writer ${i}`), message: `bench writer ${i}` }),
        });
        await res.arrayBuffer();
        times.push(performance.now() - t);
        return res.status;
      }),
    );
    const total = performance.now() - started;
    // Then until the last commit is live: the rebuilds the burst queued.
    const last = await fetch(`${server.url}/api/admin/files?dir=content/skills`, { headers });
    const listed = ((await last.json()) as { files: Array<{ path: string }> }).files.filter((f) => f.path.includes('bench-writer-')).length;
    for (;;) {
      const runs = (await (await fetch(`${server.url}/api/admin/deploys?branch=main&limit=5`, { headers })).json()) as { runs: Array<{ status: string }> };
      if (!runs.runs.some((r) => r.status === 'queued' || r.status === 'running')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const live = performance.now() - started;
    const busyLatencies = await busy.stop();
    await server.stop();

    started = performance.now();
    server = await startServerProcess(dataDir, env, 60_000, { bundle: true });
    const restart = performance.now() - started;
    await server.stop();

    const ok = statuses.filter((s) => s === 200).length;
    const rows = [
      { measure: `${writers} concurrent writers: all answered`, value: `${(total / 1000).toFixed(2)} s`, goal: '≤ 10 s', met: total <= 10_000 ? 'yes' : 'no' },
      { measure: 'one writer’s answer, p95', value: `${(percentile(times, 95) / 1000).toFixed(2)} s`, goal: '—', met: '—' },
      {
        measure: 'writes answered 200 / committed',
        value: `${ok} / ${listed}`,
        goal: `${writers} / ${writers}`,
        met: ok === writers && listed === writers ? 'yes' : 'no',
      },
      { measure: 'until the last commit is live', value: `${(live / 1000).toFixed(2)} s`, goal: '—', met: '—' },
      {
        measure: 'GET /api/health during the burst and rebuilds: max (p99)',
        value: `${Math.max(...busyLatencies).toFixed(0)} ms (${percentile(busyLatencies, 99).toFixed(0)} ms)`,
        goal: '≤ 50 ms',
        met: Math.max(...busyLatencies) <= 50 ? 'yes' : 'no',
      },
      {
        measure: 'baseline: the same reader, idle server: max (p99)',
        value: `${Math.max(...idleLatencies).toFixed(0)} ms (${percentile(idleLatencies, 99).toFixed(0)} ms)`,
        goal: '—',
        met: '—',
      },
      { measure: 'start → first 200, fresh DATA_DIR', value: `${(freshStart / 1000).toFixed(2)} s`, goal: '—', met: '—' },
      { measure: 'start → first 200, existing DATA_DIR', value: `${(restart / 1000).toFixed(2)} s`, goal: '≤ 2 s', met: restart <= 2_000 ? 'yes' : 'no' },
    ];
    printTable(`Writes under load: ${writers} concurrent single-file writers on the demo tree, local backend`, rows);
    return rows;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
