// Hybrid search's second ranking: passages embedded once by an embeddings model (EMBEDDING_MODEL on the same
// OpenAI-compatible provider), kept by the hash of (model, text) in an append-only file under DATA_DIR, so
// unchanged text is never embedded again — not by the next build, not after a restart. A query's vector is
// compared with every passage's (cosine; vectors are normalised once), and the two rankings are fused by
// reciprocal rank fusion, which needs no calibration between BM25 scores and cosines.
//
// The file is a log of records: 32 bytes of SHA-256, a u32 dimension count, then that many f32 (little-endian).
// A record cut short by a crash is dropped (and the file truncated to the last whole record) when it is opened.
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeWhole } from './files.ts';

/** Embeds texts in one call: one vector per text, in order. */
export type EmbedTexts = (texts: string[], signal?: AbortSignal) => Promise<number[][]>;

const HASH_BYTES = 32;

export interface EmbeddingCache {
  readonly size: number;
  /** The vectors of `texts` (normalised), embedding only those not seen before, `batch` texts per call. */
  vectorsOf(texts: readonly string[], embed: EmbedTexts, options?: { batch?: number; signal?: AbortSignal }): Promise<Float32Array[]>;
  /** How many texts were sent to the model since the cache was opened. */
  readonly embedded: number;
  /**
   * Forgets the vectors of texts no longer served, once the file holds more than twice as many records as `texts`
   * (plus 1,000): the file is written again with the vectors of `texts` and of the texts of calls under way (a
   * build embedding its passages), then renamed over the old one. Without it, every text ever embedded stayed on
   * disk and in memory. One file per model (a compaction keeps this model's vectors only). Returns whether it
   * rewrote the file.
   */
  compact(texts: Iterable<string>): Promise<boolean>;
}

export function normalise(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  let sum = 0;
  for (const x of out) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

/** Opens (or creates) the cache of one model's vectors at `file`. */
export async function openEmbeddingCache(file: string, model: string): Promise<EmbeddingCache> {
  await mkdir(dirname(file), { recursive: true });
  const vectors = new Map<string, Float32Array>();
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    bytes = Buffer.alloc(0);
  }
  let offset = 0;
  let records = 0;
  while (offset + HASH_BYTES + 4 <= bytes.length) {
    const dims = bytes.readUInt32LE(offset + HASH_BYTES);
    const end = offset + HASH_BYTES + 4 + dims * 4;
    if (end > bytes.length) break;
    const key = bytes.toString('hex', offset, offset + HASH_BYTES);
    const vector = new Float32Array(dims);
    for (let i = 0; i < dims; i++) vector[i] = bytes.readFloatLE(offset + HASH_BYTES + 4 + i * 4);
    vectors.set(key, vector);
    records++;
    offset = end;
  }
  if (offset < bytes.length) await truncate(file, offset); // the tail of a write a crash cut short

  const keyOf = (text: string) => createHash('sha256').update(model).update('\0').update(text).digest();
  let embedded = 0;
  let writing = Promise.resolve();
  /** Texts being embedded, by key: settled once their vectors are in `vectors` (or the call failed). */
  const inFlight = new Map<string, Promise<void>>();

  /** Keys of the calls of `vectorsOf` under way (how many ask for each): a compaction keeps them. */
  const asked = new Map<string, number>();

  function encodeRecords(list: Array<{ key: Buffer; vector: Float32Array }>): Buffer {
    const chunks: Buffer[] = [];
    for (const { key, vector } of list) {
      const record = Buffer.alloc(HASH_BYTES + 4 + vector.length * 4);
      key.copy(record, 0);
      record.writeUInt32LE(vector.length, HASH_BYTES);
      for (let i = 0; i < vector.length; i++) record.writeFloatLE(vector[i]!, HASH_BYTES + 4 + i * 4);
      chunks.push(record);
    }
    return Buffer.concat(chunks);
  }

  async function append(list: Array<{ key: Buffer; vector: Float32Array }>) {
    records += list.length;
    const handle = await open(file, 'a');
    try {
      // One write a batch, so that appends of two processes do not interleave; continued if the system wrote less.
      const bytes = encodeRecords(list);
      for (let done = 0; done < bytes.length;) done += (await handle.write(bytes, done)).bytesWritten;
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    get size() {
      return vectors.size;
    },
    get embedded() {
      return embedded;
    },
    async compact(texts) {
      const keep = new Set<string>();
      for (const text of texts) keep.add(keyOf(text).toString('hex'));
      if (records <= 2 * keep.size + 1000) return false;
      const run = writing.then(async () => {
        // In the chain of appends: nothing is appended to the old file once this starts.
        for (const key of asked.keys()) keep.add(key);
        for (const key of inFlight.keys()) keep.add(key);
        const list: Array<{ key: Buffer; vector: Float32Array }> = [];
        for (const [hex, vector] of vectors) if (keep.has(hex)) list.push({ key: Buffer.from(hex, 'hex'), vector });
        await writeWhole(file, [encodeRecords(list)], `${file}.compact`); // (a temporary file a crash left is written over)
        for (const hex of [...vectors.keys()]) if (!keep.has(hex)) vectors.delete(hex);
        records = list.length;
      });
      writing = run.catch(() => {});
      await run;
      return true;
    },
    async vectorsOf(texts, embed, options) {
      const keys = texts.map(keyOf);
      const mine = new Set(keys.map((key) => key.toString('hex')));
      for (const hex of mine) asked.set(hex, (asked.get(hex) ?? 0) + 1);
      try {
        return await vectorsFor(texts, keys, embed, options);
      } finally {
        for (const hex of mine) {
          const n = asked.get(hex)! - 1;
          if (n) asked.set(hex, n);
          else asked.delete(hex);
        }
      }
    },
  };

  async function vectorsFor(
    texts: readonly string[],
    keys: Buffer[],
    embed: EmbedTexts,
    { batch = 96, signal }: { batch?: number; signal?: AbortSignal } = {},
  ) {
    const missing = new Map<string, { text: string; key: Buffer }>();
    const others = new Set<Promise<void>>(); // texts another call is embedding now (main and dev built at once)
    texts.forEach((text, i) => {
      const hex = keys[i]!.toString('hex');
      const underWay = inFlight.get(hex);
      if (underWay) others.add(underWay);
      else if (!vectors.has(hex) && !missing.has(hex)) missing.set(hex, { text, key: keys[i]! });
    });
    const todo = [...missing.values()];
    const batches: Array<{ slice: typeof todo; settle: (error?: unknown) => void }> = [];
    for (let start = 0; start < todo.length; start += batch) {
      const slice = todo.slice(start, start + batch);
      let settle!: (error?: unknown) => void;
      const done = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
      done.catch(() => {}); // awaited by other calls, if any
      for (const t of slice) inFlight.set(t.key.toString('hex'), done);
      batches.push({ slice, settle });
    }
    const release = ({ slice, settle }: (typeof batches)[number], error?: unknown) => {
      for (const t of slice) inFlight.delete(t.key.toString('hex'));
      settle(error);
    };
    let next = 0;
    try {
      for (; next < batches.length; next++) {
        const { slice } = batches[next]!;
        const result = await embed(
          slice.map((t) => t.text),
          signal,
        );
        if (result.length !== slice.length) throw new Error(`the embeddings model answered ${result.length} vectors for ${slice.length} texts`);
        const records = slice.map((t, i) => ({ key: t.key, vector: normalise(result[i]!) }));
        for (const r of records) vectors.set(r.key.toString('hex'), r.vector);
        embedded += slice.length;
        release(batches[next]!);
        const written = writing.then(() => append(records));
        writing = written.catch(() => {}); // a failed write fails its own call, not every later one
        await written;
      }
    } catch (error) {
      for (; next < batches.length; next++) if (inFlight.get(batches[next]!.slice[0]!.key.toString('hex'))) release(batches[next]!, error);
      throw error;
    }
    await Promise.all(others);
    const out = keys.map((key) => vectors.get(key.toString('hex')));
    if (out.some((v) => !v)) throw new Error('a text embedded by another build is missing');
    return out as Float32Array[];
  }
}

/** Passages' vectors, searched by cosine similarity (dot products of normalised vectors). */
export class VectorIndex {
  private readonly matrix: Float32Array;
  readonly dims: number;
  readonly size: number;

  constructor(vectors: readonly Float32Array[]) {
    this.size = vectors.length;
    this.dims = vectors[0]?.length ?? 0;
    this.matrix = new Float32Array(this.size * this.dims);
    vectors.forEach((v, i) => {
      if (v.length !== this.dims) throw new Error(`vector ${i} has ${v.length} dimensions, not ${this.dims}`);
      this.matrix.set(v, i * this.dims);
    });
  }

  /** The `k` passages nearest `query` (normalised), best first, as [passage index, cosine]. */
  nearest(query: Float32Array, k: number): Array<[number, number]> {
    if (query.length !== this.dims || k <= 0) return [];
    // A bounded min-heap would matter past a few hundred thousand passages; a sorted window of k is enough here.
    const best: Array<[number, number]> = [];
    for (let i = 0; i < this.size; i++) {
      let dot = 0;
      const base = i * this.dims;
      for (let d = 0; d < this.dims; d++) dot += this.matrix[base + d]! * query[d]!;
      if (best.length < k || dot > best[best.length - 1]![1]) {
        let at = best.length;
        while (at > 0 && best[at - 1]![1] < dot) at--;
        best.splice(at, 0, [i, dot]);
        if (best.length > k) best.pop();
      }
    }
    return best;
  }
}

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009): each ranking gives an item 1 / (k + rank), rank
 * from 1; items are ordered by the sum. Rankings are lists of ids, best first.
 */
export function reciprocalRankFusion<T>(rankings: ReadonlyArray<readonly T[]>, k = 60): Array<{ id: T; score: number }> {
  const scores = new Map<T, number>();
  for (const ranking of rankings) ranking.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
