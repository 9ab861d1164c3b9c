// Builds kept on disk by commit (DATA_DIR/builds/), so that a restart on an unchanged commit loads its build
// instead of making it again (97 % of a build is the search index). A build is a deterministic function of its
// commit's content and of the code that makes it, so a kept build is used only by the same code: each file
// names its format version and carries a fingerprint of the code (the service's bundle, or the sources of the
// build and the content model, with the package's version and lock file). A file of another format or code, a
// truncated or corrupt one (checked by length and CRC-32 before it is decoded), is never used: the build is
// made again and the file replaced. Files are written whole or not at all (a temporary file renamed).
//
// What is kept is what costs: the parsed content model, the commit's times, the search passages (splitting
// them parses every text's Markdown) and the search index as typed arrays (`SearchIndex.toData`). The records
// of each locale and the index's closures are made again from them at load, with the site's address of the
// branch that loads it.
//
// File: "VITAE-BUILD\n", a u32 (little-endian) header length, the header (JSON: format, code, commit, the byte
// length of each part, their sum and the CRC-32 of the payload), then the payload: three node:v8 serialisations
// (the build without its passages and index, the passages, the index), made one at a time so that keeping a
// build never holds the thread for long.
import type { ImageFacts } from '../content/media-refs.ts';
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import type { ContentModel } from '../content/tree.ts';
import { createBuild, searchPassages, type Build } from './corpus.ts';
import { noPause, slicer, type Pause } from '../content/pause.ts';
import { createSearchIndexData, type Passage, type SearchIndexData } from './search.ts';
import { writeWhole } from './files.ts';

/** Bump when the shape of KeptBuild (or of what it holds: the model, SearchIndexData) changes. */
export const FORMAT_VERSION = 2;

const MAGIC = Buffer.from('VITAE-BUILD\n');

export interface KeptBuild {
  commit: string;
  committedAt: string;
  builtAt: string;
  fileTimes: Array<[string, string]>;
  model: ContentModel;
  /** The site address the passages' URLs are at. */
  siteUrl: string;
  /** The passages the index holds, in its order: made again, they would need every text split (Markdown parsed) again. */
  passages: Passage[];
  search: SearchIndexData;
}

interface Header {
  format: number;
  code: string;
  commit: string;
  /** The byte length of each part of the payload. */
  parts: number[];
  bytes: number;
  crc32: number;
}

/** What of a build is kept; undefined when its index cannot be given as data. */
export function keptOf(build: Build): KeptBuild | undefined {
  const search = build.search.toData?.();
  if (!search) return undefined;
  const passages = build.passages ? [...build.passages] : searchPassages(build.model, build.siteUrl);
  return {
    commit: build.commit,
    committedAt: build.committedAt,
    builtAt: build.builtAt,
    fileTimes: [...build.fileTimes],
    model: build.model,
    siteUrl: build.siteUrl,
    passages,
    search,
  };
}

/**
 * What a build of `model` keeps, made without the build itself: its passages and its index as data (what a build
 * worker sends; the records of each locale and the searchable index are made where it is served).
 */
export async function makeKept(
  model: ContentModel,
  options: { commit: string; committedAt: Date; fileTimes: ReadonlyMap<string, Date>; siteUrl: string },
): Promise<KeptBuild> {
  const siteUrl = options.siteUrl.replace(/\/+$/, '');
  const passages = searchPassages(model, siteUrl);
  return {
    commit: options.commit,
    committedAt: options.committedAt.toISOString(),
    builtAt: new Date().toISOString(),
    fileTimes: [...options.fileTimes].map(([path, time]) => [path, time.toISOString()]),
    model,
    siteUrl,
    passages,
    search: await createSearchIndexData(passages),
  };
}

/** The build a kept one was, at `siteUrl`: the same records, passages and search results; `builtAt` is the kept build's. */
export function restoreBuild(
  kept: KeptBuild,
  options: { siteUrl: string; pause?: Pause; keepPassages?: boolean; media?: ReadonlyMap<string, ImageFacts> },
): Promise<Build> {
  return createBuild(kept.model, {
    commit: kept.commit,
    committedAt: new Date(kept.committedAt),
    builtAt: new Date(kept.builtAt),
    fileTimes: new Map(kept.fileTimes),
    siteUrl: options.siteUrl,
    kept: { index: kept.search, passages: kept.passages, siteUrl: kept.siteUrl },
    ...(options.pause ? { pause: options.pause } : {}),
    ...(options.keepPassages ? { keepPassages: true } : {}),
    ...(options.media ? { media: options.media } : {}),
  });
}

export interface BuildStore {
  readonly dir: string;
  /** Where the kept build of `commit` is, and what `decode` expects of it: what a build worker needs to read it on its own thread. */
  keptFile(commit: string): { file: string; format: number; code: string; commit: string };
  /** The kept build of `commit`, or undefined (none, or not usable: the reason is logged). */
  load(commit: string): Promise<KeptBuild | undefined>;
  /** Keeps `build` (replacing the file of its commit; saves of one commit under way at once are one). */
  save(build: Build): Promise<void>;
  /** Deletes files of other formats, stale temporary files, and kept builds beyond the live commits and the `recent` newest others. */
  prune(live: Iterable<string>): Promise<void>;
  /** Waits for the saves under way. */
  flush(): Promise<void>;
  /** Counts since opening, for logs and tests. */
  readonly counts: { loaded: number; saved: number; rejected: number };
}

export interface BuildStoreOptions {
  /** How many kept builds besides the live commits' stay (the newest by use). */
  recent?: number;
  log?: (line: string) => void;
  /** The code fingerprint (default: `codeFingerprint()`). */
  code?: string;
  /** The format version written and accepted (default FORMAT_VERSION; tests give another). */
  format?: number;
}

const COMMIT = /^[0-9a-f]{7,64}$/;
const TEMP_MAX_AGE_MS = 60 * 60_000;

export async function openBuildStore(dir: string, options: BuildStoreOptions = {}): Promise<BuildStore> {
  await mkdir(dir, { recursive: true });
  const format = options.format ?? FORMAT_VERSION;
  const code = options.code ?? (await codeFingerprint());
  const recent = options.recent ?? 3;
  const log = options.log ?? (() => {});
  const fileOf = (commit: string) => join(dir, `${commit}-v${format}.bin`);
  const saving = new Map<string, Promise<void>>();
  const counts = { loaded: 0, saved: 0, rejected: 0 };

  async function load(commit: string): Promise<KeptBuild | undefined> {
    if (!COMMIT.test(commit)) return undefined;
    const file = fileOf(commit);
    try {
      const kept = await readKept(file, { format, code, commit });
      counts.loaded++;
      const now = new Date();
      await utimes(file, now, now).catch(() => {}); // the newest by use is kept longest
      return kept;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // nothing kept
      counts.rejected++;
      log(`[vitae] the kept build of ${commit.slice(0, 7)} is not used (${(error as Error).message}); building it again`);
      return undefined;
    }
  }

  function save(build: Build): Promise<void> {
    const { commit } = build;
    if (!COMMIT.test(commit)) return Promise.resolve();
    const pending = saving.get(commit);
    if (pending) return pending;
    const done = (async () => {
      // After the build is swapped in and its requests answered, in slices: encoding holds the thread.
      const pause = slicer();
      await new Promise((resolve) => setImmediate(resolve));
      const kept = keptOf(build);
      if (!kept) return;
      await writeWhole(fileOf(commit), await encodeChunks(kept, { format, code }, pause));
      counts.saved++;
    })()
      .catch((error: unknown) => log(`[vitae] the build of ${commit.slice(0, 7)} could not be kept: ${(error as Error).message}`))
      .finally(() => saving.delete(commit));
    saving.set(commit, done);
    return done;
  }

  async function prune(live: Iterable<string>): Promise<void> {
    const keep = new Set(live);
    const kept: Array<{ file: string; time: number }> = [];
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const file = join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      const match = /^([0-9a-f]{7,64})-v(\d+)\.bin$/.exec(name);
      if (name.endsWith('.tmp')) {
        if (Date.now() - info.mtimeMs > TEMP_MAX_AGE_MS) await unlink(file).catch(() => {});
      } else if (!match || Number(match[2]) !== format) {
        await unlink(file).catch(() => {});
      } else if (!keep.has(match[1]!) && !saving.has(match[1]!)) {
        kept.push({ file, time: info.mtimeMs });
      }
    }
    kept.sort((a, b) => b.time - a.time);
    for (const { file } of kept.slice(recent)) {
      await unlink(file).catch(() => {});
    }
  }

  return {
    dir,
    keptFile: (commit) => ({ file: fileOf(commit), format, code, commit }),
    load,
    save,
    prune,
    async flush() {
      await Promise.all(saving.values());
    },
    counts,
  };
}

/** The payload's parts, each serialised on its own (so a caller can yield between them): the rest, the passages, the index. */
const payloadParts = (kept: KeptBuild): Array<() => Buffer> => {
  const { passages, search, ...rest } = kept;
  return [() => serialize(rest), () => serialize(passages), () => serialize(search)];
};

/** The file of a kept build, in chunks; `pause` is awaited between the costly steps (a few hundred ms at 100× the demo content). */
export async function encodeChunks(kept: KeptBuild, { format, code }: { format: number; code: string }, pause: Pause = noPause): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  let crc = 0;
  for (const part of payloadParts(kept)) {
    await pause();
    const bytes = part();
    parts.push(bytes);
    crc = crc32(bytes, crc);
  }
  const header: Header = { format, code, commit: kept.commit, parts: parts.map((p) => p.length), bytes: parts.reduce((n, p) => n + p.length, 0), crc32: crc };
  const head = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return [MAGIC, length, head, ...parts];
}

export function encode(kept: KeptBuild, options: { format: number; code: string }): Promise<Buffer> {
  return encodeChunks(kept, options).then((chunks) => Buffer.concat(chunks));
}

/** The most of a kept build's file held at once while its checksum is worked out. */
const CHECK_CHUNK = 8 << 20;

/**
 * The kept build in `file`; throws, saying why, when it is not one of `commit` by this format and code. Read a
 * part at a time: the whole file at once was 200 MB at 100× the demo's content, held with what it decodes to (and
 * by a build worker warming up, meanwhile). The checksum is worked out first, over the file in chunks, so no part
 * is decoded before the file is known whole. With `index: false` the search index is neither read nor checked (a
 * build worker warming up needs the model and the passages only, from a file the service loaded and checked).
 */
export async function readKept(file: string, expected: { format: number; code: string; commit: string }): Promise<KeptBuild>;
export async function readKept(
  file: string,
  expected: { format: number; code: string; commit: string },
  options: { index: false },
): Promise<Omit<KeptBuild, 'search'>>;
export async function readKept(
  file: string,
  expected: { format: number; code: string; commit: string },
  { index = true }: { index?: boolean } = {},
): Promise<Omit<KeptBuild, 'search'>> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const read = async (length: number, position: number, bytes = Buffer.allocUnsafe(length)) => {
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(bytes, done, length - done, position + done);
        if (!bytesRead) throw new Error(`truncated: ${position + done} of ${position + length} bytes`);
        done += bytesRead;
      }
      return bytes;
    };
    if (size < MAGIC.length + 4) throw new Error('not a kept build');
    const fixed = await read(MAGIC.length + 4, 0);
    if (!fixed.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a kept build');
    const start = MAGIC.length + 4 + fixed.readUInt32LE(MAGIC.length);
    if (start > size) throw new Error('truncated');
    let header: Header;
    try {
      header = JSON.parse((await read(start - fixed.length, fixed.length)).toString('utf8')) as Header;
    } catch {
      throw new Error('its header is corrupt');
    }
    if (header.format !== expected.format) throw new Error(`format ${header.format}, this version reads ${expected.format}`);
    if (header.code !== expected.code) throw new Error('made by another version of the code');
    if (header.commit !== expected.commit) throw new Error(`it is the build of ${String(header.commit)}`);
    const { parts } = header;
    if (
      !Array.isArray(parts) ||
      parts.length !== 3 ||
      !parts.every((n) => Number.isSafeInteger(n) && n >= 0) ||
      parts[0]! + parts[1]! + parts[2]! !== header.bytes
    ) {
      throw new Error('its header is corrupt');
    }
    const [restLength, passagesLength, indexLength] = parts as [number, number, number];
    if (index) {
      if (size - start !== header.bytes) throw new Error(`truncated: ${size - start} of ${header.bytes} bytes`);
      // One chunk's memory for the whole file: a new one per chunk made the collector run for each (external memory).
      const chunk = Buffer.allocUnsafe(Math.min(CHECK_CHUNK, header.bytes));
      let crc = 0;
      for (let at = 0; at < header.bytes; at += chunk.length) {
        const length = Math.min(chunk.length, header.bytes - at);
        crc = crc32((await read(length, start + at, chunk)).subarray(0, length), crc);
      }
      if (crc !== header.crc32) throw new Error('corrupt: its checksum does not match');
    } else if (size - start < restLength + passagesLength) {
      throw new Error(`truncated: ${size - start} of ${restLength + passagesLength} bytes`);
    }
    const kept = {
      ...(deserialize(await read(restLength, start)) as Omit<KeptBuild, 'passages' | 'search'>),
      passages: deserialize(await read(passagesLength, start + restLength)) as KeptBuild['passages'],
      ...(index ? { search: ownArrays(deserialize(await read(indexLength, start + restLength + passagesLength)) as KeptBuild['search']) } : {}),
    } as KeptBuild;
    if (
      kept?.commit !== expected.commit ||
      typeof kept.committedAt !== 'string' ||
      typeof kept.builtAt !== 'string' ||
      !Array.isArray(kept.fileTimes) ||
      !(kept.model?.entries instanceof Map) ||
      typeof kept.siteUrl !== 'string' ||
      !Array.isArray(kept.passages) ||
      (index && !Array.isArray(kept.search?.locales))
    ) {
      throw new Error('its contents are not a build');
    }
    return kept;
  } finally {
    await handle.close();
  }
}

/**
 * The index with each array in memory of its own: deserialised, they are views into the bytes read, which then
 * stayed in memory as long as the build was served (200 MB at 100× the demo content, model and passages included).
 */
function ownArrays(search: KeptBuild['search']): KeptBuild['search'] {
  if (!Array.isArray(search?.locales)) return search;
  for (const locale of search.locales) {
    locale.passages = locale.passages?.slice();
    const engine = locale.engine;
    if (!engine) continue;
    engine.offsets = engine.offsets?.slice();
    engine.docs = engine.docs?.slice();
    engine.scores = engine.scores?.slice();
    engine.idfs = engine.idfs?.slice();
  }
  return search;
}

let fingerprint: Promise<string> | undefined;

/**
 * What identifies the code that makes builds: the format version, V8's version (the serialisation), the
 * package's version and lock file (the dependencies that analyse text), and the code itself — the bundle this
 * module was compiled into (build/server.mjs, with build/build-worker.mjs), or, run from the sources, the files of operations/corpus,
 * operations/content and operations/contract. So an upgrade, or a change to how text is analysed, never
 * loads a build the running code would not make.
 */
export function codeFingerprint(): Promise<string> {
  return (fingerprint ??= (async () => {
    const here = fileURLToPath(import.meta.url);
    const hash = createHash('sha256').update(`format ${FORMAT_VERSION}\nv8 ${process.versions.v8}\n`);
    const root = await packageRoot(dirname(here));
    if (root) {
      for (const name of ['package.json', 'package-lock.json']) hash.update(`${name}\n`).update(await readFile(join(root, name)).catch(() => ''));
    }
    if (!here.endsWith('.ts') || !root) {
      hash.update(await readFile(here));
      // the worker thread that makes builds is bundled beside it (operations/server/builder.server.ts)
      hash.update(await readFile(join(dirname(here), 'build-worker.mjs')).catch(() => ''));
    } else {
      for (const folder of ['operations/corpus', 'operations/content', 'operations/contract']) {
        const names = (await readdir(join(root, folder))).filter((n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n)).sort();
        for (const name of names) hash.update(`${folder}/${name}\n`).update(await readFile(join(root, folder, name)));
      }
    }
    return hash.digest('hex').slice(0, 32);
  })());
}

async function packageRoot(from: string): Promise<string | undefined> {
  for (let dir = from; ; dir = dirname(dir)) {
    if (await stat(join(dir, 'package.json')).catch(() => undefined)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
