// Variants of an evaluation question that a reader makes without meaning to: one typo, or one word the profile
// never uses. Deterministic (the same question always gives the same variant), so figures compare run to run.
// A typo is one edit (a letter dropped, doubled, swapped with its neighbour or replaced by a neighbouring key)
// in a word of at least five letters, the way someone typing fast makes one. Chinese and Japanese questions get
// a typo only in a Latin word they hold: a slip of an input method picks another character, which no search
// can be asked to read as the one meant; such questions have no typo variant (`undefined`).
import type { Locale } from '../operations/contract/shared.ts';
import { KEYBOARD_NEIGHBOURS } from '../operations/corpus/lexicon.ts';

/** The made-up word an unknown-word variant adds, in the question's own script. */
const UNKNOWN: Partial<Record<Locale, string>> = { ja: 'ズィクヴァルン', zh: '兹克瓦伦', 'zh-hant': '茲克瓦倫' };
const UNKNOWN_LATIN = 'zyqvarn';

/** A small, stable hash of the text (FNV-1a), to pick the word and the edit. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The question with one typo in one of its longer Latin words, or undefined when it has none. */
export function typoVariant(question: string): string | undefined {
  const words = [...question.matchAll(/\p{Script=Latin}{5,}/gu)].filter((m) => /^[a-z]+$/i.test(m[0].normalize('NFKD').replace(/\p{M}/gu, '')));
  if (!words.length) return undefined;
  const h = hash(question);
  const match = words[h % words.length]!;
  const word = match[0];
  // never the first letter: people rarely get that wrong, and the edit stays inside the word
  const at = 1 + ((h >>> 8) % (word.length - 1));
  const letter = word[at]!;
  let typed: string;
  switch ((h >>> 16) % 4) {
    case 0:
      typed = word.slice(0, at) + word.slice(at + 1); // dropped
      break;
    case 1:
      typed = word.slice(0, at) + letter + word.slice(at); // doubled
      break;
    case 2:
      typed = at < word.length - 1 ? word.slice(0, at) + word[at + 1] + letter + word.slice(at + 2) : word.slice(0, at - 1) + letter + word[at - 1]; // swapped
      break;
    default: {
      const keys = KEYBOARD_NEIGHBOURS[letter.toLowerCase()];
      const next = keys?.[(h >>> 24) % keys.length];
      typed = next ? word.slice(0, at) + next + word.slice(at + 1) : word.slice(0, at) + word.slice(at + 1); // next key
    }
  }
  return question.slice(0, match.index) + typed + question.slice(match.index + word.length);
}

/** The question with one word added that no text of the profile holds (a made-up name), before its final mark. */
export function unknownWordVariant(question: string, locale: Locale): string {
  const word = UNKNOWN[locale] ?? UNKNOWN_LATIN;
  const m = /(\s*)([?？。.!！]*)\s*$/u.exec(question)!;
  const body = question.slice(0, m.index);
  const joiner = locale === 'ja' || locale.startsWith('zh') ? '' : ' ';
  return `${body}${joiner}${word}${m[1]}${m[2]}`;
}
