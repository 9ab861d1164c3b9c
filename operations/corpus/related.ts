// Related-word groups (content/search/related-terms.json) analysed as search matches them: each member a list of
// tokens in its locale's analysis, grouped by the tokens their members hold.
import type { Locale } from '../contract/shared.ts';
import { analyse, fold, foldHan, isPersonOrFrameWord } from './analyse.ts';
import { FRAME_WORDS } from './question-words.ts';
import { chineseLanguageNames } from './names.ts';

const HAN = /\p{Script=Han}/u;

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

/**
 * A member of a group (as `relatedGroups` gives it) as the text holds it, to stand for a question's word: its tokens as
 * a passage's are made. A member is found in a question as the question is read ("public sector" is "public", a
 * question's frame word dropped), but stands for it only where a passage holds all of it ("public" is not the sector).
 */
export function standIn(member: string[]): string[] {
  return standIns.get(member) ?? member;
}
const standIns = new WeakMap<string[], string[]>();

/** By the content's related-terms object (one per parse of its file): every build of unchanged terms analysed them again. */
const relatedGroupsOf = new WeakMap<RelatedTerms, Map<Locale, Map<string, string[][][]>>>();

function analyseRelated(related: RelatedTerms): Map<Locale, Map<string, string[][][]>> {
  const lists = new Map<Locale, string[][][]>();
  // (and the languages Chinese names two ways, 日语 and 日文, whatever the subject's groups are)
  const withNames: RelatedTerms = { ...related, zh: [...(related.zh ?? []), ...chineseLanguageNames()] };
  for (const [locale, groups] of Object.entries(withNames) as Array<[Locale, ReadonlyArray<readonly string[]>]>) {
    const analysed = groups
      .map((group) =>
        group.flatMap((member) => {
          // (a member that is one of a question's frame words, 経験 or "experience", as a text holds it: found in a question
          // of its frame alone; not one a frame word is part of, 未経験 or "track record", which would stand for it)
          const question = analyse(member, locale, true);
          const text = analyse(member, locale);
          const asked = question.length || !isFrameWord(member, locale) ? question : text;
          // (a Han member's bigrams as a question's are those of its words, which passages hold wherever they hold it)
          if (asked.length && !HAN.test(member)) standIns.set(asked, text);
          return asked.length ? [asked] : [];
        }),
      )
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

const HAN_FRAME = new Set(FRAME_WORDS.han.map(foldHan));
/** Whether a related word is, whole, one of the words a question frames itself with (question-words.ts's FRAME_WORDS). */
function isFrameWord(member: string, locale: Locale): boolean {
  const word = member.trim();
  return HAN.test(word) ? HAN_FRAME.has(foldHan(word)) : isPersonOrFrameWord(fold(word.toLowerCase()), locale);
}
