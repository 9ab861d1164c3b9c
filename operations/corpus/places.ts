// What an entry's location and organisation stand for, in a locale's words, for its search passages: a city is
// also its region and country (and the regions the country lies in), an organisation also its industries, so a
// question naming the country ("in Portugal?", "au Japon ?", "日本で") or the sector finds the entry that names the
// city or the company. Country and region names come from the runtime's CLDR data (Intl.DisplayNames) in every
// locale; the content's own places and organisations from content/search/related-terms.json, which the subject
// extends as they do related words.
import type { Locale } from '../contract/shared.ts';
import { localeFacts } from '../contract/locales.ts';
import type { PlaceTable } from '../content/schema.ts';
import { placeOf } from './country.ts';

const CODE = /^(?:[A-Z]{2}|\d{3})$/;
const displayNames = new Map<Locale, Intl.DisplayNames>();

/** A country (PT) or UN M49 region (150) in a locale's words. */
function regionName(code: string, locale: Locale): string | undefined {
  let names = displayNames.get(locale);
  if (!names) displayNames.set(locale, (names = new Intl.DisplayNames([localeFacts[locale].intlLocale], { type: 'region', fallback: 'none' })));
  try {
    return names.of(code);
  } catch {
    return undefined;
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names, in `locale`, of the places `location` names and of every place they lie in (each once). */
export function placeNames(location: string | undefined, table: PlaceTable['places'], locale: Locale): string[] {
  if (!location) return [];
  const out = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const place = table[key];
    const name = place?.names[locale] ?? (CODE.test(key) ? regionName(key, locale) : key);
    if (name) out.add(name);
    for (const parent of place?.in ?? []) visit(parent);
  };
  for (const key of Object.keys(table)) {
    if (!CODE.test(key) && new RegExp(`(?<![\\p{L}\\p{N}])${escape(key)}(?![\\p{L}\\p{N}])`, 'iu').test(location)) visit(key);
  }
  const { country } = placeOf(location);
  if (country) visit(country);
  return [...out];
}

/** The words an entry's location and organisation add to its passages in `locale`. */
export function placeWords(location: string | undefined, organisation: string | undefined, table: PlaceTable, locale: Locale): string {
  const industries = (organisation && (table.organisations[organisation]?.industries[locale] ?? table.organisations[organisation]?.industries.en)) || [];
  return [...placeNames(location, table.places, locale), ...industries].join(' ');
}

/**
 * The names, in `locale`, of the most precise place `location` names and of its country ("Lisbon, Portugal": Lisbonne
 * and Portugal in French), each once; none when it names no place.
 */
export function localityNames(location: string | undefined, table: PlaceTable['places'], locale: Locale): string[] {
  const { locality, country } = placeOf(location);
  const key = locality && Object.keys(table).find((k) => k.toLowerCase() === locality.toLowerCase());
  const names = [key ? table[key]!.names[locale] || key : locality, country && regionName(country, locale)];
  return [...new Set(names.filter((name): name is string => !!name))];
}

/**
 * A location as a reader of `locale` writes it: the city in the places table's words and the country in CLDR's, in the
 * language's order ("Lisbonne, Portugal", "葡萄牙里斯本", "ポルトガル・リスボン"); as written when it names no place.
 */
export function placeLabel(location: string | undefined, table: PlaceTable['places'], locale: Locale): string | undefined {
  if (!location) return undefined;
  const names = localityNames(location, table, locale);
  if (names.length < 2) return names[0] ?? location;
  const [city, country] = names as [string, string];
  if (locale === 'zh' || locale === 'zh-hant') return `${country}${city}`;
  if (locale === 'ja') return `${country}・${city}`;
  return `${city}, ${country}`;
}

/**
 * What a job that has not ended is also found by (an experience, beside CURRENT_WORDS): a question about her current
 * role names the role, the job or the post ("What is her current job?", "son poste actuel", "现在的职位"), and the
 * entry holds none of them; her ongoing mentoring and projects are not her job.
 */
export const CURRENT_JOB_WORDS: Record<Locale, string> = {
  en: 'role job position post employer',
  fr: 'poste emploi fonction employeur',
  es: 'puesto cargo empleo trabajo empleador',
  eo: 'posteno laboro ofico dunganto',
  zh: '职位 职务 工作 岗位',
  'zh-hant': '職位 職務 工作 崗位',
  ja: '役職 職務 仕事 勤務先',
};

/**
 * What an entry that has not ended is also found by, in each locale: a question about her current role, job or
 * studies ("What is her current role?", "son poste actuel", "目前的职位") names it so, and the entry never does.
 */
export const CURRENT_WORDS: Record<Locale, string> = {
  en: 'current',
  fr: 'actuel actuelle',
  es: 'actual',
  eo: 'nuna',
  zh: '目前 现任',
  'zh-hant': '目前 現任',
  ja: '現在 現職',
};
