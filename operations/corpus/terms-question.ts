// Whether a question asks about her terms of hire: when she could start, her availability, her notice period, her
// salary ("When could she start?", "¿Cuál es su disponibilidad para incorporarse?", "入社可能時期はいつですか？").
// A recruiter asks them of every candidate; a profile rarely states them, and their words mean other things in its
// text ("availability" of hotel rooms, a project's "start", "disponibilité" of a system), so word matching answered
// them with whatever record held those words. Search reads such a question as the words a passage stating terms is
// found by (TERMS_WORDS), which a passage stating them holds (corpus.ts): a profile that states none has nothing to show.
import type { Locale } from '../contract/shared.ts';
import { analyse, fold as withoutAccents, scriptOf, wordSegments } from './analyse.ts';
import { heldTogether, type Bm25Index } from './bm25.ts';
import { oneSlipFrom } from './lexicon.ts';
import { PERSON_WORDS } from './question-words.ts';

type Latin = 'en' | 'fr' | 'es' | 'eo';

/**
 * Per language, on the question lowercased without its accents (Esperanto's ĝ as g): `alone`, words and phrases that
 * ask about terms on their own (notice period, her salary, a salary expected: not "salary bands"); `about`, those that
 * do in a question about her (her name, a word for the person, she or her: "When could she start?", "Is she available
 * to start?"); `not`, what makes the word another thing (high availability, a room's availability). A word for her
 * availability alone (`available`) is hers when she is its subject (the word before it, past those in `skip`): "Is she available?", "her
 * availability", not "Are her projects available on GitHub?".
 */
const LATIN: Record<Latin, { alone: RegExp; about: RegExp; available: RegExp; her: RegExp; skip: Set<string>; not?: RegExp }> = {
  en: {
    alone:
      /\b(?:notice period|start(?:ing)? date|(?:day|daily|hourly) rate|(?:salary|pay|compensation) (?:expectations?|requirements?|range)|expected (?:salary|pay|compensation)|her (?:salary|pay|compensation|remuneration))\b|\b(?:salary|pay|compensation)\b.*\bexpect|\bexpect.*\b(?:salary|pay|compensation)\b/,
    about:
      /\bwhen (?:can|could|would|will|might)\b.*\b(?:start|begin|join|commence)\b|\bavailable (?:to (?:start|join|begin)|from|immediately|for (?:a |an )?(?:new )?(?:role|job|position|hire|interviews?))\b/,
    available: /^availab(?:le|ility)$/,
    her: /\b(?:she|her|hers)\b/,
    skip: new Set(['is', 'be', 'being', 'currently', 'still', 'now', 'already', 'actually', 'really']),
    not: /\bhigh(?:ly)?[ -]availab|\b(?:room|rooms|system|systems|service|data|seat|stock|inventory|api|product) availab|\bavailab(?:le|ility) (?:zones?|sets?|of (?:rooms|the|its|their)|rooms)\b/,
  },
  fr: {
    alone:
      /\b(?:preavis|pretentions salariales|date de (?:debut|prise de (?:poste|fonctions))|tarif journalier|tjm|(?:sa|son) (?:salaire|remuneration)|(?:salaire|remuneration) (?:souhaite|attendu|demande)e?)\b|\b(?:salaire|remuneration)\b.*\b(?:attend|souhait)|\b(?:attend|souhait)\w*\b.*\b(?:salaire|remuneration)\b/,
    about:
      /\bquand\b.*\b(?:commencer|demarrer|debuter|prendre (?:son|ses) (?:poste|fonctions)|rejoindre|integrer)\b|\bdisponible (?:immediatement|a partir|des)\b/,
    available: /^disponib(?:le|ilite)$/,
    her: /\b(?:elle|sa|son|ses)\b/,
    skip: new Set(['est', 'serait', 'sera', 'etre', 'actuellement', 'toujours', 'deja', 'vraiment', 't']),
    not: /\bhaute disponibilite\b|\bdisponibilite (?:des|du|de la|d)\b/,
  },
  es: {
    alone:
      /\b(?:preaviso|pretensiones salariales|fecha de (?:inicio|incorporacion)|incorporarse|incorporacion inmediata|su (?:salario|sueldo|remuneracion)|(?:salario|sueldo) (?:deseado|esperado|pretendido))\b|\b(?:salario|sueldo|remuneracion)\b.*\b(?:espera|desea)|\b(?:espera|desea)\w*\b.*\b(?:salario|sueldo|remuneracion)\b/,
    about: /\bcuando\b.*\b(?:empezar|comenzar|incorporarse|arrancar|unirse)\b|\bdisponible (?:de inmediato|inmediatamente|a partir|desde|para incorporarse)\b/,
    available: /^disponib(?:le|ilidad)$/,
    her: /\b(?:ella|su|sus)\b/,
    skip: new Set(['esta', 'estaria', 'estara', 'es', 'seria', 'estar', 'ser', 'actualmente', 'ya', 'todavia', 'realmente']),
    not: /\balta disponibilidad\b|\bdisponibilidad (?:de (?:las|los|la|el)|del)\b/,
  },
  eo: {
    alone: /\b(?:antauaviz\w*|komencdat\w*|sia salajro\w*)\b|\bsalajr\w*\b.*\batend|\batend\w*\b.*\bsalajr/,
    about: /\bkiam\b.*\b(?:komenci|eklabori|aligi)\b|\bdisponebla (?:tuj|ekde)\b/,
    available: /^disponebl(?:a|as|os|us|eco|econ)$/,
    her: /\b(?:si|sia|sian|siaj)\b/,
    skip: new Set(['estas', 'estus', 'estos', 'esti', 'nun', 'jam', 'ankorau', 'vere', 'cu']),
    not: /\balta disponebl\w*\b/,
  },
};

/** Chinese and Japanese: what asks about her terms (when she could join, start work, her salary or notice period). */
const HAN =
  /入社可能|入社時期|入社日|入社できる|いつから(?:働|勤務|入社|稼働|参加|開始)|稼働開始|稼働可能|着任|希望年収|年収|給与|給料|月給|報酬|退職予定|到岗|到職|入职时间|入職時間|(?:什么|什麼)时候(?:可以|能)?(?:入职|开始工作|到岗|上班)|(?:什麼|什么)時候(?:可以|能)?(?:入職|開始工作|到職|上班)|何时入职|何時入職|薪资|薪資|薪水|工资|工資|期望薪|通知期/u;

/**
 * The words of a Latin question, lowercased without accents, a word one slip from a key noun read as it ("dispnibilidad";
 * never a verb: "commencé" is one slip from "commencer", and the past).
 */
function latinText(query: string): string {
  const out: string[] = [];
  for (const { segment, isWordLike } of wordSegments(query, 'en')) {
    if (!isWordLike) continue;
    const folded = withoutAccents(segment.toLowerCase()).replace(/([cghjsu])x/g, '$1');
    out.push(folded.length >= 7 ? (KEY_WORDS.find((w) => w !== folded && oneSlipFrom(folded, w)) ?? folded) : folded);
  }
  return out.join(' ');
}
const KEY_WORDS = [
  'salary',
  'remuneration',
  'availability',
  'available',
  'salaire',
  'disponibilite',
  'disponible',
  'salario',
  'disponibilidad',
  'preaviso',
  'salajro',
  'disponebla',
];

/**
 * Whether `query` asks about her terms of hire: a word or phrase that does on its own, or one that does in a question
 * about her (`isName`: the subject's name, a word for the person, she or her) and is not another thing's.
 */
export function asksHerTerms(query: string, isName: (folded: string) => boolean): boolean {
  if (scriptOf(query) !== 'latin') return HAN.test(query.normalize('NFKC'));
  const text = latinText(query);
  const words = text.split(' ');
  return (Object.keys(LATIN) as Latin[]).some((language) => {
    const { alone, about, available, her, skip, not } = LATIN[language];
    if (not?.test(text)) return false;
    if (alone.test(text)) return true;
    const hers = (word: string) => her.test(word) || PERSON_WORDS[language].has(word) || isName(word.replace(/'s$/, ''));
    const aboutHer = words.some(hers);
    if (about.test(text) && aboutHer) return true;
    // "Is she (currently) available?", "her availability", "Est-elle disponible ?": the word just before the
    // availability word, past copulas and adverbs, is her; a question that names nothing before it ("¿Está
    // disponible?") is hers when it is about her at all. "Are her projects available?" is the projects'.
    return words.some((word, i) => {
      if (!available.test(word)) return false;
      let j = i - 1;
      while (j >= 0 && skip.has(words[j]!)) j--;
      return j < 0 ? aboutHer : hers(words[j]!);
    });
  });
}

/**
 * What a passage stating her terms of hire says, per locale: that she is available from a date, her notice period, her
 * salary expectations, a start date, a day rate (corpus.ts reads each passage's text with it).
 */
const STATES_TERMS: Record<Locale, RegExp> = {
  en: /\b(?:available (?:from|to start|immediately)|notice period|\d+[- ](?:weeks?|months?)['’]? notice|salary (?:expectations?|range)|expected salary|(?:can|could) start (?:in|on|from|immediately)|start date|day rate)\b/i,
  fr: /disponible (?:à partir|immédiatement|dès)|préavis|prétentions salariales|salaire (?:souhaité|attendu)|date de (?:début|prise de poste)|tarif journalier/i,
  es: /disponible (?:a partir|de inmediato|inmediatamente|desde)|incorporación inmediata|preaviso|pretensiones salariales|salario (?:deseado|esperado)|fecha de incorporación|tarifa diaria/i,
  eo: /disponebla (?:ekde|tuj)|antaŭavizo|salajraj? atendoj?|atendata salajro|komencdato/i,
  ja: /入社可能|稼働開始|稼働可能|希望年収|希望給与|退職予定|着任可能/,
  zh: /到岗|期望薪资|期望年薪|通知期|随时入职|可入职/,
  'zh-hant': /到職|期望薪資|期望年薪|通知期|隨時入職|可入職/,
};

/** Whether a passage's text (in `locale`) states her terms of hire. */
export const statesTerms = (text: string, locale: Locale): boolean => STATES_TERMS[locale].test(text);

/**
 * What a passage stating her terms is also found by (corpus.ts adds them to its description): a question about her
 * terms is read as them, held together (query-plan.ts), as no text holds them all otherwise.
 */
export const TERMS_WORDS: Record<Locale, string> = {
  en: 'availability notice salary terms',
  fr: 'disponibilité préavis salaire conditions',
  es: 'disponibilidad preaviso salario condiciones',
  eo: 'disponebleco antaŭavizo salajro kondiĉoj',
  ja: '入社時期 希望年収 条件',
  zh: '到岗时间 薪资 条件',
  'zh-hant': '到職時間 薪資 條件',
};

/**
 * Her terms of hire as the words of a question (query-plan.ts): the words a passage stating them is found by
 * (TERMS_WORDS), as one word, where some passage holds them all; none when no passage does (the profile states no
 * terms, and the question has nothing to match: its own words, which mean other things in the content, only rank).
 */
export function termsStated(engine: Bm25Index | undefined, locale: Locale): Array<{ tokens: string[] }> {
  const stated = heldTogether(analyse(TERMS_WORDS[locale], locale), engine);
  return stated ? [stated] : [];
}
