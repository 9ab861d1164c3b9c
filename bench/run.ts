// `npm run bench`: every benchmark, each against a baseline measured in the same run.
// `npm run bench -- search` runs only the named sections; BENCH_DURATION sets seconds per load run.
import { benchApi } from './api.bench.ts';
import { benchSearch } from './search.bench.ts';
import { benchMcp } from './mcp.bench.ts';
import { benchChat } from './chat.bench.ts';

const sections: Record<string, () => Promise<unknown>> = {
  search: () => benchSearch(),
  api: () => benchApi({ duration: Number(process.env.BENCH_DURATION ?? 8) }),
  mcp: () => benchMcp({ duration: Number(process.env.BENCH_DURATION ?? 8) }),
  chat: () => benchChat({ runs: 40 }),
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}
