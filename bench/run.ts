// `npm run bench`: every benchmark, each against a baseline measured in the same run.
// `npm run bench -- search` runs only the named sections; BENCH_DURATION sets seconds per load run.
import { benchApi } from './api.bench.ts';
import { benchCommit } from './commit.bench.ts';
import { benchSearch } from './search.bench.ts';
import { benchMcp } from './mcp.bench.ts';
import { benchChat } from './chat.bench.ts';
import { benchMatch } from './match.bench.ts';
import { benchSite } from './site.bench.ts';
import { benchConsole } from './console.bench.ts';
import { benchWriters } from './writers.bench.ts';
import { benchGrowth } from './growth.bench.ts';
import { benchPages } from './pages.bench.ts';
import { benchMemory } from './memory.bench.ts';
import { benchGitHub } from './github.bench.ts';
import { benchFlood } from './flood.bench.ts';
import { benchText } from './text.bench.ts';
import { benchEditors } from './editors.bench.ts';
import { benchOg } from './og.bench.ts';
import { benchMedia } from './media.bench.ts';

const sections: Record<string, () => Promise<unknown>> = {
  search: () => benchSearch(),
  api: () => benchApi({ duration: Number(process.env.BENCH_DURATION ?? 8) }),
  commit: () => benchCommit({ edits: 20 }),
  mcp: () => benchMcp({ duration: Number(process.env.BENCH_DURATION ?? 8) }),
  chat: () => benchChat({ runs: 40 }),
  match: () => benchMatch({ runs: 30 }),
  site: () => benchSite({ runs: Number(process.env.LIGHTHOUSE_RUNS ?? 3) }),
  console: () => benchConsole({ runs: 200 }),
  writers: () => benchWriters({ writers: 50 }),
  pages: () => benchPages({ duration: Number(process.env.BENCH_DURATION ?? 8), sizes: (process.env.BENCH_PAGES ?? '1,10').split(',').map(Number) }),
  memory: () => benchMemory({ seconds: Number(process.env.BENCH_MEMORY_SECONDS ?? 60) }),
  github: () => benchGitHub({ commits: 10, edits: 5 }),
  flood: () => benchFlood({ seconds: Number(process.env.BENCH_DURATION ?? 8), connections: 32 }),
  growth: () => benchGrowth({ sizes: (process.env.BENCH_GROWTH ?? '1,10').split(',').map(Number) }),
  editors: () => benchEditors({ duration: Number(process.env.BENCH_DURATION ?? 8), editors: 200 }),
  og: () => benchOg({ runs: 10 }),
  media: () => benchMedia(),
  text: () => benchText({ sizes: (process.env.BENCH_TEXT ?? '25,50,100,1000').split(',').map(Number) }),
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}
