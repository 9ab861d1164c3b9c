// Titles and pages for the slugs a chat answer names. The stream gives slugs only; the public API gives
// the rest (fetched once per locale, only when an answer has sources).
import { documentNames, lensIds } from '../i18n/vocabulary.ts';
import { localizePath, sitePath, type Locale } from '../i18n/locales.ts';

export interface SourceLink {
  slug: string;
  title: string;
  href: string;
}

const cache = new Map<Locale, Promise<Map<string, SourceLink>>>();

async function fetchJson<T>(url: string): Promise<T | undefined> {
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json' } });
    return res.ok ? ((await res.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function sourceDirectory(locale: Locale): Promise<Map<string, SourceLink>> {
  let directory = cache.get(locale);
  if (!directory) {
    directory = (async () => {
      const map = new Map<string, SourceLink>();
      const origin = window.location.origin;
      const [entries, lenses, documents] = await Promise.all([
        fetchJson<{ entries: Array<{ slug: string; title: string; url: string }> }>(`/api/v1/entries?locale=${locale}`),
        fetchJson<{ lenses: Array<{ id: string; title: string; url: string }> }>(`/api/v1/lenses?locale=${locale}`),
        Promise.all(documentNames.map((name) => fetchJson<{ name: string; title: string }>(`/api/v1/documents/${name}?locale=${locale}`))),
      ]);
      for (const e of entries?.entries ?? []) map.set(e.slug, { slug: e.slug, title: e.title, href: sitePath(e.url, origin) });
      for (const l of lenses?.lenses ?? []) map.set(l.id, { slug: l.id, title: l.title, href: sitePath(l.url, origin) });
      for (const d of documents) if (d) map.set(d.name, { slug: d.name, title: d.title, href: localizePath(locale, `/documents/${d.name}`) });
      return map;
    })();
    cache.set(locale, directory);
  }
  return directory;
}

/** A link for a slug even before (or without) the directory: the page its kind of slug lives at. */
export function fallbackSource(locale: Locale, slug: string): SourceLink {
  const path = (documentNames as readonly string[]).includes(slug)
    ? `/documents/${slug}`
    : (lensIds as readonly string[]).includes(slug)
      ? `/lenses/${slug}`
      : `/entries/${slug}`;
  return { slug, title: slug, href: localizePath(locale, path) };
}

/** Turns "(concierge-copilot)" or "(a, b)" in an answer into Markdown links, for slugs that exist. */
export function linkSlugs(markdown: string, known: Map<string, SourceLink>): string {
  if (!known.size) return markdown;
  return markdown.replace(/\(([a-z0-9]+(?:-[a-z0-9]+)*(?:,\s*[a-z0-9]+(?:-[a-z0-9]+)*)*)\)/g, (whole, list: string) => {
    const slugs = list.split(/,\s*/);
    if (!slugs.every((s) => known.has(s))) return whole;
    return `(${slugs.map((s) => `[${known.get(s)!.title.replace(/[[\]]/g, '')}](${known.get(s)!.href})`).join(', ')})`;
  });
}
