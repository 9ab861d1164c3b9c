// The og:image cards: each locale's title of a real demo entry is drawn with real glyphs (not the empty box a
// font draws for a character it lacks), the fonts are picked per locale and loaded by unicode range, long
// titles are cut, the portrait is drawn round, and the card addresses round-trip.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import sharp from 'sharp';
import { locales, type Locale } from '../i18n/locales.ts';
import { cardFonts, clearFontCache, fontCacheStats, type FontWeight } from './og-fonts.server.ts';
import { drawPng, ogImage, shorten, titleSize, type OgCard } from './og-image.server.ts';
import { ogImagePath, ogPageOf, ogPageTypes, parseOgImagePath } from './og-pages.ts';

/** A private-use character: no Noto font has a glyph for it, so it is drawn as the fallback font's empty box. */
const MISSING = '\ue000';

/** A demo entry's title in a locale, read from the content as shipped. */
function demoTitle(locale: Locale, path: string): string {
  const file = locale === 'en' ? `content/corpus/${path}.md` : `content/i18n/${locale}/corpus/${path}.md`;
  const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  return (parse(text.split(/^---$/m)[1]!) as { title: string }).title;
}

const base = { name: 'Noa Castellan', headline: 'Head of AI at Orbitale Travel', host: 'vitae.test' };
const card = (locale: Locale, title: string, extra: Partial<OgCard> = {}): Promise<Buffer> =>
  ogImage({ ...base, locale, type: 'entry', eyebrow: 'Project', title, subtitle: 'Orbitale Travel · 2023 – 2024', ...extra });

/** `text` alone, after a Latin "A" (so the card's fonts always hold one font), at the title's weight. */
function textImage(text: string, locale: Locale, weight: FontWeight = 700): Promise<Buffer> {
  const tree = (fontFamily: string[]) => ({
    type: 'div',
    props: {
      style: {
        display: 'flex',
        width: '100%',
        height: '100%',
        backgroundColor: '#fff',
        color: '#000',
        fontSize: 64,
        fontWeight: weight,
        fontFamily: fontFamily.map((f) => `"${f}"`).join(', '),
      },
      children: `A${text}`,
    },
  });
  return drawPng(tree, [{ text: `A${text}`, weight }], locale, { width: 200, height: 100 });
}

describe('og:image glyphs', () => {
  it('draws a character no font has as the same empty box as any other (what a missing font would look like)', async () => {
    const box = await textImage(MISSING, 'en');
    assert.ok(box.equals(await textImage('\ue001', 'en')), 'two missing characters look alike');
    assert.ok(!box.equals(await textImage('B', 'en')), 'a real glyph does not');
  });

  const titles: Array<[Locale, string]> = [
    ...locales.map((locale): [Locale, string] => [locale, demoTitle(locale, 'projects/concierge-copilot')]),
    ['eo', demoTitle('eo', 'community/harbour-web3-week-judge')],
    ['fr', demoTitle('fr', 'community/libera-tradukado-volunteer')],
  ];

  for (const [locale, title] of titles) {
    it(`draws every character of “${title}” (${locale}) with a real glyph`, async () => {
      const box = await textImage(MISSING, locale);
      const chars = [...new Set(title.replace(/\s/g, ''))];
      const missing: string[] = [];
      for (const ch of chars) if ((await textImage(ch, locale)).equals(box)) missing.push(ch);
      assert.deepEqual(missing, [], `drawn as an empty box: ${missing.join(' ')}`);
    });

    it(`renders “${title}” (${locale}) on its card, unlike the same card with its letters missing`, async () => {
      const real = await card(locale, title);
      const boxes = title.replace(/[^\s\p{P}]/gu, MISSING);
      assert.ok(!real.equals(await card(locale, boxes)), 'the card differs from one whose title is all empty boxes');
      const accented = title.replace(/[^\x20-\x7e]/gu, (ch) => (/[\s\p{P}]/u.test(ch) ? ch : MISSING));
      if (accented !== title) assert.ok(!real.equals(await card(locale, accented)), 'the accented and CJK letters draw something');
    });
  }

  it('draws Esperanto’s ĉĝĥĵŝŭ and their capitals in both weights', async () => {
    for (const weight of [400, 700] as const) {
      const box = await textImage(MISSING, 'eo', weight);
      for (const ch of 'ĉĝĥĵŝŭĈĜĤĴŜŬ') assert.ok(!(await textImage(ch, 'eo', weight)).equals(box), `${ch} at ${weight}`);
    }
  });
});

describe('og:image fonts', () => {
  it('picks the CJK family by locale: Japanese for ja, Simplified for zh, Traditional for zh-hant', async () => {
    const family = async (locale: Locale) =>
      (await cardFonts([{ text: '直', weight: 400 }], locale)).fonts.map((f) => f.name.split('-')[0]).filter((f) => f !== 'latin');
    assert.deepEqual(await family('ja'), ['jp']);
    assert.deepEqual(await family('zh'), ['sc']);
    assert.deepEqual(await family('zh-hant'), ['tc']);
    // The same character looks different in Japanese and Chinese type: the family really is another one.
    assert.ok(!(await textImage('直', 'ja')).equals(await textImage('直', 'zh')));
  });

  it('loads only the subsets a text needs, and keeps them', async () => {
    clearFontCache();
    const latin = await cardFonts([{ text: 'Concierge Copilot', weight: 700 }], 'en');
    assert.deepEqual(
      latin.fonts.map((f) => `${f.name}@${f.weight}`),
      ['latin-latin@400', 'latin-latin@700'],
    );
    const esperanto = await cardFonts([{ text: 'Juĝanto', weight: 700 }], 'eo');
    assert.deepEqual(esperanto.fonts.map((f) => `${f.name}@${f.weight}`).sort(), ['latin-latin-ext@700', 'latin-latin@400', 'latin-latin@700']);
    const title = demoTitle('ja', 'projects/concierge-copilot');
    const japanese = await cardFonts([{ text: title, weight: 700 }], 'ja');
    const cjk = japanese.fonts.filter((f) => f.name.startsWith('jp-'));
    assert.ok(cjk.length >= 1 && cjk.length <= [...title].length, `${cjk.length} Japanese subsets`);
    assert.ok(
      cjk.every((f) => f.weight === 700),
      'only the weight the text is drawn in',
    );
    const held = fontCacheStats();
    await cardFonts([{ text: title, weight: 700 }], 'ja');
    assert.deepEqual(fontCacheStats(), held, 'a second card reads no file again');
    assert.ok(held.bytes < 4 * 1024 * 1024, `${held.bytes} bytes held`);
  });
});

describe('og:image card', () => {
  it('is a 1200×630 PNG, the same bytes each time', async () => {
    const png = await card('en', 'Concierge Copilot');
    const meta = await sharp(png).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1200, 630]);
    assert.ok(png.equals(await card('en', 'Concierge Copilot')));
    assert.ok(!png.equals(await card('en', 'Concierge Copilot', { type: 'lens' })), 'each page type its own accent');
  });

  it('cuts a long title: any length renders, sized down, with an ellipsis', async () => {
    const long = 'A very long title that goes on '.repeat(40);
    assert.equal([...shorten(long)].length, 240);
    assert.ok(shorten(long).endsWith('…'));
    assert.equal(shorten('  short   title '), 'short title');
    assert.ok(titleSize(long) < titleSize('Short'));
    assert.ok(titleSize('ホテル宿泊客向けLLMアシスタントの長いタイトル') < titleSize('Hotel guests'), 'a CJK character counts about double');
    const meta = await sharp(await card('fr', long)).metadata();
    assert.equal(meta.height, 630);
  });

  it('draws the portrait round when one is given (any image format)', async () => {
    const red = { r: 220, g: 20, b: 20 };
    const portrait = await sharp({ create: { width: 300, height: 400, channels: 3, background: red } })
      .webp()
      .toBuffer();
    const { data, info } = await sharp(await card('en', 'Concierge Copilot', { portrait }))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const isRed = (x: number, y: number) => {
      const i = (y * info.width + x) * 3;
      return data[i]! > 180 && data[i + 1]! < 60 && data[i + 2]! < 60;
    };
    let [left, top, right, bottom] = [info.width, info.height, -1, -1];
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++)
        if (isRed(x, y)) [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    assert.ok(right > left, 'the portrait is drawn');
    const [w, h] = [right - left + 1, bottom - top + 1];
    assert.ok(Math.abs(w - h) <= 2 && w >= 100, `square box ${w}×${h}`);
    assert.ok(isRed(left + (w >> 1), top + (h >> 1)), 'filled in the middle');
    assert.ok(!isRed(left + 2, top + 2) && !isRed(right - 2, bottom - 2), 'round: its corners are not drawn');
    assert.ok(left < 600, 'beside the name, on the left');
  });
});

describe('og:image addresses', () => {
  it('names each page’s card by locale, type and slug, and reads it back', () => {
    for (const locale of locales) {
      for (const [path, expected] of [
        ['/', `/og/${locale}/home.png`],
        ['/entries', `/og/${locale}/entries.png`],
        ['/entries/concierge-copilot', `/og/${locale}/entry/concierge-copilot.png`],
        ['/lenses/developer-advocate', `/og/${locale}/lens/developer-advocate.png`],
        ['/documents/credentials', `/og/${locale}/document/credentials.png`],
        ['/search', `/og/${locale}/search.png`],
        ['/match', `/og/${locale}/match.png`],
      ] as const) {
        const page = ogPageOf(path);
        assert.equal(ogImagePath(locale, page), expected);
        assert.deepEqual(parseOgImagePath(expected.slice('/og/'.length)), { locale, page });
      }
    }
    assert.equal(ogPageTypes.length, 9);
  });

  it('refuses what names no card', () => {
    for (const rest of [
      'de/home.png',
      'en/nope.png',
      'en/entry.png',
      'en/home/x.png',
      'en/entry/Bad_Slug.png',
      'en/entry/a/b.png',
      'en/home.jpg',
      'home.png',
      'zh-hant/entry/..png',
    ]) {
      assert.equal(parseOgImagePath(rest), undefined, rest);
    }
  });
});
