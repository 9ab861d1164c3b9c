// Locales of the site and their URLs: English unprefixed, the others under `/{locale}/`.
// Pure functions, shared by the server and the browser.
import { locales, type Locale } from './vocabulary.ts';

export { locales, type Locale };
export const defaultLocale: Locale = 'en';

/** BCP 47 tag for `lang` and `hreflang`: the script subtag tells Simplified from Traditional Chinese. */
export const htmlLang: Record<Locale, string> = { en: 'en', zh: 'zh-Hans', 'zh-hant': 'zh-Hant', ja: 'ja', fr: 'fr', es: 'es', eo: 'eo' };
export const ogLocale: Record<Locale, string> = { en: 'en_GB', zh: 'zh_CN', 'zh-hant': 'zh_TW', ja: 'ja_JP', fr: 'fr_FR', es: 'es_ES', eo: 'eo' };
/** Each language named in itself, for the language switcher. */
export const nativeName: Record<Locale, string> = { en: 'English', zh: '简体中文', 'zh-hant': '繁體中文', ja: '日本語', fr: 'Français', es: 'Español', eo: 'Esperanto' };

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
