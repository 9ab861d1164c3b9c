// Reading a job description without a model: its requirements, must-haves and nice-to-haves apart, in every locale.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readRequirements } from './requirements.ts';

const texts = (description: string) => readRequirements(description).map((r) => `${r.kind}: ${r.text}`);

describe('readRequirements', () => {
  it('reads the bullets of the requirement sections and leaves out the employer and the offer', () => {
    const description = [
      '# Head of AI',
      '',
      'About us',
      '- We are 200 people in Lisbon',
      '',
      "## What we're looking for",
      '- **Shipped** LLM features to production',
      '* Led a team of engineers,',
      '  including hiring',
      '1. Strong Python',
      '- Strong Python',
      '',
      'Nice to have:',
      '• A background in travel',
      '',
      'Benefits',
      '- 30 days of holiday',
      '- German is a plus',
    ].join('\n');
    assert.deepEqual(texts(description), [
      'must: Shipped LLM features to production',
      'must: Led a team of engineers, including hiring',
      'must: Strong Python',
      'nice: A background in travel',
    ]);
  });

  it('tells a nice-to-have by its own words inside a must-have section, in each language', () => {
    const description = [
      'Requirements',
      '- Python, ideally also Go',
      '- Kubernetes is a plus',
      '- Anglais courant, l’allemand serait un plus',
      '- Se valorará experiencia en turismo',
      '- Scio de la germana estus plusaĵo',
      '- 有酒店行业经验者优先',
      '- 英語力があれば尚可',
      '- SQL',
    ].join('\n');
    assert.deepEqual(
      readRequirements(description).map((r) => r.kind),
      ['nice', 'nice', 'nice', 'nice', 'nice', 'nice', 'nice', 'must'],
    );
  });

  it('reads Japanese and Chinese lists, whose marks take no space, under their own headings', () => {
    const ja = [
      '【必須スキル】',
      '・LLM を活用したプロダクト開発の経験',
      '・ビジネスレベルの英語力',
      '',
      '【歓迎スキル】',
      '・旅行業界での経験',
      '',
      '【待遇・福利厚生】',
      '・リモート可',
    ].join('\n');
    assert.deepEqual(texts(ja), ['must: LLM を活用したプロダクト開発の経験', 'must: ビジネスレベルの英語力', 'nice: 旅行業界での経験']);
    const zh = ['任职要求：', '1、5 年以上软件开发经验', '2、熟悉 RAG 技术架构', '', '加分项：', '1、有酒店行业经验', '', '福利待遇：', '1、弹性工作'].join(
      '\n',
    );
    assert.deepEqual(texts(zh), ['must: 5 年以上软件开发经验', 'must: 熟悉 RAG 技术架构', 'nice: 有酒店行业经验']);
  });

  it('reads the sentences that ask something of the candidate when the description is prose', () => {
    const description = [
      'Nous sommes une agence de voyages lyonnaise.',
      '',
      'Vous avez au moins cinq ans d’expérience en marketing digital. Le poste est basé à Lyon. Vous maîtrisez le SEO et Google Analytics.',
      '',
      'Idéalement, vous parlez espagnol.',
    ].join('\n');
    assert.deepEqual(texts(description), [
      'must: Vous avez au moins cinq ans d’expérience en marketing digital.',
      'must: Vous maîtrisez le SEO et Google Analytics.',
      'nice: Idéalement, vous parlez espagnol.',
    ]);
  });

  it('reads a requirement after the label that says its kind (Must have:, Nice:, Atout :, 必須：), without the label', () => {
    const prose =
      'Head of AI. Requirements: 5+ years leading ML teams. Must have: P&L ownership above EUR 10M. Nice to have: fluent Japanese. Nice: hospitality background.';
    assert.deepEqual(texts(prose), [
      'must: 5+ years leading ML teams.',
      'must: P&L ownership above EUR 10M.',
      'nice: fluent Japanese.',
      'nice: hospitality background.',
    ]);
    assert.deepEqual(texts(['- Must have: Kubernetes', '- Atout : le japonais', '- 必須：Python', '- 歓迎：英語での会話'].join('\n')), [
      'must: Kubernetes',
      'nice: le japonais',
      'must: Python',
      'nice: 英語での会話',
    ]);
  });

  it('reads the clauses of a long Chinese or Japanese sentence as requirements of their own', () => {
    const zh = '我们是一家在线旅游公司。\n\n我们希望你具备五年以上的软件开发经验，熟悉 Python 与 SQL 数据查询，并有带领工程团队的经历。有酒店行业背景者优先。';
    assert.deepEqual(texts(zh), [
      'must: 我们希望你具备五年以上的软件开发经验',
      'must: 熟悉 Python 与 SQL 数据查询',
      'must: 并有带领工程团队的经历。',
      'nice: 有酒店行业背景者优先。',
    ]);
  });

  it('reads ■ over a list of ・ items as the list’s name, and prose requirements beside a list of benefits', () => {
    const ja = ['■必須要件', '・Python の実務経験', '', '■歓迎要件', '・英語力', '', '■待遇・福利厚生', '・リモート可'].join('\n');
    assert.deepEqual(texts(ja), ['must: Python の実務経験', 'nice: 英語力']);
    const prose = ['You have shipped LLM products to production. You know Python well.', '', 'Benefits', '- Remote work', '- 30 days of holiday'].join('\n');
    assert.deepEqual(texts(prose), ['must: You have shipped LLM products to production.', 'must: You know Python well.']);
  });

  it('does not take a word that only looks like a plus for one', () => {
    assert.deepEqual(
      readRequirements('Requirements\n- Digital asset management\n- 熟悉最佳实践\n- Respects user preferences').map((r) => r.kind),
      ['must', 'must', 'must'],
    );
  });

  it('keeps at most 30 requirements, each cut to 400 characters at a word', () => {
    const many = Array.from({ length: 40 }, (_, i) => `- Requirement number ${i} ${'word '.repeat(100)}`).join('\n');
    const read = readRequirements(many);
    assert.equal(read.length, 30);
    for (const r of read) assert.ok(r.text.length <= 400 && r.text.endsWith('word'), r.text.slice(-20));
  });

  it('reads nothing from text that asks nothing', () => {
    assert.deepEqual(readRequirements('Hello there.\n\nWe are a company.'), []);
  });
});
