// Text edits as the smallest change that makes them, so an editor's cursor, selection and undo history survive a
// change made elsewhere (the form, an accepted AI edit, a restored draft).

/** The one change that turns `before` into `after`: the differing middle, between their common start and end. */
export function minimalChange(before: string, after: string): { from: number; to: number; insert: string } | null {
  if (before === after) return null;
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}
