// Three-way merge of one file, line by line, with node-diff3: the text the editor started from (base),
// what is on the branch now (theirs) and the editor's text (yours). Chunks changed on one side only merge
// by themselves; chunks both sides changed differently are conflicts the editor resolves.
import { diff3Merge, diffComm } from 'node-diff3';

export type MergeChunk = { kind: 'same'; lines: string[] } | { kind: 'conflict'; base: string[]; theirs: string[]; yours: string[] };

/** Splits into lines keeping each line's ending, so joining the pieces gives the text back exactly. */
export function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Words and the spaces between them, so joining the pieces gives the text back exactly. */
const words = (text: string): string[] => text.match(/\s+|[^\s]+/g) ?? [];

/**
 * Lines both sides changed, merged word by word when their changes do not touch the same words: two editors who
 * each fixed a different sentence of one paragraph (a Markdown paragraph is one line) have no conflict.
 */
function mergeWords(base: string[], theirs: string[], yours: string[]): string[] | undefined {
  const regions = diff3Merge(words(yours.join('')), words(base.join('')), words(theirs.join('')), { excludeFalseConflicts: true });
  if (regions.some((r) => r.conflict)) return undefined;
  return lines(regions.map((r) => r.ok!.join('')).join(''));
}

export function mergeThreeWay(base: string, theirs: string, yours: string): MergeChunk[] {
  const regions = diff3Merge(lines(yours), lines(base), lines(theirs), { excludeFalseConflicts: true });
  const chunks: MergeChunk[] = [];
  const same = (more: string[]) => {
    const last = chunks.at(-1);
    if (last?.kind === 'same') last.lines.push(...more);
    else chunks.push({ kind: 'same', lines: [...more] });
  };
  for (const region of regions) {
    if (region.ok) same(region.ok);
    else if (region.conflict) {
      const { o, a, b } = region.conflict;
      const merged = mergeWords(o, b, a);
      if (merged) same(merged);
      else chunks.push({ kind: 'conflict', base: o, theirs: b, yours: a });
    }
  }
  return chunks;
}

export type Resolution = 'yours' | 'theirs' | 'both' | { text: string };

/**
 * Both sides of a conflict: yours, then what theirs has that yours has not, each line once. Lines the two share
 * (a paragraph both kept while each changed a sentence near it) are not written twice.
 */
export function bothSides(yours: readonly string[], theirs: readonly string[]): string {
  // node-diff3's types leave out `common`, which its answer has (https://github.com/bhousel/node-diff3, diffComm).
  return (diffComm([...yours], [...theirs]) as Array<{ common?: string[]; buffer1?: string[]; buffer2?: string[] }>)
    .map((part) => (part.common ? part.common.join('') : [...(part.buffer1 ?? []), ...(part.buffer2 ?? [])].join('')))
    .join('');
}

/** The merged text once every conflict has a resolution (in order); undefined while one is missing. */
export function resolveMerge(chunks: MergeChunk[], resolutions: ReadonlyArray<Resolution | undefined>): string | undefined {
  let out = '';
  let conflict = 0;
  for (const [i, chunk] of chunks.entries()) {
    if (chunk.kind === 'same') {
      out += chunk.lines.join('');
      continue;
    }
    const choice = resolutions[conflict++];
    if (choice === undefined) return undefined;
    if (choice === 'yours') out += chunk.yours.join('');
    else if (choice === 'theirs') out += chunk.theirs.join('');
    else if (choice === 'both') out += bothSides(chunk.yours, chunk.theirs);
    // Text typed by hand ends its last line before what follows it, as every line of the chunk did: typed after
    // the final newline, it was glued to the next line.
    else out += choice.text && i < chunks.length - 1 && !choice.text.endsWith('\n') ? `${choice.text}\n` : choice.text;
  }
  return out;
}

export const conflictCount = (chunks: MergeChunk[]) => chunks.filter((c) => c.kind === 'conflict').length;
