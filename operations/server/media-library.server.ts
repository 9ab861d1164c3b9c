// The images of the content as the site serves them: each image's facts (its type and size, read once per content
// hash: a build of a commit whose image cannot be read fails, naming the file) and its variants, the widths and modern
// formats pages offer in `srcset`, made with sharp the first time one is asked for and kept on disk by the image's
// content hash, so an image is never processed twice, across builds and restarts. A variant's name holds that hash:
// it never changes, and is served immutable.
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, type Problem } from '../contract/errors.ts';
import { isMediaPath } from '../content/paths.ts';
import type { ContentRepo } from '../repo/content-repo.server.ts';
import type { TreeFile } from '../repo/local-repo.server.ts';
import { HASH_LENGTH, mediaTypeOf, variantFormats, variantTypes, variantWidths, type ImageFacts, type VariantFormat } from '../content/media-refs.ts';

export type { ImageFacts };

const NAME = new RegExp(`^([0-9a-f]{${HASH_LENGTH}})-(\\d{1,4})\\.(${variantFormats.join('|')})$`);

export interface MediaLibrary {
  /** The facts of every image of a commit, by path; `invalid` naming each image that cannot be read. */
  factsAt(commit: string): Promise<ReadonlyMap<string, ImageFacts>>;
  /** A variant by its name (undefined: no such image, width or format), made the first time it is asked for. */
  variant(name: string): Promise<{ bytes: Buffer; type: string } | undefined>;
  /** Images examined and variants made by this process (a second build of the same images examines none). */
  readonly counts: { examined: number; made: number };
}

export async function openMediaLibrary(dir: string, repo: Pick<ContentRepo, 'bytes' | 'mediaAt'>): Promise<MediaLibrary> {
  const factsDir = join(dir, 'facts');
  const variantsDir = join(dir, 'variants');
  await mkdir(factsDir, { recursive: true });
  await mkdir(variantsDir, { recursive: true });
  const known = new Map<string, ImageFacts>(); // by the hash a variant's name holds
  for (const file of await readdir(factsDir)) {
    if (!file.endsWith('.json')) continue;
    const facts = await readFile(join(factsDir, file), 'utf8')
      .then((text) => JSON.parse(text) as ImageFacts)
      .catch(() => undefined); // a torn write: examined again when a build needs it
    if (facts?.sha) known.set(facts.sha.slice(0, HASH_LENGTH), facts);
  }
  const counts = { examined: 0, made: 0 };
  const making = new Map<string, Promise<Buffer>>();
  let queue: Promise<unknown> = Promise.resolve();
  /** One image processed at a time: a page's dozen variants asked at once do not take every core from the requests. */
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => {});
    return result;
  };

  async function examine(entry: TreeFile): Promise<ImageFacts | Problem> {
    const kept = known.get(entry.sha.slice(0, HASH_LENGTH));
    if (kept?.sha === entry.sha) return kept;
    counts.examined++;
    const bytes = await repo.bytes(entry.sha);
    try {
      const sharp = await loadSharp();
      const meta = await sharp(bytes).metadata();
      const type = mediaTypeOf(meta);
      if (!type) return { path: entry.path, message: `not an image the site shows (${meta.format}): upload a JPEG, PNG, WebP or AVIF` };
      // Decoding all of it (to a thumbnail) finds a truncated or corrupt image, which the header alone would not.
      await sharp(bytes).rotate().resize(16).raw().toBuffer();
      const turned = (meta.orientation ?? 1) >= 5;
      const facts: ImageFacts = { sha: entry.sha, type, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
      known.set(entry.sha.slice(0, HASH_LENGTH), facts);
      await writeAtomic(join(factsDir, `${entry.sha}.json`), JSON.stringify(facts));
      return facts;
    } catch (error) {
      return { path: entry.path, message: `the image cannot be read (${(error as Error).message}); upload it again` };
    }
  }

  async function make(facts: ImageFacts, width: number, format: VariantFormat, name: string): Promise<Buffer> {
    const file = join(variantsDir, name);
    const stored = await readFile(file).catch(() => undefined);
    if (stored) return stored;
    const bytes = await inTurn(async () => {
      const sharp = await loadSharp();
      const source = await repo.bytes(facts.sha);
      const resized = sharp(source).rotate().resize({ width, withoutEnlargement: true });
      counts.made++;
      return format === 'avif' ? resized.avif({ quality: 55, effort: 2 }).toBuffer() : resized.webp({ quality: 80 }).toBuffer();
    });
    await writeAtomic(file, bytes);
    return bytes;
  }

  return {
    counts,
    async factsAt(commit) {
      const entries = (await repo.mediaAt(commit)).filter((e) => isMediaPath(e.path));
      const facts = new Map<string, ImageFacts>();
      const problems: Problem[] = [];
      for (const entry of entries) {
        const found = await examine(entry);
        if ('sha' in found) facts.set(entry.path, found);
        else problems.push(found);
      }
      if (problems.length)
        throw new AppError(
          'invalid',
          `the content at ${commit.slice(0, 7)} has images that cannot be shown: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
          {
            errors: problems,
          },
        );
      return facts;
    },
    async variant(name) {
      const match = NAME.exec(name);
      if (!match) return undefined;
      const facts = known.get(match[1]!);
      const width = Number(match[2]);
      const format = match[3] as VariantFormat;
      if (!facts || !variantWidths(facts.width).includes(width)) return undefined;
      let made = making.get(name);
      if (!made) {
        made = make(facts, width, format, name).finally(() => making.delete(name));
        making.set(name, made);
      }
      return { bytes: await made, type: variantTypes[format] };
    },
  };
}

/**
 * sharp, loaded on first use (a start with no image never pays for it), without libvips's cache of decoded images:
 * each image is processed once, so the cache only held memory (the peak after making the demo's variants fell with it).
 */
async function loadSharp() {
  const { default: sharp } = await import('sharp');
  sharp.cache(false);
  return sharp;
}

/** Writes a file whole or not at all (a stop mid-write leaves the old one or none). */
async function writeAtomic(path: string, data: string | Buffer): Promise<void> {
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}
