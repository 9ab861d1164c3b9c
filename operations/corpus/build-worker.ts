// The worker thread that makes builds (started by operations/server/builder.server.ts): it parses and validates a commit's files,
// splits their text into passages and makes the search index, all of which held the service's thread for as
// long as they ran. What it sends back is what a kept build holds (persist.ts), as node:v8 serialisations of
// small groups, so the service decodes it a group at a time between answering requests, and makes the records
// of each locale from it as it does for a build loaded from disk.
//
// It keeps the text of the files it was sent, by blob sha, so a request carries only the files it does not have:
// what a commit changed. Its caches (each file's parse, each text's passages and term counts) live here, so a build
// after a small commit costs what the commit changed.
import { parentPort, workerData } from 'node:worker_threads';
import { serialize } from 'node:v8';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { loadCommitContent, loadContentSliced } from '../content/tree.ts';
import { rememberParses } from '../content/kept-parses.ts';
import { rebasedPassages, searchPassages } from './corpus.ts';
import { slicer } from '../content/pause.ts';
import { LruMap } from '../content/lru-map.ts';
import { makeKept, readKept, type KeptBuild } from './persist.ts';
import { ownedBytes } from './owned-bytes.ts';
import { warmTermCounts, type Passage, type SearchIndexData } from './search.ts';
import type { Problem } from '../contract/errors.ts';
import type { DocumentName } from '../contract/shared.ts';
import type { ContentModel } from '../content/tree.ts';
import { listenWorkingOn, type WorkItem } from '../content/working-on.ts';
import { progressWriter } from './build-progress.ts';

/** What the service sends (operations/server/builder.server.ts). */
export interface BuildRequest {
  id: number;
  commit: string;
  committedAt: string;
  siteUrl: string;
  /**
   * The commit's texts (path → blob sha) as a change to the previous request's (`reset`: to none). The files of a
   * tree at 100× the demo content, sent whole, held the service's thread for 35 ms per build.
   */
  files: { reset: boolean; set: Array<[string, string]>; removed: string[] };
  /** The texts the worker does not hold yet, by blob sha. */
  texts: Array<[string, string]>;
  /** Forget every text held before this request's. */
  resetTexts: boolean;
  /** Symlinks and submodules of the tree (they make it invalid). */
  irregular: Array<{ path: string; mode: string }>;
  /** Only fill the worker's caches (after a build was loaded from disk): nothing is sent back. */
  warm?: boolean;
  /**
   * With `warm`: the kept build of the commit (persist.ts), read here instead of parsing every file and splitting
   * every text again; its passages become the base (`key`) of the next build, as the service holds them.
   */
  kept?: { file: string; format: number; code: string; commit: string };
  /**
   * The build whose passages the service holds as this worker sent them (the branch's live build, by commit and
   * site address): passages unchanged since are sent as their place in it, not again.
   */
  base?: string;
  /** What names this build's passages as a later request's `base`. */
  key: string;
}

/** Read a kept build now, for a warm-up that will name it (sent by `Builder.start`; no reply). */
export interface PreloadRequest {
  preload: NonNullable<BuildRequest['kept']>;
}

export type BuildReply =
  | {
      id: number;
      type: 'built';
      /** The head (commit, times, site address), then groups of passages. Neither the model nor the file times are sent: the service has them. */
      parts: Uint8Array[];
      /** The index as data, its arrays transferred (not copied) and each locale's terms in one string, NUL between them. */
      search: WireIndexData;
      /** When `base` was used: each passage's place in the base's passages, or -1 for the next one of the groups sent. */
      reuse?: { base: string; from: Int32Array };
    }
  | { id: number; type: 'invalid'; problems: Problem[] }
  | { id: number; type: 'warmed' }
  | { id: number; type: 'failed'; message: string };

/** SearchIndexData as the worker sends it. */
export type WireIndexData = Omit<SearchIndexData, 'locales'> & {
  locales: Array<
    Omit<SearchIndexData['locales'][number], 'engine'> & { engine: Omit<SearchIndexData['locales'][number]['engine'], 'terms'> & { terms: string } }
  >;
};

/** What the service starts the worker with (builder.server.ts). */
export interface BuildWorkerData {
  /** Where the worker says which file it is on (build-progress.ts), for the service's time budget. */
  progress: SharedArrayBuffer;
  /**
   * Tests: where the worker stops responding, as a step that never ends would, to show the budget stops it: the
   * `visit`-th time the work comes to `path` (1, the default: its check; then its passages and its index's turn).
   */
  stall?: { path: string; visit?: number };
}

/** The nice value of the build thread (0 is the service's; 19 the lowest priority). */
const BUILD_NICE = 10;

/** How many records go in one serialisation: small enough that decoding one never holds the service's thread. */
const GROUP = 64;

const port = parentPort;
if (!port) throw new Error('build-worker.ts runs as a worker thread (operations/server/builder.server.ts starts it)');

// A build is background work: on Linux this thread gets a lower priority (its own nice value) than the thread
// answering requests, which on a machine of two cores otherwise waited for it.
try {
  const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (thread > 0) setPriority(thread, BUILD_NICE);
} catch {
  // not Linux, or not allowed: the build runs at the service's priority
}

// Which file the work is on, as the content checks, the passages and the index report it (working-on.ts), with the
// time spent on each file of the request under way: the service stops a build that spends too long on one.
const { progress, stall } = workerData as BuildWorkerData;
const progressOut = progressWriter(progress);
/** The model whose records the reports name (the request's, once its files are checked). */
let modelNow: ContentModel | undefined;
let lastItem: WorkItem | null = null;
let pathNow: string | null = null;
let since = Date.now();
const spent = new Map<string, number>();
const visits = new Map<string, number>();

listenWorkingOn((item) => {
  if (
    item === lastItem ||
    (item &&
      lastItem &&
      typeof item === 'object' &&
      typeof lastItem === 'object' &&
      item.slug === lastItem.slug &&
      item.kind === lastItem.kind &&
      item.locale === lastItem.locale)
  )
    return;
  lastItem = item;
  const path = item === null ? null : pathOf(item);
  if (path === pathNow) return;
  const now = Date.now();
  if (pathNow !== null) spent.set(pathNow, (spent.get(pathNow) ?? 0) + now - since);
  pathNow = path;
  since = now;
  progressOut.write(path, now, path === null ? 0 : (spent.get(path) ?? 0));
  if (path === null || !stall) return;
  visits.set(path, (visits.get(path) ?? 0) + 1);
  if (path === stall.path && visits.get(path) === (stall.visit ?? 1)) for (;;); // a test's stand-in for a step that never ends
});

/** The file of a report: a path as it is; a record's, the translation its text came from, or its English file. */
function pathOf(item: WorkItem): string | null {
  if (typeof item === 'string') return item;
  const source = item.kind === 'entry' ? modelNow?.entries.get(item.slug) : modelNow?.documents.get(item.slug as DocumentName);
  if (!source) return null;
  const translation = item.locale === 'en' ? undefined : modelNow!.translations.get(source.path)?.get(item.locale);
  return translation && !translation.stale ? translation.path : source.path;
}

/** A new request: no time spent on any file yet. */
function startTiming(): void {
  spent.clear();
  visits.clear();
  modelNow = undefined;
  lastItem = pathNow = null;
  since = Date.now();
  progressOut.write(null, since, 0);
}

const blobs = new Map<string, string>();
/** The last request's files, path → blob sha (each request says how its own differ). */
const files = new Map<string, string>();
const SENT_KEPT = 2;
/**
 * The passages of the builds sent last, by commit and site address (the bases of the next requests): the service
 * holds them as this worker sent them. A build used as a base is only peeked at, so the builds kept are the ones
 * made (or warmed) last.
 */
const sent = new LruMap<string, Passage[]>(SENT_KEPT);

async function handle(request: BuildRequest): Promise<BuildReply> {
  if (request.resetTexts) blobs.clear();
  for (const [sha, text] of request.texts) blobs.set(sha, text);
  if (request.files.reset) files.clear();
  for (const path of request.files.removed) files.delete(path);
  for (const [path, sha] of request.files.set) files.set(path, sha);
  const texts = new Map<string, string>();
  for (const [path, sha] of files) {
    const text = blobs.get(sha);
    if (text === undefined) throw new Error(`the build worker was not sent the text of ${path} (${sha.slice(0, 7)})`);
    texts.set(path, text);
  }
  if (request.warm) return warm(request, texts);
  const { model, problems } = loadCommitContent({ tree: request.irregular, texts });
  modelNow = model;
  if (!model || problems.length) return { id: request.id, type: 'invalid', problems };
  const kept = await makeKept(model, {
    commit: request.commit,
    committedAt: new Date(request.committedAt),
    fileTimes: new Map(),
    siteUrl: request.siteUrl,
  });
  const { passages, search, model: _model, fileTimes: _fileTimes, ...head } = kept;
  const parts: Uint8Array[] = [serialize(head)];
  // A passage the base has (the same fields) is sent as its place there: a commit sends what it changed, and
  // the service keeps the objects it has instead of decoding (and collecting) a copy of every passage.
  const base = request.base ? sent.peek(request.base) : undefined;
  let fresh: Passage[] = passages;
  let reuse: { base: string; from: Int32Array } | undefined;
  if (base && request.base) {
    // By place in their record (locale, record, n-th passage), then compared field by field: the strings are
    // mostly the same ones (the caches hand them out), so this costs far less than a key of each passage's text.
    const places = new Map<string, number>();
    placesOf(base, (key, i) => places.set(key, i));
    const from = new Int32Array(passages.length).fill(-1);
    fresh = [];
    placesOf(passages, (key, i) => {
      const place = places.get(key);
      if (place !== undefined && samePassage(base[place]!, passages[i]!)) from[i] = place;
      else fresh.push(passages[i]!);
    });
    reuse = { base: request.base, from };
  }
  for (let i = 0; i < fresh.length; i += GROUP) parts.push(serialize({ kind: 'passages', items: fresh.slice(i, i + GROUP) }));
  sent.set(request.key, passages);
  const wire: WireIndexData = { ...search, locales: search.locales.map((l) => ({ ...l, engine: { ...l.engine, terms: l.engine.terms.join('\0') } })) };
  return { id: request.id, type: 'built', parts, search: wire, ...(reuse ? { reuse } : {}) };
}

/** Calls `each` with every passage's place in its record (locale, kind, slug, n-th) and its index, in order. */
function placesOf(passages: readonly Passage[], each: (key: string, index: number) => void): void {
  const counts = new Map<string, number>();
  passages.forEach((p, i) => {
    const record = `${p.locale}\0${p.kind}\0${p.slug}`;
    const n = counts.get(record) ?? 0;
    counts.set(record, n + 1);
    each(`${record}\0${n}`, i);
  });
}

function samePassage(a: Passage, b: Passage): boolean {
  return a.title === b.title && a.meta === b.meta && a.text === b.text && a.url === b.url && a.locale === b.locale && a.slug === b.slug && a.kind === b.kind;
}

class Preempted extends Error {}
/** Set when a build arrives: a warm-up under way stops, since the build does what it would have. */
let preempted = false;

/**
 * Fills the caches a build reads (each file's parse, each text's passages and term counts) in slices, without making
 * an index. Stops as soon as a build request arrives.
 */
async function warm(request: BuildRequest, texts: Map<string, string>): Promise<BuildReply> {
  const slice = slicer(20);
  const pause = () => {
    if (preempted) throw new Preempted();
    return slice();
  };
  try {
    // (A kept build that cannot be read, or is not yet written, leaves the files to be parsed.)
    const kept = request.kept ? await readKeptBuild(request.kept) : undefined;
    const made = kept ? rebasedPassages(kept.passages, kept.siteUrl.replace(/\/+$/, ''), request.siteUrl.replace(/\/+$/, '')) : undefined;
    if (kept) {
      sent.set(request.key, made!);
      await rememberParses(kept.model, texts, pause);
    }
    const { model } = await loadContentSliced(texts, pause);
    modelNow = model;
    if (!model) return { id: request.id, type: 'warmed' };
    // The kept build's passages are this content's: its entries' text is not split again.
    const passages = searchPassages(model, request.siteUrl, made);
    // Without one (not written yet, or unreadable), they are still the passages the service holds for this commit
    // and address, as any build makes them (the same function of the same files, in the same order): the next
    // build sends what changed instead of every passage.
    if (!kept) sent.set(request.key, passages);
    await warmTermCounts(passages, pause);
  } catch (error) {
    if (!(error instanceof Preempted)) throw error;
  }
  return { id: request.id, type: 'warmed' };
}

/** A kept build read ahead of the warm-up that names it (`PreloadRequest`); used once. */
let preloaded: { file: string; kept: ReturnType<typeof readKeptBuild> } | undefined;

function readKeptBuild(kept: NonNullable<BuildRequest['kept']>): Promise<Omit<KeptBuild, 'search'> | undefined> {
  const ahead = preloaded;
  preloaded = undefined;
  const read = () => readKept(kept.file, kept, { index: false }).catch(() => undefined);
  // (Not there when read ahead, it may have been written since: a start that could not load it makes it again.)
  return ahead?.file === kept.file ? ahead.kept.then((made) => made ?? read()) : read();
}

let queue = Promise.resolve();
port.on('message', (message: BuildRequest | PreloadRequest) => {
  if ('preload' in message) {
    preloaded = { file: message.preload.file, kept: readKeptBuild(message.preload) };
    return;
  }
  const request = message;
  if (!request.kept) preloaded = undefined; // a kept build read ahead for nothing is not held
  if (!request.warm) preempted = true;
  queue = queue.then(async () => {
    let reply: BuildReply;
    if (!request.warm) preempted = false;
    startTiming();
    try {
      reply = await handle(request);
    } catch (error) {
      reply = { id: request.id, type: 'failed', message: (error as Error).stack ?? String(error) };
    }
    startTiming(); // nothing is on any file between requests
    // The parts' memory goes to the service as it is (transferred, not copied).
    if (reply.type === 'built') reply.parts = reply.parts.map(ownedBytes);
    const transfer =
      reply.type === 'built'
        ? [
            ...reply.parts.map((part) => part.buffer as ArrayBuffer),
            ...(reply.reuse ? [reply.reuse.from.buffer as ArrayBuffer] : []),
            ...new Set(
              reply.search.locales.flatMap(({ passages, engine }) =>
                [passages, engine.offsets, engine.docs, engine.scores, engine.idfs].map((a) => a.buffer as ArrayBuffer),
              ),
            ),
          ]
        : [];
    port.postMessage(reply, transfer);
  });
});
