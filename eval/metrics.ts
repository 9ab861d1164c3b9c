// The figures `npm run eval` reports: how often search puts an answer near the top, and whether it stays
// silent when the profile has no answer. Pure functions over ranked result ids, so they test without a build.

/** One question's outcome: the ids search returned, best first, and the ids that would answer it. */
export interface Outcome {
  ranked: readonly string[];
  expected: readonly string[];
  noAnswer: boolean;
}

/** 1-based rank of the first expected id within the top `depth`, or undefined when none is there. */
export function firstHit(ranked: readonly string[], expected: readonly string[], depth: number): number | undefined {
  const wanted = new Set(expected);
  const index = ranked.slice(0, depth).findIndex((id) => wanted.has(id));
  return index === -1 ? undefined : index + 1;
}

const mean = (values: readonly number[]): number | null => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/** Fraction of answerable questions with an expected id in the top `k`; null when there are none. */
export function recallAt(outcomes: readonly Outcome[], k = 5): number | null {
  return mean(outcomes.filter((o) => !o.noAnswer).map((o) => (firstHit(o.ranked, o.expected, k) ? 1 : 0)));
}

/** Mean reciprocal rank of the first expected id within the top `depth` (0 when none is), over answerable questions. */
export function meanReciprocalRank(outcomes: readonly Outcome[], depth = 10): number | null {
  return mean(
    outcomes
      .filter((o) => !o.noAnswer)
      .map((o) => {
        const rank = firstHit(o.ranked, o.expected, depth);
        return rank ? 1 / rank : 0;
      }),
  );
}

/** Fraction of questions the profile cannot answer for which search returned nothing; null when there are none. */
export function noAnswerAccuracy(outcomes: readonly Outcome[]): number | null {
  return mean(outcomes.filter((o) => o.noAnswer).map((o) => (o.ranked.length === 0 ? 1 : 0)));
}

/** Fraction of answerable questions for which search returned nothing (declined a question it could answer); null when there are none. */
export function answerableDeclined(outcomes: readonly Outcome[]): number | null {
  return mean(outcomes.filter((o) => !o.noAnswer).map((o) => (o.ranked.length === 0 ? 1 : 0)));
}

export interface Summary {
  questions: number;
  answerable: number;
  noAnswer: number;
  recallAt5: number | null;
  mrr: number | null;
  noAnswerAccuracy: number | null;
  answerableDeclined: number | null;
}

export function summarise(outcomes: readonly Outcome[]): Summary {
  const unanswerable = outcomes.filter((o) => o.noAnswer).length;
  return {
    questions: outcomes.length,
    answerable: outcomes.length - unanswerable,
    noAnswer: unanswerable,
    recallAt5: recallAt(outcomes, 5),
    mrr: meanReciprocalRank(outcomes, 10),
    noAnswerAccuracy: noAnswerAccuracy(outcomes),
    answerableDeclined: answerableDeclined(outcomes),
  };
}
