// BM25F over weighted fields, the same scoring as wink-bm25-text-search (which bm25.test.ts checks it
// against), built in slices: wink consolidates the whole index in one synchronous call, which held the
// event loop for 0.2 s at 10× the demo content. Here every step can yield (`pause`), and the postings are
// flat arrays per term, so a search touches only the terms of the query.
import { noPause, type Pause } from '../content/pause.ts';

export interface Bm25Options<F extends string> {
  /** Weight of each field's term frequencies (title counting twice the text, say). */
  fieldWeights: Record<F, number>;
  k1?: number;
  b?: number;
  /** Added inside the idf's logarithm, so that idf stays positive. */
  k?: number;
}

export interface Bm25Index {
  /** How many documents it holds. */
  readonly size: number;
  /** Document indices and scores, best first; ties keep the documents' order. */
  search(tokens: readonly string[], limit: number): Array<[number, number]>;
  /** The postings of a token: the documents that hold it (ascending) and its score in each; undefined when no document does. */
  postings(token: string): { docs: Int32Array; scores: Float64Array; idf: number } | undefined;
  /** The idf a token held by no document would have: the most a token can weigh. */
  readonly maxIdf: number;
  /** The index as data (flat typed arrays), from which `bm25FromData` makes the same index again: the index's own arrays, not to be changed or transferred. */
  toData(): Bm25Data;
}

/** An index as data: every term's postings one after another (term `t`'s from `offsets[t]` to `offsets[t + 1]`). */
export interface Bm25Data {
  count: number;
  k: number;
  /** The terms in id order. */
  terms: string[];
  offsets: Int32Array;
  docs: Int32Array;
  scores: Float64Array;
  idfs: Float64Array;
}

type Tokens = (text: string) => readonly string[];

/** Numbers the terms of an index: a term keeps its id for as long as the vocabulary lives, across builds. */
export class Vocabulary {
  readonly terms: string[] = [];
  private readonly ids = new Map<string, number>();
  get size(): number {
    return this.terms.length;
  }
  id(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) this.ids.set(token, (id = this.terms.push(token) - 1));
    return id;
  }
}

/**
 * A field's tokens as counts, in one array: its length in tokens, then each distinct term (its id in
 * `vocabulary`) and how often it occurs, in the order the terms first occur. What BM25 needs of a text, and a
 * fraction of its tokens' size: kept from one build to the next, a rebuild counts only the text that changed.
 */
export function countTerms(tokens: readonly string[], vocabulary: Vocabulary): Int32Array {
  const at = new Map<number, number>();
  const out: number[] = [tokens.length];
  for (const token of tokens) {
    const id = vocabulary.id(token);
    const i = at.get(id);
    if (i === undefined) {
      at.set(id, out.length);
      out.push(id, 1);
    } else out[i + 1]!++;
  }
  return Int32Array.from(out);
}

/**
 * Indexes `documents` (each a record of field texts, numbered by position); `tokens` splits a field's
 * text. The work is in slices of `pause`.
 */
export async function createBm25<F extends string>(
  documents: ReadonlyArray<Readonly<Record<F, string>>>,
  tokens: Tokens,
  options: Bm25Options<F>,
  pause: Pause = noPause,
): Promise<Bm25Index> {
  const fields = Object.keys(options.fieldWeights) as F[];
  const vocabulary = new Vocabulary();
  const data = await bm25DataOf(
    documents.length,
    (doc, field) => countTerms(tokens(documents[doc]![fields[field]!]), vocabulary),
    fields.map((f) => options.fieldWeights[f]),
    vocabulary,
    options,
    pause,
  );
  return assembleData(data);
}

/**
 * The index of `count` documents as data, from each one's fields as counts (`countTerms`, in `vocabulary`):
 * `fieldCounts(doc, field)` for each field of `weights`, in order. Flat typed arrays throughout: a build at
 * 100× the demo content made 118k passages' postings in JS arrays and Maps, most of its time. The terms are
 * numbered as they first occur (document, then field, then token), as `createBm25` always did.
 */
export async function bm25DataOf(
  count: number,
  fieldCounts: (doc: number, field: number) => Int32Array,
  weights: readonly number[],
  vocabulary: Vocabulary,
  options: { k1?: number; b?: number; k?: number } = {},
  pause: Pause = noPause,
): Promise<Bm25Data> {
  const { k1 = 1.2, b = 0.75, k = 1 } = options;
  const fieldCount = weights.length;
  // Every document's fields first (counting a text may add terms), then the vocabulary's size is known.
  const all = new Array<Int32Array>(count * fieldCount);
  let capacity = 0;
  for (let doc = 0; doc < count; doc++) {
    for (let field = 0; field < fieldCount; field++) {
      const counts = fieldCounts(doc, field);
      all[doc * fieldCount + field] = counts;
      capacity += (counts.length - 1) >> 1;
    }
    const paused = pause();
    if (paused) await paused;
  }

  // Each document's distinct terms and weighted frequencies, the terms renumbered as they first occur.
  const size = vocabulary.size;
  const stamp = new Int32Array(size).fill(-1);
  const weighted = new Float64Array(size);
  const local = new Int32Array(size).fill(-1);
  const terms: string[] = [];
  const df: number[] = [];
  const starts = new Int32Array(count + 1);
  const docTerms = new Int32Array(capacity);
  const docTf = new Float64Array(capacity);
  const lengths = new Float64Array(count);
  let totalLength = 0;
  let n = 0;
  for (let doc = 0; doc < count; doc++) {
    const start = n;
    for (let field = 0; field < fieldCount; field++) {
      const counts = all[doc * fieldCount + field]!;
      const weight = weights[field]!;
      lengths[doc]! += counts[0]! * Math.abs(weight);
      for (let j = 1; j < counts.length; j += 2) {
        const term = counts[j]!;
        if (stamp[term] !== doc) {
          stamp[term] = doc;
          weighted[term] = 0;
          docTerms[n++] = term;
        }
        weighted[term]! += weight * counts[j + 1]!;
      }
    }
    for (let i = start; i < n; i++) {
      const term = docTerms[i]!;
      docTf[i] = weighted[term]!;
      let id = local[term]!;
      if (id < 0) {
        local[term] = id = terms.push(vocabulary.terms[term]!) - 1;
        df.push(0);
      }
      docTerms[i] = id;
      df[id]!++;
    }
    starts[doc + 1] = n;
    totalLength += lengths[doc]!;
    if ((doc & 1023) === 1023) {
      const paused = pause();
      if (paused) await paused;
    }
  }

  // Postings by term (documents ascending), then each one's score in place of its frequency: the saturated,
  // length-normalised frequency times the term's idf (4 decimals, as wink).
  const offsets = new Int32Array(terms.length + 1);
  for (let t = 0; t < terms.length; t++) offsets[t + 1] = offsets[t]! + df[t]!;
  const cursor = offsets.slice(0, terms.length);
  const docs = new Int32Array(n);
  const scores = new Float64Array(n);
  for (let doc = 0; doc < count; doc++) {
    for (let i = starts[doc]!; i < starts[doc + 1]!; i++) {
      const at = cursor[docTerms[i]!]!++;
      docs[at] = doc;
      scores[at] = docTf[i]!;
    }
  }
  const average = totalLength / count;
  const idfs = new Float64Array(terms.length);
  for (let t = 0; t < terms.length; t++) {
    const from = offsets[t]!;
    const to = offsets[t + 1]!;
    const idf = Math.log((count - (to - from) + 0.5) / (to - from + 0.5) + k);
    idfs[t] = idf;
    for (let i = from; i < to; i++) {
      const f = scores[i]!;
      const norm = 1 - b + b * (lengths[docs[i]!]! / average);
      scores[i] = Math.sign(f) * round4(Math.abs((f * (k1 + 1)) / (k1 * norm + f)) * idf);
    }
    if ((t & 4095) === 4095) {
      const paused = pause();
      if (paused) await paused;
    }
  }
  return { count, k, terms, offsets, docs, scores, idfs };
}

/** The index `data` holds (see `Bm25Index.toData`); throws when its arrays do not fit together. */
export async function bm25FromData(data: Bm25Data, pause: Pause = noPause): Promise<Bm25Index> {
  const { count, k, terms, offsets, docs, scores, idfs } = data;
  const n = terms.length;
  if (
    !Number.isInteger(count) ||
    count < 0 ||
    typeof k !== 'number' ||
    !(offsets instanceof Int32Array) ||
    !(docs instanceof Int32Array) ||
    !(scores instanceof Float64Array) ||
    !(idfs instanceof Float64Array) ||
    offsets.length !== n + 1 ||
    idfs.length !== n ||
    docs.length !== scores.length ||
    offsets[0] !== 0 ||
    offsets[n] !== docs.length
  ) {
    throw new Error('the search index data is inconsistent');
  }
  for (let t = 0; t < n; t++) {
    if ((t & 4095) === 0) await pause();
    if (offsets[t + 1]! < offsets[t]!) throw new Error('the search index data is inconsistent');
  }
  for (let i = 0; i < docs.length; i++) {
    if ((i & 262143) === 0) await pause();
    const doc = docs[i]!;
    if (doc < 0 || doc >= count) throw new Error('the search index data is inconsistent');
  }
  return assembleData(data, pause);
}

/**
 * The searchable index over data known to fit together. A term's postings are read where they lie in the flat
 * arrays: a view of each (two typed arrays per term) cost 8 MB per build at 10× the demo content, on the thread
 * answering requests.
 */
async function assembleData(data: Bm25Data, pause: Pause = noPause): Promise<Bm25Index> {
  const { count, k, terms, offsets, docs, scores, idfs } = data;
  const termIds = new Map<string, number>();
  for (let t = 0; t < terms.length; t++) {
    if ((t & 4095) === 0) await pause();
    termIds.set(terms[t]!, t);
  }
  // One score per document, reused by every search (searches are synchronous), and the documents touched.
  const totals = new Float64Array(count);
  const touched = new Int32Array(count);
  const marked = new Uint8Array(count);

  return {
    size: count,
    maxIdf: Math.log((count + 0.5) / 0.5 + k),
    toData: () => data,
    postings(token) {
      const term = termIds.get(token);
      if (term === undefined) return undefined;
      const [from, to] = [offsets[term]!, offsets[term + 1]!];
      return { docs: docs.subarray(from, to), scores: scores.subarray(from, to), idf: idfs[term]! };
    },
    search(query, limit) {
      let n = 0;
      for (const token of query) {
        const term = termIds.get(token);
        if (term === undefined) continue;
        for (let i = offsets[term]!, to = offsets[term + 1]!; i < to; i++) {
          const doc = docs[i]!;
          if (!marked[doc]) {
            marked[doc] = 1;
            touched[n++] = doc;
          }
          totals[doc]! += scores[i]!;
        }
      }
      const best = topK(touched, n, totals, Math.max(limit, 1));
      const out = best.map((doc): [number, number] => [doc, totals[doc]!]);
      for (let i = 0; i < n; i++) {
        totals[touched[i]!] = 0;
        marked[touched[i]!] = 0;
      }
      return out;
    },
  };
}

/**
 * The `k` best of `ids[0..n)` by `score`, best first, ties in ascending id: a bounded heap whose root is the
 * weakest kept, so the cost is n·log k instead of sorting every match.
 */
export function topK(ids: Int32Array, n: number, score: ArrayLike<number>, k: number): number[] {
  const heap: number[] = [];
  // a is weaker than b: a lower score, or the same score and a later id.
  const weaker = (a: number, b: number) => score[a]! < score[b]! || (score[a] === score[b] && a > b);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && weaker(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && weaker(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let j = 0; j < n; j++) {
    const id = ids[j]!;
    if (heap.length < k) {
      heap.push(id);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!weaker(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (weaker(heap[0]!, id)) {
      heap[0] = id;
      down(0);
    }
  }
  return heap.sort((a, b) => score[b]! - score[a]! || a - b);
}

/** To 4 decimals, as wink does with toFixed (which made a string of every score: a sixth of a build at 100×). */
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Whether a posting list (ascending) holds any of `docs`. */
export function holds(postings: Int32Array | undefined, docs: readonly number[]): boolean {
  if (!postings) return false;
  for (const doc of docs) {
    let lo: number = 0;
    let hi: number = postings.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (postings[mid] === doc) return true;
      if (postings[mid]! < doc) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  return false;
}

/**
 * `tokens` as one word of a question (a place, an ongoing job, her terms of hire), where some document holds them all;
 * undefined where none does (or there is no index), so the question is read by its own words.
 */
export function heldTogether(tokens: readonly string[], engine: Bm25Index | undefined): { tokens: string[] } | undefined {
  const unique = [...new Set(tokens)];
  return engine && unique.length && namedTogether(unique, engine) ? { tokens: unique } : undefined;
}

/** Whether some document of `engine` holds every one of `tokens`. */
function namedTogether(tokens: readonly string[], engine: Bm25Index): boolean {
  const [first, ...rest] = tokens.map((t) => engine.postings(t)?.docs);
  if (!first || rest.some((docs) => !docs)) return false;
  for (const doc of first) if (rest.every((docs) => holds(docs, [doc]))) return true;
  return false;
}
