// Per-language analysis: stemming, folding, stop words and segmentation, with examples in every language.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { analyse, analyseQuery, foldHan, isTraditional, scriptOf } from './analyse.ts';

const same = (a: string, b: string, locale: Parameters<typeof analyse>[1]) => assert.deepEqual(analyse(a, locale), analyse(b, locale), `${a} / ${b} (${locale})`);

describe('English', () => {
  it('folds case and accents, drops stop words and stems (Porter)', () => {
    assert.deepEqual(analyse('The hotels she managed', 'en'), ['hotel', 'manag']);
    same('Évaluations', 'evaluation', 'en');
    same('café', 'Cafe', 'en');
  });
  it('takes irregular verb forms to their verb before stemming', () => {
    same('spoken', 'speaking', 'en');
    same('She led teams', 'leading team', 'en');
    same('written', 'writes', 'en');
  });
  it("cuts a possessive and keeps numbers whole", () => {
    assert.deepEqual(analyse("Noa's team of 12", 'en'), ['team', '12']);
  });
});

describe('French', () => {
  it('stems with the Snowball French stemmer, on the accented word, then folds accents', () => {
    same('évaluations', 'évaluation', 'fr');
    same('traductions', 'traduction', 'fr');
    same('bénévoles', 'benevole', 'fr');
    assert.deepEqual(analyse('évaluations', 'fr'), ['evalu']);
  });
  it("cuts elisions and drops French stop words", () => {
    assert.deepEqual(analyse("l'équipe qu'elle dirige", 'fr'), analyse('équipe diriger', 'fr'));
    assert.deepEqual(analyse('elle a fait des conférences', 'fr'), analyse('conférence', 'fr'));
  });
  it('stems French endings the English stemmer leaves apart', () => {
    same('recrutements', 'recrutement', 'fr');
    same('développeuses', 'développeuse', 'fr');
    for (const [a, b] of [['hôtelière', 'hôtelier'], ['recrutée', 'recruter'], ['certifiée', 'certifié']]) {
      same(a!, b!, 'fr');
      assert.notDeepEqual(analyse(a!, 'en'), analyse(b!, 'en'), `${a} / ${b} (en)`);
    }
  });
});

describe('Spanish', () => {
  it('stems with the Snowball Spanish stemmer and folds accents', () => {
    same('certificaciones', 'certificación', 'es');
    same('monederos', 'monedero', 'es');
    same('traducción', 'traduccion', 'es');
  });
  it('drops Spanish stop words', () => {
    assert.deepEqual(analyse('¿Ha trabajado en la recepción de un hotel?', 'es'), analyse('trabajado recepción hotel', 'es'));
    assert.equal(analyse('¿Qué es lo que tiene?', 'es').length, 0);
  });
});

describe('Esperanto', () => {
  it('cuts the regular endings of nouns, adjectives and adverbs, with plural and accusative', () => {
    for (const form of ['hotelo', 'hoteloj', 'hotelon', 'hotelojn', 'hotela', 'hotelaj', 'hotelajn', 'hotele']) same(form, 'hotel', 'eo');
  });
  it('cuts the verb endings', () => {
    for (const form of ['traduki', 'tradukas', 'tradukis', 'tradukos', 'tradukus', 'traduku']) same(form, 'traduko', 'eo');
  });
  it('cuts one derivational suffix (-ad-, -ig-, -ist-, -il-, -ej-, -ec-, -ul-) where a root remains', () => {
    same('trovadon', 'trovi', 'eo');
    same('programistoj', 'programo', 'eo');
    same('serĉiloj', 'serĉas', 'eo');
    same('plibonigis', 'plibona', 'eo');
    assert.deepEqual(analyse('ulo', 'eo'), ['ul'], 'a word that is only a suffix keeps it');
    assert.deepEqual(analyse('igas', 'eo'), ['ig']);
  });
  it('folds the supersigned letters and the x-system people type without them', () => {
    same('maŝinlernado', 'masinlernado', 'eo');
    same('maŝinlernado', 'masxinlernado', 'eo');
    same('ĉefo', 'cxefo', 'eo');
  });
  it('drops Esperanto stop words, and light verbs in any form', () => {
    assert.deepEqual(analyse('Ĉu ŝi laboris kun la gastoj?', 'eo'), analyse('laboro gasto', 'eo'));
    assert.deepEqual(analyse('Ĉu ŝi scipovas Python? Ŝi povis fari ĝin.', 'eo'), analyse('Python', 'eo'));
  });
});

describe('Chinese', () => {
  it('folds traditional characters to simplified, so either finds the other', () => {
    assert.equal(foldHan('臨床筆記摘要'), '临床笔记摘要');
    assert.deepEqual(analyse('臨床筆記摘要', 'zh-hant'), analyse('临床笔记摘要', 'zh'));
    assert.ok(isTraditional('專業證照'));
    assert.ok(!isTraditional('专业证照'));
  });
  it("gives a text's bigrams over every run of Han characters, and drops particles and pronouns", () => {
    assert.deepEqual(analyse('客务部主任', 'zh'), ['客务', '务部', '部主', '主任']);
    assert.deepEqual(analyse('她的期望', 'zh'), ['期望']);
  });
  it("gives a query's bigrams within its words and across one-character words, never across two words", () => {
    // 薪资 comes as two one-character words; 饭店 and 柜台 are words whose join (店柜) is noise
    assert.deepEqual(analyse('她期望的薪资是多少？', 'zh', true), ['期望', '薪资']);
    assert.deepEqual(analyse('她有飯店櫃檯的工作經驗嗎？', 'zh-hant', true), ['饭店', '柜台', '工作', '经验']);
    // every bigram of a query is among the bigrams of a text that holds its words
    const text = new Set(analyse('她在一家饭店柜台工作过，经验丰富。', 'zh'));
    for (const token of analyse('饭店柜台工作经验', 'zh', true)) assert.ok(text.has(token), token);
  });
});

describe('analyseQuery', () => {
  it("groups a Han word's bigrams, so that a long word counts as one word of the question", () => {
    assert.deepEqual(analyseQuery('她在航空公司工作過嗎？', 'zh-hant'), [['航空', '空公', '公司'], ['工作']]);
    assert.deepEqual(analyseQuery('Has she led hotel teams?', 'en'), [['lead'], ['hotel'], ['team']]);
  });
});

describe('Japanese', () => {
  it('segments words with Intl.Segmenter, keeps kana words and drops hiragana-only ones', () => {
    const tokens = analyse('大阪でエンジニア向けの勉強会を運営していましたか？', 'ja', true);
    assert.ok(tokens.includes('エンジニア'), tokens.join(' '));
    assert.ok(tokens.includes('大阪'));
    assert.ok(!tokens.some((t) => /^[\p{Script=Hiragana}]+$/u.test(t)), tokens.join(' '));
  });
  it('gives Han bigrams, folded like Chinese, and treats Latin words as English', () => {
    const tokens = analyse('機械学習のAI Models', 'ja');
    assert.ok(tokens.includes('学习'), tokens.join(' '));
    assert.ok(tokens.includes('ai') && tokens.includes('model'), tokens.join(' '));
  });
});

describe('scriptOf', () => {
  it('tells kana, Han and Latin text apart', () => {
    assert.equal(scriptOf('ホテルの仕事'), 'kana');
    assert.equal(scriptOf('酒店工作'), 'han');
    assert.equal(scriptOf('hôtel'), 'latin');
  });
});
