// The names of languages and countries, as a question's words: "Does she speak Korean?", "¿Habla alemán?", "Ĉu ŝi
// parolas la korean?", "她会说韩语吗". Such a word is spelt as meant, and it is what the question asks about: when no
// passage holds it, it is not read as a typo of a word they do hold ("alemán" as "Alemania", "korean" as "krei"),
// and it weighs in full rather than as an unknown word does (query-plan.ts). The names come from the runtime's CLDR
// data (Intl.DisplayNames) in the locale's language and in English; a name of several words is not one word of a
// question and is left out.
import type { Locale } from '../contract/shared.ts';
import { localeFacts } from '../contract/locales.ts';
import { analyseQueryWords, foldChinese } from './analyse.ts';
import { regionCodes } from './country.ts';

/** A Latin name shorter than this is left out: "Ewe", "Ido" and "Lao" are more often something else. */
const MIN_LATIN_LETTERS = 4;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

const byLocale = new Map<Locale, ReadonlySet<string>>();

let codes: string[] | undefined;
/** The ISO 639-1 languages the runtime can name. */
function languageCodes(): readonly string[] {
  if (codes) return codes;
  const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  codes = [];
  for (const a of LETTERS)
    for (const b of LETTERS) {
      const code = a + b;
      const name = names.of(code);
      if (name && name !== code) codes.push(code);
    }
  return codes;
}

/** The names of languages and countries a question in `locale` may use, each as its tokens joined by a space (made at its first question, in 20–45 ms). */
function namesIn(locale: Locale): ReadonlySet<string> {
  let names = byLocale.get(locale);
  if (names) return names;
  const out = new Set<string>();
  const languages = languageCodes();
  const regions = regionCodes();
  for (const language of new Set([localeFacts[locale].intlLocale, 'en'])) {
    const languageNames = new Intl.DisplayNames([language], { type: 'language', fallback: 'none' });
    const regionNames = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    for (const name of [...languages.map((c) => languageNames.of(c)), ...regions.map((c) => regionNames.of(c))]) {
      if (!name || (/^\p{Script=Latin}/u.test(name) && name.length < MIN_LATIN_LETTERS)) continue;
      const words = analyseQueryWords(name, locale);
      if (words.length === 1) out.add(words[0]!.tokens.join(' '));
    }
  }
  byLocale.set(locale, (names = out));
  return names;
}

/** Whether a question's word in `locale` (its tokens, as analyseQueryWords gives them) names a language or a country. */
export function isLanguageOrCountry(tokens: readonly string[], locale: Locale): boolean {
  return namesIn(locale).has(tokens.join(' '));
}

/**
 * The languages Chinese names two ways, as related words: 日语 and 日文, 英语 and 英文 (CLDR names them the one way in
 * mainland Chinese and the other in Taiwan's, and a text in either script uses either). Each pair once, in simplified
 * characters (both scripts are matched so).
 */
export function chineseLanguageNames(): ReadonlyArray<readonly string[]> {
  if (chinesePairs) return chinesePairs;
  const mainland = new Intl.DisplayNames(['zh-CN'], { type: 'language', fallback: 'none' });
  const taiwan = new Intl.DisplayNames(['zh-TW'], { type: 'language', fallback: 'none' });
  const pairs = new Map<string, string[]>();
  for (const code of languageCodes()) {
    const names = [mainland.of(code), taiwan.of(code)].map((name) => (name ? foldChinese(name) : undefined));
    if (names[0] && names[1] && names[0] !== names[1] && HAN_ONLY.test(names[0]) && HAN_ONLY.test(names[1])) pairs.set(names.join(' '), [names[0], names[1]]);
  }
  // (once each: an old code and its new one name one language, iw and he)
  return (chinesePairs = [...pairs.values()]);
}
let chinesePairs: string[][] | undefined;
const HAN_ONLY = /^\p{Script=Han}+$/u;
