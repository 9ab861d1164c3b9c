// Words of a question that rank but say nothing of how much of it a record holds (query-plan.ts): verbs of making
// ("Has she developed video games?"), words that pick one of several ("her highest degree") and words for a company
// that name no kind of one ("a consulting firm").
import type { Locale } from '../contract/shared.ts';
import { analyseQueryWords, fold, latinOf, wordList, type LatinLanguage } from './analyse.ts';
import { memoize } from './memo.ts';

/**
 * Verbs of making that a question about work done is put with ("Has she developed video games?", "¿Ha construido
 * robots?", "做过游戏开发吗"): nearly every record of a career holds one, so a record holding only the verb and the
 * question's commonest other word looked as if it held most of a question it does not answer. They rank as any word,
 * but say nothing of how much of the question a record holds (query-plan.ts), unless the question has no other word.
 */
const LIGHT_VERBS: Record<LatinLanguage, string> & { han: readonly string[] } = {
  en: 'develop developed developing build built building create created creating ship shipped shipping implement implemented delivered use used using',
  fr: 'développer développé développée développés développées construire construit construite créer créé créée créés réaliser réalisé réalisée utiliser utilisé',
  es: 'desarrollar desarrollado desarrollada desarrollados construir construido construida crear creado creada realizar realizado implementado utilizar utilizado usar usado',
  eo: 'disvolvi disvolvis evoluigi evoluigis konstrui konstruis krei kreis realigi realigis uzi uzis',
  han: ['开发', '開發', '開発', '构建', '構建', '搭建', '创建', '創建', '制作', '製作', '实现', '實現', '使用'],
};
/**
 * Words that pick one of several rather than say what they are ("her highest degree", "son dernier poste", "最高学历",
 * "最終学歴"): the record that answers holds what they pick from, rarely the word. Weighed as verbs of making are.
 */
const ORDERING: Record<LatinLanguage, string> & { han: readonly string[] } = {
  en: 'highest latest last recent current biggest largest main best',
  fr: 'haut haute hauts hautes élevé élevée dernier dernière derniers dernières récent récente actuel actuelle principal principale meilleur meilleure',
  es: 'alto alta altos altas último última últimos últimas reciente actual principal mayor mejor',
  eo: 'alta altan lasta lastan nuna nunan ĉefa ĉefan',
  // (and the words entries that have not ended are found by, corpus.ts's CURRENT_WORDS: 现任, 現職)
  han: ['最高', '最近', '最新', '最后', '最後', '最終', '目前', '主要', '最大', '现任', '現任', '現在', '現職'],
};

/**
 * Words for where one works that name no kind of it ("a consulting firm", "新创公司", "コンサルティングファーム"): the
 * record that answers holds the kind (consulting, 新创), the word for a company or a firm only by chance. Weighed
 * as verbs of making are.
 */
const EMPLOYERS: Record<LatinLanguage, string> & { han: readonly string[] } = {
  en: 'company companies firm firms employer employers corporation',
  fr: 'entreprise entreprises société sociétés firme firmes cabinet employeur employeurs',
  es: 'empresa empresas compañía compañías firma firmas despacho empleador empleadores',
  eo: 'firmao firmaon firmaoj kompanio kompanion kompanioj entrepreno entreprenon entreprenoj dunganto',
  han: ['公司', '企业', '企業', '会社', 'ファーム'],
};

/** Each word of `list` as a question's tokens in `locale`, joined. */
function tokensOf(list: readonly string[], locale: Locale): ReadonlySet<string> {
  const out = new Set<string>();
  for (const word of list) {
    const analysed = analyseQueryWords(word, locale);
    if (analysed.length === 1) out.add(analysed[0]!.tokens.join(' '));
  }
  return out;
}

/**
 * Whether a question's word (as analyseQueryWords gives it) is a verb of making (LIGHT_VERBS, by its stem: every form
 * of it), or picks one of several or names a company (ORDERING, EMPLOYERS, as written: French "élevé" but not
 * "élève", "corporation" but not "corporate"; a Han word by its tokens).
 */
export function isLightWord(word: { tokens: readonly string[]; written?: string }, locale: Locale): boolean {
  const key = word.tokens.join(' ');
  if (stemmedOf(locale).has(key)) return true;
  if (word.written !== undefined) return writtenOf(latinOf[locale]).has(word.written);
  return han(locale) && hanOf(locale).has(key);
}

const han = (locale: string) => locale === 'zh' || locale === 'zh-hant' || locale === 'ja';
// Per locale (or language), made at the first question that needs them.
const stemmedOf = memoize(
  (locale) => tokensOf([...LIGHT_VERBS[latinOf[locale as Locale]].split(' '), ...(han(locale) ? LIGHT_VERBS.han : [])], locale as Locale),
  8,
);
const hanOf = memoize((locale) => tokensOf([...ORDERING.han, ...EMPLOYERS.han], locale as Locale), 8);
/** The Latin words that pick one of several and words for a company, as written ('corporate' is not 'corporation'). */
const writtenOf = memoize((language) => wordList([...ORDERING[language as LatinLanguage].split(' '), ...EMPLOYERS[language as LatinLanguage].split(' ')]), 8);

/** The Latin verbs of making and words that pick one of several in a locale's language, folded as typed (for their typos, query-plan.ts). */
export const lightSpellings = memoize((locale): readonly string[] => {
  const language = latinOf[locale as Locale];
  return [...LIGHT_VERBS[language].split(' '), ...ORDERING[language].split(' ')].map(fold);
}, 8);
