// ISO 3166-1 alpha-2 codes for the country names a content location is written with ("Lisbon, Portugal").
// The names come from the runtime's own CLDR data (Intl.DisplayNames), in every language the site is
// published in, so "Lisboa, Portugal" and "Tokyo, 日本" resolve too; a two-letter code is taken as it is.
import { locales } from '../contract/vocabulary.ts';

/** Common short forms that are not the CLDR display name. */
const aliases: Record<string, string> = {
  usa: 'US',
  'u.s.': 'US',
  'u.s.a.': 'US',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
};

let codes: string[] | undefined;
/** The current ISO 3166-1 alpha-2 codes the runtime can name. */
export function regionCodes(): readonly string[] {
  if (codes) return codes;
  codes = [];
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters)
    for (const b of letters) {
      const code = a + b;
      // User-assigned and exceptionally reserved codes (EU, UN, XK …) are not countries of ISO 3166-1.
      if (code === 'EU' || code === 'EZ' || code === 'UN' || code === 'QO' || code.startsWith('X') || code === 'ZZ') continue;
      // Withdrawn codes canonicalise to their successor ("DD" is "DE" now): only current ones.
      if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      if (display.of(code)) codes.push(code);
    }
  return codes;
}

let byName: Map<string, string> | undefined;
function names(): Map<string, string> {
  if (byName) return byName;
  byName = new Map(Object.entries(aliases));
  for (const locale of ['en', ...locales]) {
    const display = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    for (const code of regionCodes()) {
      const name = display.of(code);
      if (name && !byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), code);
    }
  }
  return byName;
}

/** The ISO 3166-1 alpha-2 code of a country name or code, or undefined when it names none. */
export function countryCode(name: string | undefined): string | undefined {
  const text = name?.trim();
  if (!text) return undefined;
  if (/^[A-Za-z]{2}$/.test(text)) return text.toUpperCase();
  return names().get(text.toLowerCase());
}

/** A location written as "City, Region, Country": its locality (the first part) and its country's code (the last part). */
export function placeOf(location: string | undefined): { locality?: string; country?: string } {
  const parts = (location ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.length) return {};
  const country = parts.length > 1 ? countryCode(parts.at(-1)) : countryCode(parts[0]);
  const locality = parts.length > 1 || !country ? parts[0] : undefined;
  return { ...(locality ? { locality } : {}), ...(country ? { country } : {}) };
}
