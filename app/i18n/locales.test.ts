import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { alternates, htmlLang, isLocale, localeFacts, locales, localizePath, parseLocalePath, sitePath, switchLocale } from './locales.ts';
import { localeOfSpokenLanguage } from '../../operations/contract/locales.ts';

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
    assert.deepEqual(
      list.find((a) => a.hrefLang === 'zh-Hant'),
      { hrefLang: 'zh-Hant', href: 'https://noa.example/zh-hant/entries/x' },
    );
    assert.deepEqual(list.at(-1), { hrefLang: 'x-default', href: 'https://noa.example/entries/x' });
    assert.equal(htmlLang.zh, 'zh-Hans');
  });

  it('turns the API’s absolute URLs into paths on this site', () => {
    assert.equal(sitePath('http://127.0.0.1:3000/fr/entries/x', 'http://127.0.0.1:3000'), '/fr/entries/x');
    assert.equal(sitePath('https://other.example/entries/x?a=1', 'http://127.0.0.1:3000'), '/entries/x?a=1');
    assert.equal(sitePath('http://127.0.0.1:3000', 'http://127.0.0.1:3000'), '/');
  });
});

describe('the locale table', () => {
  it('has one row per locale, each with every fact filled in', () => {
    assert.deepEqual(Object.keys(localeFacts).sort(), [...locales].sort());
    for (const locale of locales) {
      for (const [field, value] of Object.entries(localeFacts[locale]))
        assert.ok(typeof value === 'object' ? Object.values(value).every(Boolean) : value, `${locale}.${field}`);
    }
  });

  it('uses tags the Intl APIs know', () => {
    for (const locale of locales) {
      const { htmlLang: tag, intlLocale } = localeFacts[locale];
      assert.equal(Intl.getCanonicalLocales(tag)[0], tag, `${locale} htmlLang`);
      assert.equal(new Intl.DateTimeFormat(intlLocale).resolvedOptions().locale.split('-')[0], intlLocale.split('-')[0], `${locale} intlLocale`);
    }
  });

  it('finds the locale of a language a transcription reports, by code or by name', () => {
    assert.equal(localeOfSpokenLanguage('ja'), 'ja');
    assert.equal(localeOfSpokenLanguage('Japanese'), 'ja');
    assert.equal(localeOfSpokenLanguage('chinese'), 'zh');
    assert.equal(localeOfSpokenLanguage('esperanto'), 'eo');
    assert.equal(localeOfSpokenLanguage('klingon'), undefined);
  });
});
