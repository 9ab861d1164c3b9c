// Images in the build (issue "Pictures in the profile"): the real service (the production bundle, a child process)
// started on the demo content without images (the baseline of the same run), with the demo's images, and with 10×
// as many (each image copied nine times in another tint, in the galleries of the entries that have a cover). Each
// row: start → first 200 on a fresh DATA_DIR (every image examined), its peak resident memory, then every variant
// the pages offer asked once (each made once, with sharp), the peak after that, and a restart on the same DATA_DIR
// (nothing examined or made again).
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startServerProcess } from '../testing/server-process.ts';
import { buildProduction, printTable, ratio, residentMb } from './lib.ts';

type Images = 'none' | '1×' | '10×';

/** Entry files of a content folder (English sources). */
const entryFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? entryFiles(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : [],
  );

/** The demo content with no images, its own, or ten times as many. The caller removes it. */
async function contentWith(images: Images): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'vitae-bench-media-'));
  const source = fileURLToPath(new URL('../content', import.meta.url));
  const target = join(root, 'content');
  cpSync(source, target, { recursive: true });
  if (images === 'none') {
    rmSync(join(target, 'media'), { recursive: true, force: true });
    for (const file of entryFiles(join(target, 'corpus'))) writeFileSync(file, readFileSync(file, 'utf8').replace(/^(cover|gallery):\n(?: .*\n)*/gm, ''));
    for (const file of entryFiles(join(target, 'i18n')))
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^(coverAlt:.*|galleryAlts:\n(?: .*\n)*)\n?/gm, ''));
    const site = JSON.parse(readFileSync(join(target, 'site.json'), 'utf8'));
    delete site.subject.portrait;
    writeFileSync(join(target, 'site.json'), JSON.stringify(site, null, 2));
  }
  if (images === '10×') {
    const media = join(target, 'media');
    const originals = readdirSync(media);
    for (const name of originals) {
      const ext = extname(name);
      for (let copy = 2; copy <= 10; copy++)
        await sharp(join(media, name))
          .modulate({ hue: copy * 30 })
          .toFile(join(media, `${name.slice(0, -ext.length)}-x${copy}${ext}`));
    }
    // Each entry with a cover shows nine tinted copies of it in its gallery; the other images' copies go to the first such entry.
    for (const file of entryFiles(join(target, 'corpus'))) {
      const text = readFileSync(file, 'utf8');
      const cover = /^cover:\n {2}path: (content\/media\/[^\n]+)\n/m.exec(text)?.[1];
      if (!cover) continue;
      const ext = extname(cover);
      const copies = Array.from({ length: 9 }, (_, i) => `  - path: ${cover.slice(0, -ext.length)}-x${i + 2}${ext}\n    alt: A tinted copy of the cover`).join(
        '\n',
      );
      writeFileSync(file, text.replace(/^gallery:\n(?: .*\n)*/m, '').replace(/^cover:\n/m, `gallery:\n${copies}\ncover:\n`));
    }
  }
  return target;
}

async function firstOk(url: string, started: number): Promise<number> {
  for (;;) {
    if ((await fetch(`${url}/api/health`).catch(() => undefined))?.ok) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every variant URL the pages offer: the portrait's, and each entry's cover and gallery in English. */
async function variantUrls(url: string): Promise<string[]> {
  const site = await (await fetch(`${url}/api/v1/site`)).json();
  const entries = await (await fetch(`${url}/api/v1/entries`)).json();
  const images: any[] = site.subject.portrait ? [site.subject.portrait] : [];
  for (const { slug } of entries.entries) {
    const entry = await (await fetch(`${url}/api/v1/entries/${slug}`)).json();
    images.push(...(entry.cover ? [entry.cover] : []), ...entry.gallery);
  }
  return images.flatMap((image) => image.sources.flatMap((s: any) => s.srcset.split(', ').map((part: string) => new URL(part.split(' ')[0]!).pathname)));
}

export async function benchMedia(): Promise<void> {
  buildProduction();
  const rows: Array<Record<string, string | number>> = [];
  let baseline: { start: number; peak: number } | undefined;
  for (const images of ['none', '1×', '10×'] as const) {
    const content = await contentWith(images);
    const dataDir = await mkdtemp(join(tmpdir(), 'vitae-bench-media-data-'));
    try {
      const env = { CONTENT_DIR: content, LOG_LEVEL: 'error', BASE_URL: 'http://127.0.0.1' };
      let started = performance.now();
      let server = await startServerProcess(dataDir, env, 300_000, { bundle: true });
      const start = await firstOk(server.url, started);
      const peakStart = residentMb(server, 'peak');
      const urls = await variantUrls(server.url);
      const variantsStarted = performance.now();
      for (const path of urls) {
        const res = await fetch(`${server.url}${path}`);
        if (!res.ok) throw new Error(`${path}: ${res.status}`);
        await res.arrayBuffer();
      }
      const variants = performance.now() - variantsStarted;
      const peakAfter = residentMb(server, 'peak');
      await server.stop();
      started = performance.now();
      server = await startServerProcess(dataDir, env, 300_000, { bundle: true });
      const restart = await firstOk(server.url, started);
      const again = performance.now();
      for (const path of urls.slice(0, 20)) await (await fetch(`${server.url}${path}`)).arrayBuffer();
      const servedAgain = urls.length ? (performance.now() - again) / Math.min(20, urls.length) : 0;
      await server.stop();
      baseline ??= { start, peak: peakStart };
      const imageCount = readdirSafe(join(content, 'media')).length;
      rows.push({
        images,
        files: imageCount,
        'start → 200 ms': start.toFixed(0),
        'vs none': ratio(start, baseline.start),
        'peak MB (start)': peakStart.toFixed(0),
        'peak vs none': ratio(peakStart, baseline.peak),
        variants: urls.length,
        'all variants made ms': variants.toFixed(0),
        'ms / variant': urls.length ? (variants / urls.length).toFixed(1) : '—',
        'peak MB (after)': peakAfter.toFixed(0),
        'restart → 200 ms': restart.toFixed(0),
        'kept variant ms': servedAgain.toFixed(1),
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      rmSync(join(content, '..'), { recursive: true, force: true });
    }
  }
  printTable('Images: build (start) time and memory without images, with the demo’s, and with 10×; variants made on first request, once', rows);
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
