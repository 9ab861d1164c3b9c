// Per-language analysis: stemming, folding, stop words and segmentation, with examples in every language.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locales, type Locale } from '../contract/shared.ts';
import {
  analyse,
  analyseQuery,
  analyseQueryWords,
  foldChinese,
  foldHan,
  isTraditional,
  latinLanguageOf,
  scriptOf,
  SEGMENT_WINDOW,
  segmentation,
  wordSegments,
} from './analyse.ts';

const same = (a: string, b: string, locale: Parameters<typeof analyse>[1]) =>
  assert.deepEqual(analyse(a, locale), analyse(b, locale), `${a} / ${b} (${locale})`);

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
  it('keeps apart the words Porter joins to an unrelated word, and joins their own family', () => {
    const differ = (a: string, b: string) => assert.notDeepEqual(analyse(a, 'en'), analyse(b, 'en'), `${a} / ${b}`);
    differ('hospitality', 'hospital');
    differ('experiments', 'experience');
    differ('international', 'internal');
    differ('general', 'generative');
    differ('university', 'universe');
    differ('customer', 'custom');
    differ('responsible', 'responses');
    same('hospitality', 'hospitable', 'en');
    same('experiment', 'experimentation', 'en');
    same('organization', 'organisation', 'en');
    same('organized', 'organising', 'en');
    same('customers', 'customer', 'en');
  });
  it('reads être and ser in every tense as the stop words they are ("serait apprécié", "sería un plus")', () => {
    assert.deepEqual(analyse('serait', 'fr'), []);
    assert.deepEqual(analyse('sería', 'es'), []);
  });
  it('cuts a possessive and keeps numbers whole', () => {
    assert.deepEqual(analyse("Noa's team of 12", 'en'), ['noa', 'team', '12']);
  });
  it('keeps an abbreviation in capitals that spells a stop word (IT, the French AI), but not in a text all in capitals', () => {
    assert.deepEqual(analyse('IT Support Engineer', 'en'), ['it', 'support', 'engin']);
    assert.deepEqual(analyse('Has she worked in IT?', 'en', true), ['it']);
    assert.deepEqual(analyse('Is it done yet?', 'en'), ['yet'], 'the pronoun is a stop word');
    assert.deepEqual(analyse('HAS SHE WORKED IN IT?', 'en'), ['work'], 'a text in capitals has no abbreviation to tell apart');
    assert.deepEqual(analyse("Responsable de l'AI et de l'IA", 'fr'), ['respons', 'ai', 'ia']);
    assert.deepEqual(analyse('ITサポートエンジニア', 'ja'), ['it', 'サポート', 'エンジニア']);
    assert.deepEqual(analyse('IT支持', 'zh'), ['it', '支持']);
  });
  it('keeps C++, C# and F# as words, and a version after one as a number', () => {
    assert.deepEqual(analyse('She writes C++, C# and F#.', 'en'), ['write', 'cplusplu', 'csharp', 'fsharp']);
    assert.deepEqual(analyse('C++17 and C#10', 'en'), ['cplusplu', '17', 'csharp', '10']);
    assert.deepEqual(analyse('## C# basics', 'en'), ['csharp', 'basic']);
    assert.deepEqual(analyse('ABC#1, a C+ grade', 'en'), ['abc', '1', 'grade']);
  });
});

describe('French', () => {
  it('stems with the Snowball French stemmer, on the accented word, then folds accents', () => {
    same('évaluations', 'évaluation', 'fr');
    same('traductions', 'traduction', 'fr');
    same('bénévoles', 'benevole', 'fr');
    assert.deepEqual(analyse('évaluations', 'fr'), ['evalu']);
  });
  it('cuts elisions and drops French stop words', () => {
    assert.deepEqual(analyse("l'équipe qu'elle dirige", 'fr'), analyse('équipe diriger', 'fr'));
    assert.deepEqual(analyse('elle a fait des conférences', 'fr'), analyse('conférence', 'fr'));
  });
  it('stems French endings the English stemmer leaves apart', () => {
    same('recrutements', 'recrutement', 'fr');
    same('développeuses', 'développeuse', 'fr');
    for (const [a, b] of [
      ['hôtelière', 'hôtelier'],
      ['recrutée', 'recruter'],
      ['certifiée', 'certifié'],
    ]) {
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
  it('reads a country named with -ujo (CLDR: Japanujo) as the one named with -io (Japanio)', () => {
    same('Japanujo', 'Japanio', 'eo');
    same('Francujon', 'Francio', 'eo');
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
  it("folds Taiwan's words to the mainland's (OpenCC's phrases), so a question in either finds a text in the other", () => {
    assert.deepEqual(analyse('資料庫與軟體專案', 'zh-hant'), analyse('数据库与软件项目', 'zh'));
    assert.deepEqual(analyse('應用程式', 'zh-hant'), analyse('应用程序', 'zh'));
    // the mainland's own words are left as they are (the tables would read 程序 as Taiwan's process, 进程), and folding twice is folding once
    for (const text of ['应用程序', '程序员', '文件', '智慧', '軟體專案與資料庫']) assert.equal(foldChinese(foldChinese(text)), foldChinese(text), text);
    for (const text of ['应用程序', '程序员', '文件', '智慧']) assert.equal(foldChinese(text), text);
    // Japanese keeps its own words: 資料 is a document there, not data
    assert.deepEqual(analyse('資料', 'ja'), ['资料']);
  });
  it("gives a text's bigrams over every run of Han characters, and drops particles and pronouns", () => {
    assert.deepEqual(analyse('客务部主任', 'zh'), ['客务', '务部', '部主', '主任']);
    assert.deepEqual(analyse('她的期望', 'zh'), ['期望']);
  });
  it("gives a query's bigrams within its words and across one-character words, never across two words", () => {
    // 薪资 comes as two one-character words; 饭店 and 柜台 are words whose join (店柜) is noise
    assert.deepEqual(analyse('她期望的薪资是多少？', 'zh', true), ['期望', '薪资']);
    // (經驗, "experience", frames the question: FRAME_WORDS)
    assert.deepEqual(analyse('她有飯店櫃檯的工作經驗嗎？', 'zh-hant', true), ['饭店', '柜台', '工作']);
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

describe('analyseQueryWords', () => {
  it('gives each Latin word as typed, folded and as written, without its elision', () => {
    assert.deepEqual(analyseQueryWords("l'assurance", 'fr'), [{ tokens: ['assur'], typed: 'assurance', written: 'assurance' }]);
    assert.deepEqual(analyseQueryWords('Encadrées', 'fr'), [{ tokens: ['encadr'], typed: 'encadrees', written: 'encadrées' }]);
    assert.deepEqual(analyseQueryWords("d'hoteles", 'es')[0]?.typed, 'hoteles');
    // a frame word with its elision is dropped as the word is, beside another word; alone, it is what the question is about
    assert.deepEqual(
      analyseQueryWords("hoteles d'experiencia", 'es').map((w) => w.typed),
      ['hoteles'],
    );
    assert.deepEqual(analyseQueryWords("d'experiencia", 'es'), [{ tokens: ['experient'], typed: 'experiencia', written: 'experiencia' }]);
    assert.deepEqual(
      analyseQueryWords('她有什麼經驗？', 'zh-hant').map((w) => w.tokens),
      [['经验']],
    );
    assert.deepEqual(analyseQueryWords("l'hotelo", 'eo')[0]?.typed, 'hotelo');
    assert.deepEqual(analyseQueryWords("Maria's hotels", 'en')[0], { tokens: ['maria'], typed: 'maria', written: 'maria' });
  });

  it('drops the words that ask to describe or explain, in every locale', () => {
    const cases: Array<[Locale, string, string]> = [
      ['en', 'Describe her revenue management', 'her revenue management'],
      ['fr', 'Décrivez sa gestion des revenus', 'sa gestion des revenus'],
      ['es', 'Describa su gestión de ingresos', 'su gestión de ingresos'],
      ['eo', 'Priskribu ŝian enspezan administradon', 'ŝian enspezan administradon'],
      ['zh', '谈谈她的收益管理', '她的收益管理'],
      ['zh-hant', '說說她的營收管理', '她的營收管理'],
    ];
    for (const [locale, asked, plain] of cases) assert.deepEqual(analyseQuery(asked, locale), analyseQuery(plain, locale), `${locale}: ${asked}`);
  });

  it('drops the words that frame a question (familiar with, background) in every locale', () => {
    const cases: Array<[Locale, string, string]> = [
      ['en', 'Is she familiar with revenue management?', 'revenue management'],
      ['fr', 'Est-elle familiarisée avec la gestion des revenus ?', 'gestion des revenus'],
      ['es', '¿Está familiarizado con la gestión de ingresos?', 'gestión de ingresos'],
      ['eo', 'Ĉu ŝi havas fonon en enspeza administrado?', 'enspeza administrado'],
      ['zh', '她熟悉收益管理吗？', '收益管理'],
      ['zh-hant', '她熟悉營收管理嗎？', '營收管理'],
      ['ja', '収益管理の経歴はありますか？', '収益管理'],
    ];
    for (const [locale, framed, plain] of cases) assert.deepEqual(analyseQuery(framed, locale), analyseQuery(plain, locale), `${locale}: ${framed}`);
  });

  it('drops how many years of experience a requirement asks for, and keeps other numbers', () => {
    const cases: Array<[Locale, string, string]> = [
      ['en', '5+ years of Python', 'Python'],
      ['en', 'At least 3-5 years building APIs', 'At least building APIs'],
      ['fr', "Au moins 5 ans d'expérience en Python", 'Au moins Python'],
      ['es', 'Mínimo 4 años de experiencia con Python', 'Mínimo Python'],
      ['eo', 'Almenaŭ 5 jarojn da sperto pri Python', 'Almenaŭ Python'],
      ['zh', '5年以上Python开发经验', 'Python开发'],
      ['ja', 'Pythonでの開発経験3年以上', 'Pythonでの開発'],
    ];
    for (const [locale, asked, plain] of cases) assert.deepEqual(analyseQuery(asked, locale), analyseQuery(plain, locale), `${locale}: ${asked}`);
    assert.ok(
      analyseQuery('Python 3 and 5 engineers', 'en').some((w) => w.includes('5')),
      'a number of something else stays',
    );
  });
});

describe('Japanese', () => {
  it('segments words with Intl.Segmenter, keeps kana words and drops hiragana-only ones', () => {
    const tokens = analyse('大阪でエンジニア向けの勉強会を運営していましたか？', 'ja', true);
    assert.ok(tokens.includes('エンジニア'), tokens.join(' '));
    assert.ok(tokens.includes('大阪'));
    assert.ok(!tokens.some((t) => /^[\p{Script=Hiragana}]+$/u.test(t)), tokens.join(' '));
  });
  it('keeps a katakana word its dictionary lacks whole, in a text and in a question (ICU splits スマホ into スマ and ホ)', () => {
    assert.deepEqual(analyse('スマホアプリの開発', 'ja').slice(0, 2), ['スマホ', 'アプリ']);
    assert.deepEqual(analyseQuery('スマホアプリは？', 'ja'), [['スマホ'], ['アプリ']]);
    assert.deepEqual(analyse('データベースの設計', 'ja')[0], 'データベース', 'a word the dictionary has is as it was');
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

describe('word segmentation in windows: linear in the text, the same words', () => {
  const segments = (list: Iterable<Intl.SegmentData>) => [...list].map((s) => `${s.segment}${s.isWordLike ? '+' : '-'}`);
  const whole = (text: string, locale: Locale) => segments(new Intl.Segmenter(locale === 'zh-hant' ? 'zh' : locale, { granularity: 'word' }).segment(text));
  const windows = (text: string, locale: Locale, size: number) => segments(wordSegments(text, locale, size));
  /** The demo content's files, each with the locale it is written in. */
  const demo = (dir = 'content', out: Array<[string, Locale]> = []): Array<[string, Locale]> => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) demo(path, out);
      else if (!path.startsWith('content/media/')) out.push([readFileSync(path, 'utf8'), locales.find((l) => path.startsWith(`content/i18n/${l}/`)) ?? 'en']);
    }
    return out;
  };

  it('gives the segmenter windows of at most SEGMENT_WINDOW characters, each but the last at least half of it', () => {
    for (const unit of ['*a ', 'a ', '中文字符测试', 'a', '👍🏽', 'a\u0301', ' ']) {
      const text = unit.repeat(Math.ceil(200_000 / unit.length));
      segmentation.windows = segmentation.longest = 0;
      analyse(text, 'en');
      assert.ok(segmentation.longest <= SEGMENT_WINDOW, `${JSON.stringify(unit)}: a window of ${segmentation.longest}`);
      assert.ok(segmentation.windows <= Math.ceil(text.length / (SEGMENT_WINDOW / 2)) + 1, `${JSON.stringify(unit)}: ${segmentation.windows} windows`);
    }
  });

  it('segments the demo content exactly as the whole text, in windows of SEGMENT_WINDOW characters or of 128', () => {
    let files = 0;
    for (const [text, locale] of demo()) {
      const expected = whole(text, locale);
      assert.deepEqual(windows(text, locale, SEGMENT_WINDOW), expected);
      assert.deepEqual(windows(text, locale, 128), expected);
      files++;
    }
    assert.ok(files > 400, `${files} files`);
  });

  it('cuts only after white space or punctuation that always ends a word, where there is one', () => {
    // Scripts, marks, joiners, emoji, CRLF and the characters that join words (. , : ’ _) mixed at random: where
    // a window could end after white space or such punctuation, the segments are the whole text's.
    const parts = [
      'a',
      'é',
      'e\u0301',
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '.',
      ',',
      "'",
      '’',
      ':',
      ';',
      '_',
      '-',
      '/',
      '3.5',
      '中文',
      '日本',
      'ひらがな',
      'カタカナ',
      '한국어',
      'ไทย',
      '。',
      '、',
      '，',
      '！',
      '\ufeff',
      '\u200d',
      '\u200b',
      '👍🏽',
      '🇫🇷',
      '@',
      '#',
      '"',
      'שלום',
      '\u00a0',
      '\u202f',
      '\u3000',
      '(',
      ')',
      'AI',
      '1',
    ];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const breaking =
      /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u205f\u3000!#$%&()*+\-/<=>?@[\\\]^`{|}~¡¿«»“”、。！？「」『』（）【】《》〈〉…—–]/;
    let compared = 0;
    for (let trial = 0; trial < 2000; trial++) {
      let text = '';
      for (let i = 10 + random(60); i > 0; i--) text += parts[random(parts.length)];
      const size = 8 + random(40);
      const locale = (['en', 'fr', 'ja', 'zh'] as const)[random(4)]!;
      const found = [...wordSegments(text, locale, size)];
      // Where the windows end: a window's first segment is at its index 0, and the window is its `input`.
      const cuts: number[] = [];
      let offset = 0;
      found.forEach((segment, i) => {
        if (i > 0 && segment.index === 0) cuts.push((offset += found[i - 1]!.input.length));
      });
      // A window that had to end elsewhere (no such character in its second half) may split a word: that is its point.
      if (!cuts.every((cut) => breaking.test(text[cut - 1]!))) continue;
      assert.deepEqual(segments(found), whole(text, locale), `${JSON.stringify(text)} in windows of ${size} (${locale})`);
      compared++;
    }
    assert.ok(compared > 1000, `${compared} texts compared`);
  });
});

describe('latinLanguageOf', () => {
  it('tells a description’s language by the stop words of one language only, and leaves a line or another script untold', () => {
    assert.equal(latinLanguageOf('We are looking for a Head of AI who will own the platform and the team.'), 'en');
    assert.equal(latinLanguageOf('Nous recherchons un Head of AI. Vous avez cinq ans d’expérience et vous parlez anglais.'), 'fr');
    assert.equal(latinLanguageOf('Buscamos una persona con experiencia en IA y en la gestión de los equipos.'), 'es');
    assert.equal(latinLanguageOf('Ni serĉas estron de AI kun sperto pri maŝinlernado kaj la gvidado de teamoj.'), 'eo');
    // ("de", "la", "en" are French, Spanish and Esperanto alike: no language stands out)
    assert.equal(latinLanguageOf('Kubernetes operations expertise'), undefined);
    assert.equal(latinLanguageOf('de la en'), undefined);
    assert.equal(latinLanguageOf('AIプロダクトの責任者を募集しています。'), undefined);
  });
});
