// A translation lines up with its English item by item: each translated list (contributions, honestGaps,
// questions…) has as many items as the English one. A difference is a problem of the tree only where the
// translation says it is current; a stale translation is served in English and translated again by the next
// publish run, so a change to a source never fails because of its translations. A change to the translation
// itself is still checked against its source (tree.ts, problemsAfter).
import type { Problem } from '../contract/errors.ts';
import { lineOfKey } from './front-matter.ts';
import { englishValue, translatableFields, type FileKind } from './schema.ts';

/** Where the translated fields of a `kind` file (with its text, for lines) do not line up with the English fields. */
export function structureProblems(
  path: string,
  text: string,
  kind: FileKind,
  translated: Record<string, unknown>,
  english: Record<string, unknown>,
): Problem[] {
  const problems: Problem[] = [];
  for (const key of translatableFields[kind]) {
    const items = translated[key];
    if (!Array.isArray(items)) continue;
    const englishItems = englishValue(kind, english, key);
    const expected = Array.isArray(englishItems) ? englishItems.length : 0;
    if (items.length !== expected) problems.push({ path, pointer: `/${key}`, message: mismatch(key, items.length, expected), line: lineOfKey(text, key) });
  }
  return problems;
}

/** What is wrong, and the two ways out: line the list up with the English, or leave the translation to the publish run. */
function mismatch(key: string, count: number, expected: number): string {
  const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`;
  const fix =
    count < expected
      ? `translate the ${expected - count === 1 ? 'new item' : `${expected - count} new items`}`
      : `remove the ${count - expected === 1 ? 'item' : items(count - expected)} the English no longer has`;
  return `${key} has ${items(count)} but the English has ${expected ? expected : 'none'}: ${fix}, or leave the file stale for the publish run to translate`;
}
