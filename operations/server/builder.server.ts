// Builds off the service's thread: a worker thread (build-worker.ts) parses and validates a commit's files and
// makes its passages and search index; the service decodes what it sends back a group at a time between
// requests and makes each locale's records from it, as it does for a build kept on disk (persist.ts). A build
// at 100× the demo's content held every request for seconds on the service's thread.
//
// The worker keeps the texts it was sent by blob sha, and this side remembers which, so a build request carries
// only the files the worker does not have (what a commit changed). One build runs at a time. A worker that dies
// fails the builds under way (the pipeline marks their run failed) and is started again for the next one.
//
// A build has a time budget per file: the worker says which file it is on (build-progress.ts), and one that spends
// longer than FILE_BUDGET_MS on a single file is stopped (the thread terminated, wherever it is) and its build fails
// naming that file, so a text some step handles in more than linear time fails its own run instead of holding every
// later run behind it (a 500 kB body of "*a " once built for 458 s while five runs waited).
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { deserialize } from 'node:v8';
import type { Problem } from '../contract/errors.ts';
import type { ContentModel } from '../content/tree.ts';
import type { Passage } from '../corpus/search.ts';
import { blobSha, type RepoFiles } from '../repo/change-checks.ts';
import { REGULAR } from '../content/tree.ts';
import type { KeptBuild } from '../corpus/persist.ts';
import type { BuildReply, BuildRequest, BuildWorkerData, PreloadRequest } from '../corpus/build-worker.ts';
import { progressBuffer, readProgress } from '../corpus/build-progress.ts';
import { noPause, slicer, type Pause } from '../content/pause.ts';

export interface BuildInput {
  commit: string;
  committedAt: Date;
  fileTimes: ReadonlyMap<string, Date>;
  siteUrl: string;
  files: RepoFiles;
}

export interface MakeInput extends BuildInput {
  /** The content model of `files`, loaded here (its parse is cached here, so it costs lookups, not a copy). */
  model: ContentModel;
  /** A build this side holds whose passages came from the worker: unchanged passages are taken from it. */
  base?: { commit: string; siteUrl: string; passages: readonly Passage[] };
}

/** Names a build's passages between the two sides. */
const keyOf = (commit: string, siteUrl: string) => `${commit}\n${siteUrl.replace(/\/+$/, '')}`;

export interface Builder {
  /** The kept form of the commit's build, or its content's problems. `pause` is awaited while decoding it. */
  make(input: MakeInput, pause?: Pause): Promise<{ kept: KeptBuild } | { problems: Problem[] }>;
  /**
   * Starts the worker ahead of its first request: loading its modules takes a few hundred ms, which a start can
   * overlap. With `kept`, the worker also reads that kept build at once, for the warm-up that will name it (at
   * 100× the demo content, a second the start spends restoring its own copy).
   */
  start(kept?: BuildRequest['kept']): void;
  /** Fills the worker's caches with the commit's files, so the next build near it costs what changed. */
  warm(input: BuildInput & { kept?: BuildRequest['kept'] }): Promise<void>;
  close(): Promise<void>;
  /** Since it was made, for logs and tests: requests sent, texts sent with them, workers started. */
  readonly counts: { requests: number; texts: number; workers: number };
}

/**
 * The worker's young generation: V8's default let it hold about 30 MB more than its live objects between builds
 * (10× the demo content: 95 MB of heap for 48 MB in use), and a smaller one made no build slower.
 */
const WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8 };

/**
 * The most a build may spend on one file. Every step of a build is linear in a file's text, and a file is at most
 * 256 kB: such a file of the most costly text known (a megabyte of "*a " builds in under a second) takes a fraction
 * of this, even on a busy machine. What takes longer is a step we do not know to be slow: it fails its own run.
 */
export const FILE_BUDGET_MS = 10_000;

/** The worker's module: the TypeScript source through tsx (dev, tests), or the bundle beside build/server.mjs. */
function startWorker(workerData: BuildWorkerData, limits?: ResourceLimits): Worker {
  const resourceLimits = { ...WORKER_LIMITS, ...limits };
  const self = import.meta.url;
  if (self.endsWith('.ts')) {
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('../corpus/build-worker.ts', self).href;
    return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, {
      eval: true,
      name: 'vitae-build',
      resourceLimits,
      workerData,
    });
  }
  return new Worker(new URL('./build-worker.mjs', self), { name: 'vitae-build', resourceLimits, workerData });
}

export function createBuilder(
  options: {
    log?: (line: string) => void;
    resourceLimits?: ResourceLimits;
    /** The most a build may spend on one file (default FILE_BUDGET_MS). */
    fileBudgetMs?: number;
    /** Tests: where the worker stops responding (build-worker.ts), as a step that never ends would. */
    stall?: BuildWorkerData['stall'];
  } = {},
): Builder {
  const budget = options.fileBudgetMs ?? FILE_BUDGET_MS;
  let worker: Worker | undefined;
  /** Where the worker is (build-progress.ts), read by the watchdog while requests are pending. */
  let progress = progressBuffer();
  let watchdog: ReturnType<typeof setInterval> | undefined;
  /** Blob shas the worker holds. */
  let held = new Set<string>();
  /** The files of the last request the worker was sent (path → blob sha): the next sends how its own differ. */
  let sentFiles = new Map<string, string>();
  /** Counts the workers replaced: what `held` and `sentFiles` describe. */
  let generation = 0;
  const pending = new Map<number, { resolve: (reply: BuildReply) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  const counts = { requests: 0, texts: 0, workers: 0 };

  function failAll(error: Error) {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    watch();
    worker = undefined;
    held = new Set();
    sentFiles = new Map();
    generation++;
  }

  /**
   * Runs the watchdog while requests are pending: a worker that has spent more than the budget on one file is
   * stopped, and the requests under way fail naming the file (the next request starts a new worker).
   */
  function watch() {
    if (pending.size && !watchdog) {
      watchdog = setInterval(
        () => {
          const { path, spent } = readProgress(progress, Date.now());
          if (!worker || path === null || spent <= budget) return;
          const stuck = worker;
          options.log?.(`[vitae] the build worker spent ${Math.round(spent / 1000)} s on ${path}: it was stopped`);
          failAll(new Error(`the build spent more than ${budget / 1000} s on ${path} and was stopped: no file may take that long to build`));
          void stuck.terminate();
        },
        Math.min(250, Math.max(10, budget / 4)),
      );
      watchdog.unref();
    } else if (!pending.size && watchdog) {
      clearInterval(watchdog);
      watchdog = undefined;
    }
  }

  function running(): Worker {
    if (worker) return worker;
    progress = progressBuffer();
    const started = startWorker({ progress, ...(options.stall ? { stall: options.stall } : {}) }, options.resourceLimits);
    counts.workers++;
    started.unref();
    started.on('message', (reply: BuildReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (!pending.size) started.unref();
      watch();
      waiting?.resolve(reply);
    });
    started.on('error', (error) => {
      options.log?.(`[vitae] the build worker failed: ${error.stack ?? error.message}`);
      if (worker === started) failAll(new Error(`the build worker failed: ${error.message}`));
    });
    started.on('exit', (code) => {
      if (worker === started) failAll(new Error(`the build worker stopped (exit code ${code})`));
    });
    return (worker = started);
  }

  /** The request's files and texts as a change to what the worker holds (`generation`: of the worker it was worked out for). */
  async function changeFor(input: BuildInput, pause: Pause) {
    const at = generation;
    return { generation: at, ...(await changeAgainst(input, held, sentFiles, pause)) };
  }

  async function send(input: BuildInput & { base?: MakeInput['base']; kept?: BuildRequest['kept'] }, warm: boolean, pause: Pause): Promise<BuildReply> {
    if (closed) throw new Error('the builder is closed');
    // What the worker lacks, against what it holds: worked out in slices (a tree at 100× the demo content took
    // 20 ms), then again at once in the rare case the worker was replaced meanwhile.
    let parts = await changeFor(input, pause);
    if (parts.generation !== generation) parts = await changeFor(input, noPause);
    if (closed) throw new Error('the builder is closed');
    const { files, texts, resetTexts, now } = parts;
    if (resetTexts) held = new Set();
    for (const [sha] of texts) held.add(sha);
    sentFiles = now;
    const request = requestOf(nextId++, input, { files, texts, resetTexts }, warm);
    counts.requests++;
    counts.texts += texts.length;
    const target = running();
    return new Promise<BuildReply>((resolve, reject) => {
      pending.set(request.id, { resolve, reject });
      watch();
      target.ref();
      target.postMessage(request);
    });
  }

  /** One request at a time: the worker makes one build at a time anyway, and a reply is decoded before the next starts. */
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const result = queue.then(work);
    queue = result.catch(() => {});
    return result;
  }

  return {
    counts,
    start(kept) {
      if (closed) return;
      const target = running();
      if (kept) target.postMessage({ preload: kept } satisfies PreloadRequest);
    },
    make(input, pause = noPause) {
      return serial(async () => keptOfReply(await send(input, false, pause), input, pause));
    },
    warm(input) {
      return serial(async () => {
        const reply = await send(input, true, slicer());
        if (reply.type === 'failed') throw new Error(reply.message);
      });
    },
    async close() {
      closed = true;
      const stopping = worker;
      failAll(new Error('the builder is closed'));
      await stopping?.terminate();
    },
  };
}

/**
 * The request's files and texts as a change to what the worker holds: `held`, the blob shas it holds, and `sentFiles`,
 * the files of the last request it was sent (path → blob sha). `now` is what `sentFiles` becomes once this is sent.
 */
async function changeAgainst(input: BuildInput, held: ReadonlySet<string>, sentFiles: ReadonlyMap<string, string>, pause: Pause) {
  const shaOf = new Map(input.files.tree.map((entry) => [entry.path, entry.sha]));
  const texts: Array<[string, string]> = [];
  // The worker forgets what it holds once that is much more than a tree: memory stays about two commits' text.
  const resetTexts = held.size > 2 * input.files.texts.size + 256;
  const adding = new Set<string>();
  const files: BuildRequest['files'] = { reset: sentFiles.size === 0, set: [], removed: [] };
  const now = new Map<string, string>();
  for (const [path, text] of input.files.texts) {
    if (now.size % 2048 === 0) await pause();
    const sha = shaOf.get(path) ?? blobSha(text);
    now.set(path, sha);
    if (sentFiles.get(path) !== sha) files.set.push([path, sha]);
    if ((resetTexts || !held.has(sha)) && !adding.has(sha)) {
      adding.add(sha);
      texts.push([sha, text]);
    }
  }
  for (const path of sentFiles.keys()) if (!now.has(path)) files.removed.push(path);
  return { files, texts, resetTexts, now };
}

/** The request that sends `change` to the worker for `input` (a build, or with `warm` a warm-up). */
function requestOf(
  id: number,
  input: BuildInput & { base?: MakeInput['base']; kept?: BuildRequest['kept'] },
  change: Pick<BuildRequest, 'files' | 'texts' | 'resetTexts'>,
  warm: boolean,
): BuildRequest {
  return {
    id,
    commit: input.commit,
    committedAt: input.committedAt.toISOString(),
    siteUrl: input.siteUrl,
    ...change,
    irregular: input.files.tree.filter((entry) => !REGULAR.has(entry.mode)),
    ...(warm ? { warm: true } : {}),
    ...(warm && input.kept ? { kept: input.kept } : {}),
    key: keyOf(input.commit, input.siteUrl),
    ...(input.base ? { base: keyOf(input.base.commit, input.base.siteUrl) } : {}),
  };
}

/** A build's reply as the kept build, or its content's problems; `pause` is awaited while decoding it. */
async function keptOfReply(reply: BuildReply, input: MakeInput, pause: Pause): Promise<{ kept: KeptBuild } | { problems: Problem[] }> {
  if (reply.type === 'invalid') return { problems: reply.problems };
  if (reply.type === 'failed') throw new Error(`the build of ${input.commit.slice(0, 7)} failed: ${reply.message}`);
  if (reply.type !== 'built') throw new Error(`the build worker answered ${reply.type} to a build`);
  const base = reply.reuse ? input.base : undefined;
  if (reply.reuse && (!base || reply.reuse.base !== keyOf(base.commit, base.siteUrl))) throw new Error('the build worker answered with another base');
  const kept = await decodeParts(reply.parts, input, reply.reuse && base ? { from: reply.reuse.from, passages: base.passages } : undefined, pause);
  const search: KeptBuild['search'] = { ...reply.search, locales: [] };
  for (const l of reply.search.locales) {
    await pause();
    search.locales.push({ ...l, engine: { ...l.engine, terms: l.engine.terms ? l.engine.terms.split('\0') : [] } });
  }
  return { kept: { ...kept, search } };
}

/**
 * The kept build (but its index) in the worker's parts over the input's model and file times, decoded one part at a
 * time with `pause` between; with `reuse`, each passage the worker placed in the base is the base's own object.
 */
async function decodeParts(
  parts: Uint8Array[],
  { model, fileTimes }: MakeInput,
  reuse: { from: Int32Array; passages: readonly Passage[] } | undefined,
  pause: Pause,
): Promise<Omit<KeptBuild, 'search'>> {
  const head = deserialize(parts[0]!) as Omit<KeptBuild, 'model' | 'passages' | 'search' | 'fileTimes'>;
  const times: KeptBuild['fileTimes'] = [];
  for (const [path, time] of fileTimes) {
    if (times.push([path, time.toISOString()]) % 4096 === 0) await pause();
  }
  const fresh: Passage[] = [];
  for (let i = 1; i < parts.length; i++) {
    await pause();
    const part = deserialize(parts[i]!) as { kind: 'passages'; items: Passage[] };
    parts[i] = new Uint8Array(0); // its bytes can go as soon as they are decoded
    for (const passage of part.items) fresh.push(passage);
  }
  let passages = fresh;
  if (reuse) {
    passages = new Array<Passage>(reuse.from.length);
    let next = 0;
    for (let i = 0; i < reuse.from.length; i++) {
      const place = reuse.from[i]!;
      const passage = place >= 0 ? reuse.passages[place] : fresh[next++];
      if (!passage) throw new Error('the build worker placed a passage outside its base');
      passages[i] = passage;
    }
    if (next !== fresh.length) throw new Error('the build worker sent passages it did not place');
  }
  return { ...head, fileTimes: times, model, passages };
}
