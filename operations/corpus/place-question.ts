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

/** A word of a Latin question: lowercased as written, and folded (`fold`). */
type LatinWord = { written: string; folded: string };

/** A Latin question's words, lowercased, without a French elision or an English 's ("where's"). */
function latinWords(query: string): LatinWord[] {
  const out: LatinWord[] = [];
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
 * Whether every word of a Latin question is grammar (a letter, a stop word of `language`), a word for the person or
 * her name (`isName`), or one `takes` takes; and none one `refuses` refuses (a question about before, or another one).
 */
function onlyLatinBeside(
  words: readonly LatinWord[],
  language: Latin,
  isName: (folded: string) => boolean,
  takes: (w: LatinWord) => boolean,
  refuses: (w: LatinWord) => boolean,
): boolean {
  return words.every(
    (w) => !refuses(w) && (w.folded.length <= 1 || isStopWord(w.folded, language) || PERSON_WORDS[language].has(w.folded) || isName(w.folded) || takes(w)),
  );
}

/** Whether a Chinese or Japanese question holds, beside the person words and `words`, only grammar (hiragana: particles and endings) or the person's name. */
function onlyGrammarBeside(query: string, words: RegExp, isName: (folded: string) => boolean): boolean {
  const rest = query
    .replace(PERSON_HAN, ' ')
    .replace(words, ' ')
    .replace(/[\p{Script=Latin}\p{N}]+/gu, (w) => (isName(fold(w.toLowerCase())) ? ' ' : w));
  return !/[\p{Script=Han}\p{Script=Katakana}\p{Script=Latin}\p{N}]/u.test(rest);
}

/**
 * Whether `query` asks only where the person is: it has a word that asks for a place in one language, and every other
 * word is a stop word of that language, a word for the person (`isName`: the subject's name), or one such a question is
 * put with (living, being based, now); none asks about before.
 */
export function asksWhereSheIs(query: string, isName: (folded: string) => boolean): boolean {
  if (scriptOf(query) !== 'latin') {
    if (!HAN_WHERE.test(query)) return false;
    return onlyGrammarBeside(query, HAN_PLACE, isName);
  }
  const words = latinWords(query);
  const language = (Object.keys(WORDS) as Latin[]).find((l) => words.some((w) => among(w.written, w.folded, WORDS[l].asks)));
  if (!language) return false;
  const lists = WORDS[language];
  return onlyLatinBeside(
    words,
    language,
    isName,
    (w) => among(w.written, w.folded, lists.asks) || among(w.written, w.folded, lists.placed) || among(w.written, w.folded, lists.filler),
    (w) => among(w.written, w.folded, lists.before),
  );
}

/**
 * Per language, lowercased with their accents: the words of the present (now, today, currently, her current…); the
 * verbs of doing or working, which in the present ask what she does for a living on their own ("What does she do?");
 * the nouns for a job, which do with a word of the present ("Quel est son métier aujourd'hui ?"); and the words that
 * make it another question: about before ("What did she do?", "Qu'a-t-elle fait ?"), or how, why, where or when.
 */
const PRESENT: Record<Latin, { now: string; doing: string; job: string; other: string }> = {
  en: {
    now: 'now today currently presently nowadays days moment present current',
    doing: 'do does doing work works working',
    job: 'job occupation profession role position post living',
    other: 'did done was were has had have used previously formerly earlier before how why where when',
  },
  fr: {
    now: "maintenant aujourd hui aujourd'hui aujourd’hui actuellement moment désormais jours présent actuel actuelle",
    doing: 'fait font faites travaille travaillent',
    job: 'métier emploi poste profession occupation activité fonction travail',
    other: 'a avait était fut faisait travaillait avant auparavant précédemment comment pourquoi où quand',
  },
  es: {
    now: 'ahora hoy actualmente actualidad momento día días presente actual',
    doing: 'hace hacen dedica dedican trabaja trabajan',
    job: 'trabajo empleo puesto cargo profesión oficio ocupación',
    other: 'hizo hacía ha había fue era hecho trabajaba dedicaba antes anteriormente cómo como por dónde cuándo',
  },
  eo: {
    now: 'nun nuntempe hodiaŭ momente aktuale nuna nunan',
    doing: 'faras laboras okupiĝas',
    job: 'laboro laboron posteno postenon ofico okupo profesio metio',
    other: 'faris laboris okupiĝis estis antaŭe iam kiel kial kie kiam',
  },
};
const PRESENT_WORDS = Object.fromEntries(
  Object.entries(PRESENT).map(([language, lists]) => [
    language,
    { now: listOf(lists.now), doing: listOf(lists.doing), job: listOf(lists.job), other: listOf(lists.other) },
  ]),
) as Record<Latin, Record<keyof (typeof PRESENT)['en'], WordList>>;

/** Chinese and Japanese: the words of the present; the verbs of doing or working; what makes it another question (before, how, why, where, when); and the words such a question is put with (the nouns for a job, grammar). */
const HAN_NOW = /现在|現在|目前|如今|当前|當前|眼下|今|いま/u;
const HAN_DOING = /做什么|做什麼|干什么|幹什麼|从事|從事|何をして|なにをして/u;
const HAN_OTHER = /过|過|曾|以前|之前|从前|從前|当时|當時|かつて|昔|前職|してきた|していた|しました|でした|どう|なぜ|どこ|いつ/u;
const HAN_PRESENT = new RegExp(
  '现在 現在 目前 如今 当前 當前 眼下 今 いま 做 干 幹 从事 從事 工作 职业 職業 职位 職位 职务 職務 仕事 役職 何 什么 什麼 どんな どのような どういう 请问 請問 她 他 是 在 的 呢 吗 嗎 了'
    .split(' ')
    .sort((a, b) => b.length - a.length)
    .join('|'),
  'gu',
);

/**
 * Whether `query` asks only what the person does now, for a living: a verb of doing or working in the present ("What
 * does she do?", "¿A qué se dedica?", "她做什么工作？"), or a word of the present with such a verb or a noun for a job
 * ("What is she working on these days?", "Quel est son métier aujourd'hui ?", "今はどんな仕事をしていますか？"); every
 * other word a stop word, a word for the person or her name (`isName`); none asking about before, how, why, where or when. Search reads it as
 * her job that has not ended (places.ts's CURRENT_WORDS and CURRENT_JOB_WORDS, query-plan.ts): its own words are
 * light ("do") or everywhere ("work", "today").
 */
export function asksWhatSheDoesNow(query: string, isName: (folded: string) => boolean): boolean {
  if (scriptOf(query) !== 'latin') {
    if (!(HAN_NOW.test(query) || HAN_DOING.test(query)) || HAN_OTHER.test(query)) return false;
    return onlyGrammarBeside(query, HAN_PRESENT, isName);
  }
  const words = latinWords(query);
  // (a word of the present or of doing mistyped by one slip anywhere is one: "todaay", "workig"; not one of four or
  // five letters, as "works" is one slip from "words". A past tense is one of `other`, looked at first.)
  const is = (list: keyof (typeof PRESENT)['en'], language: Latin) => (w: LatinWord) =>
    among(w.written, w.folded, PRESENT_WORDS[language][list]) ||
    ((list === 'now' || list === 'doing') &&
      w.folded.length >= 5 &&
      PRESENT_WORDS[language][list].folded.some((word) => word.length >= (list === 'now' ? 5 : 6) && oneSlipFrom(w.folded, word)));
  const language = (Object.keys(PRESENT_WORDS) as Latin[]).find((l) => words.some(is('doing', l)) || (words.some(is('now', l)) && words.some(is('job', l))));
  if (!language) return false;
  return onlyLatinBeside(words, language, isName, (w) => is('now', language)(w) || is('doing', language)(w) || is('job', language)(w), is('other', language));
}
