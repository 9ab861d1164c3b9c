// Pages at the speed of static files (issue "Pages at the speed of static files"): the home, an entry and a
// lens page served by the real service beside a bare node:http server holding the same gzip bytes (same load,
// same run, 64 connections); the first render of a page after a deploy against a cached answer; what
// rendering every sitemap page at deploy would cost (the alternative to rendering lazily); and the cache's
// memory once every sitemap page was asked for, at 1× and 10× the demo content.
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { grownContent } from '../testing/content-fixture.ts';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { besideBaseline, buildProduction, editUntilLive, freePort, printTable, residentMb, startProcess, waitFor } from './lib.ts';

const TOKEN = 'bench-admin-token-0123456789abcdef';
const GZIP = { 'Accept-Encoding': 'gzip' };

/** The raw (gzip) bytes of a page, as a browser asking for gzip gets them. */
function gzipBytes(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    request(url, { headers: GZIP }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    })
      .on('error', reject)
      .end(),
  );
}

async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: GZIP });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - started;
}

interface CacheFigures {
  pages: number;
  bytes: number;
  budgetBytes: number;
  renders: number;
}
const cacheOf = async (url: string) => ((await (await fetch(`${url}/api/health`)).json()) as { pageCache: CacheFigures }).pageCache;

/** Every page the sitemap names, on this server. */
async function sitemapPaths(url: string): Promise<string[]> {
  const xml = await (await fetch(`${url}/sitemap.xml`)).text();
  return [...new Set([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname))];
}

/** Asks for every path once, in order; total milliseconds. */
async function askAll(url: string, paths: string[]): Promise<number> {
  const started = performance.now();
  for (const path of paths) await timedGet(url + path);
  return performance.now() - started;
}

async function throughput(server: ServerProcess, duration: number) {
  const pages = { home: '/', entry: '/entries/concierge-copilot', lens: '/lenses/head-of-ai' };
  const bodies = Object.fromEntries(
    await Promise.all(Object.values(pages).map(async (p) => [p, (await gzipBytes(server.url + p)).toString('base64')] as const)),
  );
  const barePort = await freePort();
  const bare = startProcess(['--import', 'tsx', 'bench/bare-server.ts', String(barePort), JSON.stringify(bodies), 'gzip'], {});
  try {
    await waitFor(`http://127.0.0.1:${barePort}/`);
    const rows = [];
    for (const [name, path] of Object.entries(pages)) {
      rows.push({
        page: `${name} (${path}, ${(Buffer.from(bodies[path]!, 'base64').length / 1024).toFixed(1)} kB gzip)`,
        ...(await besideBaseline(server.url + path, `http://127.0.0.1:${barePort}${path}`, { duration, headers: GZIP })),
      });
    }
    printTable('Pages, 64 connections, gzip (goal: ≥ 0.5× bare, p99 ≤ 20 ms)', rows);
  } finally {
    bare.kill();
  }
}

/** After a deploy: one page's first (rendering) answer and its next (cached) one; then every sitemap page. */
async function afterDeploy(server: ServerProcess) {
  await editUntilLive(server.url, TOKEN, `Pages bench edit ${Date.now()}: an assistant that answers hotel guests.`);
  const first = await timedGet(`${server.url}/entries/concierge-copilot`);
  const cached = await timedGet(`${server.url}/entries/concierge-copilot`);
  const paths = await sitemapPaths(server.url);
  const renderAll = await askAll(server.url, paths);
  const askAgain = await askAll(server.url, paths);
  return { first, cached, pages: paths.length, renderAll, askAgain };
}

export async function benchPages(options: { duration: number; sizes: number[] }) {
  buildProduction();
  const memory: Array<Record<string, string>> = [];
  const deploys: Array<Record<string, string>> = [];
  for (const times of options.sizes) {
    const content = times === 1 ? undefined : grownContent(times);
    const dataDir = await mkdtemp(join(tmpdir(), `vitae-bench-pages-${times}x-`));
    const server = await startServerProcess(
      dataDir,
      { ADMIN_TOKEN: TOKEN, PREVIEW_PORT: '0', LOG_LEVEL: 'error', ...(content ? { CONTENT_DIR: content } : {}) },
      30 * 60_000,
      { bundle: true },
    );
    try {
      if (times === 1) await throughput(server, options.duration);
      const rssBefore = residentMb(server);
      const deploy = await afterDeploy(server);
      const cache = await cacheOf(server.url);
      const rssAfter = residentMb(server);
      // What stays once the renders' garbage is collected: V8 gives memory back after some seconds idle (about 10 s
      // here), so the lowest of 20 s of readings is what the pages kept hold, not the work of rendering them.
      let rssKept = rssAfter;
      for (let second = 0; second < 20; second++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        rssKept = Math.min(rssKept, residentMb(server));
      }
      deploys.push({
        content: `${times}×`,
        'first render after deploy ms': deploy.first.toFixed(1),
        'then cached ms': deploy.cached.toFixed(1),
        'render all sitemap pages (pre-render cost)': `${deploy.pages} pages in ${(deploy.renderAll / 1000).toFixed(1)} s (${(deploy.renderAll / deploy.pages).toFixed(1)} ms each)`,
        'ask them all again': `${(deploy.askAgain / 1000).toFixed(2)} s`,
      });
      memory.push({
        content: `${times}×`,
        'pages kept / rendered': `${cache.pages} / ${cache.renders}`,
        'cache MB (budget)': `${(cache.bytes / 1024 / 1024).toFixed(1)} (${(cache.budgetBytes / 1024 / 1024).toFixed(0)})`,
        'RSS before / after / settled MB': `${rssBefore.toFixed(0)} / ${rssAfter.toFixed(0)} / ${rssKept.toFixed(0)}`,
      });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
      if (content) await rm(dirname(content), { recursive: true, force: true });
    }
  }
  printTable('Pages after a deploy: rendered lazily on first request vs all at once (what pre-rendering at deploy would cost)', deploys);
  printTable('Page cache memory with every sitemap page asked for (bounded by PAGE_CACHE_MB)', memory);
}
