// Sections have addresses: each heading's id (GitHub's rule), the tree a page renders with them, and the passages
// search makes, which name the section they lie in, by the id the page gives it, in every locale.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import type { Heading } from 'mdast';
import { headingIds, sectionTree, sectionUrl } from './sections.ts';
import { parseMarkdown, plainText } from './markdown.ts';
import { splitSections } from '../corpus/passages.ts';
import { readContentDir } from '../repo/local-repo.server.ts';
import { loadContent } from './tree.ts';
import { createBuild } from '../corpus/corpus.ts';
import { locales } from '../contract/locales.ts';
import { documentNames } from '../contract/shared.ts';

const ids = (markdown: string) => [...headingIds(parseMarkdown(markdown)).values()];

describe('headingIds', () => {
  it('gives each heading GitHub’s id: lower case, punctuation dropped, spaces as hyphens, in any script', () => {
    assert.deepEqual(ids('## What she does *now*\n\ntext\n\n### Tools & methods (2024–2026)'), ['what-she-does-now', 'tools--methods-20242026']);
    assert.deepEqual(ids('## 現在の仕事\n\n## Ce qu’elle cherche\n\n## Ĉu ŝi programas?'), ['現在の仕事', 'ce-quelle-cherche', 'ĉu-ŝi-programas']);
  });
  it('numbers a repeated heading, and gives none to a heading without letters or digits', () => {
    assert.deepEqual(ids('## Notes\n\n## Notes\n\n## notes'), ['notes', 'notes-1', 'notes-2']);
    assert.deepEqual(ids('## …\n\n## ---x\n\n##'), ['---x']);
  });
  it('finds headings inside quotes and lists, in reading order', () => {
    assert.deepEqual(ids('> ## Quoted\n\n- ## In a list\n\n## After'), ['quoted', 'in-a-list', 'after']);
  });
});

describe('sectionTree and sectionUrl', () => {
  it('puts each heading’s id in its data, the rest of the tree as markdownTree gives it', () => {
    const tree = sectionTree('## One\n\ntext\n\n## Two');
    const headings = tree.children.filter((n): n is Heading => n.type === 'heading');
    assert.deepEqual(
      headings.map((h) => h.data?.id),
      ['one', 'two'],
    );
    assert.equal(JSON.stringify(tree).includes('position'), false);
  });
  it('percent-encodes the id as the fragment, and leaves a page without one as it is', () => {
    assert.equal(sectionUrl('http://site/ja/documents/profile', '現在の仕事'), 'http://site/ja/documents/profile#%E7%8F%BE%E5%9C%A8%E3%81%AE%E4%BB%95%E4%BA%8B');
    assert.equal(sectionUrl('http://site/documents/profile', undefined), 'http://site/documents/profile');
  });
});

describe('passages name their section', () => {
  it('by the last heading at or before their start, also when a long section is cut in several', () => {
    const long = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} ${'word '.repeat(30)}`).join('\n\n');
    const parts = splitSections(`Intro before any heading.\n\n## First\n\n${long}\n\n## Second\n\nlast`);
    assert.equal(parts[0]!.section, undefined);
    const first = parts.filter((p) => p.section === 'first');
    assert.ok(first.length >= 2, 'the long section is cut in several passages, each naming it');
    assert.ok(first[0]!.text.startsWith('## First') && !first[1]!.text.startsWith('#'));
    assert.equal(parts.at(-1)!.section, 'second');
  });

  it('of the demo content: every document hit links to a section its page shows, in every locale', async () => {
    const { model } = loadContent(await readContentDir(resolve('content')));
    const build = await createBuild(model!, { commit: 'test', siteUrl: 'http://site' });
    let checked = 0;
    for (const locale of locales) {
      for (const name of documentNames) {
        const document = build.locales[locale].documents.get(name)!;
        const sections = [...headingIds(sectionTree(document.markdown))];
        const onPage = new Set(sections.map(([, id]) => id));
        // search's answer for each of the document's own headings: the hit names a section of the page
        for (const [heading] of sections) {
          const words = plainText(heading);
          const hit = build.search.search(words, 10, { locale }).find((h) => h.kind === 'document' && h.slug === name);
          if (!hit) continue;
          const fragment = new URL(hit.url).hash.slice(1);
          assert.ok(fragment, `${locale} ${name}: "${words}" found the document without a section (${hit.url})`);
          assert.ok(onPage.has(decodeURIComponent(fragment)), `${locale} ${name}: ${hit.url} names a section the page lacks`);
          assert.equal(hit.url.split('#')[0], document.url);
          checked++;
        }
      }
    }
    assert.ok(checked > 50, `only ${checked} sections were found by their headings`);
  });
});
