// The fonts of the og:image cards: Noto Sans (Latin with its accents, Esperanto's ĉĝĥĵŝŭ, Greek, Cyrillic) and
// Noto Sans JP, SC and TC, shipped as npm packages (@fontsource/*). Each package is cut into unicode-range
// subsets; a card loads only the subset files that hold the characters it draws, and keeps them in memory
// (bounded, least recently used first out). Satori reads WOFF, so the `.woff` files are used, never `.woff2`.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locale } from '../i18n/locales.ts';

export type FontWeight = 400 | 700;
export type FontFamily = 'latin' | 'jp' | 'sc' | 'tc';

/** A font as satori takes it: each subset under its own name (satori keeps one font per name and weight). */
export interface CardFont {
  name: string;
  data: Buffer;
  weight: FontWeight;
  style: 'normal';
}

/** The package of each family, found where Node resolves it (its `unicode.json` lists the subsets and their ranges). */
const unicodeFiles: Record<FontFamily, () => string> = {
  latin: () => fileURLToPath(import.meta.resolve('@fontsource/noto-sans/unicode.json')),
  jp: () => fileURLToPath(import.meta.resolve('@fontsource/noto-sans-jp/unicode.json')),
  sc: () => fileURLToPath(import.meta.resolve('@fontsource/noto-sans-sc/unicode.json')),
  tc: () => fileURLToPath(import.meta.resolve('@fontsource/noto-sans-tc/unicode.json')),
};

/** The file prefix of each package ("noto-sans-jp" in files/noto-sans-jp-12-400-normal.woff). */
const filePrefix: Record<FontFamily, string> = { latin: 'noto-sans', jp: 'noto-sans-jp', sc: 'noto-sans-sc', tc: 'noto-sans-tc' };

/**
 * The families a card in `locale` tries, in order: Noto Sans first (Latin text keeps one look in every locale),
 * then the CJK family of the locale's own script, then the others as fallbacks. Locales without a CJK script
 * fall back to Japanese first.
 */
export function familyOrder(locale: Locale): FontFamily[] {
  if (locale === 'zh') return ['latin', 'sc', 'tc', 'jp'];
  if (locale === 'zh-hant') return ['latin', 'tc', 'jp', 'sc'];
  return ['latin', 'jp', 'sc', 'tc'];
}

interface Subset {
  family: FontFamily;
  /** "latin-ext", or "12" for the package's subset "[12]". */
  key: string;
}

/** A family's code point ranges, sorted by start, each with the subset that holds it. */
interface RangeTable {
  starts: Uint32Array;
  ends: Uint32Array;
  /** The largest end among this row and every row before it (so a search knows when to stop looking back). */
  reach: Uint32Array;
  subsets: Subset[];
  owner: Uint16Array;
  dir: string;
}

const tables = new Map<FontFamily, RangeTable>();

/** "U+0100-02BA" → [0x100, 0x2ba]; "U+20AC" → [0x20ac, 0x20ac]. */
function parseRange(text: string): [number, number] | undefined {
  const match = /^U\+([0-9a-f]+)(?:-([0-9a-f]+))?$/i.exec(text.trim());
  if (!match) return undefined;
  const start = parseInt(match[1]!, 16);
  return [start, match[2] ? parseInt(match[2], 16) : start];
}

/** A family's subsets and their ranges. Noto Sans keeps all its subsets; a CJK package only its numbered ones (Noto Sans draws the rest). */
export function rangeTable(family: FontFamily, read: (path: string) => string): RangeTable {
  const cached = tables.get(family);
  if (cached) return cached;
  const path = unicodeFiles[family]();
  const subsetRanges = JSON.parse(read(path)) as Record<string, string>;
  const subsets: Subset[] = [];
  const rows: Array<[number, number, number]> = [];
  for (const [name, list] of Object.entries(subsetRanges)) {
    const numbered = /^\[(\d+)\]$/.exec(name)?.[1];
    if (family !== 'latin' && numbered === undefined) continue;
    const index = subsets.push({ family, key: numbered ?? name }) - 1;
    for (const part of list.split(',')) {
      const range = parseRange(part);
      if (range) rows.push([range[0], range[1], index]);
    }
  }
  rows.sort((a, b) => a[0] - b[0]);
  let far = 0;
  const table: RangeTable = {
    reach: Uint32Array.from(rows, (r) => (far = Math.max(far, r[1]))),
    starts: Uint32Array.from(rows, (r) => r[0]),
    ends: Uint32Array.from(rows, (r) => r[1]),
    owner: Uint16Array.from(rows, (r) => r[2]),
    subsets,
    dir: join(dirname(path), 'files'),
  };
  tables.set(family, table);
  return table;
}

/** The subset of a family that holds code point `cp`, if any (binary search over the sorted ranges). */
function subsetOf(table: RangeTable, cp: number): Subset | undefined {
  let low = 0;
  let high = table.starts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (table.starts[mid]! <= cp) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  // Ranges may nest (Noto Sans's latin-ext U+0100-02BA holds latin's U+0131): look back while a range could still reach `cp`.
  for (let i = found; i >= 0 && table.reach[i]! >= cp; i--) if (table.ends[i]! >= cp) return table.subsets[table.owner[i]!];
  return undefined;
}

/** Characters that need no font: spaces, line breaks and other controls. */
const NO_GLYPH = /[\s\p{Cc}\u200b-\u200d\ufeff]/u;

/** The subsets (per weight) that draw `runs`: for each character, the first family in `order` that has it. */
export function subsetsFor(runs: ReadonlyArray<{ text: string; weight: FontWeight }>, order: readonly FontFamily[], read: (path: string) => string) {
  const wanted = new Map<string, { subset: Subset; weight: FontWeight; order: number }>();
  for (const { text, weight } of runs) {
    for (const ch of new Set(text)) {
      if (NO_GLYPH.test(ch)) continue;
      const cp = ch.codePointAt(0)!;
      for (let rank = 0; rank < order.length; rank++) {
        const subset = subsetOf(rangeTable(order[rank]!, read), cp);
        if (!subset) continue;
        wanted.set(`${subset.family}-${subset.key}-${weight}`, { subset, weight, order: rank });
        break;
      }
    }
  }
  return [...wanted.values()].sort((a, b) => a.order - b.order || a.subset.key.localeCompare(b.subset.key) || a.weight - b.weight);
}

/** Font files in memory, least recently used first; a promise while one is being read. */
const files = new Map<string, Promise<Buffer>>();
const sizes = new Map<string, number>();
let held = 0;
/**
 * At most this many bytes of font files are kept: a Latin card needs about 35 kB, a CJK card a few hundred kB. A file
 * held is also held parsed by satori, at some 15–20 times its size (satori itself keeps the fonts of its last 8 cards).
 */
export const FONT_CACHE_BYTES = 8 * 1024 * 1024;

function fontFile(path: string): Promise<Buffer> {
  const cached = files.get(path);
  if (cached) {
    files.delete(path);
    files.set(path, cached);
    return cached;
  }
  const reading = readFile(path).then(
    (data) => {
      sizes.set(path, data.length);
      held += data.length;
      for (const [old] of files) {
        if (held <= FONT_CACHE_BYTES || old === path) break;
        held -= sizes.get(old) ?? 0;
        sizes.delete(old);
        files.delete(old);
      }
      return data;
    },
    (error: unknown) => {
      files.delete(path);
      throw error;
    },
  );
  files.set(path, reading);
  return reading;
}

/** What the font cache holds now (for tests and the bench). */
export const fontCacheStats = () => ({ files: files.size, bytes: held });

/** Empties the font cache (a cold render in tests and the bench). */
export function clearFontCache() {
  files.clear();
  sizes.clear();
  held = 0;
}

const readText = (path: string) => readFileSync(path, 'utf8');

/**
 * The fonts that draw `runs` in `locale`, and the family list a card's style names them by (in order of
 * preference, so satori takes each character from the first font that has it).
 */
export async function cardFonts(
  runs: ReadonlyArray<{ text: string; weight: FontWeight }>,
  locale: Locale,
): Promise<{ fonts: CardFont[]; fontFamily: string[] }> {
  // Basic Latin always, so that a card has a font even when none of its characters has one.
  const wanted = subsetsFor([...runs, { text: 'A', weight: 400 }], familyOrder(locale), readText);
  const fonts = await Promise.all(
    wanted.map(async ({ subset, weight }) => {
      const table = rangeTable(subset.family, readText);
      const data = await fontFile(join(table.dir, `${filePrefix[subset.family]}-${subset.key}-${weight}-normal.woff`));
      return { name: `${subset.family}-${subset.key}`, data, weight, style: 'normal' as const };
    }),
  );
  return { fonts, fontFamily: [...new Set(fonts.map((f) => f.name))] };
}
