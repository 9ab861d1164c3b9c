// Text analysis per language, shared by indexing and querying. A text is split into words by
// Intl.Segmenter (CJK included, with ICU's dictionaries) and each word becomes the tokens of its language:
// - English: case and accents folded, stop words dropped, Porter-stemmed (@orama/stemmers; wink-nlp-utils held 60 MB for it), irregular
//   verb forms first taken to their verb (spoken → speak).
// - French and Spanish: elisions cut (l', qu'), stop words dropped, Snowball-stemmed (@orama/stemmers) on
//   the accented word, then accents folded, so "evaluation" typed without accents meets "évaluation".
// - Esperanto: the x-system folded (cx → c), accents folded (ĉ → c), the regular endings cut: nouns,
//   adjectives and adverbs (-o, -a, -e with plural -j and accusative -n) and verbs (-as, -is, -os, -us, -u, -i);
//   then one derivational suffix (-ad-, -ig-, -ist-, -il-, -ej-, -ec-, -ul-), and light verbs (povi, fari) dropped.
// - Chinese and Japanese: traditional characters folded to simplified (opencc-js), so a question in one script finds
//   text in the other, and in traditional Chinese Taiwan's words to the mainland's (軟體 → 软件); Han text gives
//   character bigrams (a text's over every run of Han characters, a query's within its words and across runs of
//   one-character words: always among a text's that contain it); kana words are whole but hiragana-only ones.
// Latin words inside CJK text (AI, Python) are treated as English. In any language, a word in capitals that spells a
// stop word (IT; AI in French, where "ai" is one) is an abbreviation and kept, unless the text has no lowercase letter
// and three words in capitals in a row (shouted); a question's such word no passage holds is dropped (query-plan.ts).
import { stemmer as frenchStem } from '@orama/stemmers/french';
import { stemmer as spanishStem } from '@orama/stemmers/spanish';
import * as OpenCC from 'opencc-js/t2cn';
import { stemmer as englishStem } from '@orama/stemmers/english';
import { IRREGULAR, STEM_OVERRIDE } from './english-stems.ts';
import type { Locale } from '../contract/shared.ts';
import { memoize } from './memo.ts';
import { DURATION, EXPERIENCE_KINDS, FRAME_IN_PLACE, FRAME_WORDS, PERSON_WORDS } from './question-words.ts';

const HAN = /\p{Script=Han}/u;
const HAN_ONLY = /^\p{Script=Han}+$/u;
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u;
const KATAKANA_ONLY = /^[\p{Script=Katakana}ー]+$/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const MARKS = /\p{M}+/gu;

/** Traditional Chinese characters to simplified ones (Taiwan and Hong Kong variants included). */
const toSimplified = OpenCC.Converter({ from: 'tw', to: 'cn' });
const toSimplifiedHk = OpenCC.Converter({ from: 'hk', to: 'cn' });
/** Folds traditional Han characters to simplified ones; other text is unchanged. */
export function foldHan(text: string): string {
  return HAN.test(text) ? toSimplifiedHk(toSimplified(text)) : text;
}
/** Taiwan's words to the mainland's, then its characters (軟體 → 软件, 資料庫 → 数据库, 專案 → 项目): OpenCC's phrase tables. */
const toMainland = OpenCC.Converter({ from: 'twp', to: 'cn' });
/**
 * Folds Chinese text as `foldHan` does and, when it is written in traditional characters, Taiwan's words to the
 * mainland's: a question asked with Taiwan's words meets a text written with the mainland's, and the other way round.
 * Simplified text is only folded (the phrase tables read their input as Taiwan's: they would take the mainland's 程序,
 * a program, for Taiwan's, a process). Japanese is folded by `foldHan` only (its words are its own).
 */
export function foldChinese(text: string): string {
  const folded = foldHan(text);
  return folded === text ? text : toSimplifiedHk(toMainland(text));
}
/** Whether a text is written in traditional characters (folding changes it). */
export function isTraditional(text: string): boolean {
  return HAN.test(text) && foldHan(text) !== text;
}

/** A word without its accents. */
export const fold = (word: string) => word.normalize('NFKD').replace(MARKS, '');
const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean).map(fold));

/** A list of words as written, which a word typed without accents also matches ("basee" is "basée"; "travaillé" is not "travaille"). */
export interface WordList {
  has(written: string): boolean;
  /** Its words as `foldWord` gives them, each once. */
  readonly folded: readonly string[];
}
export function wordList(list: readonly string[], foldWord: (word: string) => string = fold): WordList {
  const written = new Set(list);
  const folded = [...new Set(list.map(foldWord))];
  const foldedSet = new Set(folded);
  return { folded, has: (word) => written.has(word) || (!/\p{M}/u.test(word.normalize('NFKD')) && foldedSet.has(foldWord(word))) };
}

/** Stop words per language, folded: words too common to tell passages apart (BM25's idf does the rest). */
export const stopWords = {
  en: words(
    'a an and are as at be been but by for from has had have having he her hers him his i in into is it its of on or our she that the their them they this to was were ' +
      'what when where which who whom why will with you your yours about did does do doing done how me my tell than then there these those also can could would should ' +
      'any ever some much many more most very so if not no yes just anything something such being am get got made make done give given ' +
      'describe explain',
  ),
  fr: words(
    'le la les l de des du d un une et en est sont pour que qui quoi dans sur avec au aux ce cet cette ces son sa ses il elle ils elles on ou où par pas plus ne se ' +
      's y a ai as avait avez avons ont été être fait faite je tu nous vous me te lui leur leurs mon ma mes ton ta tes notre nos votre vos qu quel quelle quels quelles ' +
      'comment pourquoi quand est-ce ce cela ça t-elle t-il elle-même très aussi bien déjà jamais sans sous entre chez comme mais donc or ni car si tout tous toute toutes ' +
      'eu eue eus avoir faire fais donné donnée quelque quelques autre autres même mêmes avant après combien lequel laquelle lesquels lesquelles dont ' +
      'sait savez savoir peut peuvent pouvoir pourrait décrire décrivez expliquer expliquez ' +
      // être and avoir in their other tenses ("serait apprécié")
      'sera serait seraient seront soit soient était étaient étais aura aurait auraient auront',
  ),
  es: words(
    'el la los las lo del de al y e o u en un una unos unas es son ser fue ha han he has había por con para sin sobre entre que qué quien quién cual cuál cuáles como cómo ' +
      'cuando cuándo donde dónde porque su sus se le les me te nos os mi mis tu tus ella él ellos ellas este esta estos estas ese esa eso esto muy más mas ya también alguna ' +
      'alguno algún algo tiene tienen tenido hay está están era desde hasta antes después durante otro otra otros otras mucho muchos poco nada ' +
      'todo todos todas dado dada hecho hecha hacer hace hizo dar dio sido estado tenía cuánto cuánta cuántos cuántas usted ante contra vez nunca ' +
      'sabe saben saber sabía puede pueden poder podría describir describa explicar explique ' +
      // ser and haber in their other tenses ("sería un plus")
      'será serán sería serían sea sean eran habrá habría',
  ),
  eo: words(
    'la kaj estas estis estos esti por kun al ke ne sed pri el de da en je al ĉu cxu kiu kiuj kiun kiujn kio kion kie kiel kiam kial kiom kies ŝi sxi li ĝi gxi ili mi vi ni ' +
      'ŝia sxia ŝin sxin lia ŝiaj sxiaj liaj ilia iliaj tiu tiuj tio tie tiel iu iuj io iam ie iel ial iom ĉiam ciam neniam ajn ankaŭ ankau jam nur tre pli plej aŭ au se ol sur sub ĉe ce ĉe dum havas havis ' +
      // an ending cut from its word by a hyphen ("SDK-on"), and the article's elided form
      'o on oj ojn a an aj ajn e en n j l ĝin gxin lin ilin min vin nin sin si ' +
      // asking to describe or explain: how a question is put, not what it asks
      'priskribu priskribi klarigu klarigi',
  ),
} as const;
/** Chinese bigrams made of a question word or particle, and characters that make any bigram with them noise. */
const ZH_STOP_BIGRAMS = new Set([
  '什么',
  '哪些',
  '怎么',
  '如何',
  '多少',
  '是否',
  '没有',
  '可以',
  '哪里',
  '这个',
  '那个',
  '一些',
  '关于',
  '曾经',
  '曾在',
  '已经',
  '请问',
  '为什',
  '之处',
  '方面',
  '哪几',
  '几种',
  '真正',
  '怎样',
  '多大',
  '多久',
  '多长',
  '几个',
  '几年',
  '哪个',
  '哪家',
  '哪种',
  '什么样',
  '彼女',
  '时候',
  '何时',
  '比如',
  '例如',
  '譬如',
  '能否',
  '说说',
  '谈谈',
  '为何',
]);
const ZH_STOP_CHARS = new Set([...'她他它的了吗呢么是我你您们这那哪啊吧过有']);
/**
 * Characters that join words rather than make them (or, and, with, by): a question's bigram across one of them
 * ("实习生或指导": 生或) is a word of the question only where the text holds it too; elsewhere it is noise, not a
 * word the profile lacks (query-plan.ts). Folded to simplified.
 */
export const HAN_JOINERS = new Set([...'或与和及把被跟并而且于之其等']);

export type LatinLanguage = keyof typeof stopWords;
/** The language a locale's Latin words are read in (English inside Chinese and Japanese text). */
export const latinOf: Record<Locale, LatinLanguage> = { en: 'en', fr: 'fr', es: 'es', eo: 'eo', zh: 'en', 'zh-hant': 'en', ja: 'en' };

/** Cuts a French or Esperanto elision (l', qu', d') or an English possessive ('s); keeps other words whole. */
function elide(word: string, language: LatinLanguage): string {
  const parts = word.split(/['’]/);
  if (parts.length === 1) return word;
  if (language === 'en') return parts[0]!;
  return parts[parts.length - 1]!;
}

/** Esperanto verbs too light to be what a question is about (esti, havi, povi, scii, scipovi, voli, devi, fari), by root. */
const ESPERANTO_LIGHT_ROOTS = new Set(['est', 'hav', 'pov', 'sci', 'scipov', 'vol', 'dev', 'far']);

const esperantoX = (word: string) => word.replace(/([cghjsu])x/g, (_, c: string) => c);
const ESPERANTO_ENDING = /(?:[oae]j?n?|as|is|os|us|u|i)$/;
const ESPERANTO_SUFFIX = /(?:ad|ig|ist|il|ej|ec|ul)$/;
const ESPERANTO_COUNTRY = /(?<=\p{L}{3})uj$/u;

/** The token of one Latin-script word in a language, or '' when it is a stop word or too short to mean much. */
function latinToken(segment: string, language: LatinLanguage): string {
  const lower = elide(segment.toLowerCase(), language);
  if (/\d/.test(lower)) return fold(lower);
  switch (language) {
    case 'en': {
      const folded = fold(lower);
      if (folded.length < 2 || stopWords.en.has(folded)) return '';
      if (!/^[a-z]+$/.test(folded)) return folded;
      return STEM_OVERRIDE.get(folded) ?? englishStem(IRREGULAR.get(folded) ?? folded);
    }
    case 'fr':
    case 'es': {
      const folded = fold(lower);
      if (folded.length < 2 || stopWords[language].has(folded)) return '';
      return fold((language === 'fr' ? frenchStem : spanishStem)(lower));
    }
    case 'eo': {
      const folded = fold(esperantoX(lower));
      if (folded.length < 2 || stopWords.eo.has(folded)) return '';
      // A country named with -ujo (CLDR's Japanujo, Francujo) is the one named with -io (Japanio, Francio), the form in use today.
      const root = folded.replace(ESPERANTO_ENDING, '').replace(ESPERANTO_COUNTRY, 'i');
      if (ESPERANTO_LIGHT_ROOTS.has(root)) return '';
      if (root.length < 2) return folded;
      // One derivational suffix too, where a root of three letters remains: trovado (finding) meets trovi (to
      // find), programisto meets programo, serĉilo (search tool) meets serĉi, plibonigi meets plibona.
      const stem = root.replace(ESPERANTO_SUFFIX, '');
      return stem.length >= 3 ? stem : root;
    }
  }
}

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(locale: Locale): Intl.Segmenter {
  const tag = locale === 'zh-hant' ? 'zh' : locale;
  let s = segmenters.get(tag);
  if (!s) segmenters.set(tag, (s = new Intl.Segmenter(tag, { granularity: 'word' })));
  return s;
}

const latinTokens = Object.fromEntries(
  (Object.keys(stopWords) as LatinLanguage[]).map((language) => [language, memoize((segment: string) => latinToken(segment, language), 100_000)]),
) as Record<LatinLanguage, (segment: string) => string>;

function hanBigrams(chars: readonly string[], out: string[]): void {
  for (let i = 0; i + 1 < chars.length; i++) {
    const [a, b] = [chars[i]!, chars[i + 1]!];
    if (ZH_STOP_CHARS.has(a) || ZH_STOP_CHARS.has(b)) continue;
    const bigram = a + b;
    if (!ZH_STOP_BIGRAMS.has(bigram)) out.push(bigram);
  }
}

/**
 * The tokens of a text in a locale. `query` analyses a question: Han bigrams are taken within words and
 * across runs of one-character words only, so that a question's bigrams are ones a text containing its
 * words would also have, and not noise that would count as unmatched words.
 */
export function analyse(text: string, locale: Locale, query = false): string[] {
  return analyseWords(text, locale, query).flat();
}

/**
 * A question's words, each as its tokens: one token for a Latin or kana word, the bigrams of a Han word (or
 * of a run of one-character words). A long Han word counts as one word, not as many as it has bigrams.
 */
export function analyseQuery(text: string, locale: Locale): string[][] {
  return analyseWords(text, locale, true);
}

/**
 * A question's words as `analyseQuery` gives them, each with the word as typed when it is a Latin word: `typed` with
 * case and accents folded, `written` with its accents (what the French and Spanish stemmers read), both without an
 * elision ("l'assurance" is "assurance").
 */
export function analyseQueryWords(text: string, locale: Locale): Array<{ tokens: string[]; typed?: string; written?: string; aside?: true }> {
  let written: Array<string | undefined> = [];
  let asides: boolean[] = [];
  let words = analyseWords(text, locale, true, written, false, asides);
  // A question made only of words that frame one ("What is her experience?", "Where has she worked?") is about them.
  if (!words.length) words = analyseWords(text, locale, true, (written = []), true, (asides = []));
  return words.map((tokens, i) => {
    const word = written[i];
    const out: { tokens: string[]; typed?: string; written?: string; aside?: true } =
      word === undefined ? { tokens } : { tokens, typed: fold(word), written: word };
    if (asides[i]) out.aside = true;
    return out;
  });
}

/**
 * The language of a Latin-script text of some length (a job description): the one whose stop words it uses most, by a
 * clear margin; undefined when none stands out or the text is in another script. One line of it cannot always be told
 * ("Kubernetes operations expertise" is English and French alike); the text it came from can.
 */
export function latinLanguageOf(text: string): LatinLanguage | undefined {
  if (scriptOf(text) !== 'latin') return undefined;
  const languages = Object.keys(stopWords) as LatinLanguage[];
  const counts = new Map(languages.map((language) => [language, 0]));
  for (const { segment, isWordLike } of wordSegments(text, 'en')) {
    if (!isWordLike) continue;
    const lower = segment.toLowerCase();
    // (a stop word of one language only: "de", "la", "en" are French, Spanish and Esperanto alike)
    const of = languages.filter((language) => stopWords[language].has(fold(elide(language === 'eo' ? esperantoX(lower) : lower, language))));
    if (of.length === 1) counts.set(of[0]!, counts.get(of[0]!)! + 1);
  }
  const [first, second] = [...counts].sort((a, b) => b[1] - a[1]);
  return first![1] >= 2 && first![1] >= 2 * second![1] ? first![0] : undefined;
}

/** Whether a Latin word (folded) is a stop word of the locale's language. */
export function isStopWord(word: string, locale: Locale): boolean {
  return stopWords[latinOf[locale]].has(word);
}

/** Whether a Latin word (folded) is a word a question uses for the person or to frame itself (PERSON_WORDS, FRAME_WORDS). */
export function isPersonOrFrameWord(word: string, locale: Locale): boolean {
  const language = latinOf[locale];
  return PERSON_WORDS[language].has(word) || FRAME_WORDS[language].has(word);
}

/**
 * Whether a Latin word (folded) is one the stem override keeps apart from the word Porter joins it to: a real word
 * ("accounting"), never read as a slip of that word ("accountings" → account) where the profile does not hold it.
 */
export function isKeptApart(word: string, locale: Locale): boolean {
  return latinOf[locale] === 'en' && STEM_OVERRIDE.has(word);
}

/** The token of one Latin word in a locale's language ('' for a stop word), not kept: how a spelling that may be a typo's correction is looked up. */
export function latinTokenOf(word: string, locale: Locale): string {
  return latinToken(word, latinOf[locale]);
}

/** The Han and kana person and frame words, cut from a question before it is segmented. */
const PERSON_HAN = new RegExp([...PERSON_WORDS.han, ...FRAME_WORDS.han, ...FRAME_IN_PLACE].map((w) => foldHan(w)).join('|'), 'gu');
const PERSON_CHINESE = new RegExp([...PERSON_WORDS.han, ...FRAME_WORDS.han, ...FRAME_IN_PLACE].map((w) => foldChinese(w)).join('|'), 'gu');
const PERSON_ONLY_HAN = new RegExp(PERSON_WORDS.han.map((w) => foldHan(w)).join('|'), 'gu');
const PERSON_ONLY_CHINESE = new RegExp(PERSON_WORDS.han.map((w) => foldChinese(w)).join('|'), 'gu');

/**
 * `frame`: a question's frame words are kept (it has no other word). `asides`: which words are an abbreviation's gloss,
 * one word in capitals within closed brackets ("開發者體驗（DX）", "developer experience (DX)").
 */
function analyseWords(text: string, locale: Locale, query: boolean, typed?: Array<string | undefined>, frame = false, asides?: boolean[]): string[][] {
  const language = latinOf[locale];
  const words: string[][] = [];
  // how many brackets are open, and the words and word segments there were when the outermost one opened
  let [depth, opened, segments, openedSegments, capitals] = [0, 0, 0, 0, false];
  const chinese = locale === 'zh' || locale === 'zh-hant';
  let normalised = (chinese ? foldChinese : foldHan)(text.normalize('NFKC'))
    .replace(LANGUAGE_WITH_SIGN, languageWithSign)
    .replace(AMPERSAND_ABBREVIATION, ampersandWord);
  const shouting = !/\p{Ll}/u.test(normalised) && /\p{Lu}{2,}[^\p{L}]+\p{Lu}{2,}[^\p{L}]+\p{Lu}{2,}/u.test(normalised);
  if (query && CJK.test(normalised))
    normalised = normalised.replace(frame ? (chinese ? PERSON_ONLY_CHINESE : PERSON_ONLY_HAN) : chinese ? PERSON_CHINESE : PERSON_HAN, ' ');
  if (query && !frame) normalised = normalised.replace(EXPERIENCE_KINDS[language], ' ').replace(DURATION, ' ');
  let run: string[] = []; // the current run of Han characters
  let singles = true; // whether the run is made only of one-character words (for a query)
  const bigrams = (chars: readonly string[]) => {
    const out: string[] = [];
    hanBigrams(chars, out);
    if (out.length) words.push(out);
  };
  const flush = () => {
    if (run.length >= 2 && (!query || singles)) bigrams(run);
    run = [];
    singles = true;
  };
  // The katakana word the segment before was, if any: ICU splits a katakana word its dictionary lacks (スマホ: スマ, ホ).
  let katakana: string[] | undefined;
  for (const { segment, isWordLike } of wordSegments(normalised, locale)) {
    const after = katakana;
    katakana = undefined;
    if (isWordLike) [segments, capitals] = [segments + 1, CAPITALS.test(segment)];
    if (!isWordLike) {
      flush();
      if (asides) {
        const before = depth;
        depth = Math.max(0, depth + (segment.match(OPENING)?.length ?? 0) - (segment.match(CLOSING)?.length ?? 0));
        if (!before && depth) [opened, openedSegments] = [words.length, segments];
        // (an aside is one word in capitals within brackets closed after it, an abbreviation's gloss: not a clause)
        if (before && !depth && words.length === opened + 1 && segments === openedSegments + 1 && capitals) asides[opened] = true;
      }
      continue;
    }
    if (HAN_ONLY.test(segment)) {
      const chars = [...segment];
      if (query && chars.length > 1) {
        flush();
        bigrams(chars);
        continue;
      }
      if (chars.length > 1) singles = false;
      run.push(...chars);
      continue;
    }
    flush();
    if (CJK.test(segment)) {
      const length = [...segment].length;
      // a katakana letter split from the katakana word before it is of that word
      if (after && length === 1 && KATAKANA_ONLY.test(segment)) after[0] += segment;
      else if (!HIRAGANA_ONLY.test(segment) && length >= 2) {
        const word = [segment];
        words.push(word);
        if (KATAKANA_ONLY.test(segment)) katakana = word;
      }
      continue;
    }
    if (query) {
      // (as the word is, and without its elision: "l'industrie", "d'expérience", "candidate's")
      const bare = fold(elide(segment.toLowerCase(), language));
      if (PERSON_WORDS[language].has(bare) || (!frame && FRAME_WORDS[language].has(bare))) continue;
    }
    // (an abbreviation in capitals is not the stop word it spells, IT or the French AI, but in a text all in capitals)
    const token = latinTokens[language](segment) || (!shouting && fold(ABBREVIATION.exec(segment)?.[1]?.toLowerCase() ?? ''));
    if (!token) continue;
    if (typed) typed[words.length] = elide(segment.toLowerCase(), language);
    words.push([token]);
  }
  flush();
  return words;
}

// (a word in capitals; brackets opening and closing)
const [CAPITALS, OPENING, CLOSING] = [/^[A-Z][A-Z0-9]+$/, /[([{（［【]/gu, /[)\]}）］】]/gu];
const ABBREVIATION = /^(?:\p{L}['’])?(\p{Lu}{2,})$/u;

/**
 * C++, C# and F#: the word segmenter keeps the letter and drops its sign, so they are spelt out first (cplusplus,
 * csharp), apart from a version that follows (C++17 is cplusplus 17).
 */
const LANGUAGE_WITH_SIGN = /(?<![\p{Script=Latin}\p{N}_])([CcFf])(\+\+|#)(?![\p{Script=Latin}+#])/gu;
const languageWithSign = (_: string, letter: string, sign: string) => `${letter}${sign === '#' ? 'sharp' : 'plusplus'} `;
/**
 * An abbreviation joined by an ampersand (P&L, R&D, M&A, AT&T): the word segmenter splits it into letters too short to
 * be words, so a requirement of "P&L ownership" lost its subject; it is one word (p_and_l), which no stemmer cuts.
 */
const AMPERSAND_ABBREVIATION = /(?<![\p{Script=Latin}\p{N}_&])(\p{Script=Latin}{1,3})&(\p{Script=Latin}{1,3})(?![\p{Script=Latin}\p{N}_&])/gu;
const ampersandWord = (_: string, before: string, after: string) => ` ${before}_and_${after} `.toLowerCase();
/** `text` with each abbreviation joined by an ampersand as the one word it is analysed as ("P&L" → "p_and_l"). */
export const joinedAmpersands = (text: string) => text.replace(AMPERSAND_ABBREVIATION, ampersandWord);

/**
 * Characters the word segmenter is given at once. V8's Intl.Segmenter costs, for each word it yields, time in
 * proportion to the length of the whole text it iterates (100 kB of "a " took 4 s, 1 MB would take minutes):
 * a text is given to it in windows of at most this many characters, so its cost is linear in the text's length.
 * A passage of the demo content (at most 600 characters but for a long paragraph) is one window.
 */
export const SEGMENT_WINDOW = 1024;

/** How many windows the segmenter was given, and the longest (for tests: the work is linear in the input). */
export const segmentation = { windows: 0, longest: 0 };

/**
 * The word segments of a text in a locale, found window by window (of at most `size` characters): the segments of
 * the whole text wherever a window can end after white space or punctuation (see `windowEnd`).
 */
export function* wordSegments(text: string, locale: Locale, size = SEGMENT_WINDOW): Generator<Intl.SegmentData> {
  const words = segmenter(locale);
  for (let start = 0; start < text.length;) {
    const end = windowEnd(text, start, size);
    segmentation.windows++;
    if (end - start > segmentation.longest) segmentation.longest = end - start;
    yield* words.segment(start === 0 && end === text.length ? text : text.slice(start, end));
    start = end;
  }
}

/** White space after which UAX #29 always breaks (JavaScript's \s but U+FEFF, Format there, and U+202F, ExtendNumLet: both join their neighbours). */
const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u205f\u3000]/;
/** Characters that join the one before them into its segment (Extend, Format, ZWJ of UAX #29). */
const JOINS_BEFORE = /^[\p{M}\p{Cf}\p{Emoji_Modifier}]/u;
/** Punctuation that never joins the characters around it into one word (UAX #29 classes Other; not MidLetter, MidNum, MidNumLet or ExtendNumLet). */
const BREAKING_PUNCTUATION = /[!#$%&()*+\-/<=>?@[\\\]^`{|}~¡¿«»“”、。！？「」『』（）【】《》〈〉…—–]/;

/**
 * Where the window starting at `start` ends: after a run of white space, where UAX #29 (and ICU's dictionaries,
 * which work on runs of letters) always break, so the segments are those of the whole text. A window without
 * such a place in its second half (a very long word, or CJK text without spaces) ends after breaking
 * punctuation, or else at its size, where only the words around the cut can differ from the whole text's.
 * Each window but the last is at least half the size, so finding the ends costs a pass over the text.
 */
function windowEnd(text: string, start: number, size = SEGMENT_WINDOW): number {
  const limit = start + size;
  if (limit >= text.length) return text.length;
  const half = start + Math.ceil(size / 2);
  for (let i = limit; i > half; i--) {
    if (SPACE.test(text[i - 1]!) && !SPACE.test(text[i]!) && !JOINS_BEFORE.test(text.slice(i, i + 2))) return i;
  }
  for (let i = limit; i > half; i--) {
    if (BREAKING_PUNCTUATION.test(text[i - 1]!) && !JOINS_BEFORE.test(text.slice(i, i + 2))) return i;
  }
  // Not inside a surrogate pair, nor before a mark that belongs to the character before it, nor inside white space.
  let end = limit;
  while (end > half && (isLowSurrogate(text.charCodeAt(end)) || JOINS_BEFORE.test(text.slice(end, end + 2)) || SPACE.test(text[end]!))) end--;
  return end;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Whether a text has kana (so it is Japanese) or Han characters (Chinese or Japanese). */
export function scriptOf(text: string): 'kana' | 'han' | 'latin' {
  if (KANA.test(text)) return 'kana';
  if (HAN.test(text)) return 'han';
  return 'latin';
}
