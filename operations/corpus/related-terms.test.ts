// content/search/related-terms.json: validated with the rest of the tree, optional, and applied by the build's search.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { readContentDir } from '../repo/local-repo.server.ts';
import { loadContent, RELATED_TERMS_PATH } from '../content/tree.ts';
import { locales } from '../contract/shared.ts';
import { createBuild } from './corpus.ts';
import { relatedGroups } from './related.ts';
import { analyse } from './analyse.ts';

const files = await readContentDir(resolve('content'));

describe('related terms', () => {
  it('ship for every locale', () => {
    const { model, problems } = loadContent(files);
    assert.deepEqual(problems, []);
    for (const locale of locales) assert.ok((model!.relatedTerms[locale]?.length ?? 0) > 0, locale);
  });

  it('are checked like any content file', () => {
    const broken = new Map(files).set(RELATED_TERMS_PATH, JSON.stringify({ groups: { en: [['lonely']], xx: [] } }));
    const { model, problems } = loadContent(broken);
    assert.equal(model, undefined);
    assert.ok(
      problems.some((p) => p.path === RELATED_TERMS_PATH && /at least 2/.test(p.message)),
      JSON.stringify(problems),
    );
    assert.ok(
      problems.some((p) => p.path === RELATED_TERMS_PATH && /xx/.test(`${p.pointer} ${p.message}`)),
      JSON.stringify(problems),
    );
  });

  it('are optional, and what the subject adds is applied at query time', async () => {
    const without = new Map(files);
    without.delete(RELATED_TERMS_PATH);
    const bare = loadContent(without).model!;
    assert.deepEqual(bare.relatedTerms, {});
    const query = 'zymurgy';
    const plain = await createBuild(bare, { commit: 'a', siteUrl: 'http://site' });
    assert.deepEqual(plain.search.search(query, 5), [], 'a word no passage holds finds nothing');
    const extended = loadContent(new Map(without).set(RELATED_TERMS_PATH, JSON.stringify({ groups: { en: [['zymurgy', 'copilot']] } }))).model!;
    const build = await createBuild(extended, { commit: 'b', siteUrl: 'http://site' });
    assert.equal(build.search.search(query, 5)[0]?.slug, 'concierge-copilot');
  });

  it("stand for a question's word only where a passage holds all of a member, words that frame a question included", async () => {
    // "copilot exposure": found in a question as "copilot" ("exposure" frames one), but no passage holds both words
    const terms = JSON.stringify({ groups: { en: [['zymurgy', 'copilot exposure']] } });
    const build = await createBuild(loadContent(new Map(files).set(RELATED_TERMS_PATH, terms)).model!, { commit: 'c', siteUrl: 'http://site' });
    assert.deepEqual(
      build.search.search('zymurgy', 5).map((h) => h.slug),
      [],
    );
    assert.equal(build.search.search('Copilot exposure?', 5)[0]?.slug, 'concierge-copilot', 'while the member is still found in a question');
  });
});

describe('a related word that is one of the words a question frames itself with (経験, experience)', () => {
  const keys = (related: Parameters<typeof relatedGroups>[0], locale: 'ja' | 'en') => [...(relatedGroups(related).get(locale)?.keys() ?? [])];
  it('stands in a group as a text holds it', () => {
    assert.ok(keys({ ja: [['経験', '職歴']] }, 'ja').includes(analyse('経験', 'ja')[0]!), keys({ ja: [['経験', '職歴']] }, 'ja').join(' '));
    assert.ok(keys({ en: [['experience', 'tenure']] }, 'en').includes('experi'), keys({ en: [['experience', 'tenure']] }, 'en').join(' '));
  });
  it('while one a frame word is only part of (未経験, "track record") does not make its group stand for it', () => {
    assert.ok(!keys({ ja: [['未経験', '転職']] }, 'ja').includes(analyse('経験', 'ja')[0]!), keys({ ja: [['未経験', '転職']] }, 'ja').join(' '));
  });
});
