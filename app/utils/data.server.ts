// The pages' reads, each one operation of the list through `read` and typed by its definition. An operation
// that answers not_found (or rejects a path segment) becomes the site's 404 page.
import type { AppLoadContext } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { isAppError } from '../../operations/contract/errors.ts';
import { documentNames, kinds, lensIds, tags, type Kind, type LensId, type Tag } from '../../operations/contract/shared.ts';
import { isLocale, type Locale } from '../i18n/locales.ts';
import { read } from './operations.server.ts';
import type { LensData, SearchResultData } from './types.ts';

export function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/**
 * The page's locale from the optional `($lang)` segment: absent is English, "/en/…" redirects to "/…", a locale in
 * other capitals ("/zh-Hant/…", as hreflang writes it; "/FR/…") to its own address, anything else unknown is a 404.
 */
export function pageLocale(params: { lang?: string }, request: Request): Locale {
  const lang = params.lang;
  if (lang === undefined) return 'en';
  const lower = lang.toLowerCase();
  if (lower === 'en' || (lower !== lang && isLocale(lower))) {
    const url = new URL(request.url);
    const rest = url.pathname.slice(1 + lang.length);
    // One leading slash whatever follows "/en": "/en//x" must not become "//x", a protocol-relative URL (an open redirect).
    throw redirect('/' + [lower === 'en' ? '' : lower, rest.replace(/^\/+/, '')].filter(Boolean).join('/') + url.search, 301);
  }
  if (!isLocale(lang)) throw notFound();
  return lang;
}

/** The answer of a page's read; a thing that is not there (or an address segment refused) is the site's 404. */
async function orNotFound<T>(reading: Promise<T>): Promise<T> {
  try {
    return await reading;
  } catch (error) {
    if (isAppError(error) && (error.code === 'not_found' || error.code === 'bad_request')) throw notFound();
    throw error;
  }
}

export const readBrief = (context: AppLoadContext, locale: Locale) => orNotFound(read(context, 'get_brief', { locale }));

export interface EntryFilters {
  kind?: Kind;
  tag?: Tag;
  lens?: LensId;
}

/** Filters from a query string; values that name nothing are ignored rather than failing the page. */
export function entryFilters(search: URLSearchParams): EntryFilters {
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const value = search.get(name);
    return value && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
  };
  return { kind: pick('kind', kinds), tag: pick('tag', tags), lens: pick('lens', lensIds) };
}

export async function readEntries(context: AppLoadContext, locale: Locale, filters: EntryFilters = {}) {
  return orNotFound(read(context, 'list_experience', { ...filters, locale }));
}

/** Entries a list page shows at most: no page grows with the whole content. */
export const ENTRIES_PER_PAGE = 20;

/** Evidence entries a lens page shows before its link to all of them. */
export const LENS_EVIDENCE_SHOWN = 12;

/** The page number of a list from `?page=` (1 when absent or not a whole number). */
export function pageNumber(search: URLSearchParams): number {
  const given = search.get('page');
  return given && /^[1-9]\d{0,5}$/.test(given) ? Number(given) : 1;
}

/** One page of the entries matching `filters`; a page after the last is the site's 404. */
export async function readEntryPage(context: AppLoadContext, locale: Locale, filters: EntryFilters, page: number, size = ENTRIES_PER_PAGE) {
  const list = await readEntries(context, locale, filters);
  const pages = Math.max(1, Math.ceil(list.total / size));
  if (page > pages) throw notFound();
  return { entries: list.entries.slice((page - 1) * size, page * size), total: list.total, page, pages };
}

export const readEntry = (context: AppLoadContext, locale: Locale, slug: string) => orNotFound(read(context, 'get_entry', { slug, locale }));

export const readLenses = async (context: AppLoadContext, locale: Locale) => (await orNotFound(read(context, 'list_lenses', { locale }))).lenses;

export async function readLens(context: AppLoadContext, locale: Locale, id: string): Promise<LensData> {
  const lens = (await readLenses(context, locale)).find((l) => l.id === id);
  if (!lens) throw notFound();
  return lens;
}

export function readDocument(context: AppLoadContext, locale: Locale, name: string) {
  const document = documentNames.find((known) => known === name);
  if (!document) throw notFound();
  return orNotFound(read(context, 'get_document', { name: document, locale }));
}

export const readDocuments = (context: AppLoadContext, locale: Locale) => Promise.all(documentNames.map((name) => readDocument(context, locale, name)));

/** Search as the page's reader asks it: a word that reads the same in several languages ("Python") is read in the page's. */
export async function readSearch(context: AppLoadContext, locale: Locale, query: string, limit = 20): Promise<SearchResultData[]> {
  if (!query.trim()) return [];
  return (await read(context, 'search_subject', { query: query.slice(0, 500), limit, locale })).results;
}
