// When two questions of the evaluation are the same question: the same locale, and the same words once Unicode is
// normalised (NFKC: a full-width ？ is ?), case folded and punctuation and spacing dropped ("coréen ?" is "Coréen?").
import type { Locale } from '../operations/contract/shared.ts';

export function questionKey(q: { locale: Locale; question: string }): string {
  const words = q.question
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  return `${q.locale}\0${words.join(' ')}`;
}
