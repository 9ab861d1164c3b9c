// Unified diffs of two versions of a file (admin_compare, admin_ai_edit), bounded. jsdiff's Myers algorithm costs
// the lines times the edits between them: two unrelated texts of 16,000 lines took 30 s on the thread answering
// requests, and a content file can hold over 250,000. Past MAX_EDITS line edits it gives up (`maxEditLength`), and the
// patch replaces every line of the one with every line of the other, made in one pass: as true, only longer.
import { createTwoFilesPatch, formatPatch } from 'diff';

/** Line edits a diff may find before it gives up: far more than a person's or a model's edit of one file. */
export const MAX_EDITS = 1000;

/** A unified diff from `before` to `after` of the file at `path` (the headers name the two versions). */
export function unifiedDiff(path: string, before: string, after: string, oldHeader?: string, newHeader?: string): string {
  return createTwoFilesPatch(path, path, before, after, oldHeader, newHeader, { maxEditLength: MAX_EDITS }) ?? replacement(path, before, after, oldHeader, newHeader);
}

/** The patch that takes away every line of `before` and puts in every line of `after`, as jsdiff writes one. */
function replacement(path: string, before: string, after: string, oldHeader?: string, newHeader?: string): string {
  const old = linesOf(before);
  const now = linesOf(after);
  const lines = [...marked('-', old, before), ...marked('+', now, after)];
  return formatPatch({ oldFileName: path, newFileName: path, oldHeader, newHeader, hunks: [{ oldStart: 1, oldLines: old.length, newStart: 1, newLines: now.length, lines }] });
}

/** A text's lines without their line feeds. */
function linesOf(text: string): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** Lines with their mark, and git's note where the text does not end with a line feed. */
function marked(mark: '-' | '+', lines: string[], text: string): string[] {
  const out = lines.map((line) => mark + line);
  if (text && !text.endsWith('\n')) out.push('\\ No newline at end of file');
  return out;
}
