// The public read operations: the profile over REST `/api/v1`, the public MCP server and the CLI.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { DocumentName, Kind, LensId, Locale, Slug, Tag, wholeNumber } from './shared.ts';

const Translated = {
  locale: Locale,
  translated: z.boolean().describe('false when this record fell back to English for the requested locale'),
};

export const Period = z
  .object({
    start: z.string().describe('YYYY-MM'),
    end: z.string().nullable().describe('YYYY-MM, or null while ongoing'),
    label: z.string().describe('Human label in the requested locale, e.g. "Mar 2021 – present"'),
  })
  .meta({ id: 'Period' });

export const EntryShort = z
  .object({
    slug: z.string(),
    kind: Kind,
    title: z.string(),
    organisation: z.string(),
    period: Period,
    summary: z.string(),
    keyResult: z.string(),
    tags: z.array(Tag),
    lenses: z.array(LensId),
    featured: z.boolean().describe('Shown as a highlight on the home page'),
    url: z.string().describe('Page of the entry on the site'),
    ...Translated,
  })
  .meta({ id: 'EntryShort' });

export const EntryLong = EntryShort.extend({
  overview: z.string().describe('Markdown'),
  contributions: z.array(z.string()).describe('What the subject did'),
  achievements: z.array(z.string()),
  whyItMatters: z.string().describe('Markdown: why it matters to employers'),
  keyResults: z.array(z.string()),
  skills: z.array(z.string()),
  proofLinks: z.array(z.object({ label: z.string(), url: z.string() })),
}).meta({ id: 'EntryLong' });

export const Lens = z
  .object({
    id: LensId,
    title: z.string(),
    pitch: z.string().describe('Markdown'),
    honestGaps: z.array(z.string()),
    evidence: z
      .object({
        entries: z.number().int(),
        experience: z.number().int(),
        projects: z.number().int(),
        community: z.number().int(),
        education: z.number().int(),
      })
      .describe('How many entries support this lens, in total and per kind'),
    url: z.string(),
    ...Translated,
  })
  .meta({ id: 'Lens' });

export const Document = z
  .object({
    name: DocumentName,
    title: z.string(),
    summary: z.string().describe('One sentence on what the document holds'),
    markdown: z.string(),
    updatedAt: z.string().describe('YYYY-MM-DD'),
    url: z.string().describe('Page of the document on the site'),
    ...Translated,
  })
  .meta({ id: 'Document' });

export const SearchResult = z
  .object({
    slug: z.string().describe('Entry slug, or document name'),
    kind: z.enum(['entry', 'document']),
    title: z.string(),
    passage: z.string().describe('The section of the record that matched best'),
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
    url: z.string(),
  })
  .meta({ id: 'SearchResult' });

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
      markdown: z.string(),
      questions: z.array(z.string()).describe('Questions a visitor might ask about the subject (the chat offers them as suggestions)'),
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
      entries: z.array(EntryShort),
      total: z.number().int().describe('Entries matching the filters, on every page'),
      next: z.string().nullable().optional().describe('With `limit`: the cursor of the next page, null on the last'),
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
  output: z.object({ lenses: z.array(Lens) }).meta({ id: 'LensList' }),
  auth: 'public',
  errors: ['bad_request'],
  pure: true,
  agent: { cites: (output) => output.lenses.map((l) => ({ slug: l.id, title: l.title, url: l.url, direct: false })) },
  examples: {
    valid: [{ summary: 'The lenses in Esperanto', input: { locale: 'eo' } }],
    invalid: [{ summary: 'A locale in the wrong case', input: { locale: 'FR' } }],
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
    query: z.string().trim().min(1, 'give a search query').max(500).describe('Words or a question, in any supported language'),
    limit: wholeNumber(z.number().int().min(1).max(50)).default(10).describe('How many passages, 1–50 (default 10)'),
    locale: Locale.optional().describe('Language the query is written in, when known; otherwise it is told from its script and words'),
  }),
  output: z.object({ query: z.string(), results: z.array(SearchResult) }).meta({ id: 'SearchResults' }),
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

export const SiteInfo = z
  .object({
    name: z.string().describe('Name of the site'),
    shortName: z.string().describe('Short name; also the MCP server name'),
    url: z.string().describe('Address of the site (BASE_URL; DEV_URL for the dev preview), without a trailing slash'),
    description: z.string(),
    fictional: z.boolean().describe('The subject is made up (a demonstration)'),
    notice: z.string().optional().describe('Shown on every page when the subject is fictional'),
    subject: z
      .object({
        name: z.string(),
        headline: z.string(),
        location: z.string().optional().describe('As written in the content, e.g. "Lisbon, Portugal"'),
        locality: z.string().optional().describe('The city part of the location'),
        email: z.string().optional(),
        country: z
          .string()
          .regex(/^[A-Z]{2}$/)
          .optional()
          .describe('ISO 3166-1 alpha-2 code of the location’s country, when it names one'),
      })
      .describe('Who the site is about'),
    contact: z.object({ email: z.string().optional(), url: z.string().describe('Home page of the site in the requested locale') }),
    links: z.array(z.object({ label: z.string(), url: z.string() })).describe('Profiles and proof elsewhere (GitHub, LinkedIn …)'),
    locales: z.array(Locale).describe('Every language the site is published in'),
    defaultLocale: Locale,
    skills: z.array(z.object({ slug: z.string(), name: z.string() })).describe('Every skill, named in the requested locale'),
    content: z
      .object({
        commit: z.string().describe('The content commit this build was made from'),
        committedAt: z.string().describe('When that commit was made (ISO 8601)'),
        builtAt: z.string().describe('When the build was made (ISO 8601)'),
      })
      .describe('The content live on this branch'),
    pages: z
      .array(
        z.object({
          path: z.string().describe('Path without the locale prefix, e.g. /entries/concierge-copilot'),
          url: z.string().describe('The page in the requested locale'),
          updatedAt: z.string().describe('When a commit last changed what the page shows in this locale (ISO 8601)'),
        }),
      )
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

export const publicReadOperations = [getBrief, listExperience, getEntry, listLenses, searchSubject, getDocument, getSite] as const;
