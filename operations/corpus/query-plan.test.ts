// How a question is read against the indexes (query-plan.ts), in every locale, on small corpora: how much a word no
// index knows weighs, a typo of a word known only through the related words, and the noise of a Han bigram across a
// joining character.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CONFIDENT, createSearchIndex, type Passage, type RelatedTerms } from './search.ts';
import { UNKNOWN_SHARE } from './query-plan.ts';
import type { Locale } from '../contract/shared.ts';

const passage = (locale: Locale, slug: string, text: string): Passage => ({ locale, slug, kind: 'entry', title: slug, text, url: `http://x/${slug}` });
const corpus = (locale: Locale, texts: readonly string[], related?: RelatedTerms) =>
  createSearchIndex(
    texts.map((text, i) => passage(locale, `p${i}`, text)),
    { related },
  );

describe('a word no index knows weighs less the more known words the question has', () => {
  // [locale, three passages of words held once each, a question of three known words (two in p0) and a made-up
  // one, a question of one known word and a made-up one]
  const cases: Array<[Locale, string[], string, string]> = [
    ['en', ['hotel revenue pricing', 'occupancy forecasting', 'travel guides'], 'hotel revenue occupancy zyqvarn', 'hotel zyqvarn'],
    ['fr', ['hôtel revenus tarification', 'occupation prévisions', 'voyages guides'], 'hôtel revenus occupation zyqvarn', 'hôtel zyqvarn'],
    ['es', ['hotel ingresos tarifas', 'ocupación previsiones', 'viajes guías'], 'hotel ingresos ocupación zyqvarn', 'hotel zyqvarn'],
    ['eo', ['hotelo enspezoj prezoj', 'okupado prognozoj', 'vojaĝoj gvidlibroj'], 'hotelo enspezoj okupado zyqvarn', 'hotelo zyqvarn'],
    ['zh', ['酒店 收益 定价', '入住 预测', '旅游 指南'], '酒店 收益 入住 兹克瓦伦', '酒店 兹克瓦伦'],
    ['zh-hant', ['飯店 收益 定價', '入住 預測', '旅遊 指南'], '飯店 收益 入住 茲克瓦倫', '飯店 茲克瓦倫'],
    ['ja', ['ホテル 収益 価格', '稼働 予測', '旅行 案内'], 'ホテル 収益 稼働 ズィクヴァルン', 'ホテル ズィクヴァルン'],
  ];
  for (const [locale, texts, many, one] of cases) {
    it(`${locale}: "${many}" finds what holds two of its three known words; "${one}" finds nothing`, async () => {
      const index = await corpus(locale, texts);
      const [hit] = index.search(many, 5, { locale });
      assert.equal(hit?.slug, 'p0');
      // two of three known words held, the made-up word weighing UNKNOWN_SHARE / 3 of a known one
      assert.equal(hit.confidence, Math.round((2 / (3 + UNKNOWN_SHARE / 3)) * 1000) / 1000);
      assert.ok(hit.confidence > CONFIDENT);
      assert.deepEqual(index.search(one, 5, { locale }), [], 'one known word and one unknown: no more known than unknown');
    });
  }
});

describe('a typo of a word known only through the related words', () => {
  // the content says the second word; the question asks the first, mistyped (a doubled letter)
  const cases: Array<[Locale, [string, string], string]> = [
    ['en', ['salary', 'compensation'], 'salarry?'],
    ['fr', ['bénévolat', 'volontariat'], 'bénévollat ?'],
    ['es', ['presupuesto', 'finanzas'], '¿presupuessto?'],
    ['eo', ['buĝeto', 'financoj'], 'buĝetto?'],
  ];
  for (const [locale, [asked, held], typed] of cases) {
    it(`${locale}: "${typed}" is ${asked}, which finds ${held}`, async () => {
      const index = await corpus(locale, [held, 'hotel guests'], { [locale]: [[asked, held]] });
      assert.deepEqual(
        index.search(typed, 5, { locale }).map((h) => [h.slug, h.confidence]),
        [['p0', 1]],
      );
    });
  }
});

describe('a Han bigram across a joining character is noise unless the text holds it', () => {
  const cases: Array<[Locale, string, string, string]> = [
    // "interns or mentoring": 生或 is no word; 参与 (take part) holds 与 and is one
    ['zh', '负责实习生的指导工作，参与项目', '带过实习生或指导吗', '参与'],
    ['zh-hant', '負責實習生的指導工作，參與專案', '帶過實習生或指導嗎', '參與'],
    ['ja', '研修生の指導を担当し、プロジェクトに参与', '研修生及び指導の経験', '参与'],
  ];
  for (const [locale, text, asked, joined] of cases) {
    it(`${locale}: "${asked}" is held in full; "${joined}" is still a word`, async () => {
      const index = await corpus(locale, [text, '酒店 工作']);
      assert.deepEqual(
        index.search(asked, 5, { locale }).map((h) => [h.slug, h.confidence]),
        [['p0', 1]],
      );
      assert.deepEqual(
        index.search(joined, 5, { locale }).map((h) => h.slug),
        ['p0'],
      );
    });
  }
});
