// Linear text work (issue "Nothing anonymous costs much"): builds of an entry whose body is 25, 50, 100 and 1000 kB of
// text that once made a step of the build slow ("*a " took 458 s at 500 kB, "a " 4.2 s at 100 kB), beside the build
// of as much ordinary text (the demo content's own bodies) in the same run, and the console's preview of that entry.
// A build here is what a publish run's build stage does: the files checked on the service's thread, the passages
// and the index made in the build worker, the records made from its answer. A body over the per-file limit is
// spread over as many entries as it needs, so that 1000 kB is still one commit's text (goal: under 2 s).
// Sizes are in characters (1 kB = 1,024), as the limit counts them; BENCH_TEXT sets them (default 25,50,100,1000).
// Beside the wall clock, the CPU time of the process (both threads): on a machine busy with other work the wall
// clock stretches, the CPU time much less.
import { resolve } from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Markdown } from '../app/markdown/Markdown.tsx';
import { limits } from '../operations/contract/limits.ts';
import { localeRecords } from '../operations/corpus/corpus.ts';
import { restoreBuild } from '../operations/corpus/persist.ts';
import type { Passage } from '../operations/corpus/search.ts';
import { markdownTree } from '../operations/content/markdown.ts';
import { slicer } from '../operations/content/pause.ts';
import { loadContentSliced } from '../operations/content/tree.ts';
import { blobSha, type RepoFiles } from '../operations/repo/change-checks.ts';
import { readContentDir } from '../operations/repo/local-repo.server.ts';
import { createBuilder } from '../operations/server/builder.server.ts';
import { median, printTable, ratio } from './lib.ts';

const KB = 1024;
/** The most one file holds: the per-file limit of content. */
const PER_FILE = limits.contentFile;
const SITE = 'http://bench.test';
const RUNS = 3;

const fill = (unit: string) => (chars: number) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);

/** Bodies that made a step slow (or would have), by what they are. */
const hostile: Record<string, (chars: number) => string> = {
  '"*a " (emphasis openers)': fill('*a '),
  '"a " (one-letter words)': fill('a '),
  'one word, no space': fill('a'),
  'nested emphasis': (chars) => '*'.repeat(chars / 2 - 1) + 'a' + '*'.repeat(chars / 2),
  'nested quotes and lists on one line': fill('> - '),
  'CJK without punctuation': fill('中文字符测试'),
  'one-letter paragraphs': fill('a\n\n'),
  'setext headings': fill('a\n=\n\n'),
  'blank lines between two words': (chars) => `a${'\n'.repeat(chars - 2)}b`,
};

/** Each run's text differs from the last in every paragraph (every cache is keyed by text), in the same shape. */
const vary = (text: string, run: number) => (run ? `${text.replaceAll('a', 'eo'[run - 1]!).replaceAll('中', '国人'[run - 1]!)} v${run}` : text);

export async function benchText(options: { sizes?: number[] } = {}) {
  const sizes = options.sizes ?? [25, 50, 100, 1000];
  const demo = await readContentDir(resolve(import.meta.dirname, '../content'));
  const entries = [...demo.keys()].filter((path) => path.startsWith('content/corpus/')).sort();
  const frontMatter = (path: string) => {
    const text = demo.get(path)!;
    return text.slice(0, text.indexOf('\n---\n', 4) + 5);
  };
  // Ordinary text: the demo's Markdown bodies (every locale's), one after another, as much as a size needs.
  const prose = [...demo]
    .filter(([path]) => path.endsWith('.md'))
    .map(([, text]) => text.slice(text.indexOf('\n---\n', 4) + 5).trim())
    .join('\n\n');
  const ordinary = (chars: number) => {
    let text = prose;
    for (let copy = 1; text.length < chars; copy++) text += `\n\n${prose.replaceAll('\n\n', `\n\nCopy ${copy}: `)}`;
    return text.slice(0, chars);
  };

  const builder = createBuilder();
  let commit = 0;
  let live: { commit: string; passages: readonly Passage[] } | undefined;

  /** The demo content with `body` spread over entries' bodies (at most PER_FILE each); the paths it went to. */
  const withBody = (body: string) => {
    const files = new Map(demo);
    const paths: string[] = [];
    for (let at = 0; at < body.length;) {
      const path = entries[paths.length]!;
      const room = PER_FILE - frontMatter(path).length;
      const part = body.slice(at, at + room);
      files.set(path, frontMatter(path) + (part.trim() ? part : `a${part.slice(1)}`)); // a body is never empty
      paths.push(path);
      at += room;
    }
    return { files, paths };
  };

  /** A publish run's build stage over `files`: wall-clock and CPU ms. */
  async function build(files: Map<string, string>): Promise<Timing> {
    const sha = (++commit).toString(16).padStart(40, '0');
    const repoFiles: RepoFiles = {
      tree: [...files].map(([path, text]) => ({ path, mode: '100644', sha: blobSha(text), size: Buffer.byteLength(text) })),
      texts: files,
    };
    const started = performance.now();
    const cpu = process.cpuUsage();
    const pause = slicer();
    const { model, problems } = await loadContentSliced(files, pause);
    if (!model) throw new Error(`the bench's content is invalid: ${JSON.stringify(problems.slice(0, 3))}`);
    const made = await builder.make(
      {
        commit: sha,
        committedAt: new Date(),
        fileTimes: new Map(),
        siteUrl: SITE,
        files: repoFiles,
        model,
        ...(live ? { base: { ...live, siteUrl: SITE } } : {}),
      },
      pause,
    );
    if ('problems' in made) throw new Error(`the bench's content is invalid: ${JSON.stringify(made.problems.slice(0, 3))}`);
    const restored = await restoreBuild(made.kept, { siteUrl: SITE, pause, keepPassages: true });
    const timing = since(started, cpu);
    live = { commit: sha, passages: restored.passages! };
    return timing;
  }

  /** The console's preview of the entry at `path` with that text: its checks, its record, its page's Markdown rendered. */
  async function preview(files: Map<string, string>, path: string): Promise<Timing> {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { model } = await loadContentSliced(files, slicer());
    const entry = localeRecords(model!, 'en', SITE).entryBySlug.get(path.split('/').pop()!.replace(/\.md$/, ''))!;
    renderToString(createElement(Markdown, { tree: markdownTree(entry.overview) }));
    return since(started, cpu);
  }

  /** Median ms of a build and of a preview of `make(chars)`, each run a different text of the same shape. */
  async function measure(make: (chars: number) => string, kb: number) {
    const builds: Timing[] = [];
    const previews: Timing[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { files, paths } = withBody(vary(make(kb * KB), run));
      builds.push(await build(files));
      if (paths.length === 1) previews.push(await preview(files, paths[0]!));
    }
    const middle = (list: Timing[]) => (list.length ? { wall: median(list.map((t) => t.wall)), cpu: median(list.map((t) => t.cpu)) } : undefined);
    return { build: middle(builds)!, preview: middle(previews), files: withBody(make(kb * KB)).paths.length };
  }

  try {
    // Warm: the worker's modules and caches of the demo content, and the code every step runs.
    await build(demo);
    await measure(ordinary, 25);
    const rows: Array<Record<string, string | number>> = [];
    let worst = 0;
    for (const kb of sizes) {
      const base = await measure(ordinary, kb);
      rows.push(row('ordinary text (the baseline)', kb, base, base));
      for (const [name, make] of Object.entries(hostile)) {
        const made = await measure(make, kb);
        if (kb === 1000) worst = Math.max(worst, made.build.wall);
        rows.push(row(name, kb, made, base));
      }
    }
    printTable(`Builds and previews of hostile text beside as much ordinary text (median of ${RUNS}; goal: 1000 kB builds in under 2 s)`, rows);
    if (sizes.includes(1000)) console.log(`\nThe slowest 1000 kB build: ${(worst / 1000).toFixed(2)} s (goal: under 2 s)`);
    return { rows, worst };
  } finally {
    await builder.close();
  }
}

interface Timing {
  wall: number;
  cpu: number;
}

function since(started: number, cpu: NodeJS.CpuUsage): Timing {
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

type Measured = { build: Timing; preview?: Timing; files: number };

function row(body: string, kb: number, made: Measured, base: Measured) {
  const cells = (what: 'build' | 'preview') => {
    const [mine, theirs] = [made[what], base[what]];
    if (!mine || !theirs) return { [`${what} ms`]: '—', [`${what} CPU ms`]: '—', [`${what} ratio (CPU)`]: '—' };
    return { [`${what} ms`]: Math.round(mine.wall), [`${what} CPU ms`]: Math.round(mine.cpu), [`${what} ratio (CPU)`]: ratio(mine.cpu, theirs.cpu) };
  };
  return { body, kB: kb, files: made.files, ...cells('build'), ...cells('preview') };
}
