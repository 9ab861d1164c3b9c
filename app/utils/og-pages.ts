// The `og:image` card of each page: which card a page has and where it is served. Plain data and pure functions
// (the page's <head> links the card, in the browser too; app/utils/og-image.server.ts draws it and
// app/routes/og.$.tsx serves it).
import { isLocale, type Locale } from '../i18n/locales.ts';

export const ogPageTypes = ['home', 'entries', 'entry', 'lenses', 'lens', 'documents', 'document', 'search', 'match'] as const;
export type OgPageType = (typeof ogPageTypes)[number];

/** The page types whose card names one thing (an entry, a lens, a document), so whose address has its slug. */
export const ogItemTypes = ['entry', 'lens', 'document'] as const satisfies readonly OgPageType[];
export type OgItemType = (typeof ogItemTypes)[number];

export const ogImageSize = { width: 1200, height: 630 } as const;

/** A card's accent colour, per page type. */
export const ogAccents: Record<OgPageType, string> = {
  home: '#38bdf8',
  entries: '#34d399',
  entry: '#34d399',
  lenses: '#fbbf24',
  lens: '#fbbf24',
  documents: '#c4b5fd',
  document: '#c4b5fd',
  search: '#f87171',
  match: '#f472b6',
};

/** Which card a page has: its type, and for one entry, lens or document its slug. */
export interface OgPage {
  type: OgPageType;
  slug?: string;
}

const isItemType = (type: OgPageType): type is OgItemType => (ogItemTypes as readonly string[]).includes(type);

/** A slug as the content model spells one (entries, lens ids, document names): what a card's address accepts. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

/** The card of a path without its locale prefix ("/entries/x" → entry x); any page it does not know counts as the home page. */
export function ogPageOf(path: string): OgPage {
  const [first, second] = path.split('/').filter(Boolean);
  const item = (type: OgItemType, list: OgPageType): OgPage => (second && SLUG.test(second) ? { type, slug: second } : { type: list });
  if (first === 'entries') return second ? item('entry', 'entries') : { type: 'entries' };
  if (first === 'lenses') return second ? item('lens', 'lenses') : { type: 'lenses' };
  if (first === 'documents') return second ? item('document', 'documents') : { type: 'documents' };
  if (first === 'search') return { type: 'search' };
  if (first === 'match') return { type: 'match' };
  return { type: 'home' };
}

/**
 * Where a page's card is served: `/og/<locale>/<type>.png`, or `/og/<locale>/<type>/<slug>.png` for one entry, lens
 * or document. The locale is always named (English too), so one pattern covers every locale, `zh-hant` included.
 */
export function ogImagePath(locale: Locale, page: OgPage): string {
  return page.slug ? `/og/${locale}/${page.type}/${page.slug}.png` : `/og/${locale}/${page.type}.png`;
}

/** The card an address under `/og/` names ("fr/entry/x.png" → fr, entry x), or undefined when it names none. */
export function parseOgImagePath(rest: string): { locale: Locale; page: OgPage } | undefined {
  const match = /^([a-z-]+)\/([a-z]+)(?:\/([^/]+))?\.png$/.exec(rest);
  if (!match) return undefined;
  const [, locale, type, slug] = match;
  if (!isLocale(locale) || !(ogPageTypes as readonly string[]).includes(type!)) return undefined;
  const pageType = type as OgPageType;
  if (isItemType(pageType) !== (slug !== undefined)) return undefined;
  if (slug !== undefined && !SLUG.test(slug)) return undefined;
  return { locale, page: slug === undefined ? { type: pageType } : { type: pageType, slug } };
}
