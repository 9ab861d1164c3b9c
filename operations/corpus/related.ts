// Related-word groups (content/search/related-terms.json) analysed as search matches them: each member a list of
// tokens in its locale's analysis, grouped by the tokens their members hold.
import type { Locale } from '../contract/shared.ts';
import { analyse } from './analyse.ts';

/** Per locale, groups of related words or phrases (a recruiter's words beside a profile's). */
export type RelatedTerms = Partial<Record<Locale, ReadonlyArray<readonly string[]>>>;

/**
 * Related-word groups per locale, analysed (each member a list of tokens), by the tokens their members hold.
 * Chinese groups serve both scripts.
 */
export function relatedGroups(related: RelatedTerms): Map<Locale, Map<string, string[][][]>> {
  let groups = relatedGroupsOf.get(related);
  if (!groups) relatedGroupsOf.set(related, (groups = analyseRelated(related)));
  return groups;
}

/** By the content's related-terms object (one per parse of its file): every build of unchanged terms analysed them again. */
const relatedGroupsOf = new WeakMap<RelatedTerms, Map<Locale, Map<string, string[][][]>>>();

function analyseRelated(related: RelatedTerms): Map<Locale, Map<string, string[][][]>> {
  const lists = new Map<Locale, string[][][]>();
  for (const [locale, groups] of Object.entries(related) as Array<[Locale, ReadonlyArray<readonly string[]>]>) {
    const analysed = groups
      .map((group) => group.map((member) => analyse(member, locale, true)).filter((tokens) => tokens.length > 0))
      .filter((g) => g.length > 1);
    const targets: Locale[] = locale === 'zh' || locale === 'zh-hant' ? ['zh', 'zh-hant'] : [locale];
    for (const target of targets) lists.set(target, [...(lists.get(target) ?? []), ...analysed]);
  }
  const out = new Map<Locale, Map<string, string[][][]>>();
  for (const [locale, groups] of lists) {
    const byToken = new Map<string, string[][][]>();
    for (const group of groups) {
      for (const token of new Set(group.flat())) byToken.set(token, [...(byToken.get(token) ?? []), group]);
    }
    out.set(locale, byToken);
  }
  return out;
}
