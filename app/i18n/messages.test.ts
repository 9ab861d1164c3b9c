// The interface messages: one ICU MessageFormat table per locale, English defining the keys.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IntlMessageFormat } from 'intl-messageformat';
import { kinds, locales, tags } from '../../operations/contract/vocabulary.ts';
import { localeFacts } from './locales.ts';
import { formatDay, translator, type MessageKey } from './messages.ts';
import { messageTables } from './messages.server.ts';
import site from '../../content/site.json';

type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }>; children?: Element[] };
// Element types of @formatjs/icu-messageformat-parser: 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural.
const ARGUMENT_TYPES = new Set([1, 2, 3, 4, 5, 6]);

/** The arguments a message uses, and which of them are counted (plural), e.g. { n: 'plural', name: 'text' }. */
function argumentsOf(message: string, locale: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (elements: Element[]) => {
    for (const el of elements) {
      if (ARGUMENT_TYPES.has(el.type) && typeof el.value === 'string') found[el.value] = el.type === 6 || el.type === 2 ? 'number' : 'text';
      for (const option of Object.values(el.options ?? {})) walk(option.value);
      if (el.children) walk(el.children);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst());
  return found;
}

describe('the interface messages', () => {
  const english = messageTables.en;
  const keys = Object.keys(english).sort();

  for (const locale of locales) {
    it(`${locale} has exactly the English keys, each parsing and formatting with English's placeholders`, () => {
      const table = messageTables[locale];
      assert.deepEqual(Object.keys(table).sort(), keys);
      const tag = localeFacts[locale].htmlLang;
      const t = translator(locale, table);
      for (const key of keys as MessageKey[]) {
        const message = table[key];
        assert.ok(message.trim(), `${locale}.${key} is empty`);
        const args = argumentsOf(message, tag);
        const expected = argumentsOf(english[key], 'en');
        assert.deepEqual(args, expected, `${locale}.${key} placeholders`);
        const values = Object.fromEntries(Object.entries(expected).map(([name, kind]) => [name, kind === 'number' ? 3 : `‹${name}›`]));
        const text = t(key, values);
        assert.ok(text.trim(), `${locale}.${key} formats to nothing`);
        for (const [name, kind] of Object.entries(expected)) if (kind === 'text') assert.ok(text.includes(`‹${name}›`), `${locale}.${key} shows {${name}}`);
        assert.doesNotMatch(text, /[{}]/, `${locale}.${key} leaves a brace`);
      }
    });
  }

  it('names every kind and industry tag of the content model', () => {
    const table = messageTables.en as Record<string, string>;
    for (const kind of kinds) assert.ok(table[`kind.${kind}`] && table[`kindPlural.${kind}`], kind);
    for (const tag of tags) assert.ok(table[`tag.${tag}`], tag);
  });

  it('is really translated: most messages differ from English in each other locale', () => {
    for (const locale of locales.filter((l) => l !== 'en')) {
      const table = messageTables[locale];
      const same = keys.filter((key) => table[key as MessageKey] === english[key as MessageKey]).length;
      assert.ok(same / keys.length < 0.2, `${locale}: ${same} of ${keys.length} messages are identical to English`);
    }
  });

  it('holds no words about the subject, who is named and described in the content (the brief, the documents)', () => {
    // Third-person pronouns for a person, where the language has ones that cannot mean a thing.
    const pronouns: Partial<Record<(typeof locales)[number], RegExp>> = {
      en: /\b(she|her|hers|he|him|his)\b/i,
      zh: /她/,
      'zh-hant': /她/,
      ja: /彼女/,
      eo: /(?<!\p{L})(ŝi|ŝia|ŝin|li|lia|lin)(?!\p{L})/iu,
    };
    for (const locale of locales) {
      for (const [key, message] of Object.entries(messageTables[locale])) {
        assert.doesNotMatch(message, new RegExp(site.subject.name.split(/\s+/)[0]!), `${locale}.${key} names the subject`);
        const pronoun = pronouns[locale];
        if (pronoun) assert.doesNotMatch(message, pronoun, `${locale}.${key} has a pronoun for the subject`);
      }
    }
  });
});

describe('formatting', () => {
  it('chooses plural forms by the locale’s rules', () => {
    const en = translator('en', messageTables.en);
    assert.equal(en('entryCount', { n: 1 }), '1 entry');
    assert.equal(en('entryCount', { n: 0 }), '0 entries');
    assert.equal(en('entryCount', { n: 1234 }), '1,234 entries');
    assert.equal(translator('fr', messageTables.fr)('entryCount', { n: 0 }), '0 élément');
    assert.equal(translator('ja', messageTables.ja)('entryCount', { n: 1 }), '1 件');
  });

  it('fills placeholders with values as text, never as message syntax', () => {
    const t = translator('en', messageTables.en);
    assert.equal(t('searchResultsFor', { q: '{n, plural, other {#}}' }), 'Results for “{n, plural, other {#}}”');
  });

  it('writes dates in the locale', () => {
    assert.equal(formatDay('en', '2026-05-18'), '18 May 2026');
    assert.match(formatDay('ja', '2026-05-18'), /2026年5月18日/);
    assert.equal(formatDay('fr', 'not a day'), 'not a day');
  });

  it('writes Esperanto dates and numbers the same whatever the ICU: Node’s has Esperanto, Chromium’s falls back to English', () => {
    const write = () => [formatDay('eo', '2026-05-18'), translator('eo', messageTables.eo)('matchLength', { n: 1234.5, max: 20000 })];
    const withData = write();
    assert.deepEqual(withData, ['18 majo 2026', '1\u202f234,5 / 20\u202f000 signoj']);
    assert.deepEqual(withoutEsperantoData(write), withData);
    assert.equal(formatDay('eo', '2026-08-01'), '1 aŭgusto 2026');
    assert.equal(translator('eo', messageTables.eo)('matchConfidence', { p: 0.45 }), 'serĉa fido 45%');
  });
});

/** Runs `write` with Intl as Chromium has it: Esperanto formats, dates and numbers, fall back to American English. */
function withoutEsperantoData<T>(write: () => T): T {
  const { DateTimeFormat, NumberFormat } = Intl;
  const english = (locales: unknown) => ([locales].flat().some((l) => String(l).startsWith('eo')) ? 'en-US' : locales);
  const fallback = <C extends new (...args: any[]) => object>(constructor: C): C =>
    new Proxy(constructor, { construct: (target, [locales, options]) => new target(english(locales), options) });
  Object.assign(Intl, { DateTimeFormat: fallback(DateTimeFormat), NumberFormat: fallback(NumberFormat) });
  try {
    assert.equal(new Intl.DateTimeFormat('eo', { month: 'long', timeZone: 'UTC' }).format(new Date('2026-05-18T00:00:00Z')), 'May');
    return write();
  } finally {
    Object.assign(Intl, { DateTimeFormat, NumberFormat });
  }
}
