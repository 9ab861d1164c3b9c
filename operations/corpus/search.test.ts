// Search quality and tokenisation: a question in a language finds passages in that language.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { readContentDir } from '../repo/local-repo.server.ts';
import { loadContent } from '../content/tree.ts';
import { createBuild, searchPassages } from './corpus.ts';
import { createSearchIndex, createSearchIndexData, FIELD_WEIGHTS, type Passage } from './search.ts';
import { splitPassages } from './passages.ts';
import { createBm25 } from './bm25.ts';
import { analyse, foldHan } from './analyse.ts';

const { model } = loadContent(await readContentDir(resolve('content')));
const build = await createBuild(model!, { commit: 'test', siteUrl: 'http://site' });
const localeOf = (url: string) => /^http:\/\/site\/(zh-hant|zh|ja|fr|es|eo)\//.exec(url)?.[1] ?? 'en';

// question → the slug that must be in the top five, and the language its passage must be in
const table: Array<[string, string, string]> = [
  ['hotel guest assistant', 'concierge-copilot', 'en'],
  ['overbookings channel manager', 'pms-channel-bridge', 'en'],
  ['Esperanto translation volunteer', 'libera-tradukado-volunteer', 'en'],
  ['evaluation harness for retrieval', 'rag-evaluation-harness', 'en'],
  ['clinical notes summarisation', 'clinical-notes-summariser', 'en'],
  ['wallet onboarding', 'wallet-onboarding-kit', 'en'],
  ['how does she think about AI adoption', 'thinking', 'en'],
  ['certifications', 'credentials', 'en'],
  ['meetup Osaka', 'kansai-web-meetup', 'en'],
  ['hiring engineers team', 'engineering-manager-tessera-health', 'en'],
  ['ホテルの宿泊客向けアシスタント', 'concierge-copilot', 'ja'],
  ['臨床ノート 要約', 'clinical-notes-summariser', 'ja'],
  ['サイトコントローラー', 'pms-channel-bridge', 'ja'],
  ['写真', 'kansai-nights-photo-zine', 'ja'],
  ['临床笔记摘要', 'clinical-notes-summariser', 'zh'],
  ['开发者社区', 'kansai-web-meetup', 'zh'],
  ['客務部主任', 'front-office-supervisor-harbour-crown', 'zh-hant'],
  ['traduction bénévole espéranto', 'libera-tradukado-volunteer', 'fr'],
  ['incorporación de monederos', 'wallet-onboarding-kit', 'es'],
  ['hotela gasto', 'concierge-copilot', 'eo'],
];

describe('search quality', () => {
  for (const [question, slug, locale] of table) {
    it(`"${question}" finds ${slug} in ${locale}`, () => {
      const top = build.search.search(question, 5);
      const hit = top.find((r) => r.slug === slug);
      assert.ok(hit, `top five: ${top.map((r) => r.slug).join(', ')}`);
      assert.equal(localeOf(hit.url), locale);
    });
  }

  it('gives at most one passage per record, best first, and honours the limit', () => {
    const results = build.search.search('AI', 50);
    assert.equal(new Set(results.map((r) => `${r.kind}:${r.slug}`)).size, results.length);
    assert.ok(results.length <= 50);
    assert.deepEqual(
      results.map((r) => r.score),
      [...results].map((r) => r.score).sort((a, b) => b - a),
    );
    assert.equal(build.search.search('AI', 3).length, 3);
  });

  it('finds nothing for words the profile does not contain', () => {
    assert.deepEqual(build.search.search('zzzxxqq', 10), []);
  });

  it('returns nothing as a match when the record holds only the common part of a question', () => {
    // "managed" is everywhere in a career; "shipbuilding" is nowhere in this profile, and weighs what "managed" does
    assert.deepEqual(build.search.search('Has she managed shipbuilding?', 10), []);
    assert.ok(build.search.search('Has she managed shipbuilding?', 10, { unsure: true }).length > 0, 'it matched, without confidence');
    // "automation" is held, "robotics" is not: half the question
    assert.deepEqual(build.search.search('robotics automation', 10), []);
    for (const hit of build.search.search('hotel guest assistant', 10)) assert.ok(hit.confidence > 0.5 && hit.confidence <= 1, `${hit.slug} ${hit.confidence}`);
  });

  it('finds entries through the names of their lenses and skills', () => {
    // "Smart contracts" is a skill of the wallet kit, not a word of its text
    const skill = build.model.skills.get('smart-contracts')!.fields.name;
    assert.ok(build.search.search(skill, 5).some((h) => h.slug === 'wallet-onboarding-kit'));
  });

  it('returns the section that matched best, not the first lines', () => {
    const hit = build.search.search('Esperanto language level', 5).find((h) => h.slug === 'credentials');
    assert.ok(hit, 'credentials found');
    assert.match(hit.passage, /Esperanto/);
  });

  it('analyses a query in the locale it is said to be in, and matches the English text too', () => {
    const fr = build.search.search('traductions bénévoles', 5, { locale: 'fr' });
    assert.equal(fr[0]?.slug, 'libera-tradukado-volunteer');
    assert.equal(localeOf(fr[0].url), 'fr');
    // an English query with a French locale still finds English text
    assert.ok(build.search.search('overbookings channel manager', 5, { locale: 'fr' }).some((h) => h.slug === 'pms-channel-bridge'));
  });

  it('answers a query in Latin letters on a site of another script with that site’s pages where its text holds the words', () => {
    for (const locale of ['ja', 'zh', 'zh-hant'] as const) {
      const hits = build.search.search('TypeScript', 5, { locale });
      assert.ok(hits.length > 0 && hits.every((h) => localeOf(h.url) === locale), `${locale}: ${hits.map((h) => h.url).join(', ')}`);
    }
    // what only the English text holds is still found, in English
    assert.ok(build.search.search('RAG', 5, { locale: 'ja' }).some((h) => h.slug === 'rag-evaluation-harness'));
  });

  it('only indexes text that is really in a language (no English fallbacks under another locale)', () => {
    const stale = build.search.search('Más de la mitad de las preguntas habituales', 10).find((r) => r.slug === 'concierge-copilot');
    assert.equal(stale, undefined, 'the stale Spanish translation is served in English and not indexed as Spanish');
  });
});

describe('analyse', () => {
  // Each language's analysis is tested in analyse.test.ts; here, one locale's words at a time.
  it('folds case and accents and stems Latin words (English by default)', () => {
    assert.deepEqual(analyse('Évaluations', 'en'), analyse('evaluation', 'en'));
    assert.deepEqual(analyse('Hotels', 'en'), analyse('hotel', 'en'));
    assert.deepEqual(analyse('évaluations', 'fr'), analyse('evaluation', 'fr'));
  });
  it('segments Japanese and Chinese into words and bigrams, traditional characters folded to simplified', () => {
    const ja = analyse('機械学習の評価', 'ja');
    assert.ok(ja.includes(foldHan('評価')), ja.join(' '));
    assert.ok(ja.includes('学习'), ja.join(' '));
    assert.ok(analyse('临床笔记摘要', 'zh').length >= 2);
  });
  it('drops stop words', () => {
    assert.deepEqual(analyse('the and of', 'en'), []);
  });
});

describe('createSearchIndex', () => {
  it('lets a related word stand for a whole word of the query only, not a part of a Han word', async () => {
    const index = await createSearchIndex([{ locale: 'zh', slug: 'a', kind: 'entry', title: '顾问', text: '为多家企业提供咨询服务', url: 'u' }], {
      related: { zh: [['公司', '企业']] },
    });
    assert.equal(index.search('公司', 5)[0]?.slug, 'a', '公司 stands for 企业');
    assert.deepEqual(index.search('航空公司', 5), [], '航空公司 is not 企业');
  });
  it('adds related words at query time, and counts them for the word they stand for', async () => {
    const passages = [
      { locale: 'en' as const, slug: 'a', kind: 'entry' as const, title: 'Front office', text: 'Ran the reception desk of a harbour hotel', url: 'u' },
      { locale: 'en' as const, slug: 'b', kind: 'entry' as const, title: 'Photo zine', text: 'Night photographs of a city', url: 'v' },
    ];
    const plain = await createSearchIndex(passages);
    const related = await createSearchIndex(passages, {
      related: {
        en: [
          ['recruiter', 'reception'],
          ['receptionist', 'reception'],
        ],
      },
    });
    assert.deepEqual(plain.search('receptionist', 5), []);
    assert.deepEqual(
      related.search('receptionist', 5).map((h) => h.slug),
      ['a'],
    );
    assert.equal(related.search('receptionist', 5)[0]!.confidence, 1);
  });

  it('counts a related phrase for a word only when the record holds the whole phrase, not one of its words', async () => {
    const passages = [
      { locale: 'en' as const, slug: 'pricing', kind: 'entry' as const, title: 'Pricing', text: 'Designed the business model of the print zine', url: 'u' },
      { locale: 'en' as const, slug: 'chat', kind: 'entry' as const, title: 'Assistant', text: 'Built on a large language model', url: 'v' },
    ];
    const index = await createSearchIndex(passages, { related: { en: [['llm', 'large language model', 'gpt']] } });
    assert.deepEqual(
      index.search('llm', 5).map((h) => h.slug),
      ['chat'],
      '"business model" is not a large language model',
    );
  });

  it('returns a record once, even when a word every passage holds scores 0 in some of its passages', async () => {
    // A word in every passage weighs next to nothing (its idf), and rounds to 0 in a passage much longer than the others.
    const filler = Array.from({ length: 60 }, (_, i) => `filler${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}`).join(' ');
    const passages = [
      { locale: 'en' as const, slug: 'long', kind: 'entry' as const, title: 'Long', text: `harbour ${filler}`, url: 'u' },
      ...Array.from({ length: 2000 }, (_, i) => ({
        locale: 'en' as const,
        slug: i === 0 ? 'long' : `r${i}`,
        kind: 'entry' as const,
        title: 'Short',
        text: 'harbour',
        url: 'v',
      })),
    ];
    const slugs = (await createSearchIndex(passages)).search('harbour', 50).map((h) => h.slug);
    assert.equal(slugs.length, 50);
    assert.equal(new Set(slugs).size, slugs.length, 'no record twice');
  });

  it('works on tiny corpora too', async () => {
    const index = await createSearchIndex([{ locale: 'en', slug: 'a', kind: 'entry', title: 'Alpha', text: 'hotel systems', url: 'u' }]);
    assert.equal(index.search('hotel', 5)[0]?.slug, 'a');
    assert.deepEqual(index.search('zzzxxqq', 5), []);
    assert.deepEqual((await createSearchIndex([])).search('hotel', 5), []);
  });
  it('splits Markdown into readable passages at headings and paragraph boundaries', () => {
    const parts = splitPassages('## One\n\nfirst para\n\n## Two\n\n' + 'x'.repeat(700));
    assert.ok(parts.length >= 2);
    assert.ok(parts[0]!.startsWith('## One'));
  });
});

describe('rebuilds', () => {
  // Each locale's index made from scratch (a vocabulary of its own, every text analysed again).
  const fromScratch = (passages: readonly Passage[]) =>
    Promise.all(
      [...new Set(passages.map((p) => p.locale))].map(async (locale) => {
        const docs = passages.filter((p) => p.locale === locale).map((p) => ({ title: p.title, meta: p.meta ?? '', text: p.text }));
        return { locale, engine: (await createBm25(docs, (text) => analyse(text, locale), { fieldWeights: FIELD_WEIGHTS })).toData() };
      }),
    );

  it('make, from the texts counted before, the index a build from scratch makes, through edits, removals and additions', async () => {
    let passages: Passage[] = searchPassages(model!, 'http://site');
    const steps: Array<(ps: Passage[]) => Passage[]> = [
      (ps) => ps,
      (ps) => ps.map((p, i) => (i % 97 === 5 ? { ...p, text: `${p.text} harbour lighthouse ${i}` } : p)),
      (ps) => ps.filter((_, i) => i % 13 !== 0),
      (ps) => [
        ...ps.slice(0, 40),
        { locale: 'fr', slug: 'nouveau', kind: 'entry', title: 'Un phare', meta: 'port', text: 'Le gardien du phare', url: 'u' },
        ...ps.slice(40),
      ],
      (ps) => ps.map((p) => (p.locale === 'ja' ? { ...p, title: `${p.title} 灯台` } : p)),
    ];
    for (const [n, step] of steps.entries()) {
      passages = step(passages);
      const data = await createSearchIndexData(passages);
      const expected = await fromScratch(passages);
      assert.equal(data.size, passages.length);
      assert.deepEqual(
        data.locales.map(({ locale, engine }) => ({ locale, engine })),
        expected,
        `step ${n}`,
      );
    }
  });
});

describe('builds of one commit on two sites', () => {
  it('share one index, each linking to its own site', async () => {
    const dev = await createBuild(model!, { commit: 'test', siteUrl: 'http://dev.site', sibling: build });
    assert.equal(dev.search.size, build.search.size);
    const [main, preview] = [build.search.search('hotel guest assistant', 3), dev.search.search('hotel guest assistant', 3)];
    assert.deepEqual(
      preview.map((h) => h.slug),
      main.map((h) => h.slug),
    );
    for (const hit of preview) assert.ok(hit.url.startsWith('http://dev.site/'), hit.url);
    const other = await createBuild(model!, { commit: 'another', siteUrl: 'http://dev.site', sibling: build });
    assert.notEqual(other.search, build.search, 'a build of another commit has its own index');
    assert.ok(other.search.search('hotel guest assistant', 3).every((h) => h.url.startsWith('http://dev.site/')));
  });
});
