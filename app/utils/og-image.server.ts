// The og:image card of one page: a 1200×630 PNG naming the page (an entry, a lens, a document, or a list) in
// its locale, the kind of page, the subject's name, headline and portrait, and the site's address. Laid out
// by satori (an element tree of plain objects, no React) with Noto Sans fonts (app/utils/og-fonts.server.ts),
// drawn to PNG by resvg. Made once per build, locale and page (app/routes/og.$.tsx caches it).
import satori from 'satori';
import { renderAsync } from '@resvg/resvg-js';
import sharp from 'sharp';
import type { Locale } from '../i18n/locales.ts';
import { cardFonts, type FontWeight } from './og-fonts.server.ts';
import { ogAccents, ogImageSize, type OgPageType } from './og-pages.ts';

export interface OgCard {
  locale: Locale;
  type: OgPageType;
  /** The kind of page, in the locale ("Project", "Role lens"). */
  eyebrow: string;
  /** What the page is: the entry's, lens's or document's title, or a list page's heading. */
  title: string;
  /** A line under the title (an entry's organisation and period). */
  subtitle?: string;
  name: string;
  headline: string;
  /** The site's host ("vitae.example"). */
  host: string;
  /** The subject's portrait (JPEG, PNG, WebP or AVIF bytes), drawn round beside the name when given. */
  portrait?: Buffer;
}

/** A satori element: plain objects, as React would make them. */
interface Node {
  type: string;
  props: { style?: Record<string, unknown>; children?: Array<Node | string> | Node | string; [attribute: string]: unknown };
}

const el = (type: string, style: Record<string, unknown>, children?: Node['props']['children'], attributes: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, ...attributes, ...(children === undefined ? {} : { children }) },
});

const colours = { background: '#0f172a', title: '#f8fafc', text: '#cbd5e1', quiet: '#94a3b8', rule: '#334155' } as const;

/** The longest text a card hands to the layout (the rest could not show anyway, clamped to a few lines). */
const MAX_CHARS = 240;

/** `text` cut to `max` characters (whole characters, never half a surrogate pair) with an ellipsis; spaces collapsed. */
export function shorten(text: string, max = MAX_CHARS): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const chars = [...clean];
  return chars.length <= max
    ? clean
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** How wide a text is in "Latin characters" (a CJK character is about two). */
const visualLength = (text: string) =>
  [...text].reduce((n, ch) => n + (/[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\u{20000}-\u{3ffff}]/u.test(ch) ? 2 : 1), 0);

/** The title's size: large for a short title, smaller as it grows, so most fit in three lines. */
export function titleSize(title: string): number {
  const length = visualLength(title);
  if (length <= 28) return 76;
  if (length <= 56) return 64;
  if (length <= 96) return 54;
  return 46;
}

/** One line of text, cut with an ellipsis when it is too long. */
const clamp = (lines: number) => ({ display: 'block', lineClamp: lines, overflow: 'hidden', textOverflow: 'ellipsis' });

/** The portrait as a PNG data URL, square and small (satori draws PNG and JPEG; WebP and AVIF go through sharp). */
async function portraitUrl(portrait: Buffer, size: number): Promise<string> {
  const png = await sharp(portrait).rotate().resize(size, size, { fit: 'cover', position: 'attention' }).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

const PORTRAIT = 132;

/** The element tree of a card (texts already shortened). */
export function cardTree(card: OgCard & { portraitSrc?: string }, fontFamily: string[]): Node {
  const accent = ogAccents[card.type];
  // The home card's title is the name and its subtitle the headline already: its byline does not repeat them.
  const byline = el(
    'div',
    { display: 'flex', flexDirection: 'column', flexGrow: 1, flexShrink: 1, minWidth: 0 },
    card.type === 'home'
      ? []
      : [
          el('div', { ...clamp(1), fontSize: 36, fontWeight: 700, color: colours.title }, card.name),
          el('div', { ...clamp(1), fontSize: 26, color: colours.quiet, marginTop: 6 }, card.headline),
        ],
  );
  const portrait = card.portraitSrc
    ? [
        el(
          'img',
          { width: PORTRAIT, height: PORTRAIT, flexShrink: 0, borderRadius: PORTRAIT / 2, marginRight: 32, border: `4px solid ${accent}`, objectFit: 'cover' },
          undefined,
          {
            src: card.portraitSrc,
            width: PORTRAIT,
            height: PORTRAIT,
          },
        ),
      ]
    : [];
  const main = el(
    'div',
    { display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0, padding: '64px 80px 52px 68px', justifyContent: 'space-between' },
    [
      el('div', { display: 'flex', flexDirection: 'column' }, [
        el('div', { ...clamp(1), fontSize: 30, color: accent, letterSpacing: 1 }, card.eyebrow),
        el('div', { ...clamp(3), fontSize: titleSize(card.title), fontWeight: 700, color: colours.title, lineHeight: 1.18, marginTop: 22 }, card.title),
        ...(card.subtitle ? [el('div', { ...clamp(2), fontSize: 30, lineHeight: 1.35, color: colours.text, marginTop: 20 }, card.subtitle)] : []),
      ]),
      el('div', { display: 'flex', alignItems: 'center', borderTop: `2px solid ${colours.rule}`, paddingTop: 30 }, [
        ...portrait,
        byline,
        el('div', { display: 'flex', fontSize: 26, color: colours.quiet, marginLeft: 32, flexShrink: 0 }, card.host),
      ]),
    ],
  );
  return el(
    'div',
    {
      display: 'flex',
      width: '100%',
      height: '100%',
      backgroundColor: colours.background,
      fontFamily: fontFamily.map((f) => `"${f}"`).join(', '),
      fontSize: 30,
    },
    [el('div', { display: 'flex', width: 20, height: '100%', backgroundColor: accent, flexShrink: 0 }), main],
  );
}

/** The texts of a card, each at the weight it is drawn in (which font subsets it needs). */
function runsOf(card: OgCard): Array<{ text: string; weight: FontWeight }> {
  return [
    { text: `${card.title}${card.name}…`, weight: 700 },
    { text: `${card.eyebrow}${card.subtitle ?? ''}${card.headline}${card.host}…`, weight: 400 },
  ];
}

/** Lays out an element tree with the fonts its texts need and draws it to PNG. */
export async function drawPng(
  tree: (fontFamily: string[]) => Node,
  runs: Array<{ text: string; weight: FontWeight }>,
  locale: Locale,
  size: { width: number; height: number } = ogImageSize,
) {
  const { fonts, fontFamily } = await cardFonts(runs, locale);
  const svg = await satori(tree(fontFamily) as unknown as Parameters<typeof satori>[0], { ...size, fonts });
  const image = await renderAsync(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  return image.asPng();
}

/** The card of a page as a 1200×630 PNG. */
export async function ogImage(given: OgCard): Promise<Buffer> {
  const card: OgCard = {
    ...given,
    eyebrow: shorten(given.eyebrow, 80),
    title: shorten(given.title),
    subtitle: given.subtitle ? shorten(given.subtitle, 200) : undefined,
    name: shorten(given.name, 80),
    headline: shorten(given.headline, 160),
    host: shorten(given.host, 60),
  };
  const portraitSrc = card.portrait ? await portraitUrl(card.portrait, PORTRAIT * 2) : undefined;
  return drawPng((fontFamily) => cardTree({ ...card, portraitSrc }, fontFamily), runsOf(card), card.locale);
}
