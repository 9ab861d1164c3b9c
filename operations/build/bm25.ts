// BM25F over weighted fields, the same scoring as wink-bm25-text-search (which bm25.test.ts checks it
// against), built in slices: wink consolidates the whole index in one synchronous call, which held the
// event loop for 0.2 s at 10× the demo content. Here every step can yield (`pause`), and the postings are
// flat arrays per term, so a search touches only the terms of the query.
import { noPause, type Pause } from './pause.ts';

export interface Bm25Options<F extends string> {
  /** Weight of each field's term frequencies (title counting twice the text, say). */
  fieldWeights: Record<F, number>;
  k1?: number;
  b?: number;
  /** Added inside the idf's logarithm, so that idf stays positive. */
  k?: number;
}

export interface Bm25Index {
  /** Document indices and scores, best first; ties keep the documents' order. */
  search(tokens: readonly string[], limit: number): Array<[number, number]>;
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

  for (let doc = 0; doc < documents.length; doc++) {
    const seen = new Map<number, number>(); // term → its position in that term's postings
    for (const [field, weight] of Object.entries(fieldWeights) as Array<[F, number]>) {
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
  for (const { docs, tf } of postings) {
    const idf = Math.log((count - docs.length + 0.5) / (docs.length + 0.5) + k);
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

  return {
    search(query, limit) {
      const totals = new Map<number, number>();
      for (const token of query) {
        const term = termIds.get(token);
        if (term === undefined) continue;
        const docs = docsOf[term]!;
        const values = scores[term]!;
        for (let i = 0; i < docs.length; i++) totals.set(docs[i]!, (totals.get(docs[i]!) ?? 0) + values[i]!);
      }
      return [...totals].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, Math.max(limit, 1));
    },
  };
}

const round4 = (x: number) => Number(x.toFixed(4));
