import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locale } from '../contract/shared.ts';
import { analyseQueryWords } from './analyse.ts';
import { isLightWord, lightSpellings } from './light-words.ts';

const light = (word: string, locale: Locale) => isLightWord(analyseQueryWords(word, locale)[0]!, locale);

describe('isLightWord', () => {
  it('is a verb of making in any of its forms, by its stem', () => {
    for (const [word, locale] of [
      ['develops', 'en'],
      ['built', 'en'],
      ['développées', 'fr'],
      ['construida', 'es'],
      ['konstruis', 'eo'],
      ['开发', 'zh'],
    ] as Array<[string, Locale]>)
      assert.equal(light(word, locale), true, word);
  });

  it('is a word for a company or a firm, in any of its forms', () => {
    for (const [word, locale, expected] of [
      ['companies', 'en', true],
      ['firm', 'en', true],
      ['entreprises', 'fr', true],
      ['cabinet', 'fr', true],
      ['empresa', 'es', true],
      ['firmaoj', 'eo', true],
      ['公司', 'zh-hant', true],
      ['ファーム', 'ja', true],
      ['consulting', 'en', false],
      ['新创', 'zh', false],
    ] as Array<[string, Locale, boolean]>)
      assert.equal(light(word, locale), expected, word);
  });

  it('is a word that picks one of several as written, not a word its stem shares', () => {
    for (const [word, locale, expected] of [
      ['highest', 'en', true],
      ['élevé', 'fr', true],
      ['eleve', 'fr', true],
      ['élève', 'fr', false],
      ['élèves', 'fr', false],
      ['ĉefa', 'eo', true],
      ['ĉefo', 'eo', false],
      ['mayor', 'es', true],
      ['mayores', 'es', false],
      ['最高', 'zh', true],
      ['现任', 'zh', true],
      ['現職', 'ja', true],
      ['学历', 'zh', false],
    ] as Array<[string, Locale, boolean]>)
      assert.equal(light(word, locale), expected, word);
  });

  it('spells them as typed, for their typos', () => assert.ok(lightSpellings('fr').includes('eleve')));
});
