import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pageLocale } from './data.server.ts';

/** Where `path` (its first segment the `($lang)` parameter) redirects, or its locale. */
function read(path: string): string {
  const lang = /^\/([^/?]+)/.exec(path)?.[1];
  const known = ['entries', 'search', 'documents'];
  try {
    return pageLocale({ lang: lang && !known.includes(lang) ? lang : undefined }, new Request(`http://site${path}`));
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return thrown.status === 301 ? `301 ${thrown.headers.get('Location')}` : String(thrown.status);
  }
}

describe('pageLocale', () => {
  it('reads the locale of the address, English without one', () => {
    assert.equal(read('/fr/entries'), 'fr');
    assert.equal(read('/zh-hant'), 'zh-hant');
    assert.equal(read('/entries'), 'en');
  });

  it('sends /en and a locale in other capitals (as hreflang writes zh-Hant) to the address the site uses, query kept', () => {
    assert.equal(read('/en'), '301 /');
    assert.equal(read('/en/entries/x?tag=ai'), '301 /entries/x?tag=ai');
    assert.equal(read('/zh-Hant'), '301 /zh-hant');
    assert.equal(read('/zh-Hant/documents/profile'), '301 /zh-hant/documents/profile');
    assert.equal(read('/FR/search?q=hotel'), '301 /fr/search?q=hotel');
    assert.equal(read('/EN/entries/'), '301 /entries/');
  });

  it('never redirects off the site, and an unknown locale is a 404', () => {
    assert.equal(read('/en//evil.example'), '301 /evil.example');
    assert.equal(read('/De/entries'), '404');
    assert.equal(read('/de'), '404');
  });
});
