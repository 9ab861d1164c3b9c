// Everything the product knows about each of its languages, in one table: the site (lang, hreflang,
// og:locale, the language menu), the build (dates, "present"), speech transcription and the models' prompts.
// Plain data with no zod, so the browser bundle and the CLI import it for nothing. The codes themselves
// stay in vocabulary.ts, which the zod enums are built from; `Record<Locale, …>` makes the compiler
// insist on one row per code.
import type { Locale } from './vocabulary.ts';

export { locales, type Locale } from './vocabulary.ts';

export interface LocaleFacts {
  /** The language named in itself, for the language menu ("日本語"). */
  nativeName: string;
  /** The language named in English ("Japanese"). */
  englishName: string;
  /** BCP 47 tag for `lang` and `hreflang`: the script subtag tells Simplified from Traditional Chinese. */
  htmlLang: string;
  /** Open Graph `og:locale` (language_TERRITORY). */
  ogLocale: string;
  /** The Intl locale for dates and numbers in the build ("Mar 2021 – present") and on the pages. */
  intlLocale: string;
  /** Text direction of the language (`dir` on <html>). */
  dir: 'ltr' | 'rtl';
  /** ISO 639-1 code given to speech transcription (Whisper `language`), and the name Whisper reports for it. */
  speech: { code: string; name: string };
  /** The language as named to the chat model in its instructions ("Answer in …"). */
  modelName: string;
  /** The target language as named to the translation model, with the variety and usage to follow. */
  translationTarget: string;
  /** The end of an ongoing period in period labels ("Mar 2021 – present"). */
  presentWord: string;
}

export const localeFacts: Readonly<Record<Locale, LocaleFacts>> = {
  en: {
    nativeName: 'English',
    englishName: 'English',
    htmlLang: 'en',
    ogLocale: 'en_GB',
    intlLocale: 'en-GB',
    dir: 'ltr',
    speech: { code: 'en', name: 'english' },
    modelName: 'English',
    translationTarget: 'English',
    presentWord: 'present',
  },
  zh: {
    nativeName: '简体中文',
    englishName: 'Simplified Chinese',
    htmlLang: 'zh-Hans',
    ogLocale: 'zh_CN',
    intlLocale: 'zh-CN',
    dir: 'ltr',
    speech: { code: 'zh', name: 'chinese' },
    modelName: 'Simplified Chinese',
    translationTarget: 'Simplified Chinese (mainland usage)',
    presentWord: '至今',
  },
  'zh-hant': {
    nativeName: '繁體中文',
    englishName: 'Traditional Chinese',
    htmlLang: 'zh-Hant',
    ogLocale: 'zh_TW',
    intlLocale: 'zh-TW',
    dir: 'ltr',
    speech: { code: 'zh', name: 'chinese' },
    modelName: 'Traditional Chinese',
    translationTarget: 'Traditional Chinese (Taiwan usage)',
    presentWord: '至今',
  },
  ja: {
    nativeName: '日本語',
    englishName: 'Japanese',
    htmlLang: 'ja',
    ogLocale: 'ja_JP',
    intlLocale: 'ja-JP',
    dir: 'ltr',
    speech: { code: 'ja', name: 'japanese' },
    modelName: 'Japanese',
    translationTarget: 'Japanese (natural business Japanese)',
    presentWord: '現在',
  },
  fr: {
    nativeName: 'Français',
    englishName: 'French',
    htmlLang: 'fr',
    ogLocale: 'fr_FR',
    intlLocale: 'fr-FR',
    dir: 'ltr',
    speech: { code: 'fr', name: 'french' },
    modelName: 'French',
    translationTarget: 'French',
    presentWord: 'aujourd’hui',
  },
  es: {
    nativeName: 'Español',
    englishName: 'Spanish',
    htmlLang: 'es',
    ogLocale: 'es_ES',
    intlLocale: 'es-ES',
    dir: 'ltr',
    speech: { code: 'es', name: 'spanish' },
    modelName: 'Spanish',
    translationTarget: 'Spanish (Spain)',
    presentWord: 'actualidad',
  },
  eo: {
    nativeName: 'Esperanto',
    englishName: 'Esperanto',
    htmlLang: 'eo',
    ogLocale: 'eo',
    intlLocale: 'eo',
    dir: 'ltr',
    speech: { code: 'eo', name: 'esperanto' },
    modelName: 'Esperanto',
    translationTarget: 'Esperanto (with ĉ ĝ ĥ ĵ ŝ ŭ)',
    presentWord: 'nun',
  },
};

/**
 * The locale of a language as a transcription service reports it: an ISO 639-1 code ("ja") or an English
 * name ("japanese"), in any case. Chinese is reported without its script, so it maps to the first Chinese
 * locale (Simplified).
 */
export function localeOfSpokenLanguage(language: string): Locale | undefined {
  const wanted = language.trim().toLowerCase();
  const rows = Object.entries(localeFacts) as Array<[Locale, LocaleFacts]>;
  return rows.find(([, facts]) => facts.speech.code === wanted || facts.speech.name === wanted)?.[0];
}
