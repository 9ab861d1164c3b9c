import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { linkSitePaths, markdownDescription, markdownExcerpt, markdownTree } from './tree.server.ts';

describe('markdownDescription', () => {
  it('describes a page by its text, without the headings that name its sections', () => {
    assert.equal(
      markdownDescription('## Positionnement\n\nNoa Castellan dirige des produits d’IA.\n\n### Parcours\n\nHôtellerie, puis **intégration**.', 200),
      'Noa Castellan dirige des produits d’IA. Hôtellerie, puis intégration.',
    );
    assert.equal(markdownDescription('#hashtag is text, not a heading', 200), '#hashtag is text, not a heading');
  });
});

describe('linkSitePaths', () => {
  const links = (markdown: string, locale: Parameters<typeof linkSitePaths>[1]) => {
    const out: Array<[string, string]> = [];
    const visit = (node: any) => {
      if (node.type === 'link') out.push([node.url, node.children.map((c: any) => c.value ?? c.children?.[0]?.value).join('')]);
      for (const child of node.children ?? []) visit(child);
    };
    visit(linkSitePaths(markdownTree(markdown), locale));
    return out;
  };

  it('links a path of the site written alone in bold or as code, in the reader’s language for a page', () => {
    const brief = [
      '- **/entries**: every role.',
      '- **/lenses/head-of-ai**: one lens.',
      '- `/api/v1`: the same content as JSON.',
      '- **/mcp**: a Model Context Protocol server.',
      '- **Important** and **/entries and more** stay text; [a link](/documents) stays itself.',
    ].join('\n');
    assert.deepEqual(links(brief, 'fr'), [
      ['/fr/entries', '/entries'],
      ['/fr/lenses/head-of-ai', '/lenses/head-of-ai'],
      ['/api/v1', '/api/v1'],
      ['/documents', 'a link'],
    ]);
    assert.deepEqual(links('**/documents**', 'en'), [['/documents', '/documents']]);
  });
});

describe('markdownExcerpt', () => {
  it('reads a table row by row, each cell beside its header, not as one run of cells', () => {
    const md =
      '## Languages\n\n| Language | Level | Where |\n|---|---|---|\n| French | Native | Lyon. |\n| English | Fluent (C2) | At work |\n| Esperanto | | |\n';
    assert.equal(
      markdownExcerpt(md, 300),
      'Languages Language: French, Level: Native, Where: Lyon. Language: English, Level: Fluent (C2), Where: At work. Language: Esperanto.',
    );
  });
});
