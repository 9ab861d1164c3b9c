import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { markdownDescription } from './tree.server.ts';

describe('markdownDescription', () => {
  it('describes a page by its text, without the headings that name its sections', () => {
    assert.equal(
      markdownDescription('## Positionnement\n\nNoa Castellan dirige des produits d’IA.\n\n### Parcours\n\nHôtellerie, puis **intégration**.', 200),
      'Noa Castellan dirige des produits d’IA. Hôtellerie, puis intégration.',
    );
    assert.equal(markdownDescription('#hashtag is text, not a heading', 200), '#hashtag is text, not a heading');
  });
});
