// match_role's stream: time to the first requirement on the site (POST /api/v1/match, application/x-ndjson) against
// the scripted OpenAI-compatible server's own first answer line, same run; and the search-only form's first
// requirement and whole answer for the same description, without a model.
import { readFileSync } from 'node:fs';
import { startFakeOpenAI } from '../testing/fake-openai.ts';
import { median, percentile, printTable, startService, timedStream as timed } from './lib.ts';

export async function benchMatch(options: { runs: number }) {
  const description = (
    JSON.parse(readFileSync(new URL('../eval/match.json', import.meta.url), 'utf8')) as { descriptions: Array<{ id: string; text: string }> }
  ).descriptions[0]!.text;
  const lines = [
    { requirement: 'Shipped LLM features to production', kind: 'must', status: 'met', evidence: [] },
    { requirement: 'A PhD in machine learning', kind: 'nice', status: 'gap', evidence: [] },
    { requirement: 'Strong Python', kind: 'must', status: 'partial', evidence: [] },
  ];
  const reply = { text: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n${JSON.stringify({ summary: 'A fit.' })}`, chunks: 12, delayMs: 2 };
  const model = await startFakeOpenAI();
  model.fallback = reply;
  const withModel = await startService({ OPENAI_BASE_URL: model.url, TRUST_PROXY: '1' });
  const plain = await startService({ TRUST_PROXY: '1' });
  const post = (ip: string, body: unknown) => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson', 'X-Forwarded-For': ip },
    body: JSON.stringify(body),
  });
  try {
    const direct: number[] = [];
    const site: number[] = [];
    const searchFirst: number[] = [];
    const searchEnd: number[] = [];
    const completion = { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: description }] };
    for (let i = 0; i < options.runs + 5; i++) {
      // A new client address each time: the ask budget is 20 a minute per address.
      const ip = `10.8.${i >> 8}.${i & 255}`;
      // the model's first whole line: the first `\n` inside the streamed content
      const d = await timed(
        `${model.url}/chat/completions`,
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(completion) },
        (_, t) => t.includes('\\n'),
      );
      const s = await timed(`${withModel.url}/api/v1/match`, post(ip, { jobDescription: description }), (_, t) => t.includes('"type":"requirement"'));
      const p = await timed(`${plain.url}/api/v1/match`, post(ip, { jobDescription: description }), (_, t) => t.includes('"type":"requirement"'));
      if (i >= 5) {
        direct.push(d.first);
        site.push(s.first);
        searchFirst.push(p.first);
        searchEnd.push(p.end);
      }
    }
    const row = {
      runs: options.runs,
      'model first line median ms': median(direct).toFixed(1),
      'site first requirement median ms': median(site).toFixed(1),
      'added median ms': (median(site) - median(direct)).toFixed(1),
      'added p95 ms': (percentile(site, 95) - percentile(direct, 95)).toFixed(1),
      'search-only first / whole median ms': `${median(searchFirst).toFixed(1)} / ${median(searchEnd).toFixed(1)}`,
    };
    printTable(`Match: time to the first requirement (a ${description.length}-character description)`, [row]);
    return row;
  } finally {
    await withModel.stop();
    await plain.stop();
    await model.close();
  }
}
