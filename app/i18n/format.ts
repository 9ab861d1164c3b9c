// Filling interface strings: "{name}" placeholders, plural forms and dates in the page's locale.
import { htmlLang, type Locale } from './locales.ts';

export type PluralForms = { one: string; other: string };

/** Replaces each "{key}" with its value; an unknown key stays visible so a missing value is noticed. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** The plural form for `n` by the locale's rules (French counts 0 as singular; Japanese and Chinese have one form). */
export function plural(locale: Locale, forms: PluralForms, n: number): string {
  const rule = new Intl.PluralRules(htmlLang[locale]).select(n);
  return fill(rule === 'one' ? forms.one : forms.other, { n: new Intl.NumberFormat(htmlLang[locale]).format(n) });
}

/** "2026-05-18" → "18 May 2026" (British order, like the period labels of the API), or the locale's own. */
export function formatDay(locale: Locale, day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : htmlLang[locale], { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}
