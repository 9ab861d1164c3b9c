// Commit → live (issue "Admin API on a real git repository"): seconds from `PUT /api/admin/file` to the
// change being served by `/api/v1`, local backend, no model, against the real server as a child process.
// The baseline to beat is a git-based CMS publishing through CI (Decap + Netlify: 1–3 minutes).
import { editUntilLive, percentile, printTable, startService } from './lib.ts';

const TOKEN = 'bench-admin-token-0123456789abcdef';

export async function benchCommit(options: { edits?: number } = {}) {
  const edits = options.edits ?? 20;
  const server = await startService({ ADMIN_TOKEN: TOKEN, REPO_BACKEND: 'local' });
  try {
    const toLive: number[] = [];
    const toAnswer: number[] = [];
    for (let i = 0; i <= edits; i++) {
      const summary = `Bench edit ${i}: a multilingual assistant that answers hotel guests from each property's own rules.`;
      const { answered, live } = await editUntilLive(server.url, TOKEN, summary, 60_000);
      if (i === 0) continue; // warm-up
      toAnswer.push(answered / 1000);
      toLive.push(live / 1000);
    }
    const row = (what: string, values: number[], goal: string) => ({
      measure: what,
      'median s': percentile(values, 50).toFixed(3),
      'p95 s': percentile(values, 95).toFixed(3),
      'max s': Math.max(...values).toFixed(3),
      goal,
    });
    const rows = [
      row('PUT /api/admin/file → 200 (validated commit)', toAnswer, '—'),
      row('PUT → served by /api/v1 (commit → live)', toLive, '≤ 2 s median'),
      { measure: 'baseline: Decap CMS + Netlify build', 'median s': '60–180', 'p95 s': '—', 'max s': '—', goal: '—' },
    ];
    printTable(`Commit → live over ${edits} edits, local backend, no model (goal: ≤ 2 s median)`, rows);
    return { median: percentile(toLive, 50), p95: percentile(toLive, 95), rows };
  } finally {
    await server.stop();
  }
}
