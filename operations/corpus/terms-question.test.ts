// Questions about her terms of hire (terms-question.ts): read in every locale, answered by a passage that states
// terms, and by nothing on a profile that states none, where their words mean other things (a room's availability).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { readContentDir } from '../repo/local-repo.server.ts';
import { loadContent } from '../content/tree.ts';
import { createBuild } from './corpus.ts';
import { asksHerTerms, statesTerms } from './terms-question.ts';
import type { Locale } from '../contract/shared.ts';

const isName = (word: string) => word === 'noa';

/** A question about her terms in each locale, and one of its words the demo content holds in another sense. */
const TERMS_QUESTIONS: Array<[Locale, string]> = [
  ['en', 'When could she start a new job?'],
  ['en', 'Is she available immediately?'],
  ['en', 'Is she currently available?'],
  ['en', 'Would Noa be available to start in January?'],
  ['en', "What is Noa's availability?"],
  ['en', 'What is her notice period?'],
  ['en', 'What salary is Noa expecting?'],
  ['fr', 'Quelle est sa disponibilité ?'],
  ['fr', 'Quand pourrait-elle commencer ?'],
  ['fr', 'Est-elle disponible rapidement ?'],
  ['fr', 'Quelles sont ses prétentions salariales ?'],
  ['es', '¿Cuál es su disponibilidad para incorporarse?'],
  ['es', '¿Cuándo podría empezar la candidata?'],
  ['es', '¿Cuál es su dispnibilidad?'],
  ['es', '¿Está ella disponible?'],
  ['eo', 'Kiam ŝi povus komenci en nova posteno?'],
  ['eo', 'Kiom da salajro ŝi atendas?'],
  ['eo', 'Ĉu ŝi estas disponebla?'],
  ['ja', '入社可能時期はいつですか？'],
  ['ja', '希望年収はいくらですか？'],
  ['zh', '她什么时候可以到岗？'],
  ['zh', '她期望的薪资是多少？'],
  ['zh-hant', '何時可以到職？'],
];

describe('asksHerTerms', () => {
  it('reads a question about when she could start, her availability, notice or salary, in every locale', () => {
    for (const [, question] of TERMS_QUESTIONS) assert.equal(asksHerTerms(question, isName), true, question);
  });

  it('not a question about availability or a start of something else, nor about before', () => {
    for (const question of [
      'When did she start at Orbitale?',
      'Has she built high-availability systems?',
      'Is the SDK available on GitHub?',
      'Are her projects available on GitHub?',
      'Is her talk available in Japanese?',
      'Is the recording of her keynote available?',
      'Ses projets sont-ils disponibles sur GitHub ?',
      'Sa présentation est disponible en anglais ?',
      '¿Su charla está disponible en japonés?',
      'Ĉu ŝiaj projektoj estas disponeblaj rete?',
      'How did she keep room availability in step?',
      'Did she set salary bands for her team?',
      'A-t-elle travaillé sur la haute disponibilité ?',
      'Quand a-t-elle commencé chez Orbitale ?',
      '¿Tiene experiencia con sistemas de alta disponibilidad?',
      '¿Cuándo empezó en Orbitale?',
      'Kiam ŝi komencis ĉe Orbitale?',
      'いつからAIに取り組んでいますか？',
      '她为什么离开BlockHarbor？',
      '她什么时候开始做AI？',
    ])
      assert.equal(asksHerTerms(question, isName), false, question);
  });
});

describe('statesTerms', () => {
  it('a passage stating her availability, notice or salary, not one using the words otherwise', () => {
    assert.equal(statesTerms('She is available from March 2027, with a three-month notice period.', 'en'), true);
    assert.equal(statesTerms('Kept room availability and rates in step between the systems.', 'en'), false);
    assert.equal(statesTerms('Disponible à partir de mars, préavis d’un mois.', 'fr'), true);
    assert.equal(statesTerms('入社可能時期は2027年3月です。', 'ja'), true);
    assert.equal(statesTerms('她可在一个月内到岗。', 'zh'), true);
  });
});

const files = await readContentDir(resolve('content'));
const demo = await createBuild(loadContent(files).model!, { commit: 'test', siteUrl: 'http://site' });

describe('search reads a question about her terms as the passage that states them', () => {
  it('on a profile that states no terms, nothing in any locale (their words mean other things there)', () => {
    for (const [locale, question] of TERMS_QUESTIONS)
      assert.deepEqual(
        demo.search.search(question, 5, { locale }).map((h) => h.slug),
        [],
        `${locale} "${question}"`,
      );
    // (the words alone still find what they mean in the content)
    assert.ok(demo.search.search('room availability', 5, { locale: 'en' }).length > 0);
  });

  it('on a profile that states them, the profile document, in every locale', async () => {
    const stated: Partial<Record<Locale, string>> = {
      en: 'She is available from March 2027, with a three-month notice period.',
      fr: 'Elle est disponible à partir de mars 2027, avec un préavis de trois mois.',
      es: 'Está disponible a partir de marzo de 2027, con un preaviso de tres meses.',
      eo: 'Ŝi estas disponebla ekde marto 2027, kun antaŭavizo de tri monatoj.',
      ja: '入社可能時期は2027年3月で、退職予定は同年2月です。',
      zh: '她可于2027年3月到岗，通知期为三个月。',
      'zh-hant': '她可於2027年3月到職，通知期為三個月。',
    };
    const path = (l: Locale) => (l === 'en' ? 'content/documents/profile.md' : `content/i18n/${l}/documents/profile.md`);
    const edited = new Map(files);
    for (const [l, sentence] of Object.entries(stated) as Array<[Locale, string]>) {
      const key = [...files.keys()].find((k) => k.endsWith(path(l).replace(/^content\//, '')));
      assert.ok(key, `the demo content has ${path(l)}`);
      edited.set(key, `${files.get(key)!.trimEnd()}\n\n## Availability\n\n${sentence}\n`);
    }
    const build = await createBuild(loadContent(edited).model!, { commit: 'stated', siteUrl: 'http://site' });
    for (const [locale, question] of TERMS_QUESTIONS) {
      const hits = build.search.search(question, 5, { locale });
      assert.equal(hits[0]?.slug, 'profile', `${locale} "${question}": ${hits.map((h) => h.slug).join(', ') || 'nothing'}`);
    }
  });
});
