// The profile's fixed vocabulary as plain lists, with no zod: the browser bundle imports these directly,
// and shared.ts builds the zod enums from the very same arrays. What each locale is (names, language tags,
// date formats, how models are told the language) is the table in locales.ts.
export const locales = ['en', 'zh', 'zh-hant', 'ja', 'fr', 'es', 'eo'] as const;
export const kinds = ['experience', 'education', 'community', 'project'] as const;
export const tags = ['it', 'engineering', 'ai', 'devrel', 'web3', 'business', 'marketing', 'consulting', 'hospitality', 'community', 'creative'] as const;
export const lensIds = [
  'head-of-ai',
  'ai-transformation-consultant',
  'engineering-manager',
  'solution-architect',
  'system-integrator',
  'support-engineer',
  'ict-specialist',
  'developer-advocate',
  'developer-evangelist',
  'digital-marketer',
  'hospitality',
] as const;
export const documentNames = ['profile', 'credentials', 'capabilities', 'talks', 'thinking'] as const;
export const branches = ['main', 'dev'] as const;

export type Locale = (typeof locales)[number];
export type Kind = (typeof kinds)[number];
export type Tag = (typeof tags)[number];
export type LensId = (typeof lensIds)[number];
export type DocumentName = (typeof documentNames)[number];
export type Branch = (typeof branches)[number];

/**
 * The vocabularies a field's values come from. A field that takes them says so in its JSON Schema as
 * `"x-vocabulary": "<name>"` (on the array for a list), and admin_schema's `vocabulary.<name>` lists the values with
 * their labels.
 */
export const vocabularyNames = ['tags', 'lenses', 'skills', 'kinds', 'locales', 'documents'] as const;
export type VocabularyName = (typeof vocabularyNames)[number];
/** A vocabulary's value with its label for people (a tag in the site's English words, a lens by its title). */
export interface VocabularyTerm {
  value: string;
  label: string;
}

/**
 * The `source` a translation records before anyone has translated it: a new translation starts as a copy of its
 * English recording this, so it stays stale (the site shows the English, the translate stage may translate it) until
 * it is translated and marked current with the English's hash.
 */
export const UNTRANSLATED = 'untranslated';
