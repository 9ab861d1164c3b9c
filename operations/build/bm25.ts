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
  /** The index as data (flat typed arrays), from which `bm25FromData` makes the same index again. */
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
  const { fieldWeights, k1 = 1.2, b = 0.75, k = 1 } = options;
  const termIds = new Map<string, number>();
  const postings: Array<{ docs: number[]; tf: number[] }> = [];
  const lengths = new Float64Array(documents.length);
  let totalLength = 0;

  const fields = Object.entries(fieldWeights) as Array<[F, number]>;
  for (let doc = 0; doc < documents.length; doc++) {
    const seen = new Map<number, number>(); // term → its position in that term's postings
    for (const [field, weight] of fields) {
      const list = tokens(documents[doc]![field]);
      for (const token of list) {
        let term = termIds.get(token);
        if (term === undefined) {
          term = postings.length;
          termIds.set(token, term);
          postings.push({ docs: [], tf: [] });
        }
        const posting = postings[term]!;
        const at = seen.get(term);
        if (at === undefined) {
          seen.set(term, posting.docs.length);
          posting.docs.push(doc);
          posting.tf.push(weight);
        } else posting.tf[at]! += weight;
      }
      lengths[doc]! += list.length * Math.abs(weight);
    }
    totalLength += lengths[doc]!;
    await pause();
  }

  // Scores per posting: the saturated, length-normalised frequency times the term's idf (4 decimals, as wink).
  const count = documents.length;
  const average = totalLength / count;
  const scores: Float64Array[] = [];
  const idfs = new Float64Array(postings.length);
  for (const [term, { docs, tf }] of postings.entries()) {
    const idf = Math.log((count - docs.length + 0.5) / (docs.length + 0.5) + k);
    idfs[term] = idf;
    const out = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const f = tf[i]!;
      const norm = 1 - b + b * (lengths[docs[i]!]! / average);
      out[i] = Math.sign(f) * round4(Math.abs((f * (k1 + 1)) / (k1 * norm + f)) * idf);
    }
    scores.push(out);
    await pause();
  }
  const docsOf = postings.map((p) => Int32Array.from(p.docs));
  return assemble({ count, k, termIds, docsOf, scores, idfs });
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
  const termIds = new Map<string, number>();
  const docsOf: Int32Array[] = new Array<Int32Array>(n);
  const scoresOf: Float64Array[] = new Array<Float64Array>(n);
  for (let t = 0; t < n; t++) {
    if ((t & 4095) === 0) await pause();
    const from = offsets[t]!;
    const to = offsets[t + 1]!;
    if (to < from) throw new Error('the search index data is inconsistent');
    termIds.set(terms[t]!, t);
    docsOf[t] = docs.subarray(from, to);
    scoresOf[t] = scores.subarray(from, to);
  }
  for (let i = 0; i < docs.length; i++) {
    if ((i & 262143) === 0) await pause();
    const doc = docs[i]!;
    if (doc < 0 || doc >= count) throw new Error('the search index data is inconsistent');
  }
  return assemble({ count, k, termIds, docsOf, scores: scoresOf, idfs });
}

/** The searchable index over its postings. */
function assemble(index: { count: number; k: number; termIds: Map<string, number>; docsOf: Int32Array[]; scores: Float64Array[]; idfs: Float64Array }): Bm25Index {
  const { count, k, termIds, docsOf, scores, idfs } = index;
  // One score per document, reused by every search (searches are synchronous), and the documents touched.
  const totals = new Float64Array(count);
  const touched = new Int32Array(count);
  const marked = new Uint8Array(count);

  return {
    size: count,
    maxIdf: Math.log((count + 0.5) / 0.5 + k),
    toData() {
      const offsets = new Int32Array(docsOf.length + 1);
      for (let t = 0; t < docsOf.length; t++) offsets[t + 1] = offsets[t]! + docsOf[t]!.length;
      const docs = new Int32Array(offsets[docsOf.length]!);
      const flat = new Float64Array(docs.length);
      for (let t = 0; t < docsOf.length; t++) {
        docs.set(docsOf[t]!, offsets[t]);
        flat.set(scores[t]!, offsets[t]);
      }
      return { count, k, terms: [...termIds.keys()], offsets, docs, scores: flat, idfs: Float64Array.from(idfs) };
    },
    postings(token) {
      const term = termIds.get(token);
      return term === undefined ? undefined : { docs: docsOf[term]!, scores: scores[term]!, idf: idfs[term]! };
    },
    search(query, limit) {
      let n = 0;
      for (const token of query) {
        const term = termIds.get(token);
        if (term === undefined) continue;
        const docs = docsOf[term]!;
        const values = scores[term]!;
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i]!;
          if (!marked[doc]) {
            marked[doc] = 1;
            touched[n++] = doc;
          }
          totals[doc]! += values[i]!;
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
      for (let i = heap.length - 1; i > 0; ) {
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
