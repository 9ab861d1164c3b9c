// Per-page <head>: title, description, Open Graph, canonical and hreflang links, the Markdown twin,
// and JSON-LD. Runs in Remix `meta` functions, on the server and in the browser.
import type { MetaDescriptor } from '@remix-run/node';
import { alternates, htmlLang, localeFacts, locales, parseLocalePath, type Locale } from '../i18n/locales.ts';
import { translator, type Messages, type Translate } from '../i18n/messages.ts';
import type { ImageData } from './types.ts';
import { ogImagePath, ogImageSize, ogPageOf } from './og-pages.ts';

export interface SiteData {
  name: string;
  shortName: string;
  description: string;
  fictional: boolean;
  /** `locality` and `country` (ISO 3166-1 alpha-2) are read from `location` by the get_site operation; `place` is `location` in the page's language. */
  subject: { name: string; headline: string; location?: string; place?: string; locality?: string; country?: string; email?: string; portrait?: ImageData };
  links: Array<{ label: string; url: string }>;
}

export interface RootData {
  locale: Locale;
  /** The interface messages of this locale only (ICU MessageFormat). */
  messages: Messages;
  /** Questions about the subject the chat offers to start with (from the brief, in this locale). */
  questions: string[];
  site: SiteData;
  siteUrl: string;
  preview: boolean;
  /**
   * What the service can do for a visitor: answer by chat (else the chat answers by search) and transcribe
   * voice input. Absent where no chat is shown (the console's preview of a page).
   */
  features?: { chat: boolean; transcription: boolean };
}

type MetaMatch = { id: string; data: unknown };

export function rootData(matches: readonly MetaMatch[]): RootData | undefined {
  return matches.find((m) => m.id === 'root')?.data as RootData | undefined;
}

const translators = new WeakMap<Messages, Translate>();

/** The `t` of the root data's locale; one per message table, so messages compile once per page. */
export function rootTranslator(root: Pick<RootData, 'locale' | 'messages'>): Translate {
  let t = translators.get(root.messages);
  if (!t) translators.set(root.messages, (t = translator(root.locale, root.messages)));
  return t;
}

/** "/entries/x" → "/entries/x.md"; a home page "/" or "/fr" → "/index.md", "/fr/index.md". */
export function markdownTwinPath(pathname: string, search = ''): string {
  const { locale, path } = parseLocalePath(pathname.replace(/\/+$/, '') || '/');
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return `${prefix}${path === '/' ? '/index' : path}.md${search}`;
}

export interface PageMeta {
  title: string;
  description: string;
  type?: 'website' | 'profile' | 'article';
  jsonLd?: Record<string, unknown>;
  /** Keep the query in canonical and alternate links (filters, search). */
  keepQuery?: boolean;
}

/** "/ja/" → "/ja": one spelling per page for canonical URLs. */
export function normalPath(pathname: string): string {
  return pathname.replace(/(.)\/+$/, '$1');
}

export function pageMeta(matches: readonly MetaMatch[], location: { pathname: string; search: string }, page: PageMeta): MetaDescriptor[] {
  const root = rootData(matches);
  if (!root) return [{ title: page.title }];
  const { locale, path } = parseLocalePath(normalPath(location.pathname));
  const search = page.keepQuery ? location.search : '';
  const canonical = root.siteUrl + normalPath(location.pathname) + search;
  const card = root.siteUrl + ogImagePath(locale, ogPageOf(path));
  const descriptors: MetaDescriptor[] = [
    { title: page.title },
    { name: 'description', content: page.description },
    { property: 'og:title', content: page.title },
    { property: 'og:description', content: page.description },
    { property: 'og:type', content: page.type ?? 'website' },
    { property: 'og:url', content: canonical },
    { property: 'og:site_name', content: root.site.name },
    { property: 'og:locale', content: localeFacts[locale].ogLocale },
    ...locales.filter((l) => l !== locale).map((l) => ({ property: 'og:locale:alternate', content: localeFacts[l].ogLocale })),
    // The page's own card in its locale (drawn per build by /og/<locale>/<type>[/<slug>].png), named by the page's title.
    { property: 'og:image', content: card },
    { property: 'og:image:type', content: 'image/png' },
    { property: 'og:image:width', content: String(ogImageSize.width) },
    { property: 'og:image:height', content: String(ogImageSize.height) },
    { property: 'og:image:alt', content: page.title },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:image', content: card },
    { name: 'twitter:image:alt', content: page.title },
    { tagName: 'link', rel: 'canonical', href: canonical },
    ...alternates(root.siteUrl, path, search).map((a) => ({ tagName: 'link', rel: 'alternate', hrefLang: a.hrefLang, href: a.href })),
    { tagName: 'link', rel: 'alternate', type: 'text/markdown', href: markdownTwinPath(location.pathname, search), title: 'Markdown' },
    {
      tagName: 'link',
      rel: 'alternate',
      type: 'application/atom+xml',
      href: `${locale === 'en' ? '' : `/${locale}`}/feed.xml`,
      title: `${root.site.name} — Atom`,
    },
  ];
  if (root.preview) descriptors.push({ name: 'robots', content: 'noindex' });
  if (page.jsonLd) descriptors.push({ 'script:ld+json': page.jsonLd });
  return descriptors;
}

/** The subject as a schema.org Person, with a stable @id so every page can point at it. */
export function personJsonLd(root: RootData, extra: { jobTitle?: string; worksFor?: string; alumniOf?: string[]; knowsAbout?: string[] } = {}) {
  const { subject, links } = root.site;
  const { locality: city, country } = subject;
  return {
    '@type': 'Person',
    '@id': `${root.siteUrl}/#person`,
    name: subject.name,
    description: subject.headline,
    url: `${root.siteUrl}/`,
    ...(subject.email ? { email: `mailto:${subject.email}` } : {}),
    ...(extra.jobTitle ? { jobTitle: extra.jobTitle } : {}),
    ...(extra.worksFor ? { worksFor: { '@type': 'Organization', name: extra.worksFor } } : {}),
    ...(extra.alumniOf?.length ? { alumniOf: extra.alumniOf.map((name) => ({ '@type': 'EducationalOrganization', name })) } : {}),
    ...(extra.knowsAbout?.length ? { knowsAbout: extra.knowsAbout } : {}),
    ...(city ? { address: { '@type': 'PostalAddress', addressLocality: city, ...(country ? { addressCountry: country } : {}) } } : {}),
    ...(links.length ? { sameAs: links.map((l) => l.url) } : {}),
    ...(subject.portrait ? { image: imageJsonLd(subject.portrait) } : {}),
  };
}

export function profilePageJsonLd(root: RootData, pathname: string, person: Record<string, unknown>, dateModified?: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfilePage',
    '@id': `${root.siteUrl}${normalPath(pathname)}#page`,
    url: `${root.siteUrl}${normalPath(pathname)}`,
    name: root.site.name,
    description: root.site.description,
    inLanguage: htmlLang[root.locale],
    ...(dateModified ? { dateModified } : {}),
    mainEntity: person,
  };
}

/** An image as schema.org's ImageObject: its widest variant, its size and what it shows. */
export const imageJsonLd = (image: ImageData) => ({
  '@type': 'ImageObject',
  contentUrl: image.url,
  width: image.width,
  height: image.height,
  caption: image.alt,
});

/** A content page about the subject: a WebPage whose `about` is the Person of the home page (with its main image, when it has one). */
export function webPageJsonLd(root: RootData, pathname: string, name: string, description: string, type = 'WebPage', image?: ImageData) {
  return {
    '@context': 'https://schema.org',
    '@type': type,
    '@id': `${root.siteUrl}${normalPath(pathname)}#page`,
    url: `${root.siteUrl}${normalPath(pathname)}`,
    name,
    description,
    inLanguage: htmlLang[root.locale],
    isPartOf: { '@type': 'WebSite', name: root.site.name, url: `${root.siteUrl}/` },
    about: { '@id': `${root.siteUrl}/#person` },
    ...(image ? { primaryImageOfPage: imageJsonLd(image) } : {}),
  };
}
