// Whether a question asks where the person is ("Where is she based?", "Où habite-t-elle ?", "¿Dónde vive?",
// "Kie ŝi loĝas?", "どこに住んでいますか？", "她住在哪里？"). Such a question holds no word of what answers it (the
// place itself), and its words mislead word matching: "based" is the knowledge base's, "live" a product's. Search
// reads it as the person's own place instead (site.json's subject location, query-plan.ts). A question that asks
// where about something else ("Where did she study?", "Where has she worked?") is not one: it has other words.
import { isStopWord, PERSON_WORDS, scriptOf, wordSegments } from './analyse.ts';
import { oneSlipFrom } from './lexicon.ts';

const fold = (word: string) => word.normalize('NFKD').replace(/\p{M}+/gu, '');
const set = (list: string) => new Set(list.split(/\s+/).filter(Boolean).map(fold));

/**
 * Words that ask for a place, folded: where, and the nouns that do when they are all a question names ("Which city is
 * she in?", "Dans quel pays vit-elle ?"). (French où, folded, is "or": it is told by its accent.)
 */
const ASKS = set('where whereabouts dónde donde kie city town country location ville pays ciudad país urbo urbon lando landon');
/**
 * Words of being placed a question of the person's place is put with, folded: living, being based or located, working
 * (now: "Where does she work?" asks for her employer's place, "Where has she worked?" for her employers); in English,
 * French, Spanish and Esperanto. They also rank: "based" finds "based in Lisbon".
 */
const PLACED = set(
  'based located live lives living reside resides residing resident situated settled work works ' +
    'basée basé basées basés située situé localisée localisé habite habitent habiter vit vivent vivre réside résider résidence travaille domiciliée domicilié installée installé ' +
    'basada basado ubicada ubicado vive viven vivir reside residencia radica encuentra trabaja localizada instalada instalado ' +
    'loĝas loĝi vivas laboras troviĝas situas bazita baziĝas ekloĝis',
);
/** Other words such a question is put with, folded: now, these days, home. */
const FILLER = set(
  'base currently now today nowadays days moment home ' +
    'actuellement aujourd hui maintenant moment domicile trouve ' +
    'actualmente ahora hoy momento domicilio ' +
    'nun nuntempe hejmo hejme',
);
/** A word of five letters or more one slip from one of `list` is that word mistyped ("ladno", "inwtallée"; not "laboris", laboras's past). */
const among = (word: string, list: ReadonlySet<string>) => list.has(word) || (word.length >= 5 && [...list].some((w) => w.length >= 4 && oneSlipFrom(word, w)));

/** Whether a Latin word (folded) is a word of being placed (PLACED: based, lives, habite, vive, loĝas). */
export const isPlaceWord = (word: string): boolean => PLACED.has(word);

/** Chinese and Japanese: what asks for a place, and the words such a question is put with (folded to simplified or not, both spellings). */
const HAN_WHERE = /どこ|何処|どちら|どの(?:都市|国|街|町)|哪里|哪裡|哪儿|哪兒|哪[个個座](?:城市|国家|國家|地方)|什么地方|什麼地方|何处|何處|所在地|在哪/u;
const HAN_PLACE =
  /どこ|何処|どちら|どの|お住まい|住|在住|拠点|居住|暮ら|都市|国|街|町|現在|今|いま|哪里|哪裡|哪儿|哪兒|哪|[个個座]|城市|国家|國家|地方|什么|什麼|何处|何處|所在地|居|常驻|常駐|现居|現居|定居|生活|工作地点|工作地點|位于|位於|目前|现在|如今|请问|請問|她|他|是|在|的|呢|吗|嗎|了/gu;
const PERSON_HAN = new RegExp(PERSON_WORDS.han.join('|'), 'gu');

/** (a question in one Latin language may be asked on the site of another) */
const LATIN = ['en', 'fr', 'es', 'eo'] as const;

/**
 * Whether `query` asks only where the person is: it has a word that asks for a place,
 * and every other word is a stop word, a word for the person (`isName`: the subject's name), or one such a question
 * is put with (living, being based, now).
 */
export function asksWhereSheIs(query: string, isName: (folded: string) => boolean): boolean {
  const script = scriptOf(query);
  if (script !== 'latin') {
    if (!HAN_WHERE.test(query)) return false;
    let rest = query.replace(PERSON_HAN, ' ').replace(HAN_PLACE, ' ');
    // The rest must be grammar (hiragana: particles and endings) or the person's name.
    rest = rest.replace(/[\p{Script=Latin}\p{N}]+/gu, (w) => (isName(fold(w.toLowerCase())) ? ' ' : w));
    return !/[\p{Script=Han}\p{Script=Katakana}\p{Script=Latin}\p{N}]/u.test(rest);
  }
  let asks = false;
  for (const { segment, isWordLike } of wordSegments(query, 'en')) {
    if (!isWordLike) continue;
    const lower = segment.toLowerCase().replace(/^(?:l|d|qu|j|n|s|c)['’]/, '');
    const word = fold(lower);
    if (lower === 'où' || among(word, ASKS)) asks = true;
    else if (
      word.length <= 1 ||
      LATIN.some((l) => isStopWord(word, l) || PERSON_WORDS[l].has(word)) ||
      isName(word) ||
      among(word, PLACED) ||
      among(word, FILLER)
    )
      continue;
    else return false;
  }
  return asks;
}
