// The site's interface messages: ICU MessageFormat strings (placeholders, plurals by the locale's own rules)
// kept as one JSON file per locale in ./messages/. English defines the keys. The server sends only the
// current locale's table to the browser (through the root loader); this module turns a table into `t`.
import { IntlMessageFormat, type Formatters } from 'intl-messageformat';
import type english from './messages/en.json';
import type { EntrySections } from '../../operations/contract/entry-sections.ts';
import type { Labels } from '../../operations/contract/labels.ts';
import { EsperantoNumberFormat, esperantoDay } from './esperanto.ts';
import { localeFacts, type Locale } from './locales.ts';

/** The keys of ./messages/, and the headings of an entry's sections and the labels the contract keeps for every door (entry-sections.ts, labels.ts). */
export type MessageKey = keyof typeof english | keyof EntrySections | keyof Labels;
export type Messages = Record<MessageKey, string>;
export type MessageValues = Record<string, string | number>;
/** `t("entryCount", { n: 3 })` → "3 entries". */
export type Translate = (key: MessageKey, values?: MessageValues) => string;

/** A `t` for one locale's table; each message is compiled once, on first use. */
export function translator(locale: Locale, messages: Messages): Translate {
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  const tag = localeFacts[locale].htmlLang;
  const options = locale === 'eo' ? { formatters: esperantoFormatters() } : undefined;
  return (key, values) => {
    let format = compiled.get(key);
    if (!format) {
      format = new IntlMessageFormat(messages[key] ?? key, tag, undefined, options);
      compiled.set(key, format);
    }
    return String(format.format(values));
  };
}

/** Numbers in Esperanto messages ("{max, number}" → "20 000"), the same on the server and in every browser (./esperanto.ts). */
function esperantoFormatters(): Formatters {
  const numberFormats = new Map<string, Intl.NumberFormat>();
  return {
    getNumberFormat: (_locales, options) => {
      const key = JSON.stringify(options ?? {});
      let format = numberFormats.get(key);
      if (!format) numberFormats.set(key, (format = new EsperantoNumberFormat(options)));
      return format;
    },
    getDateTimeFormat: (...args) => new Intl.DateTimeFormat(...args),
    getPluralRules: (...args) => new Intl.PluralRules(...args),
  };
}

/**
 * "2026-05-18" → "18 May 2026" in the locale's own order (British for English, like the API's period labels).
 * Esperanto is written by the project ("18 majo 2026"): browsers' ICU has no Esperanto and would write English.
 */
export function formatDay(locale: Locale, day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  if (locale === 'eo') return esperantoDay(date);
  return new Intl.DateTimeFormat(localeFacts[locale].intlLocale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}
