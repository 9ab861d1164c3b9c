// The headings of an entry's sections in every locale, in one table: the site's pages format them as interface
// messages (app/i18n merges them in), and an entry's Markdown (the MCP resources and prompts, `vitae get`) uses them,
// so a reader of the French entry sees French headings through every door.
import type { Locale } from './vocabulary.ts';

export interface EntrySections {
  keyResult: string;
  overview: string;
  /** An ICU message with `{name}`, the subject's first name. */
  contributions: string;
  /** The same heading where the subject's name is not at hand. */
  contributionsUnnamed: string;
  achievements: string;
  keyResults: string;
  whyItMatters: string;
  skills: string;
  proofLinks: string;
}

export const entrySections: Readonly<Record<Locale, EntrySections>> = {
  en: {
    keyResult: 'Key result',
    overview: 'Overview',
    contributions: 'What {name} did',
    contributionsUnnamed: 'Contributions',
    achievements: 'Achievements',
    keyResults: 'Key results',
    whyItMatters: 'Why it matters to employers',
    skills: 'Skills',
    proofLinks: 'Proof',
  },
  zh: {
    keyResult: '关键成果',
    overview: '概述',
    contributions: '{name} 做了什么',
    contributionsUnnamed: '所做贡献',
    achievements: '成就',
    keyResults: '关键结果',
    whyItMatters: '对雇主的意义',
    skills: '技能',
    proofLinks: '佐证链接',
  },
  'zh-hant': {
    keyResult: '關鍵成果',
    overview: '概述',
    contributions: '{name} 做了什麼',
    contributionsUnnamed: '所做貢獻',
    achievements: '成就',
    keyResults: '關鍵結果',
    whyItMatters: '對雇主的意義',
    skills: '技能',
    proofLinks: '佐證連結',
  },
  ja: {
    keyResult: '主な成果',
    overview: '概要',
    contributions: '{name} が担ったこと',
    contributionsUnnamed: '担ったこと',
    achievements: '実績',
    keyResults: '主要な結果',
    whyItMatters: '採用する側にとっての意味',
    skills: 'スキル',
    proofLinks: '裏付け',
  },
  fr: {
    keyResult: 'Résultat clé',
    overview: 'Vue d’ensemble',
    contributions: 'Ce que {name} a fait',
    contributionsUnnamed: 'Contributions',
    achievements: 'Réalisations',
    keyResults: 'Résultats clés',
    whyItMatters: 'Pourquoi c’est utile à un employeur',
    skills: 'Compétences',
    proofLinks: 'Preuves',
  },
  es: {
    keyResult: 'Resultado clave',
    overview: 'Descripción',
    contributions: 'Qué hizo {name}',
    contributionsUnnamed: 'Contribuciones',
    achievements: 'Logros',
    keyResults: 'Resultados clave',
    whyItMatters: 'Por qué le importa a quien contrata',
    skills: 'Habilidades',
    proofLinks: 'Pruebas',
  },
  eo: {
    keyResult: 'Ĉefa rezulto',
    overview: 'Superrigardo',
    contributions: 'Kion {name} faris',
    contributionsUnnamed: 'Kontribuoj',
    achievements: 'Atingoj',
    keyResults: 'Ĉefaj rezultoj',
    whyItMatters: 'Kial tio gravas por dungantoj',
    skills: 'Kapabloj',
    proofLinks: 'Pruvoj',
  },
};
