import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kinds, locales, tags } from '../../operations/contract/shared.ts';
import { dictionary } from './dictionary.ts';

/** Every string leaf of a table, by dotted key. */
function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) for (const [key, text] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(key, text);
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

describe('the interface dictionary', () => {
  const english = leaves(dictionary.en);

  for (const locale of locales) {
    it(`${locale} has every key, none empty, with the same placeholders as English`, () => {
      const table = leaves(dictionary[locale]);
      assert.deepEqual([...table.keys()].sort(), [...english.keys()].sort());
      for (const [key, text] of table) {
        assert.ok(text.trim(), `${locale}.${key} is empty`);
        assert.equal(placeholders(text), placeholders(english.get(key)!), `${locale}.${key} placeholders`);
      }
    });
  }

  it('names every kind and tag of the content model', () => {
    for (const locale of locales) {
      for (const kind of kinds) assert.ok(dictionary[locale].kind[kind], `${locale} kind ${kind}`);
      for (const tag of tags) assert.ok(dictionary[locale].tag[tag], `${locale} tag ${tag}`);
    }
  });

  it('is really translated: most strings differ from English in each other locale', () => {
    for (const locale of locales.filter((l) => l !== 'en')) {
      const table = leaves(dictionary[locale]);
      const same = [...table].filter(([key, text]) => text === english.get(key)).length;
      assert.ok(same / table.size < 0.2, `${locale}: ${same} of ${table.size} strings are identical to English`);
    }
  });
});
