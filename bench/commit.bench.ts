// Commit → live (issue "Admin API on a real git repository"): seconds from `PUT /api/admin/file` to the
// change being served by `/api/v1`, local backend, no model, against the real server as a child process.
// The baseline to beat is a git-based CMS publishing through CI (Decap + Netlify: 1–3 minutes).
import { percentile, printTable, startService } from './lib.ts';

const TOKEN = 'bench-admin-token-0123456789abcdef';
const SLUG = 'concierge-copilot';
const PATH = `content/corpus/projects/${SLUG}.md`;

export async function benchCommit(options: { edits?: number } = {}) {
  const edits = options.edits ?? 20;
  const server = await startService({ ADMIN_TOKEN: TOKEN, REPO_BACKEND: 'local' });
  const base = server.url;
  const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  try {
    const original = ((await (await fetch(`${base}/api/admin/file?path=${PATH}`, { headers })).json()) as { content: string }).content;
    const toLive: number[] = [];
    const toAnswer: number[] = [];
    for (let i = 0; i <= edits; i++) {
      const summary = `Bench edit ${i}: a multilingual assistant that answers hotel guests from each property's own rules.`;
      const content = original.replace(/^summary: .*$/m, `summary: ${JSON.stringify(summary)}`);
      const started = performance.now();
      const res = await fetch(`${base}/api/admin/file`, { method: 'PUT', headers, body: JSON.stringify({ path: PATH, content, message: `bench edit ${i}` }) });
      if (res.status !== 200) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      const answered = performance.now();
      for (;;) {
        const entry = (await (await fetch(`${base}/api/v1/entries/${SLUG}`)).json()) as { summary: string };
        if (entry.summary === summary) break;
        if (performance.now() - started > 60_000) throw new Error(`edit ${i} was not live after 60 s`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const live = performance.now();
      if (i === 0) continue; // warm-up
      toAnswer.push((answered - started) / 1000);
      toLive.push((live - started) / 1000);
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
