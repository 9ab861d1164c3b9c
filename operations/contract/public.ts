// The public read operations: the profile over REST `/api/v1`, the public MCP server and the CLI.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { limits, translatedMax } from './limits.ts';
import {
  DateTime,
  DocumentName,
  GitSha,
  TEXT,
  Kind,
  LensId,
  lensIds,
  Locale,
  locales,
  MarkdownText,
  PlainText,
  Slug,
  Tag,
  tags,
  Url,
  wholeNumber,
} from './shared.ts';

const Translated = {
  locale: Locale,
  translated: z.boolean().describe('false when this record fell back to English for the requested locale'),
};

/** An image of the content as pages show it: its variants by format, each at several widths, laid out by its size. */
export const Image = z
  .object({
    path: PlainText(limits.path).describe('Where it lives in the content: content/media/<name>'),
    alt: PlainText(translatedMax(limits.alt)).describe('What it shows, in the requested locale'),
    url: Url.describe('Its widest variant (WebP)'),
    width: z.number().int().min(1).describe('Pixels of the widest variant'),
    height: z.number().int().min(1).describe('Pixels of the widest variant'),
    sources: z
      .array(
        z.object({
          type: z.enum(['image/avif', 'image/webp']),
          srcset: PlainText(4000).describe('Variant URLs with their widths, as an <img srcset> takes them'),
        }),
      )
      .max(2)
      .describe('Its variants, best format first'),
  })
  .meta({ id: 'Image' });

/** A month as the content writes it. */
const YearMonth = z
  .string()
  .length(7)
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/);

export const Period = z
  .object({
    start: YearMonth.describe('YYYY-MM'),
    end: YearMonth.nullable().describe('YYYY-MM, or null while ongoing'),
    label: PlainText(100).describe('Human label in the requested locale, e.g. "Mar 2021 – present"'),
  })
  .meta({ id: 'Period' });

export const EntryShort = z
  .object({
    slug: Slug,
    kind: Kind,
    title: PlainText(translatedMax(limits.title)),
    organisation: PlainText(translatedMax(limits.organisation)),
    period: Period,
    summary: PlainText(translatedMax(limits.summary)),
    keyResult: PlainText(translatedMax(limits.keyResult)),
    tags: z.array(Tag).max(tags.length),
    lenses: z.array(LensId).max(lensIds.length),
    featured: z.boolean().describe('Shown as a highlight on the home page'),
    cover: Image.optional().describe('The entry’s image'),
    url: Url.describe('Page of the entry on the site'),
    ...Translated,
  })
  .meta({ id: 'EntryShort' });

/** A list of an entry or a lens (contributions, honest gaps …), as a translation may hold it. */
const TextList = z.array(PlainText(translatedMax(limits.listItem))).max(limits.listItems);
const Link = z.object({ label: PlainText(limits.linkLabel), url: Url });

export const EntryLong = EntryShort.extend({
  overview: MarkdownText(limits.contentFile).describe('Markdown'),
  contributions: TextList.describe('What the subject did'),
  achievements: TextList,
  whyItMatters: MarkdownText(translatedMax(limits.paragraph)).describe('Markdown: why it matters to employers'),
  keyResults: TextList,
  skills: z.array(Slug).max(limits.listItems),
  proofLinks: z.array(Link).max(limits.listItems),
  gallery: z.array(Image).max(limits.gallery).describe('More images of the work'),
}).meta({ id: 'EntryLong' });

/** How many records of the content: never more than it has files. */
const Count = z.number().int().min(0).max(limits.contentFiles);

export const Lens = z
  .object({
    id: LensId,
    title: PlainText(translatedMax(limits.lensTitle)),
    pitch: MarkdownText(limits.contentFile).describe('Markdown'),
    honestGaps: TextList,
    evidence: z
      .object({
        entries: Count,
        experience: Count,
        projects: Count,
        community: Count,
        education: Count,
      })
      .describe('How many entries support this lens, in total and per kind'),
    url: Url,
    ...Translated,
  })
  .meta({ id: 'Lens' });

export const Document = z
  .object({
    name: DocumentName,
    title: PlainText(translatedMax(limits.title)),
    summary: PlainText(translatedMax(limits.documentSummary)).describe('One sentence on what the document holds'),
    markdown: MarkdownText(limits.contentFile),
    updatedAt: z
      .string()
      .length(10)
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .describe('YYYY-MM-DD'),
    url: Url.describe('Page of the document on the site'),
    ...Translated,
  })
  .meta({ id: 'Document' });

/** A record's title as search and the agent name it: an entry's is "title — organisation". */
export const RecordTitle = PlainText(translatedMax(limits.title + limits.organisation) + 3);

export const SearchResult = z
  .object({
    slug: Slug.describe('Entry slug, or document name'),
    kind: z.enum(['entry', 'document']),
    title: RecordTitle.describe('The record’s title (an entry’s with its organisation)'),
    passage: MarkdownText(limits.contentFile).describe('The section of the record that matched best'),
    score: z
      .number()
      .describe(
        'Orders the results of one query, not comparable across queries: the BM25F score, or with hybrid search (EMBEDDING_MODEL) the fused rank score',
      ),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .describe(
        'Share of the query the record holds (its words weighted by rarity; related words count): comparable across queries. Only results above 0.5 are returned. ' +
          'With hybrid search, a record close in meaning has at least its cosine similarity (0.6 or more)',
      ),
    url: Url.describe('The record’s page; for a document, at the section the passage lies in (`#` and the heading’s id)'),
  })
  .meta({ id: 'SearchResult' });

/** The longest search query (the agent cuts a visitor's question it searches to it). */
export const SEARCH_QUERY_MAX = 500;
const SEARCH_RESULTS_MAX = 50;

export const getBrief = defineOperation({
  name: 'get_brief',
  summary: 'The one-page brief of the subject',
  description:
    'A one-page Markdown brief: positioning, current role, career arc, strengths, languages, contact and how to explore further. ' +
    'Over REST it is served as text/markdown; ask for application/json to get { markdown }.',
  rest: { method: 'GET', path: '/api/v1/brief', text: { mediaType: 'text/markdown; charset=utf-8', field: 'markdown' } },
  cli: 'brief',
  input: z.object({ locale: Locale.default('en') }),
  output: z
    .object({
      markdown: MarkdownText(limits.contentFile),
      questions: z
        .array(PlainText(translatedMax(limits.briefQuestion)))
        .max(limits.briefQuestions)
        .describe('Questions a visitor might ask about the subject (the chat offers them as suggestions)'),
      locale: Locale,
      translated: z.boolean(),
    })
    .meta({ id: 'Brief' }),
  auth: 'public',
  errors: ['bad_request'],
  pure: true,
  agent: { cites: () => [] },
  examples: {
    valid: [{ summary: 'The brief in French', input: { locale: 'fr' } }],
    invalid: [{ summary: 'An unknown locale', input: { locale: 'de' } }],
  },
});

export const listExperience = defineOperation({
  name: 'list_experience',
  summary: 'List entries (experience, projects, community roles, education), newest first',
  description:
    'Entries in short form, newest first by start month (ongoing first on ties). Filters combine: tag AND lens AND kind. Without `limit`, every match in one answer; with it, a page, and `next` is the `cursor` of the page after it.',
  rest: { method: 'GET', path: '/api/v1/entries' },
  cli: 'list',
  input: z.object({
    tag: Tag.optional().describe('Industry tag'),
    lens: LensId.optional().describe('Role lens'),
    kind: Kind.optional(),
    locale: Locale.default('en'),
    limit: wholeNumber(z.number().int().min(1).max(500)).optional().describe('At most this many entries (a page); default all'),
    cursor: Slug.optional().describe('Continue after this entry: the `next` of the page before'),
  }),
  output: z
    .object({
      entries: z.array(EntryShort).max(limits.contentFiles),
      total: Count.describe('Entries matching the filters, on every page'),
      next: Slug.nullable().optional().describe('With `limit`: the cursor of the next page, null on the last'),
    })
    .meta({ id: 'EntryList' }),
  auth: 'public',
  errors: ['bad_request'],
  pure: true,
  agent: { cites: (output) => output.entries.map((e) => ({ slug: e.slug, title: e.title, url: e.url, direct: false })) },
  examples: {
    valid: [
      { summary: 'AI projects for the Head of AI lens, in Japanese', input: { tag: 'ai', lens: 'head-of-ai', kind: 'project', locale: 'ja' } },
      { summary: 'The first page of five', input: { limit: 5 } },
    ],
    invalid: [
      { summary: 'An unknown tag', input: { tag: 'cooking' } },
      { summary: 'A page of none', input: { limit: 0 } },
      { summary: 'An unknown kind and locale', input: { kind: 'hobby', locale: 'xx' } },
    ],
  },
});

export const getEntry = defineOperation({
  name: 'get_entry',
  summary: 'One entry in long form',
  description: 'Overview, what the subject did, achievements, why it matters to employers, key results, skills and proof links.',
  rest: { method: 'GET', path: '/api/v1/entries/{slug}' },
  cli: 'get <slug>',
  input: z.object({ slug: Slug.describe('Entry slug, as returned by list_experience or search_subject'), locale: Locale.default('en') }),
  output: EntryLong,
  auth: 'public',
  errors: ['bad_request', 'not_found'],
  pure: true,
  agent: { cites: (entry) => [{ slug: entry.slug, title: entry.title, url: entry.url, direct: true }] },
  examples: {
    valid: [{ summary: 'One project in Spanish', input: { slug: 'concierge-copilot', locale: 'es' } }],
    invalid: [{ summary: 'An unknown locale', input: { slug: 'concierge-copilot', locale: 'klingon' } }],
  },
});

export const listLenses = defineOperation({
  name: 'list_lenses',
  summary: 'The role lenses: a pitch, honest gaps and evidence counts for each',
  description:
    'Each of the eleven role lenses (Head of AI, solution architect …) in the locale asked for: the case for the role, the gaps the subject names honestly, and how many entries of each kind are evidence for it.',
  rest: { method: 'GET', path: '/api/v1/lenses' },
  cli: 'lenses',
  input: z.object({ locale: Locale.default('en') }),
  output: z.object({ lenses: z.array(Lens).max(lensIds.length) }).meta({ id: 'LensList' }),
  auth: 'public',
  errors: ['bad_request'],
  pure: true,
  agent: { cites: (output) => output.lenses.map((l) => ({ slug: l.id, title: l.title, url: l.url, direct: false })) },
  examples: {
    valid: [{ summary: 'The lenses in Esperanto', input: { locale: 'eo' } }],
    invalid: [{ summary: 'A locale the site is not published in', input: { locale: 'pt' } }],
  },
});

export const getLens = defineOperation({
  name: 'get_lens',
  summary: 'One role lens: its pitch, honest gaps and evidence counts',
  description:
    'The case for one role (Head of AI, solution architect …) in the locale asked for, the gaps the subject names honestly, ' +
    'and how many entries of each kind are evidence for it. The entries themselves: list_experience with `lens`.',
  rest: { method: 'GET', path: '/api/v1/lenses/{id}' },
  cli: 'lens <id>',
  input: z.object({ id: LensId.describe('Role lens id, as returned by list_lenses'), locale: Locale.default('en') }),
  output: Lens,
  auth: 'public',
  errors: ['bad_request', 'not_found'],
  pure: true,
  examples: {
    valid: [{ summary: 'The Head of AI lens in Japanese', input: { id: 'head-of-ai', locale: 'ja' } }],
    invalid: [{ summary: 'An unknown locale', input: { id: 'head-of-ai', locale: 'klingon' } }],
  },
});

export const searchSubject = defineOperation({
  name: 'search_subject',
  summary: 'Search every entry and document, in every language',
  description:
    'The best-matching passages, best first, each with its slug and a confidence. A question in Japanese finds Japanese passages; ' +
    'a query is matched against the text of its language and the English. No results means the profile does not cover the question.',
  rest: { method: 'GET', path: '/api/v1/search', rename: { query: 'q' } },
  cli: 'search <query>',
  input: z.object({
    query: z.string().trim().min(1, 'give a search query').max(SEARCH_QUERY_MAX).meta(TEXT).describe('Words or a question, in any supported language'),
    limit: wholeNumber(z.number().int().min(1).max(SEARCH_RESULTS_MAX)).default(10).describe('How many passages, 1–50 (default 10)'),
    locale: Locale.optional().describe('Language the query is written in, when known; otherwise it is told from its script and words'),
  }),
  output: z.object({ query: PlainText(SEARCH_QUERY_MAX), results: z.array(SearchResult).max(SEARCH_RESULTS_MAX) }).meta({ id: 'SearchResults' }),
  auth: 'public',
  errors: ['bad_request'],
  pure: true,
  agent: { cites: (output) => output.results.map((r) => ({ slug: r.slug, title: r.title, url: r.url, direct: false })) },
  examples: {
    valid: [
      { summary: 'A question in Japanese', input: { query: 'ホテル', limit: 5 } },
      { summary: 'Words in English', input: { query: 'hotel guests' } },
      { summary: 'A question in French, said to be French', input: { query: 'A-t-elle dirigé une équipe ?', locale: 'fr' } },
    ],
    invalid: [
      { summary: 'An empty query', input: { query: '   ' } },
      { summary: 'Too many results', input: { query: 'hotel', limit: 500 } },
    ],
  },
});

export const getDocument = defineOperation({
  name: 'get_document',
  summary: 'One of the five reference documents',
  description:
    'profile (core profile), credentials (education, certifications), capabilities (capability to evidence map), ' +
    'talks (talks, podcasts, writing), thinking (worldview).',
  rest: { method: 'GET', path: '/api/v1/documents/{name}' },
  cli: 'doc <name>',
  input: z.object({ name: DocumentName, locale: Locale.default('en') }),
  output: Document,
  auth: 'public',
  errors: ['bad_request', 'not_found'],
  pure: true,
  agent: { cites: (doc) => [{ slug: doc.name, title: doc.title, url: doc.url, direct: true }] },
  examples: {
    valid: [{ summary: 'The capability map in Chinese', input: { name: 'capabilities', locale: 'zh' } }],
    invalid: [{ summary: 'An unknown locale', input: { name: 'thinking', locale: 'de' } }],
  },
});

const Email = z.email().max(limits.email);

export const SiteInfo = z
  .object({
    name: PlainText(limits.name).describe('Name of the site'),
    shortName: Slug.describe('Short name; also the MCP server name'),
    url: Url.describe('Address of the site (BASE_URL; DEV_URL for the dev preview), without a trailing slash'),
    description: PlainText(translatedMax(limits.description)).describe('What the site is, in the requested locale'),
    fictional: z.boolean().describe('The subject is made up (a demonstration)'),
    notice: PlainText(limits.notice).optional().describe('Shown on every page when the subject is fictional'),
    subject: z
      .object({
        name: PlainText(limits.name),
        headline: PlainText(translatedMax(limits.headline)).describe('What the subject does, in the requested locale'),
        location: PlainText(limits.location).optional().describe('As written in the content, e.g. "Lisbon, Portugal"'),
        place: PlainText(limits.location)
          .optional()
          .describe('The location in the requested locale’s words and order, e.g. "Lisbonne, Portugal" (fr), "ポルトガル・リスボン" (ja)'),
        locality: PlainText(limits.location).optional().describe('The city part of the location'),
        email: Email.optional(),
        country: z
          .string()
          .length(2)
          .regex(/^[A-Z]{2}$/)
          .optional()
          .describe('ISO 3166-1 alpha-2 code of the location’s country, when it names one'),
        portrait: Image.optional().describe('A picture of the subject'),
      })
      .describe('Who the site is about'),
    contact: z.object({ email: Email.optional(), url: Url.describe('Home page of the site in the requested locale') }),
    links: z.array(Link).max(limits.listItems).describe('Profiles and proof elsewhere (GitHub, LinkedIn …)'),
    locales: z.array(Locale).max(locales.length).describe('Every language the site is published in'),
    defaultLocale: Locale,
    skills: z
      .array(z.object({ slug: Slug, name: PlainText(translatedMax(limits.skillName)) }))
      .max(limits.contentFiles)
      .describe('Every skill, named in the requested locale'),
    content: z
      .object({
        commit: GitSha.describe('The content commit this build was made from'),
        committedAt: DateTime.describe('When that commit was made (ISO 8601)'),
        builtAt: DateTime.describe('When the build was made (ISO 8601)'),
      })
      .describe('The content live on this branch'),
    pages: z
      .array(
        z.object({
          path: PlainText(limits.path).describe('Path without the locale prefix, e.g. /entries/concierge-copilot'),
          url: Url.describe('The page in the requested locale'),
          updatedAt: DateTime.describe('When a commit last changed what the page shows in this locale (ISO 8601)'),
        }),
      )
      .max(limits.contentFiles + 4) // a page per entry, lens and document, and the four pages listing them
      .describe('Every content page of the site, with the time of its last change (what sitemaps and feeds say)'),
    locale: Locale,
  })
  .meta({ id: 'Site' });

export const getSite = defineOperation({
  name: 'get_site',
  summary: 'Who the site is about, how to reach them, its languages and the content commit it shows',
  description:
    'The site’s identity (name, subject, contact, links), the languages it is published in, the skills named in the requested locale, ' +
    'the content commit live on this branch, and every content page with the time a commit last changed it in that locale.',
  rest: { method: 'GET', path: '/api/v1/site' },
  cli: 'site',
  input: z.object({ locale: Locale.default('en') }),
  output: SiteInfo,
  auth: 'public',
  errors: ['bad_request'],
  pure: true,
  examples: {
    valid: [{ summary: 'The site, its skills and pages in Japanese', input: { locale: 'ja' } }],
    invalid: [{ summary: 'An unknown locale', input: { locale: 'tlh' } }],
  },
});

export const publicReadOperations = [getBrief, listExperience, getEntry, listLenses, getLens, searchSubject, getDocument, getSite] as const;
