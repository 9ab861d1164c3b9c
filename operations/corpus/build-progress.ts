// Where the build worker is, in memory both threads see: the file it works on, since when, and how long it spent on
// that file before. The worker writes it as it moves from file to file (build-worker.ts); the service reads it while
// a build runs and stops a build that spent longer than its budget on one file (builder.server.ts), even one stuck
// in a single call that never returns. A sequence number, odd while a write is under way, keeps a read whole.

const PATH_BYTES = 1024;
/** Int32 slots: the sequence number, then the path's length in bytes. */
const INTS = 2;
/** Float64 slots after them: when work on the file began (ms since the epoch), and the ms spent on it before that. */
const TIMES = 2;
const TIMES_AT = INTS * 4;
const PATH_AT = TIMES_AT + TIMES * 8;

export interface Progress {
  /** The file the worker is on, or null when on no one file (loading its modules, the index's arithmetic). */
  path: string | null;
  /** Milliseconds spent on `path` so far, by `now`. */
  spent: number;
}

export function progressBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(PATH_AT + PATH_BYTES);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The worker's side: `write` whenever the file changes. */
export function progressWriter(buffer: SharedArrayBuffer) {
  const ints = new Int32Array(buffer, 0, INTS);
  const times = new Float64Array(buffer, TIMES_AT, TIMES);
  const bytes = new Uint8Array(buffer, PATH_AT, PATH_BYTES);
  return {
    write(path: string | null, since: number, spentBefore: number): void {
      Atomics.add(ints, 0, 1);
      times[0] = since;
      times[1] = spentBefore;
      ints[1] = path === null ? 0 : encoder.encodeInto(path, bytes).written;
      Atomics.add(ints, 0, 1);
    },
  };
}

/**
 * The service's side: where the worker is, read whole (a write under way is read again; a worker stopped in the
 * middle of one leaves it as it is, and it is read as it is).
 */
export function readProgress(buffer: SharedArrayBuffer, now: number): Progress {
  const ints = new Int32Array(buffer, 0, INTS);
  const times = new Float64Array(buffer, TIMES_AT, TIMES);
  const bytes = new Uint8Array(buffer, PATH_AT, PATH_BYTES);
  let read: Progress = { path: null, spent: 0 };
  for (let attempt = 0; attempt < 1000; attempt++) {
    const before = Atomics.load(ints, 0);
    const length = Math.min(Math.max(ints[1]!, 0), PATH_BYTES);
    const [since, spentBefore] = [times[0]!, times[1]!];
    const path = length ? decoder.decode(bytes.slice(0, length)) : null;
    read = { path, spent: path === null ? 0 : spentBefore + Math.max(0, now - since) };
    if (before % 2 === 0 && Atomics.load(ints, 0) === before) break;
  }
  return read;
}
