// The sources of a chat answer as links. The stream's done line names each source with its title and
// page, so nothing more is fetched; pages become paths on this site, so links work on any host.
import { sitePath } from '../i18n/locales.ts';
import type { ChatSource } from './stream.ts';

export interface SourceLink {
  slug: string;
  title: string;
  /** Absent for a source an older server named by slug only: shown, not linked. */
  href?: string;
}

export function sourceLinks(sources: readonly ChatSource[], siteUrl: string): SourceLink[] {
  return sources.map(({ slug, title, url }) => ({ slug, title, ...(url ? { href: sitePath(url, siteUrl) } : {}) }));
}

/** Turns "(concierge-copilot)" or "(a, b)" in an answer into Markdown links, when every slug is a linked source. */
export function linkSlugs(markdown: string, sources: readonly SourceLink[]): string {
  const known = new Map(sources.filter((s) => s.href).map((s) => [s.slug, s]));
  if (!known.size) return markdown;
  return markdown.replace(/\(([a-z0-9]+(?:-[a-z0-9]+)*(?:,\s*[a-z0-9]+(?:-[a-z0-9]+)*)*)\)/g, (whole, list: string) => {
    const slugs = list.split(/,\s*/);
    if (!slugs.every((s) => known.has(s))) return whole;
    return `(${slugs.map((s) => `[${known.get(s)!.title.replace(/[[\]]/g, '')}](${known.get(s)!.href})`).join(', ')})`;
  });
}
