// A sentence that denies a requirement is the subject saying so, never evidence of it; a negation elsewhere in the
// sentence, or a turn of phrase that only looks like one, denies nothing. Each language as its records write it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locale } from '../contract/shared.ts';
import { denies, normalisedForQuote } from './quotes.ts';
import { contentWords } from './requirements.ts';

const cases: Array<[Locale, string, string, boolean]> = [
  ['en', 'Trained foundation models', 'I have not trained foundation models.', true],
  ['en', 'Ran a P&L above EUR 10M', 'She has never run a P&L above EUR 2 million.', true],
  ['en', 'Shipped LLM products to hotel guests', 'An assistant for hotel guests that hands anything it cannot answer safely to staff.', false],
  ['en', 'Led engineering teams', 'She not only led engineering teams but also hired them.', false],
  ['en', 'Release management', 'Her team never missed a release in two years.', false],
  ['fr', 'Entraîné des modèles de fondation', 'Elle n’a pas entraîné de modèles de fondation.', true],
  ['fr', 'Expérience de direction', 'Elle n’a aucune expérience de direction commerciale.', true],
  ['fr', 'Évaluation des modèles', 'Elle ne fait pas seulement de l’évaluation des modèles, elle les déploie.', false],
  ['es', 'Entrenó modelos fundacionales', 'No ha entrenado modelos fundacionales.', true],
  ['es', 'Dirigió equipos', 'No solo dirigió equipos, también los formó.', false],
  ['eo', 'Trejnis bazajn modelojn', 'Ŝi ne trejnis bazajn modelojn.', true],
  ['eo', 'Gvidis teamojn', 'Ŝi ne nur gvidis teamojn, sed ankaŭ dungis.', false],
  ['zh', '训练基础模型', '她没有训练过基础模型。', true],
  ['zh', '按时交付版本', '她的团队从未错过一次版本交付。', false],
  ['zh-hant', '訓練基礎模型', '她沒有訓練過基礎模型。', true],
  ['ja', '基盤モデルの学習', '基盤モデルの学習はしていません。', true],
  ['ja', '障害対応', '障害対応の件数は少なかった。', false],
  ['ja', '評価の設計', '評価の設計だけではない。運用も担当した。', false],
];

describe('denies', () => {
  for (const [locale, requirement, sentence, expected] of cases) {
    it(`${locale}: “${sentence}” ${expected ? 'denies' : 'does not deny'} “${requirement}”`, () => {
      assert.equal(denies(sentence, locale, contentWords(requirement)), expected);
    });
  }
});

describe('normalisedForQuote', () => {
  it('compares the words, not their typography, spacing, Markdown marks or case', () => {
    assert.equal(normalisedForQuote('  She **led**  “Concierge Copilot” — twice\n'), normalisedForQuote('she led "concierge copilot" - twice'));
  });
});
