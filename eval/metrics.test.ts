// The evaluation's metric functions on small hand-worked cases.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answerableDeclined, firstHit, meanReciprocalRank, noAnswerAccuracy, recallAt, summarise, type Outcome } from './metrics.ts';

const outcomes: Outcome[] = [
  { ranked: ['entry:a', 'entry:b'], expected: ['entry:a'], noAnswer: false }, // rank 1
  { ranked: ['entry:x', 'entry:y', 'document:z'], expected: ['document:z', 'entry:q'], noAnswer: false }, // rank 3
  { ranked: ['entry:1', 'entry:2', 'entry:3', 'entry:4', 'entry:5', 'entry:6', 'entry:a'], expected: ['entry:a'], noAnswer: false }, // rank 7
  { ranked: [], expected: ['entry:a'], noAnswer: false }, // missed
  { ranked: [], expected: [], noAnswer: true }, // silent: right
  { ranked: ['entry:a'], expected: [], noAnswer: true }, // answered anyway: wrong
];

describe('eval metrics', () => {
  it('finds the rank of the first expected id within the depth', () => {
    assert.equal(firstHit(['a', 'b', 'c'], ['c', 'b'], 5), 2);
    assert.equal(firstHit(['a', 'b', 'c'], ['c'], 2), undefined);
    assert.equal(firstHit([], ['c'], 5), undefined);
  });

  it('counts recall@k over answerable questions only', () => {
    assert.equal(recallAt(outcomes, 5), 2 / 4);
    assert.equal(recallAt(outcomes, 10), 3 / 4);
    assert.equal(recallAt(outcomes.filter((o) => o.noAnswer)), null);
  });

  it('averages reciprocal ranks, a miss or a hit below the depth counting 0', () => {
    assert.equal(meanReciprocalRank(outcomes, 10), (1 + 1 / 3 + 1 / 7 + 0) / 4);
    assert.equal(meanReciprocalRank(outcomes, 5), (1 + 1 / 3) / 4);
  });

  it('scores a no-answer question right only when search returns nothing', () => {
    assert.equal(noAnswerAccuracy(outcomes), 1 / 2);
    assert.equal(noAnswerAccuracy(outcomes.filter((o) => !o.noAnswer)), null);
  });

  it('counts the answerable questions search declined (returned nothing for)', () => {
    assert.equal(answerableDeclined(outcomes), 1 / 4);
    assert.equal(answerableDeclined(outcomes.filter((o) => o.noAnswer)), null);
  });

  it('summarises the counts with the figures', () => {
    const s = summarise(outcomes);
    assert.deepEqual([s.questions, s.answerable, s.noAnswer], [6, 4, 2]);
    assert.equal(s.recallAt5, 0.5);
    assert.equal(s.noAnswerAccuracy, 0.5);
    assert.equal(s.answerableDeclined, 0.25);
  });
});
