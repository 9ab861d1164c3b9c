// How a word typed with a typo is read (lexicon.ts), in each Latin locale: which slips make a sure reading (one a
// record holding it holds the whole word for), which only a guess, and how the readings are ranked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Lexicon, oneSlipFrom } from './lexicon.ts';
import { latinTokenOf } from './analyse.ts';
import type { Locale } from '../contract/shared.ts';

/** A lexicon of the stems of `words` in `locale`, each held by `count(stem)` documents (1 unless told). */
function lexiconOf(words: readonly string[], locale: Locale, counts: Record<string, number> = {}) {
  const terms = [...new Set(words.map((w) => latinTokenOf(w, locale)))];
  return new Lexicon(
    terms,
    (t) => terms.includes(t),
    (t) => counts[t] ?? 1,
  );
}
const fold = (word: string) => word.normalize('NFKD').replace(/\p{M}+/gu, '');
/** The readings of `typed` (as written, with its accents) in `locale`, as search asks for them. */
const read = (lexicon: Lexicon, typed: string, locale: Locale) => lexicon.readings(fold(typed), latinTokenOf(typed, locale), locale, typed);

describe('sure readings of a typo: a slip a typist makes, undone', () => {
  // [locale, the content's words, typed, the reading]: a doubled letter, two swapped, a letter dropped or a
  // neighbouring key struck inside the stem
  const cases: Array<[Locale, string[], string, string]> = [
    ['en', ['leadership', 'learning'], 'leadershp', 'leadership'],
    ['en', ['managed', 'management'], 'manged', 'manag'],
    ['fr', ['présentations', 'présent'], 'présentaations', 'present'],
    ['fr', ['encadrées', 'encore'], 'enadrées', 'encadr'],
    ['fr', ['assurance', 'assortiment'], 'assuraance', 'assur'],
    ['es', ['tecnología', 'tecnicismo'], 'tecnollogía', 'tecnolog'],
    ['es', ['desarrolladores'], 'desarrolaldores', 'desarroll'],
    ['eo', ['analizo', 'analogio'], 'anlizo', 'analiz'],
    ['eo', ['trovadon', 'trovi'], 'trovadno', 'trov'],
    ['en', ['python', 'pilot'], 'pgthon', 'python'],
    ['fr', ['intégration', 'interne'], 'intrgration', 'integr'],
    ['es', ['desarrolladores'], 'desarrplladores', 'desarroll'],
  ];
  for (const [locale, words, typed, reading] of cases) {
    it(`${locale}: "${typed}" is surely ${reading}`, () => {
      const readings = read(lexiconOf(words, locale), typed, locale);
      assert.equal(readings?.terms[0], reading);
      assert.equal(readings?.sure, true);
    });
  }
});

describe('guesses: what real words of the language the content lacks also look like', () => {
  // one vowel for another, a key's neighbour in the ending, or a letter put back in the ending the stemmer cuts: a
  // word of its own as often as a typo
  const cases: Array<[Locale, string[], string, string]> = [
    ['en', ['automation'], 'automotive', 'autom'],
    ['fr', ['salariés'], 'salariales', 'salari'],
    ['es', ['automatización'], 'automotriz', 'automat'],
    ['eo', ['sperto'], 'sporto', 'spert'],
    ['en', ['hotels'], 'hotelw', 'hotel'],
  ];
  for (const [locale, words, typed, reading] of cases) {
    it(`${locale}: "${typed}" may be ${reading}, not surely`, () => {
      const readings = read(lexiconOf(words, locale), typed, locale);
      if (readings?.terms.length) assert.equal(readings.sure, false, `${typed}: ${readings.terms.join(', ')}`);
      assert.ok(!readings?.sure || !readings.terms.includes(reading));
    });
  }

  it('reads accents as written: the French stemmer makes encadr of encadrées, encadre of encadrees', () => {
    const lexicon = lexiconOf(['encadrées'], 'fr');
    assert.deepEqual(read(lexicon, 'enadrées', 'fr'), { terms: ['encadr'], sure: true });
  });
});

describe('ranking the readings of a typo, as Meilisearch and Typesense rank typo matches', () => {
  it('puts a slip before a stem merely near, then the longer beginning shared, then the commoner term', () => {
    // "hotl" has no budget; "hotels" mistyped "hotelss" is one doubled letter from hotel (sure), one edit from hostel
    const lexicon = lexiconOf(['hotel', 'hostel', 'motel'], 'en');
    assert.equal(read(lexicon, 'hotelss', 'en')?.terms[0], 'hotel');
    // two terms as near: the commoner first
    const common = lexiconOf(['manager', 'manner'], 'en', { manag: 1, manner: 9 });
    const typed = common.readings('mangaer', 'mangaer', 'en');
    assert.equal(typed?.terms[0], 'manag', 'a swap undone is a slip');
  });

  it('is never asked of Han or kana', () => {
    const lexicon = new Lexicon(['评估', 'ホテル'], () => true);
    for (const locale of ['zh', 'zh-hant', 'ja'] as const) assert.deepEqual(lexicon.readings('', '评佑', locale), { terms: [], sure: false });
  });

  it('drops a stop word mistyped even below the typo budget: "haas" is "havas" (eo), "whihc" "which" (en)', () => {
    const lexicon = lexiconOf(['hotelo'], 'eo');
    assert.equal(lexicon.readings('haas', 'haas', 'eo'), null);
    assert.equal(lexiconOf(['hotel'], 'en').readings('whihc', 'whihc', 'en'), null);
    assert.deepEqual(lexiconOf(['hotel'], 'en').readings('hotl', 'hotl', 'en'), { terms: [], sure: false }, 'but a content word of four letters has no budget');
  });

  it("drops a question's frame or person word mistyped, as the word is dropped: 'exerience' (en), 'experriencia' (es), 'canddate' (en)", () => {
    assert.equal(lexiconOf(['experienced', 'hotel'], 'en').readings('exerience', latinTokenOf('exerience', 'en'), 'en'), null);
    assert.equal(read(lexiconOf(['experiencia', 'hotel'], 'es'), 'experriencia', 'es'), null);
    assert.equal(read(lexiconOf(['candid', 'hotel'], 'en'), 'canddate', 'en'), null);
  });

  it('reads a real word one other edit from a frame or person word as any other: campus (campos), worker (worked), persons', () => {
    assert.notEqual(read(lexiconOf(['camping', 'hotel'], 'es'), 'campus', 'es'), null);
    assert.notEqual(read(lexiconOf(['work', 'hotel'], 'en'), 'worker', 'en'), null);
    assert.notEqual(read(lexiconOf(['personal', 'hotel'], 'en'), 'persons', 'en'), null);
  });
});

describe('oneSlipFrom', () => {
  it('is a letter dropped, doubled, two swapped or a neighbouring key; not a vowel for another', () => {
    assert.deepEqual(
      ['ladno', 'lando', 'landoo', 'lanod', 'lsndo', 'lndo', 'lendo', 'landoj', 'lanpo'].map((typed) => oneSlipFrom(typed, 'lando')),
      [true, false, true, true, true, true, false, false, false],
    );
    assert.equal(oneSlipFrom('laboris', 'laboras'), false);
    assert.equal(oneSlipFrom('inwtallee', 'installee'), true);
  });
});
