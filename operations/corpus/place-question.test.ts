import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asksWhatSheDoesNow, asksWhereSheIs } from './place-question.ts';

const isName = (word: string) => word === 'noa';

describe('asksWhereSheIs', () => {
  it('reads a question asking only where she is, in every locale', () => {
    for (const query of [
      'Where is she based?',
      'Where does Noa live?',
      'Which city is the candidate in?',
      'Where does she work now?',
      'Où habite-t-elle ?',
      'Dans quel pays vit-elle actuellement ?',
      '¿Dónde vive?',
      '¿En qué ciudad reside la candidata?',
      'Kie ŝi loĝas?',
      'En kiu urbo ŝi laboras?',
      'どこに住んでいますか？',
      '拠点はどこですか？',
      '她住在哪里？',
      '她目前在哪个城市？',
      '她住在哪裡？',
      'Noa现在住在哪儿？',
      "Where's she based?",
      'Where’s she based?',
      'Kie sxi logxas?',
      '她住在哪个国家？',
      '她现在住哪？',
      '她住在哪裏？',
      // a word of being placed, or a place noun, mistyped by one slip
      'En kiu ladno ŝi nun vivas?',
      'Dans quelle ville est-elle inwtallée ?',
    ])
      assert.equal(asksWhereSheIs(query, isName), true, query);
  });

  it('not one asking where about something else, nor one without a word asking for a place', () => {
    for (const query of [
      'Where did she study?',
      'Where has she worked?',
      'Where does she stand on flashy demos?',
      'Does she live in Portugal?',
      'Où a-t-elle fait ses études ?',
      '¿Dónde estudió?',
      'Kie ŝi studis?',
      'どこの大学を卒業しましたか？',
      'どこで働いたことがありますか？',
      '她的碩士學位是在哪裡取得的？',
      '她在哪些研討會上演講過？',
      '她住在里斯本吗？',
      'Where did she stuudy?',
      // where she was: before, not now
      'Où a-t-elle travaillé ?',
      'Dans quels pays a-t-elle travaillé ?',
      'Where did she work?',
      'Where has she lived?',
      'Where was she based?',
      '¿Dónde vivía antes?',
      // a stop word of another language is not one of this question's ("ai" is French)
      'Where does she work on AI?',
      // Esperanto's past is one vowel from its present: where she worked, not where she works
      'Kie ŝi laboris?',
      'Kie ŝi vivis antaŭe?',
    ])
      assert.equal(asksWhereSheIs(query, isName), false, query);
  });
});

describe('asksWhatSheDoesNow', () => {
  it('reads a question asking only what she does now, in every locale', () => {
    for (const query of [
      'What does she do?',
      'What does Noa do today?',
      'What is she working on these days?',
      'What does the candidate do for a living?',
      'What is her current job?',
      'Que fait-elle ?',
      'Que fait Noa aujourd’hui ?',
      "Quel est son métier aujourd'hui ?",
      '¿A qué se dedica Noa hoy?',
      '¿En qué trabaja actualmente?',
      'Kion ŝi faras nun?',
      'Pri kio ŝi laboras nuntempe?',
      '她现在在做什么？',
      'Noa 现在做什么工作？',
      '她目前從事什麼工作？',
      '今は何をしていますか？',
      'Noaは今どんな仕事をしていますか？',
      '現在の役職は何ですか？',
      '¿Cuál es su trabajo actual?',
      // one slip
      'What does Noa do todaay?',
      'What is she workig on these days?',
    ])
      assert.equal(asksWhatSheDoesNow(query, isName), true, query);
  });

  it('not one about before, about how, why, where or when, nor one naming something else', () => {
    for (const query of [
      // before
      'What did she do?',
      'What has she done?',
      'What was her job?',
      "Qu'a-t-elle fait ?",
      '¿Qué hizo?',
      'Kion ŝi faris?',
      '她做过什么工作？',
      '以前はどんな仕事をしていましたか？',
      // how, why, where, when
      'How does she work?',
      'Where does she work?',
      'Comment travaille-t-elle ?',
      'Kiel ŝi laboras?',
      '她现在在哪里工作？',
      '今はどう働いていますか？',
      // something else, or a job named without the present
      'What does she do with RAG?',
      'What does she do with words?',
      'Does she work remotely now?',
      'What is her job?',
      '她的工作是什么？',
      '今年は何をしていますか？',
      '現在の拠点はどちらですか？',
    ])
      assert.equal(asksWhatSheDoesNow(query, isName), false, query);
  });
});
