// Tokeniser shared by indexing and querying: Intl.Segmenter splits every script (CJK included, with
// ICU's dictionaries); Latin words are case- and accent-folded and stemmed; CJK words also give bigrams,
// so "機械学習" matches "機械" and "学習" whichever way a text was segmented.
import nlp from 'wink-nlp-utils';
import { memoize } from './memo.ts';

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const MARKS = /\p{M}+/gu;

// Words too common to help in the languages whose text we index (BM25's idf does the rest).
const STOP = new Set(
  (
    'a an and are as at be but by for from has have he her his i in into is it its of on or our she that the their them they this to was were what when where which who why will with you your ' +
    'about did does do how me my tell than then there these those also can could would should' +
    ' le la les de des du un une et en est pour que qui dans sur avec au aux ce ces son sa ses il elle ou par pas plus ne se' +
    ' el los las del y por con para una es lo al su sus como mas o' +
    ' kaj estas por kun al ke ne sed pri el'
  ).split(' '),
);

export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text.normalize('NFKC'))) {
    if (isWordLike) tokens.push(...wordTokens(segment));
  }
  return tokens;
}

/** The tokens of one word: folding and stemming are the costly part, and a text's words repeat. */
const wordTokens = memoize((segment: string): string[] => {
  if (CJK.test(segment)) {
    const chars = [...segment];
    const tokens = [segment];
    if (chars.length >= 3) for (let i = 0; i < chars.length - 1; i++) tokens.push(chars[i]! + chars[i + 1]!);
    return tokens;
  }
  const folded = segment.toLowerCase().normalize('NFKD').replace(MARKS, '');
  if ((folded.length < 2 && !/\d/.test(folded)) || STOP.has(folded)) return [];
  return [/^[a-z]+$/.test(folded) ? nlp.string.stem(folded) : folded];
}, 100_000);

/**
 * `tokenize` remembered by text, for indexing: a rebuild tokenises only the passages that changed. The
 * arrays are shared, so callers must not change them.
 */
export const tokenizeCached: (text: string) => readonly string[] = memoize(tokenize, 200_000);
