// Whether a question asks where the person is ("Where is she based?", "Où habite-t-elle ?", "¿Dónde vive?",
// "Kie ŝi loĝas?", "どこに住んでいますか？", "她住在哪里？"). Such a question holds no word of what answers it (the
// place itself), and its words mislead word matching: "based" is the knowledge base's, "live" a product's. Search
// reads it as the person's own place instead (site.json's subject location, query-plan.ts). A question that asks
// where about something else ("Where did she study?") or before ("Where has she worked?", "Où a-t-elle travaillé ?",
// "Where was she based?") is not one.
import { fold as withoutAccents, isStopWord, scriptOf, wordList, wordSegments, type WordList } from './analyse.ts';
import { PERSON_WORDS } from './question-words.ts';
import { oneSlipFrom } from './lexicon.ts';

type Latin = 'en' | 'fr' | 'es' | 'eo';

/**
 * Per language, lowercased with their accents: the words that ask for a place (where, and the nouns that do when they
 * are all a question names: "Which city is she in?"); the words of being placed such a question is put with (living,
 * being based or located, working now), which also rank ("based" finds "based in Lisbon"); the other words it is put
 * with (now, these days); and those that ask about before, which make it another question.
 */
const LISTS: Record<Latin, { asks: string; placed: string; filler: string; before: string }> = {
  en: {
    asks: 'where whereabouts city town country location',
    placed: 'based located live lives living reside resides residing resident situated settled work works',
    filler: 'base currently now today nowadays days moment home',
    before: 'did was were used previously formerly earlier before',
  },
  fr: {
    asks: 'où ville pays',
    placed:
      'basée basé basées basés située situé localisée localisé habite habitent habiter vit vivent vivre réside résider résidence travaille ' +
      'domiciliée domicilié installée installé',
    filler: 'actuellement aujourd hui maintenant moment domicile trouve',
    before: 'avant auparavant précédemment autrefois',
  },
  es: {
    asks: 'dónde donde ciudad país',
    placed: 'basada basado ubicada ubicado vive viven vivir reside residencia radica encuentra trabaja localizada instalada instalado',
    filler: 'actualmente ahora hoy momento domicilio',
    before: 'antes anteriormente',
  },
  eo: {
    asks: 'kie urbo urbon lando landon',
    placed: 'loĝas loĝi vivas laboras troviĝas situas bazita baziĝas ekloĝis',
    filler: 'nun nuntempe hejmo hejme',
    before: 'antaŭe',
  },
};

/** A word without its accents, and Esperanto's x-system (ĝ typed gx) read as its letter. */
const fold = (word: string) => withoutAccents(word).replace(/([cghjsu])x/g, '$1');

const listOf = (words: string): WordList => wordList(words.split(/\s+/).filter(Boolean), fold);
const WORDS = Object.fromEntries(
  Object.entries(LISTS).map(([language, lists]) => [
    language,
    { asks: listOf(lists.asks), placed: listOf(lists.placed), filler: listOf(lists.filler), before: listOf(lists.before) },
  ]),
) as Record<Latin, Record<keyof (typeof LISTS)['en'], WordList>>;

/**
 * Whether a word (`written` lowercased, `folded` as `fold` gives it) is one of `list`: as written; folded, when it was
 * typed without accents (French "travaillé" is not "travaille"); or, from five letters, one slip from one of them
 * before its last two letters ("ladno", "inwtallée"; "lived" is not "lives", nor "laboris" "laboras").
 */
function among(written: string, folded: string, list: WordList): boolean {
  if (list.has(written)) return true;
  if (folded.length < 5) return false;
  return list.folded.some((w) => w.length >= 4 && oneSlipFrom(folded, w) && firstDifference(folded, w) < Math.min(folded.length, w.length) - 2);
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

/** Whether a Latin word (lowercased, as written) is a word of being placed in a language (based, lives, habite, vive, loĝas). */
export const isPlaceWord = (word: string): boolean => (Object.keys(WORDS) as Latin[]).some((l) => among(word, fold(word), WORDS[l].placed));

/** Chinese and Japanese: what asks for a place, and the words such a question is put with (both scripts), longest first. */
const HAN_WHERE =
  /どこ|何処|どちら|どの(?:都市|国|街|町)|哪里|哪裡|哪裏|哪儿|哪兒|住哪|哪[个個座](?:城市|国家|國家|地方)|什么地方|什麼地方|何处|何處|所在地|在哪/u;
const HAN_PLACE = new RegExp(
  (
    'どこ 何処 どちら どの お住まい 住 在住 拠点 居住 暮ら 都市 国 街 町 現在 今 いま 哪里 哪裡 哪裏 哪儿 哪兒 哪 个 個 座 城市 国家 國家 地方 什么 什麼 ' +
    '何处 何處 所在地 居 常驻 常駐 现居 現居 定居 生活 工作地点 工作地點 位于 位於 目前 现在 如今 请问 請問 她 他 是 在 的 呢 吗 嗎 了'
  )
    .split(' ')
    .sort((a, b) => b.length - a.length)
    .join('|'),
  'gu',
);
const PERSON_HAN = new RegExp(PERSON_WORDS.han.join('|'), 'gu');

/** A Latin question's words, lowercased, without a French elision or an English 's ("where's"). */
function latinWords(query: string): Array<{ written: string; folded: string }> {
  const out: Array<{ written: string; folded: string }> = [];
  for (const { segment, isWordLike } of wordSegments(query, 'en')) {
    if (!isWordLike) continue;
    const written = segment
      .toLowerCase()
      .replace(/^(?:l|d|qu|j|n|s|c)['’]/, '')
      .replace(/['’]s$/, '');
    out.push({ written, folded: fold(written) });
  }
  return out;
}

/**
 * Whether `query` asks only where the person is: it has a word that asks for a place in one language, and every other
 * word is a stop word of that language, a word for the person (`isName`: the subject's name), or one such a question is
 * put with (living, being based, now); none asks about before.
 */
export function asksWhereSheIs(query: string, isName: (folded: string) => boolean): boolean {
  if (scriptOf(query) !== 'latin') {
    if (!HAN_WHERE.test(query)) return false;
    let rest = query.replace(PERSON_HAN, ' ').replace(HAN_PLACE, ' ');
    // The rest must be grammar (hiragana: particles and endings) or the person's name.
    rest = rest.replace(/[\p{Script=Latin}\p{N}]+/gu, (w) => (isName(fold(w.toLowerCase())) ? ' ' : w));
    return !/[\p{Script=Han}\p{Script=Katakana}\p{Script=Latin}\p{N}]/u.test(rest);
  }
  const words = latinWords(query);
  const language = (Object.keys(WORDS) as Latin[]).find((l) => words.some((w) => among(w.written, w.folded, WORDS[l].asks)));
  if (!language) return false;
  const lists = WORDS[language];
  return words.every(
    ({ written, folded }) =>
      !among(written, folded, lists.before) &&
      (folded.length <= 1 ||
        isStopWord(folded, language) ||
        PERSON_WORDS[language].has(folded) ||
        isName(folded) ||
        among(written, folded, lists.asks) ||
        among(written, folded, lists.placed) ||
        among(written, folded, lists.filler)),
  );
}
