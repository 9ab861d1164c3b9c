// The evaluation's question variants: one typo a typist makes, one made-up word, the same every run.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { typoVariant, unknownWordVariant } from './variants.ts';
import { editDistance } from '../operations/corpus/lexicon.ts';

describe('eval variants', () => {
  it('puts one edit in one word of five letters or more, never its first letter, the same every time', () => {
    for (const question of ['Has she led an engineering team?', 'A-t-elle organisé des rencontres de développeurs ?', 'Ĉu ŝi tradukis programojn?']) {
      const typed = typoVariant(question)!;
      assert.equal(typed, typoVariant(question));
      const [a, b] = [question.split(' '), typed.split(' ')];
      assert.equal(a.length, b.length);
      const changed = a.flatMap((word, i) => (word === b[i] ? [] : [[word, b[i]!] as const]));
      assert.equal(changed.length, 1, `${question} → ${typed}`);
      const [was, now] = changed[0]!;
      assert.ok(was.length >= 5 && was[0] === now[0] && editDistance(was, now, 1) === 1, `${was} → ${now}`);
    }
  });

  it('leaves Chinese and Japanese without a Latin word alone', () => {
    assert.equal(typoVariant('她做过开发者关系吗？'), undefined);
    assert.match(typoVariant('Pythonで何を作りましたか？') ?? '', /^P\w+で/);
  });

  it("adds one made-up word before the final mark, in the question's script", () => {
    assert.equal(unknownWordVariant('Has she led a team?', 'en'), 'Has she led a team zyqvarn?');
    assert.equal(unknownWordVariant('A-t-elle un doctorat ?', 'fr'), 'A-t-elle un doctorat zyqvarn ?');
    assert.equal(unknownWordVariant('她的学历是什么？', 'zh'), '她的学历是什么兹克瓦伦？');
  });
});
