// The discovery bundle, built from the same operations as the pages: llms.txt, /resume.json (JSON
// Resume), /feed.xml (Atom), /sitemap.xml (with hreflang alternates) and robots.txt; and the pieces every
// page's Markdown twin is written with (each page route writes its own twin from its loader data, and
// app/routes/[_md].$path.tsx serves them).
import type { AppLoadContext } from '@remix-run/node';
import { parseMarkdown, plainText } from '../../operations/content/markdown.ts';
import type { Translate } from '../i18n/messages.ts';
import { translatorFor } from '../i18n/messages.server.ts';
import { alternates, htmlLang, locales, localizePath, sitePath, type Locale } from '../i18n/locales.ts';
import { readBrief, readDocument, readDocuments, readEntries, readEntry, readLenses } from './data.server.ts';
import { siteIdentity } from './operations.server.ts';
import type { SiteData } from './seo.ts';
import type { EntryShortData, ImageData } from './types.ts';

/** An ISO 8601 time without milliseconds (W3C Datetime for sitemaps, RFC 3339 for Atom). */
const w3c = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');
const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
/** Text inside Markdown link labels and list items, without characters that would change the structure. */
export const mdText = (s: string) =>
  s
    .replace(/([[\]\\])/g, '\\$1')
    .replace(/\s+/g, ' ')
    .trim();

/** The absolute URL of a page's Markdown twin. */
export function twinUrl(siteUrl: string, locale: Locale, path: string): string {
  return `${siteUrl}${localizePath(locale, path === '/' ? '/index' : path)}.md`;
}

/** The first paragraph of the brief outside its notice: a one-paragraph summary in the brief's language. */
function briefSummary(markdown: string): string {
  const first = parseMarkdown(markdown).children.find((b) => b.type === 'paragraph');
  return first ? plainText(first).replace(/\s+/g, ' ').trim() : '';
}

// ---------------------------------------------------------------------------------------------------
// Markdown twins: what a page route's `markdown` export is given, and the lines they share.

export interface TwinArgs<Data> {
  /** What the page's own loader returned for this URL. */
  data: Data;
  locale: Locale;
  t: Translate;
  site: SiteData;
  siteUrl: string;
  /** The page's URL (path and query), without ".md". */
  url: URL;
}

/** A page route's Markdown twin: `export const markdown: MarkdownTwin<typeof loader> = ({ data, t }) => …`. */
export type MarkdownTwin<Loader extends (...args: never[]) => unknown> = (args: TwinArgs<Awaited<ReturnType<Loader>>>) => string;

/** Lines and links every twin writes the same way, in the twin's locale. */
export function twinParts({ locale, t, siteUrl }: TwinArgs<unknown>) {
  return {
    /** Link to another page's twin. */
    twin: (path: string) => twinUrl(siteUrl, locale, path),
    /** The note that a record is shown in English, as a quote, when it is. */
    fallback: (translated: boolean) => (translated || locale === 'en' ? [] : [`> ${t('fallbackNote')}`, '']),
    /** One entry as a list item: title, organisation, period, kind and summary. */
    entryLine: (e: EntryShortData) =>
      `- [${mdText(`${e.title} — ${e.organisation}`)}](${twinUrl(siteUrl, locale, `/entries/${e.slug}`)}) (${e.period.label}, ${t(`kind.${e.kind}`)}): ${mdText(e.summary)}`,
    /** The closing rule and the address of the page itself. */
    footer: (path: string) => ['', '---', '', `${siteUrl}${localizePath(locale, path)}`, ''],
  };
}

// ---------------------------------------------------------------------------------------------------
// llms.txt (https://llmstxt.org): a title, a summary, then sections of links with notes.

export async function llmsTxt(context: AppLoadContext): Promise<string> {
  const [{ site, siteUrl }, brief, list, lenses] = await Promise.all([
    siteIdentity(context),
    readBrief(context, 'en'),
    readEntries(context, 'en'),
    readLenses(context, 'en'),
  ]);
  const documents = await readDocuments(context, 'en');
  const lines = [
    `# ${site.name}`,
    '',
    `> ${site.description}`,
    '',
    ...(site.fictional && site.notice ? [site.notice, ''] : []),
    `${briefSummary(brief.markdown)}`,
    '',
    `Every page of this site has a Markdown twin: add \`.md\` to its path (the home page is ${siteUrl}/index.md). Pages exist in ${locales.length} languages: English at the root, the others under ${locales
      .filter((l) => l !== 'en')
      .map((l) => `/${l}/`)
      .join(', ')}.`,
    '',
    '## Profile',
    '',
    `- [Brief](${twinUrl(siteUrl, 'en', '/')}): positioning, current role, career arc, strengths, languages and contact`,
    `- [Résumé (JSON Resume)](${siteUrl}/resume.json): the whole career in the JSON Resume schema`,
    ...documents.map((d) => `- [${mdText(d.title)}](${twinUrl(siteUrl, 'en', `/documents/${d.name}`)}): ${d.summary}`),
    '',
    '## Entries',
    '',
    ...list.entries.map(
      (e) => `- [${mdText(`${e.title} — ${e.organisation}`)}](${twinUrl(siteUrl, 'en', `/entries/${e.slug}`)}): ${mdText(`${e.period.label}. ${e.summary}`)}`,
    ),
    '',
    '## Role lenses',
    '',
    ...lenses.map(
      (l) =>
        `- [${mdText(l.title)}](${twinUrl(siteUrl, 'en', `/lenses/${l.id}`)}): the career read for this role, with ${l.evidence.entries} entries of evidence and honest gaps`,
    ),
    '',
    '## API',
    '',
    `- [OpenAPI description](${siteUrl}/openapi.json): the REST API under /api/v1 (entries, lenses, documents, search, brief, ask, match)`,
    `- [Compare with a role](${twinUrl(siteUrl, 'en', '/match')}): a job description matched requirement by requirement, each with its status and evidence quoted from the profile (POST ${siteUrl}/api/v1/match)`,
    `- [MCP server](${siteUrl}/mcp): Model Context Protocol over Streamable HTTP; the same read operations and the profile agent as tools`,
    '',
    '## Optional',
    '',
    `- [Atom feed](${siteUrl}/feed.xml): the newest entries`,
    `- [Sitemap](${siteUrl}/sitemap.xml): every page in every language`,
    ...imageLines(site.subject.portrait, list.entries),
  ];
  return lines.join('\n') + '\n';
}

/** llms.txt's images: the portrait and each entry's cover, with the alt text that says what each shows. */
function imageLines(portrait: ImageData | undefined, entries: EntryShortData[]): string[] {
  const covers = entries.filter((e) => e.cover);
  if (!portrait && !covers.length) return [];
  return [
    '',
    '## Images',
    '',
    ...(portrait ? [`- [Portrait](${portrait.url}): ${mdText(portrait.alt)}`] : []),
    ...covers.map((e) => `- [${mdText(e.title)}](${e.cover!.url}): ${mdText(e.cover!.alt)}`),
  ];
}

// ---------------------------------------------------------------------------------------------------
// JSON Resume (https://jsonresume.org/schema).

export async function jsonResume(context: AppLoadContext, locale: Locale) {
  const [{ site, siteUrl, skillName, content }, brief, list, credentials, english] = await Promise.all([
    siteIdentity(context, locale),
    readBrief(context, locale),
    readEntries(context, locale),
    readDocument(context, locale, 'credentials'),
    locale === 'en' ? undefined : readDocument(context, 'en', 'credentials'),
  ]);
  const full = await Promise.all(list.entries.map((e) => readEntry(context, locale, e.slug)));
  const current = full.find((e) => e.kind === 'experience' && e.period.end === null);
  const dates = (e: EntryShortData) => ({ startDate: e.period.start, ...(e.period.end ? { endDate: e.period.end } : {}) });
  const page = (e: EntryShortData) => `${siteUrl}${sitePath(e.url, siteUrl)}`;
  const { locality, country } = site.subject;
  // "City, Region, Country": the middle part is the region.
  const parts = (site.subject.location ?? '').split(',').map((s) => s.trim());
  const region = parts.length > 2 ? parts[1] : undefined;
  const skillCount = new Map<string, number>();
  for (const e of full) for (const s of e.skills) skillCount.set(s, (skillCount.get(s) ?? 0) + 1);
  // The credentials document's tables: certifications (name, issuer, year) and languages (language, level).
  // Its sections keep their order in every translation, so a table is found by its place in the English.
  const tables = credentialTables(credentials.markdown, english?.markdown);

  return {
    $schema: 'https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json',
    basics: {
      name: site.subject.name,
      label: current ? `${current.title}, ${current.organisation}` : site.subject.headline,
      ...(site.subject.email ? { email: site.subject.email } : {}),
      url: `${siteUrl}${localizePath(locale, '/')}`,
      summary: briefSummary(brief.markdown) || site.description,
      ...(locality || country
        ? { location: { ...(locality ? { city: locality } : {}), ...(region ? { region } : {}), ...(country ? { countryCode: country } : {}) } }
        : {}),
      profiles: site.links.map((l) => ({ network: l.label, url: l.url })),
      ...(site.subject.portrait ? { image: site.subject.portrait.url } : {}),
    },
    work: full
      .filter((e) => e.kind === 'experience')
      .map((e) => ({ name: e.organisation, position: e.title, url: page(e), ...dates(e), summary: e.summary, highlights: [e.keyResult, ...e.achievements] })),
    volunteer: full
      .filter((e) => e.kind === 'community')
      .map((e) => ({
        organization: e.organisation,
        position: e.title,
        url: page(e),
        ...dates(e),
        summary: e.summary,
        highlights: [e.keyResult, ...e.achievements],
      })),
    education: full
      .filter((e) => e.kind === 'education')
      .map((e) => ({ institution: e.organisation, ...studyOf(e.title), url: page(e), ...dates(e), courses: e.contributions })),
    certificates: tables.certificates,
    projects: full
      .filter((e) => e.kind === 'project')
      .map((e) => ({
        name: e.title,
        entity: e.organisation,
        description: e.summary,
        highlights: e.keyResults.length ? e.keyResults : [e.keyResult],
        keywords: e.skills.map((s) => skillName(s)),
        url: page(e),
        ...dates(e),
      })),
    skills: [...skillCount].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([slug]) => ({ name: skillName(slug) })),
    languages: tables.languages,
    meta: { canonical: `${siteUrl}${localizePath(locale, '/resume.json')}`, version: 'v1.0.0', lastModified: content.committedAt.slice(0, 19) },
  };
}

/** Degree words a title may start or end with ("MSc Computer Science", "Applied Machine Learning Certificate"). */
const studyTypes =
  /^(B\.?Sc|B\.?A|B\.?Eng|BBA|M\.?Sc|M\.?A|M\.?Eng|MBA|MPhil|Ph\.?D|DPhil|Bachelor(?:'s)?(?: of \w+)?|Master(?:'s)?(?: of \w+)?|Doctorate|Associate)\b\s*(?:in\s+)?(.+)$/;
const studyTypesAfter = /^(.+?)\s+(Certificate|Diploma|Degree|Certification|Bootcamp)$/;

/** A title split into the kind of study and its field, as JSON Resume wants; the whole title as the area otherwise. */
export function studyOf(title: string): { studyType?: string; area: string } {
  const bare = title.replace(/\s*\([^)]*\)\s*$/, '').trim();
  const before = studyTypes.exec(bare);
  if (before) return { studyType: before[1]!, area: before[2]!.trim() };
  const after = studyTypesAfter.exec(bare);
  if (after) return { studyType: after[2]!, area: after[1]!.trim() };
  return { area: title };
}

/** The rows of a document's tables, each row as its cells' text. */
function tablesOf(markdown: string): { heading: number; rows: string[][] }[] {
  const tables: { heading: number; rows: string[][] }[] = [];
  let heading = -1;
  for (const node of parseMarkdown(markdown).children) {
    if (node.type === 'heading' && node.depth === 2) heading++;
    if (node.type === 'table')
      tables.push({ heading, rows: node.children.slice(1).map((row) => row.children.map((cell) => plainText(cell).replace(/\s+/g, ' ').trim())) });
  }
  return tables;
}

/**
 * Certificates and languages from the credentials document: the table whose English header starts with
 * "Certification" and the one that starts with "Language", found at the same place in the translation.
 */
export function credentialTables(markdown: string, englishMarkdown = markdown) {
  const english = parseMarkdown(englishMarkdown).children.filter((n) => n.type === 'table');
  const local = tablesOf(markdown);
  const englishTables = tablesOf(englishMarkdown);
  const same = local.length === englishTables.length ? local : englishTables;
  const indexOf = (word: string) => english.findIndex((t) => plainText(t.children[0]!.children[0]!).trim().toLowerCase().startsWith(word));
  const rowsOf = (word: string) => same[indexOf(word)]?.rows ?? [];
  return {
    certificates: rowsOf('certification')
      .filter((r) => r[0])
      .map(([name, issuer, year]) => ({ name: name!, ...(issuer ? { issuer } : {}), ...(/^\d{4}$/.test(year ?? '') ? { date: year } : {}) })),
    languages: rowsOf('language')
      .filter((r) => r[0])
      .map(([language, fluency]) => ({ language: language!, ...(fluency ? { fluency } : {}) })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Atom feed of the newest entries.

export async function atomFeed(context: AppLoadContext, locale: Locale): Promise<string> {
  const [{ site, siteUrl, pages, content }, list] = await Promise.all([siteIdentity(context, locale), readEntries(context, locale)]);
  const t = translatorFor(locale);
  const newest = list.entries.slice(0, 20);
  // `published` is when the entry's period began; `updated` when a commit last changed it in this locale.
  const stamp = (e: EntryShortData) => `${e.period.start}-01T00:00:00Z`;
  const changed = (e: EntryShortData) => w3c(pages.find((p) => p.path === `/entries/${e.slug}`)?.updatedAt ?? content.committedAt);
  const updated = newest.length ? newest.map(changed).sort().at(-1)! : w3c(content.committedAt);
  const self = `${siteUrl}${localizePath(locale, '/feed.xml')}`;
  const entries = newest.map((e) => {
    const url = `${siteUrl}${sitePath(e.url, siteUrl)}`;
    return [
      '  <entry>',
      `    <id>${xmlEscape(url)}</id>`,
      `    <title>${xmlEscape(`${e.title} — ${e.organisation}`)}</title>`,
      `    <link rel="alternate" type="text/html" href="${xmlEscape(url)}"/>`,
      `    <link rel="alternate" type="text/markdown" href="${xmlEscape(`${url}.md`)}"/>`,
      `    <published>${stamp(e)}</published>`,
      `    <updated>${changed(e)}</updated>`,
      `    <category term="${e.kind}" label="${xmlEscape(t(`kind.${e.kind}`))}"/>`,
      ...e.tags.map((tag) => `    <category term="${tag}" label="${xmlEscape(t(`tag.${tag}`))}"/>`),
      `    <summary type="text">${xmlEscape(`${e.summary} ${t('keyResult')}: ${e.keyResult}`)}</summary>`,
      ...(e.cover ? [`    <link rel="enclosure" type="image/webp" title="${xmlEscape(e.cover.alt)}" href="${xmlEscape(e.cover.url)}"/>`] : []),
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${htmlLang[locale]}">`,
    `  <id>${xmlEscape(`${siteUrl}${localizePath(locale, '/')}`)}</id>`,
    `  <title>${xmlEscape(`${site.name} — ${t('entriesTitle')}`)}</title>`,
    `  <subtitle>${xmlEscape(t('entriesIntro'))}</subtitle>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlEscape(self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlEscape(`${siteUrl}${localizePath(locale, '/entries')}`)}"/>`,
    `  <author><name>${xmlEscape(site.subject.name)}</name><uri>${xmlEscape(`${siteUrl}/`)}</uri></author>`,
    `  <generator>Vitae</generator>`,
    ...(site.subject.portrait ? [`  <logo>${xmlEscape(site.subject.portrait.url)}</logo>`] : []),
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Sitemap with hreflang alternates, and robots.txt.

export async function sitemapXml(context: AppLoadContext): Promise<string> {
  // Every page the site has, in every locale, with when a commit last changed what it shows in that locale.
  const sites = await Promise.all(locales.map((locale) => siteIdentity(context, locale)));
  const { siteUrl } = sites[0]!;
  // Each locale's page times by path: one lookup per URL, not a scan of every page for each (quadratic in the content).
  const updated = sites.map((site) => new Map(site.pages.map((p) => [p.path, p.updatedAt])));
  const urls = sites[0]!.pages.flatMap(({ path }) =>
    locales.map((locale, i) =>
      [
        '  <url>',
        `    <loc>${xmlEscape(siteUrl + localizePath(locale, path))}</loc>`,
        `    <lastmod>${w3c(updated[i]!.get(path) ?? sites[i]!.content.committedAt)}</lastmod>`,
        ...alternates(siteUrl, path).map((a) => `    <xhtml:link rel="alternate" hreflang="${a.hrefLang}" href="${xmlEscape(a.href)}"/>`),
        '  </url>',
      ].join('\n'),
    ),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

export async function robotsTxt(context: AppLoadContext): Promise<string> {
  const { siteUrl, branch } = await siteIdentity(context);
  // The dev preview must never be indexed: it shows unpublished changes.
  if (branch === 'dev') return 'User-agent: *\nDisallow: /\n';
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/admin', 'Disallow: /mcp/admin', 'Disallow: /search', '', `Sitemap: ${siteUrl}/sitemap.xml`, ''].join(
    '\n',
  );
}
