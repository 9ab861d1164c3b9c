// Quotes of the profile, checked: a quote is evidence only when it lies, word for word and within one field, in the
// record it cites (in any of its locales), and when no sentence it lies in denies what it names ("she has not
// trained foundation models" is the subject saying so, never proof of it). Used by match_role for the model's quotes
// and for the sentences the search-only form picks.
import type { Build } from '../corpus/corpus.ts';
import { markdownToText } from '../content/markdown.ts';
import type { Locale } from '../contract/shared.ts';
import { cutAtWord, shared } from './requirements.ts';

/** The text a quote is compared in: Unicode compatibility forms, straight quotes, no Markdown marks, single spaces, lower case. */
export function normalisedForQuote(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[‘’‚‛′]/g, "'")
    .replace(/[“”„‟″«»]/g, '"')
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD = /[\p{L}\p{N}]/u;
/** Control characters: never in a record's text, so never in a quote of it (and never printed to a terminal). */
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The sentences of a text as a reader would cut them (a list item or a field is one at least). */
export const sentencesOf = (text: string) =>
  text
    .split(/(?<=[.!?;])\s+|(?<=[。！？；])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 3);

/** Too short to prove anything: fewer than three words, or six Chinese or Japanese characters. */
function tooShort(quote: string): boolean {
  if (CJK.test(quote)) return quote.replace(/\s/g, '').length < 6;
  return quote.split(' ').filter((w) => WORD.test(w)).length < 3;
}

/**
 * Words that make a sentence deny what it names, in the language of its record; and the turns of phrase that use
 * them without denying anything ("not only … but also", "never missed a release", 少なかった, だけではない).
 */
const NEGATION: Record<Locale, RegExp> = {
  en: /\bnot\b(?! (?:only|just|merely)\b)|\bnever\b(?! (?:miss|fail|lost|los|drop|broke|break))|\bcannot\b|n't\b|\bno longer\b|\b(?:has|have|had) no\b/i,
  fr: /(?<!\p{L})(?:ne(?!\p{L})|n['’](?=\p{L}))[^.;!?]{0,40}?(?<!\p{L})(?:pas|jamais|aucun|aucune|plus)(?!\p{L})(?!\s+(?:seulement|que)(?!\p{L}))/iu,
  es: /(?<!\p{L})(?:no(?!\s+(?:s[oó]lo|solamente|únicamente)(?!\p{L}))|nunca|jamás|ningún|ninguna|tampoco)(?!\p{L})/iu,
  eo: /(?<!\p{L})(?:ne(?!\s+nur(?!\p{L}))|neniam|neniu|neniun|nenia)(?!\p{L})/iu,
  zh: /没有|从未(?!错过|缺席|失误|延误)|未曾|并未|尚未|不曾|不熟悉|不具备|未参与|未涉及/u,
  'zh-hant': /沒有|從未(?!錯過|缺席|失誤|延誤)|未曾|並未|尚未|不曾|不熟悉|不具備|未參與|未涉及/u,
  ja: /[てで](?:いない|いません)|(?<!違い|妥協は|問題)ありません|ことがない|ことはない|(?<![少危汚])なかった|未経験|(?<!だけ)ではない/u,
};

/**
 * Whether a sentence denies what a requirement names: a negation whose reach (the next few words; in Japanese, which
 * denies at the end, the words before it) holds one of the requirement's words. "She has not trained foundation
 * models" denies training them; "it hands what it cannot answer to staff" denies nothing about shipping it.
 */
export function denies(sentence: string, locale: Locale, words: ReadonlySet<string>): boolean {
  const { source, flags } = NEGATION[locale];
  for (const m of sentence.matchAll(new RegExp(source, `${flags}g`))) {
    const end = m.index + m[0].length;
    const reach =
      locale === 'ja'
        ? sentence.slice(Math.max(0, m.index - 16), end)
        : locale === 'zh' || locale === 'zh-hant'
          ? sentence.slice(m.index, end + 16)
          : sentence.slice(m.index).split(/\s+/).slice(0, 8).join(' ');
    if (shared(words, reach) > 0) return true;
  }
  return false;
}

interface Field {
  locale: Locale;
  normal: string;
  /** The field's sentences as written, with where each lies in `normal`. */
  sentences: Array<{ text: string; start: number; end: number }>;
}

/** Each record's fields in every locale, normalised for quotes, with their sentences; made once per build. */
const fieldsOfRecords = new WeakMap<Build, Map<string, Field[] | null>>();

function recordFields(build: Build, slug: string): Field[] | null {
  let records = fieldsOfRecords.get(build);
  if (!records) fieldsOfRecords.set(build, (records = new Map()));
  let fields = records.get(slug);
  if (fields === undefined) {
    fields = [];
    for (const [locale, view] of Object.entries(build.locales) as Array<[Locale, Build['locales'][Locale]]>) {
      const texts: string[] = [];
      const entry = view.entryBySlug.get(slug);
      if (entry) {
        texts.push(entry.title, entry.organisation, entry.summary, entry.keyResult, markdownToText(entry.overview), markdownToText(entry.whyItMatters));
        texts.push(...entry.contributions, ...entry.achievements, ...entry.keyResults);
      }
      const document = view.documents.get(slug as never);
      if (document) texts.push(document.title, document.summary, markdownToText(document.markdown));
      for (const text of texts) {
        const normal = normalisedForQuote(text);
        let cursor = 0;
        const sentences = sentencesOf(text).map((sentence) => {
          const wanted = normalisedForQuote(sentence);
          const start = Math.max(cursor, normal.indexOf(wanted, cursor));
          cursor = start + wanted.length;
          return { text: sentence, start, end: cursor };
        });
        fields.push({ locale, normal, sentences });
      }
    }
    if (!fields.length) fields = null;
    records.set(slug, fields);
  }
  return fields;
}

/** Where `wanted` stands in `text` as whole words (a Chinese or Japanese end may touch anything), or -1. */
function wordsAt(text: string, wanted: string): number {
  const startsWord = WORD.test(wanted[0]!) && !CJK.test(wanted[0]!);
  const endsWord = WORD.test(wanted.at(-1)!) && !CJK.test(wanted.at(-1)!);
  for (let at = text.indexOf(wanted); at !== -1; at = text.indexOf(wanted, at + 1)) {
    const before = text[at - 1];
    const after = text[at + wanted.length];
    if ((!startsWord || !before || !WORD.test(before)) && (!endsWord || !after || !WORD.test(after))) return at;
  }
  return -1;
}

export type QuoteCheck =
  /** The quote is the record's, as given (spaces and surrounding marks tidied), and the sentence holding it does not deny it. */
  | { found: true; quote: string }
  /** The record says it, in a sentence that denies it: the subject's own words for a gap. */
  | { found: false; denied: string }
  /** The record does not say it (or the quote is too short to prove anything). */
  | { found: false; denied?: undefined };

/** Checks a quote of a record offered for a requirement (its content words, `words`): see QuoteCheck. */
export function checkQuote(build: Build, slug: string, quote: string, max: number, words: ReadonlySet<string>): QuoteCheck {
  // (`search` neither uses nor moves the global pattern's lastIndex)
  if (quote.replace(/[\t\n\r]/g, ' ').search(CONTROL) !== -1) return { found: false };
  const tidied = quote
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“”«»„]+|["'“”«»]+$/g, '')
    .replace(/^(\.\.\.|…)\s*|\s*(\.\.\.|…)$/g, '');
  const cut = cutAtWord(tidied, max);
  const wanted = normalisedForQuote(cut);
  if (!wanted || tooShort(wanted)) return { found: false };
  for (const field of recordFields(build, slug) ?? []) {
    const at = wordsAt(field.normal, wanted);
    if (at === -1) continue;
    // The sentences the quote lies in: one that denies the requirement makes it the subject's word for a gap.
    const denying = field.sentences.find((s) => s.start < at + wanted.length && s.end > at && denies(s.text, field.locale, words));
    return denying ? { found: false, denied: denying.text } : { found: true, quote: cut };
  }
  return { found: false };
}
