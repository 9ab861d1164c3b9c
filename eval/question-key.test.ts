import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { questionKey } from './question-key.ts';

describe('questionKey', () => {
  it('takes two spellings of one question for the same question', () => {
    assert.equal(questionKey({ locale: 'fr', question: 'Parle-t-elle coréen ?' }), questionKey({ locale: 'fr', question: ' parle-t-elle  Coréen?' }));
    assert.equal(questionKey({ locale: 'zh', question: '她会说韩语吗？' }), questionKey({ locale: 'zh', question: '她会说韩语吗?' }));
  });
  it('tells apart other words and other locales', () => {
    assert.notEqual(questionKey({ locale: 'fr', question: 'Parle-t-elle coréen ?' }), questionKey({ locale: 'fr', question: 'Parle-t-elle japonais ?' }));
    assert.notEqual(questionKey({ locale: 'en', question: 'SQL?' }), questionKey({ locale: 'eo', question: 'SQL?' }));
  });
});
