// Handlers of the public read operations: pure functions of the input and the branch's live build.
import { imageRecord } from '../content/media-refs.ts';
import type { publicReadOperations } from '../contract/public.ts';
import { locales, type Locale } from '../contract/shared.ts';
import type { Build } from '../corpus/corpus.ts';
import { pageUrl } from '../corpus/corpus.ts';
import { placeOf } from '../corpus/country.ts';
import { placeLabel } from '../corpus/places.ts';
import type { Handlers } from './implement.server.ts';
import type { Corpus } from './services.server.ts';

/**
 * Every content page of a build in a locale, with when a commit last changed what it shows there: its own
 * source file, that file's translation into the locale, and the files it draws on (an entry's skills, a
 * lens's evidence, the entries a list shows).
 */
function sitePages(build: Build, locale: Locale): SitePage[] {
  let byLocale = pagesOfBuild.get(build);
  if (!byLocale) pagesOfBuild.set(build, (byLocale = new Map()));
  let pages = byLocale.get(locale);
  if (!pages) byLocale.set(locale, (pages = pagesOf(build, locale)));
  return pages;
}

type SitePage = { path: string; url: string; updatedAt: string };
/** A build never changes, and every page's loader asks get_site: its pages are worked out once per build and locale. */
const pagesOfBuild = new WeakMap<Build, Map<Locale, SitePage[]>>();

function pagesOf(build: Build, locale: Locale): SitePage[] {
  const { model } = build;
  const timeOf = (path: string) => build.fileTimes.get(path) ?? build.committedAt;
  const changed = (path: string) => {
    const translation = locale === 'en' ? undefined : model.translations.get(path)?.get(locale);
    const own = timeOf(path);
    const translated = translation ? timeOf(translation.path) : '';
    return translated > own ? translated : own;
  };
  const newest = (paths: Iterable<string>) => [...paths].map(changed).reduce((a, b) => (b > a ? b : a), '') || build.committedAt;
  const entries = [...model.entries.values()];
  const skillPaths = (skills: string[]) => skills.flatMap((slug) => (model.skills.get(slug) ? [model.skills.get(slug)!.path] : []));
  const pages: Array<[string, string]> = [
    ['/', newest([model.brief.path, 'content/site.json', ...entries.filter((e) => e.fields.featured).map((e) => e.path)])],
    ['/entries', newest(entries.map((e) => e.path))],
    ...entries.map((e): [string, string] => [`/entries/${e.slug}`, newest([e.path, ...skillPaths(e.fields.skills)])]),
    ['/lenses', newest([...[...model.lenses.values()].map((l) => l.path), ...entries.map((e) => e.path)])],
    ...[...model.lenses].map(([id, lens]): [string, string] => [
      `/lenses/${id}`,
      newest([lens.path, ...entries.filter((e) => e.fields.lenses.includes(id)).map((e) => e.path)]),
    ]),
    ['/documents', newest([...model.documents.values()].map((d) => d.path))],
    ...[...model.documents].map(([name, doc]): [string, string] => [`/documents/${name}`, newest([doc.path])]),
  ];
  return pages.map(([path, updatedAt]) => ({ path, url: homeOr(build.siteUrl, locale, path), updatedAt }));
}

/** A page's URL as the site links it: the English home is `/`, another locale's is `/fr` (no trailing slash). */
function homeOr(siteUrl: string, locale: Locale, path: string): string {
  return path === '/' && locale !== 'en' ? pageUrl(siteUrl, locale, '') : pageUrl(siteUrl, locale, path);
}

/** A site text in the locale: its translation there (site.json's `…Translations`), else the English text. */
function inLocale(text: string, translations: Partial<Record<Locale, string>> | undefined, locale: Locale): string {
  return (locale !== 'en' && translations?.[locale]) || text;
}

export function publicHandlers({ corpus }: { corpus: Corpus }): Handlers<typeof publicReadOperations> {
  return {
    get_brief(input, { branch }) {
      const { markdown, questions, translated } = corpus.build(branch).locales[input.locale].brief;
      return { markdown, questions, locale: input.locale, translated };
    },

    list_experience(input, { branch, refuse }) {
      const entries = corpus
        .build(branch)
        .locales[input.locale].entries.filter(
          (e) => (!input.tag || e.tags.includes(input.tag)) && (!input.lens || e.lenses.includes(input.lens)) && (!input.kind || e.kind === input.kind),
        )
        .map(({ overview, contributions, achievements, whyItMatters, keyResults, skills, proofLinks, gallery, ...short }) => short);
      if (input.limit === undefined && input.cursor === undefined) return { entries, total: entries.length };
      let start = 0;
      if (input.cursor !== undefined) {
        start = entries.findIndex((e) => e.slug === input.cursor) + 1;
        if (start === 0)
          throw refuse('bad_request', `The cursor "${input.cursor}" is not an entry of this list (it may have been removed); start again without a cursor.`, {
            errors: [{ pointer: '/cursor', message: 'not an entry of this list' }],
          });
      }
      const page = entries.slice(start, input.limit === undefined ? undefined : start + input.limit);
      const more = start + page.length < entries.length;
      return { entries: page, total: entries.length, next: more ? page.at(-1)!.slug : null };
    },

    get_entry(input, { branch, refuse }) {
      const entry = corpus.build(branch).locales[input.locale].entryBySlug.get(input.slug);
      if (!entry) throw refuse('not_found', `No entry with slug "${input.slug}". List the slugs with GET /api/v1/entries.`);
      return entry;
    },

    list_lenses(input, { branch }) {
      return { lenses: corpus.build(branch).locales[input.locale].lenses };
    },

    get_lens(input, { branch, refuse }) {
      // Every id the input admits is a lens of the content model; one missing from a build is still not found, not a 500.
      const lens = corpus.build(branch).locales[input.locale].lenses.find((l) => l.id === input.id);
      if (!lens) throw refuse('not_found', `No lens with id "${input.id}". List the lenses with GET /api/v1/lenses.`);
      return lens;
    },

    async search_subject(input, { branch, signal }) {
      const build = corpus.build(branch);
      const options = { locale: input.locale };
      const results = build.hybrid
        ? await build.hybrid.search(input.query, input.limit, { ...options, signal })
        : (build.questions ?? build.search).search(input.query, input.limit, options);
      return { query: input.query, results };
    },

    get_site(input, { branch }) {
      const build = corpus.build(branch);
      const { site } = build.model;
      const { subject } = site;
      const { portrait } = subject;
      const picture = portrait && imageRecord(portrait.path, inLocale(portrait.alt, portrait.altTranslations, input.locale), build.media, build.siteUrl);
      return {
        name: site.name,
        shortName: site.shortName,
        url: build.siteUrl,
        description: inLocale(site.description, site.descriptionTranslations, input.locale),
        fictional: site.fictional,
        ...(site.notice ? { notice: site.notice } : {}),
        subject: {
          name: subject.name,
          headline: inLocale(subject.headline, subject.headlineTranslations, input.locale),
          ...(subject.location ? { location: subject.location, place: placeLabel(subject.location, build.model.places.places, input.locale) } : {}),
          ...placeOf(subject.location),
          ...(subject.email ? { email: subject.email } : {}),
          ...(picture ? { portrait: picture } : {}),
        },
        contact: { ...(subject.email ? { email: subject.email } : {}), url: homeOr(build.siteUrl, input.locale, '/') },
        links: site.links.map(({ label, labelTranslations, url }) => ({ label: inLocale(label, labelTranslations, input.locale), url })),
        locales: [...locales],
        defaultLocale: site.defaultLocale,
        skills: [...build.locales[input.locale].skills].map(([slug, skill]) => ({ slug, name: skill.name })),
        content: { commit: build.commit, committedAt: build.committedAt, builtAt: build.builtAt },
        pages: sitePages(build, input.locale),
        locale: input.locale,
      };
    },

    get_document(input, { branch, refuse }) {
      const doc = corpus.build(branch).locales[input.locale].documents.get(input.name);
      if (!doc) throw refuse('not_found', `No document named "${input.name}".`);
      return doc;
    },
  };
}
