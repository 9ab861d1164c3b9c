// Search across the content tree's files, as an editor looks for something to change: a file matches when its path,
// its title or its text holds the words, in any case and with or without accents ("cafe" finds "Café"), in every
// locale. One regular expression over each text, made once per query: no folded copy of 18k texts is kept.
import type { Pause } from './pause.ts';

export interface FileMatch {
  path: string;
  /** The first line of the text holding the words (1-based), trimmed around them; absent when only the path or title does. */
  match?: { line: number; text: string };
}

/** Each Latin base letter with the accented letters that fold to it ("e" → "èéêëēĕėęě…"), from Unicode's decompositions. */
const accented = (() => {
  const variants = new Map<string, Set<string>>();
  for (let code = 0xc0; code <= 0x24f; code++) {
    // Lower case only: the pattern ignores case. (A letter whose lower case is two characters, İ, is left out.)
    const letter = String.fromCodePoint(code).toLowerCase();
    const base = fold(letter);
    if ([...letter].length !== 1 || base.length !== 1 || base === letter || !/[a-z]/.test(base)) continue;
    variants.set(base, (variants.get(base) ?? new Set()).add(letter));
  }
  return new Map([...variants].map(([base, letters]) => [base, [...letters].join('')]));
})();

/**
 * Lower case without accents: "Café" is "cafe". Only marks on Latin letters go: a Japanese voiced kana (デ, ガ, パ)
 * decomposes into its base and a mark too, and without the mark "データ" became "テータ", which no text holds.
 */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/(?<=\p{Script=Latin})\p{M}+/gu, '')
    .normalize('NFC')
    .toLowerCase();
}

/** A pattern that finds `query` in any case, each letter with or without its accents. */
export function looseMatcher(query: string): RegExp {
  const source = [...fold(query.trim())]
    .map((c) => {
      const escaped = c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const variants = accented.get(c);
      return variants ? `[${escaped}${variants}]` : escaped;
    })
    .join('');
  return new RegExp(source, 'iu');
}

/** The line around `index` in `text`: its number and at most `width` characters of it, centred on the match. */
function lineAt(text: string, index: number, length: number, width = 160): { line: number; text: string } {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const newline = text.indexOf('\n', index);
  const end = newline === -1 ? text.length : newline;
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < start; at = text.indexOf('\n', at + 1)) line++;
  const whole = text.slice(start, end).replace(/\r$/, '');
  const offset = index - start;
  if (whole.trim().length <= width) return { line, text: whole.trim() };
  const from = Math.max(0, Math.min(offset - Math.floor((width - length) / 2), whole.length - width));
  const cut = whole.slice(from, from + width).trim();
  return { line, text: `${from > 0 ? '…' : ''}${cut}${from + width < whole.length ? '…' : ''}` };
}

/**
 * The files of `texts` (in their order) whose path, title or text holds `query`, at most `limit`; `truncated` when
 * more matched. Pauses between files, so a search of 100× the demo's content does not hold other requests.
 */
export async function searchFiles(
  texts: ReadonlyMap<string, string>,
  titles: ReadonlyMap<string, string>,
  query: string,
  { limit, pause }: { limit: number; pause: Pause },
): Promise<{ matches: FileMatch[]; truncated: boolean }> {
  const matcher = looseMatcher(query);
  const matches: FileMatch[] = [];
  let n = 0;
  for (const [path, text] of texts) {
    if (++n % 256 === 0) await pause();
    const found = matcher.exec(text);
    if (!found && !matcher.test(path) && !matcher.test(titles.get(path) ?? '')) continue;
    if (matches.length === limit) return { matches, truncated: true };
    matches.push(found ? { path, match: lineAt(text, found.index, found[0].length) } : { path });
  }
  return { matches, truncated: false };
}
