// Locales of the site and their URLs: English unprefixed, the others under `/{locale}/`.
// Pure functions, shared by the server and the browser.
import { localeFacts, locales, type Locale } from '../../operations/contract/locales.ts';

export { localeFacts, locales, type Locale };
export const defaultLocale: Locale = 'en';

/** BCP 47 tag for `lang` and `hreflang` (a view of the locale table, used on almost every element). */
export const htmlLang = Object.fromEntries(locales.map((l) => [l, localeFacts[l].htmlLang])) as Record<Locale, string>;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

export interface LocalePath {
  locale: Locale;
  /** The path without the locale prefix, always starting with "/". */
  path: string;
  /** The first segment looks like a locale prefix but names no supported locale (e.g. "/xx/entries"). */
  prefix?: string;
}

/** Splits "/fr/entries/x" into { locale: "fr", path: "/entries/x" }; "/entries/x" is English. */
export function parseLocalePath(pathname: string): LocalePath {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  const first = match?.[1];
  if (first && isLocale(first) && first !== defaultLocale) return { locale: first, path: match[2] || '/' };
  return { locale: defaultLocale, path: pathname || '/' };
}

/** The page `path` ("/entries/x", "/") in `locale`. */
export function localizePath(locale: Locale, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (locale === defaultLocale) return clean;
  return clean === '/' ? `/${locale}` : `/${locale}${clean}`;
}

/** The same page (path and query) in another locale: what the language switcher links to. */
export function switchLocale(pathname: string, search: string, target: Locale): string {
  return localizePath(target, parseLocalePath(pathname).path) + search;
}

/** `hreflang` alternates of a page, English also as `x-default`. */
export function alternates(siteUrl: string, path: string, search = ''): Array<{ hrefLang: string; href: string }> {
  const list = locales.map((locale) => ({ hrefLang: htmlLang[locale], href: siteUrl + localizePath(locale, path) + search }));
  return [...list, { hrefLang: 'x-default', href: siteUrl + localizePath(defaultLocale, path) + search }];
}

/** A URL the API gave ("http://host/fr/entries/x") as a path on this site ("/fr/entries/x"), so links work on any host. */
export function sitePath(url: string, siteUrl: string): string {
  if (siteUrl && url.startsWith(siteUrl)) return url.slice(siteUrl.length) || '/';
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return url;
  }
}
