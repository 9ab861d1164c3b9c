import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { alternates, htmlLang, isLocale, localizePath, parseLocalePath, sitePath, switchLocale } from './locales.ts';
import { fill, formatDay, plural } from './format.ts';

describe('locale paths', () => {
  it('reads English from an unprefixed path and the others from their prefix', () => {
    assert.deepEqual(parseLocalePath('/entries/x'), { locale: 'en', path: '/entries/x' });
    assert.deepEqual(parseLocalePath('/fr/entries/x'), { locale: 'fr', path: '/entries/x' });
    assert.deepEqual(parseLocalePath('/zh-hant'), { locale: 'zh-hant', path: '/' });
    assert.deepEqual(parseLocalePath('/ja/'), { locale: 'ja', path: '/' });
    assert.deepEqual(parseLocalePath('/'), { locale: 'en', path: '/' });
  });

  it('does not take an unknown or English prefix for a locale', () => {
    assert.equal(parseLocalePath('/xx/entries').locale, 'en');
    assert.equal(parseLocalePath('/xx/entries').path, '/xx/entries');
    assert.equal(parseLocalePath('/en/entries').path, '/en/entries');
    assert.equal(isLocale('zh-hant'), true);
    assert.equal(isLocale('zh-Hant'), false);
  });

  it('prefixes every locale but English', () => {
    assert.equal(localizePath('en', '/'), '/');
    assert.equal(localizePath('en', '/lenses/head-of-ai'), '/lenses/head-of-ai');
    assert.equal(localizePath('ja', '/'), '/ja');
    assert.equal(localizePath('eo', 'entries'), '/eo/entries');
  });

  it('switches language on the same page and keeps the query', () => {
    assert.equal(switchLocale('/entries', '?kind=project', 'fr'), '/fr/entries?kind=project');
    assert.equal(switchLocale('/fr/entries/x', '', 'en'), '/entries/x');
    assert.equal(switchLocale('/zh/', '', 'zh-hant'), '/zh-hant');
  });

  it('lists an alternate for every locale plus x-default', () => {
    const list = alternates('https://noa.example', '/entries/x');
    assert.equal(list.length, 8);
    assert.deepEqual(list.find((a) => a.hrefLang === 'zh-Hant'), { hrefLang: 'zh-Hant', href: 'https://noa.example/zh-hant/entries/x' });
    assert.deepEqual(list.at(-1), { hrefLang: 'x-default', href: 'https://noa.example/entries/x' });
    assert.equal(htmlLang.zh, 'zh-Hans');
  });

  it('turns the API’s absolute URLs into paths on this site', () => {
    assert.equal(sitePath('http://127.0.0.1:3000/fr/entries/x', 'http://127.0.0.1:3000'), '/fr/entries/x');
    assert.equal(sitePath('https://other.example/entries/x?a=1', 'http://127.0.0.1:3000'), '/entries/x?a=1');
    assert.equal(sitePath('http://127.0.0.1:3000', 'http://127.0.0.1:3000'), '/');
  });
});

describe('filling strings', () => {
  it('replaces placeholders and leaves unknown ones visible', () => {
    assert.equal(fill('Ask about {name}', { name: 'Noa' }), 'Ask about Noa');
    assert.equal(fill('{a} and {b}', { a: 1 }), '1 and {b}');
  });

  it('chooses plural forms by the locale’s rules', () => {
    const forms = { one: '{n} entry', other: '{n} entries' };
    assert.equal(plural('en', forms, 1), '1 entry');
    assert.equal(plural('en', forms, 0), '0 entries');
    assert.equal(plural('fr', { one: '{n} élément', other: '{n} éléments' }, 0), '0 élément');
    assert.equal(plural('ja', { one: '{n} 件', other: '{n} 件' }, 1), '1 件');
  });

  it('writes dates in the locale', () => {
    assert.equal(formatDay('en', '2026-05-18'), '18 May 2026');
    assert.match(formatDay('ja', '2026-05-18'), /2026年5月18日/);
    assert.equal(formatDay('fr', 'not a day'), 'not a day');
  });
});
