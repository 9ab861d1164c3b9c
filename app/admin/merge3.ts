// Three-way merge of one file, line by line, with node-diff3: the text the editor started from (base),
// what is on the branch now (theirs) and the editor's text (yours). Chunks changed on one side only merge
// by themselves; chunks both sides changed differently are conflicts the editor resolves.
import { diff3Merge } from 'node-diff3';

export type MergeChunk = { kind: 'same'; lines: string[] } | { kind: 'conflict'; base: string[]; theirs: string[]; yours: string[] };

/** Splits into lines keeping each line's ending, so joining the pieces gives the text back exactly. */
export function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function mergeThreeWay(base: string, theirs: string, yours: string): MergeChunk[] {
  const regions = diff3Merge(lines(yours), lines(base), lines(theirs), { excludeFalseConflicts: true });
  const chunks: MergeChunk[] = [];
  for (const region of regions) {
    if (region.ok) {
      const last = chunks.at(-1);
      if (last?.kind === 'same') last.lines.push(...region.ok);
      else chunks.push({ kind: 'same', lines: [...region.ok] });
    } else if (region.conflict) {
      chunks.push({ kind: 'conflict', base: region.conflict.o, theirs: region.conflict.b, yours: region.conflict.a });
    }
  }
  return chunks;
}

export type Resolution = 'yours' | 'theirs' | 'both' | { text: string };

/** The merged text once every conflict has a resolution (in order); undefined while one is missing. */
export function resolveMerge(chunks: MergeChunk[], resolutions: ReadonlyArray<Resolution | undefined>): string | undefined {
  let out = '';
  let conflict = 0;
  for (const chunk of chunks) {
    if (chunk.kind === 'same') {
      out += chunk.lines.join('');
      continue;
    }
    const choice = resolutions[conflict++];
    if (choice === undefined) return undefined;
    if (choice === 'yours') out += chunk.yours.join('');
    else if (choice === 'theirs') out += chunk.theirs.join('');
    else if (choice === 'both') out += chunk.yours.join('') + chunk.theirs.join('');
    else out += choice.text;
  }
  return out;
}

export const conflictCount = (chunks: MergeChunk[]) => chunks.filter((c) => c.kind === 'conflict').length;
