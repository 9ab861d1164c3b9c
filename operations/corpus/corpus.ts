// A build: the content model at one commit, resolved into every locale (translations applied, stale or
// missing ones falling back to English), plus the search index. Immutable once made.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { documentNames, lensIds, locales, type DocumentName, type LensId, type Locale } from '../contract/shared.ts';
import { localeFacts } from '../contract/locales.ts';
import type { Document, EntryLong, Lens } from '../contract/public.ts';
import type { ContentModel, EntryFile, SourceFile, TranslationFile } from '../content/tree.ts';
import { imageRecord, type ImageFacts } from '../content/media-refs.ts';
import { statesTerms, TERMS_WORDS } from './terms-question.ts';
import { createSearchIndex, searchIndexFromData, type Passage, type SearchIndex, type SearchIndexData } from './search.ts';
import { splitPassages, splitSections, type Section } from './passages.ts';
import { sectionUrl } from '../content/sections.ts';
import { noPause, type Pause } from '../content/pause.ts';
import { workingOn } from '../content/working-on.ts';
import type { HybridSearch } from './hybrid.ts';
import { CURRENT_JOB_WORDS, CURRENT_WORDS, placeWords } from './places.ts';

export type EntryRecord = z.output<typeof EntryLong>;
export type LensRecord = z.output<typeof Lens>;
export type DocumentRecord = z.output<typeof Document>;

export interface LocaleView {
  brief: { markdown: string; title: string; questions: string[]; translated: boolean };
  /** newest first */
  entries: EntryRecord[];
  entryBySlug: Map<string, EntryRecord>;
  lenses: LensRecord[];
  lensById: Map<LensId, LensRecord>;
  documents: Map<DocumentName, DocumentRecord>;
  skills: Map<string, { name: string; description: string; translated: boolean }>;
}

export interface Build {
  /** Identifies the build (the commit it was made from); also the HTTP ETag base. */
  id: string;
  commit: string;
  /** When the content's commit was made (ISO 8601): the pages' Last-Modified. */
  committedAt: string;
  builtAt: string;
  /** When a commit last changed each content path (ISO 8601); a path not in it changed at `committedAt`. */
  fileTimes: ReadonlyMap<string, string>;
  siteUrl: string;
  model: ContentModel;
  locales: Record<Locale, LocaleView>;
  search: SearchIndex;
  /** The passages the search index holds (kept when asked: hybrid search embeds them, and the model asks them questions). */
  passages?: readonly Passage[];
  /**
   * With a model (SEARCH_QUESTIONS): `search` and the index of the questions each passage answers, generated once by
   * the model (operations/corpus/passage-questions.ts). Hybrid search, when on, fuses this one with the embeddings.
   */
  questions?: SearchIndex;
  /** With EMBEDDING_MODEL: BM25 and embeddings fused (operations/corpus/hybrid.ts); `search` alone otherwise. */
  hybrid?: HybridSearch;
  /** The commit's images, by path (their size and content hash: operations/server/media-library.server.ts). */
  media: ReadonlyMap<string, ImageFacts>;
}

/** One month format per locale: making an Intl.DateTimeFormat costs about 40 µs, once per entry and locale otherwise. */
const monthFormats = new Map<Locale, Intl.DateTimeFormat>();

export function periodLabel(start: string, end: string | null, locale: Locale): string {
  const { intlLocale, presentWord } = localeFacts[locale];
  let format = monthFormats.get(locale);
  if (!format) monthFormats.set(locale, (format = new Intl.DateTimeFormat(intlLocale, { year: 'numeric', month: 'short', timeZone: 'UTC' })));
  const month = (ym: string) => format.format(new Date(`${ym}-01T00:00:00Z`));
  if (end === start) return month(start);
  return `${month(start)} – ${end ? month(end) : presentWord}`;
}

/** The public page of a record in a locale: English unprefixed, the others under `/{locale}/`. */
export function pageUrl(siteUrl: string, locale: Locale, path: string): string {
  return `${siteUrl}${locale === 'en' ? '' : `/${locale}`}${path}`;
}

/**
 * Makes the build of a content model. `pause` is awaited between locales and passages: the service passes
 * a slicer, so a rebuild never holds the event loop for long.
 */
export async function createBuild(
  model: ContentModel,
  options: {
    commit: string;
    siteUrl: string;
    /** The commit's time; the build time when not known (a build of text that is not a commit). */
    committedAt?: Date;
    builtAt?: Date;
    /** When a commit last changed each content path, as far as known (the repository's history); a string is ISO 8601. */
    fileTimes?: ReadonlyMap<string, Date | string>;
    pause?: Pause;
    /** A build of the same commit (another branch's): its index is shared. */
    sibling?: Build;
    /** Keep the passages on the build (for hybrid search), even when the index is a sibling's. */
    keepPassages?: boolean;
    /**
     * What this model's build made before (kept on disk by commit, persist.ts): its index as data and its passages
     * (at its `siteUrl`), used instead of splitting the text and making the index again.
     */
    kept?: { index: SearchIndexData; passages: readonly Passage[]; siteUrl: string };
    /** The commit's images by path: records give them with their variants and size. */
    media?: ReadonlyMap<string, ImageFacts>;
  },
): Promise<Build> {
  const siteUrl = options.siteUrl.replace(/\/+$/, '');
  const pause = options.pause ?? noPause;
  const view = {} as Record<Locale, LocaleView>;
  const sibling = options.sibling?.commit === options.commit ? options.sibling : undefined;
  const media = options.media ?? sibling?.media ?? new Map<string, ImageFacts>();
  const kept = sibling ? undefined : options.kept;
  const passages: Passage[] = kept ? rebasedPassages(kept.passages, kept.siteUrl.replace(/\/+$/, ''), siteUrl) : [];
  for (const locale of locales) {
    const steps = localeViewSteps(model, locale, { siteUrl, passages: kept || (sibling && !options.keepPassages) ? null : passages, media });
    for (let step = steps.next(); ; step = steps.next()) {
      await pause();
      if (step.done) {
        view[locale] = step.value;
        break;
      }
    }
  }
  // What a search adds to the passages' words: related words, the subject's name (as other scripts write it too), and her place (query-plan.ts).
  const words = {
    pause,
    related: model.relatedTerms,
    name: model.site.name,
    names: model.subjectNames,
    location: model.site.subject.location,
    places: model.places.places,
  };
  // main and dev at one commit differ only in their site's address: one index serves both.
  const search = sibling
    ? rebased(sibling.search, sibling.siteUrl, siteUrl)
    : kept
      ? await searchIndexFromData(passages, kept.index, words)
      : await createSearchIndex(passages, words);
  return {
    id: createHash('sha256').update(`${options.commit}\n${siteUrl}`).digest('hex').slice(0, 20),
    commit: options.commit,
    committedAt: (options.committedAt ?? options.builtAt ?? new Date()).toISOString(),
    builtAt: (options.builtAt ?? new Date()).toISOString(),
    fileTimes: new Map([...(options.fileTimes ?? [])].map(([path, time]) => [path, typeof time === 'string' ? time : time.toISOString()])),
    siteUrl,
    model,
    locales: view,
    search,
    media,
    ...(options.keepPassages ? { passages } : {}),
  };
}

/** An index whose hits link to `to` instead of `from`. */
function rebased(index: SearchIndex, from: string, to: string): SearchIndex {
  if (from === to) return index;
  return {
    size: index.size,
    // The data holds no URL (passages are made again with the site's), so it is the sibling's as it is.
    ...(index.toData ? { toData: index.toData } : {}),
    search: (query, limit, options) =>
      index.search(query, limit, options).map((hit) => ({ ...hit, url: hit.url.startsWith(from) ? to + hit.url.slice(from.length) : hit.url })),
  };
}

/** Passages whose URLs are at `to` instead of `from`. */
export function rebasedPassages(passages: readonly Passage[], from: string, to: string): Passage[] {
  if (from === to) return [...passages];
  return passages.map((p) => (p.url.startsWith(from) ? passage(p, to + p.url.slice(from.length)) : p));
}

/**
 * A passage as an object literal of fixed keys (`url` given anew when it moves): made by spreading (`{ ...base, text }`,
 * `{ ...p, url }`), each of the 118k passages at 100× the demo content got a hidden class of its own in V8, about
 * 50 MB in the build worker.
 */
function passage({ locale, slug, kind, title, meta, text }: Omit<Passage, 'url'>, url: string): Passage {
  return meta === undefined ? { locale, slug, kind, title, text, url } : { locale, slug, kind, title, meta, text, url };
}

/** The fields of a source file in a locale: the current translation over the English, or the English. */
function resolve<F extends Record<string, unknown>>(model: ContentModel, file: SourceFile<F>, locale: Locale) {
  const translation: TranslationFile | undefined = locale === 'en' ? undefined : model.translations.get(file.path)?.get(locale);
  if (!translation || translation.stale) return { fields: file.fields, body: file.body, translated: locale === 'en' };
  const { source: _source, ...translated } = translation.fields;
  return { fields: { ...file.fields, ...translated }, body: translation.body || file.body, translated: true };
}

/**
 * The passages a build's search index holds, in every locale. `made`: the passages of a build of the same content and
 * code at this address (a kept build's), whose entries' passages (and documents' split) are taken instead of
 * splitting their text again.
 */
export function searchPassages(model: ContentModel, siteUrl: string, made?: readonly Passage[]): Passage[] {
  const passages: Passage[] = [];
  let byEntry: Map<string, Passage[]> | undefined;
  if (made) {
    byEntry = new Map();
    for (const p of made) {
      const key = `${p.kind}\0${p.locale}\0${p.slug}`;
      const list = byEntry.get(key);
      if (list) list.push(p);
      else byEntry.set(key, [p]);
    }
  }
  for (const locale of locales) localeView(model, locale, { siteUrl: siteUrl.replace(/\/+$/, ''), passages, made: byEntry });
  return passages;
}

/** The records of one locale without a search index: what a page shows, e.g. for a preview of unsaved text. */
export function localeRecords(model: ContentModel, locale: Locale, siteUrl: string, media?: ReadonlyMap<string, ImageFacts>): LocaleView {
  return localeView(model, locale, { siteUrl: siteUrl.replace(/\/+$/, ''), passages: null, media });
}

/** What a locale's records are made with. */
interface ViewOptions {
  /** The site's address, without a trailing slash. */
  siteUrl: string;
  /** Where the search passages of what is translated into the locale go; null: none are made. */
  passages: Passage[] | null;
  /** The passages a kept build made, by kind, locale and slug (searchPassages), taken instead of splitting text again. */
  made?: ReadonlyMap<string, Passage[]>;
  /** The facts of the images the content shows, by path. */
  media?: ReadonlyMap<string, ImageFacts>;
}

/** The records of a locale; with `passages`, also the search passages of what is translated into it. */
function localeView(model: ContentModel, locale: Locale, options: ViewOptions): LocaleView {
  const steps = localeViewSteps(model, locale, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The work of `localeView`, yielding every hundred entries so that a caller can pause there. */
function* localeViewSteps(model: ContentModel, locale: Locale, { siteUrl, passages, made, media }: ViewOptions): Generator<void, LocaleView> {
  const entries: EntryRecord[] = [];
  for (const file of model.entries.values()) {
    if (entries.push(entryRecordOf(model, file, locale, siteUrl, media)) % 100 === 0) yield;
  }
  entries.sort(
    (a, b) => b.period.start.localeCompare(a.period.start) || Number(b.period.end === null) - Number(a.period.end === null) || a.slug.localeCompare(b.slug),
  );
  const lenses: LensRecord[] = [];
  for (const id of lensIds) {
    const file = model.lenses.get(id);
    if (!file) continue;
    const { fields, body, translated } = resolve(model, file, locale);
    const evidence = { entries: 0, experience: 0, projects: 0, community: 0, education: 0 };
    for (const entry of model.entries.values()) {
      if (!entry.fields.lenses.includes(id)) continue;
      evidence.entries++;
      evidence[entry.kind === 'project' ? 'projects' : entry.kind]++;
    }
    lenses.push({
      id,
      title: fields.title,
      pitch: body,
      honestGaps: fields.honestGaps,
      evidence,
      url: pageUrl(siteUrl, locale, `/lenses/${id}`),
      locale,
      translated,
    });
  }

  const documents = new Map<DocumentName, DocumentRecord>();
  for (const name of documentNames) {
    const file = model.documents.get(name)!;
    const { fields, body, translated } = resolve(model, file, locale);
    const url = pageUrl(siteUrl, locale, `/documents/${name}`);
    const record: DocumentRecord = { name, title: fields.title, summary: fields.summary, markdown: body, updatedAt: fields.updatedAt, url, locale, translated };
    documents.set(name, record);
    if (translated && passages) {
      workingOn({ kind: 'document', slug: name, locale });
      // A section's heading describes it: it counts with the record's fields, above the body text.
      let heading = '';
      // and a hit links to its section of the page (sections.ts)
      for (const { text, section } of documentPassagesOf(body, made?.get(`document\0${locale}\0${name}`))) {
        const first = /^#{1,6}\s+(.+)$/m.exec(text.split('\n', 1)[0]!)?.[1];
        if (first) heading = first;
        passages.push({
          locale,
          slug: name,
          kind: 'document',
          title: record.title,
          meta: `${fields.summary} ${heading}${termsOf(text, locale)}`,
          text,
          url: sectionUrl(url, section),
        });
      }
    }
  }

  const skills = new Map<string, { name: string; description: string; translated: boolean }>();
  for (const [slug, file] of model.skills) {
    const { fields, body, translated } = resolve(model, file, locale);
    skills.set(slug, { name: fields.name, description: body, translated });
  }

  if (passages) {
    // An entry is also found by its lenses' and skills' names, in the locale's words where translated.
    const lensTitle = (id: LensId) => lenses.find((l) => l.id === id)?.title ?? id;
    const skillName = (slug: string) => skills.get(slug)?.name ?? slug;
    for (const entry of entries) {
      if (!entry.translated) continue;
      workingOn({ kind: 'entry', slug: entry.slug, locale });
      // and by the country and regions its city lies in, and its organisation's industries (places.ts)
      const source = model.entries.get(entry.slug)?.fields;
      const place = placeWords(source?.location, source?.organisation, model.places, locale);
      passages.push(...entryPassagesOf(entry, lensTitle, skillName, place, made?.get(`entry\0${locale}\0${entry.slug}`)));
    }
    workingOn(null);
  }

  const brief = resolve(model, model.brief, locale);
  return {
    brief: { markdown: brief.body, title: brief.fields.title, questions: brief.fields.questions, translated: brief.translated },
    entries,
    entryBySlug: new Map(entries.map((e) => [e.slug, e])),
    lenses,
    lensById: new Map(lenses.map((l) => [l.id, l])),
    documents,
    skills,
  };
}

/**
 * A reference document's body split into passages, kept by text (or taken from `kept`, the passages a build of the
 * same content made): the five documents in seven locales are long, and splitting them (a markdown parse each) was
 * a third of a build worker's warm-up at 10× the demo content.
 */
function documentPassagesOf(body: string, kept?: readonly Passage[]): readonly Section[] {
  let texts = documentPassages.get(body);
  if (!texts) {
    if (documentPassages.size >= 256) documentPassages.clear(); // texts of documents edited since
    documentPassages.set(body, (texts = kept ? kept.map(keptSection) : splitSections(body)));
  }
  return texts;
}

const documentPassages = new Map<string, readonly Section[]>();

/** A passage an earlier build made, with the section its address names. */
function keptSection(passage: Passage): Section {
  const hash = passage.url.indexOf('#');
  return hash < 0 ? { text: passage.text } : { text: passage.text, section: decodeURIComponent(passage.url.slice(hash + 1)) };
}

/**
 * An entry's record, the one made before when nothing it is made of changed: each build made every entry's record
 * in every locale again (0.3–0.5 s at 100× the demo content, on the thread answering requests). Parsed fields are
 * one object per file text (front-matter.ts), so the memo lives as long as the text does. Records are never changed.
 */
function entryRecordOf(model: ContentModel, file: EntryFile, locale: Locale, siteUrl: string, media?: ReadonlyMap<string, ImageFacts>): EntryRecord {
  const translation = locale === 'en' ? undefined : model.translations.get(file.path)?.get(locale);
  let byPlace = recordsOf.get(file.fields);
  if (!byPlace) recordsOf.set(file.fields, (byPlace = new Map()));
  // The same fields make the same record at one address, unless an image they name changed (its hash, its size).
  const place = `${locale}\n${siteUrl}\n${imagesKey(file.fields, media)}`;
  const made = byPlace.get(place);
  if (
    made &&
    made.body === file.body &&
    made.slug === file.slug &&
    made.kind === file.kind &&
    made.translation?.fields === translation?.fields &&
    made.translation?.body === translation?.body &&
    made.translation?.stale === translation?.stale
  ) {
    return made.record;
  }
  const record = entryRecord(model, file, locale, siteUrl, media);
  byPlace.set(place, { body: file.body, slug: file.slug, kind: file.kind, translation, record });
  return record;
}

const recordsOf = new WeakMap<
  object,
  Map<string, { body: string; slug: string; kind: string; translation: TranslationFile | undefined; record: EntryRecord }>
>();

/**
 * An entry's passages, the ones made before when its record and the names of its lenses and skills are the same
 * (or `kept`, the ones a build of the same content made).
 */
function entryPassagesOf(e: EntryRecord, lensTitle: (id: LensId) => string, skillName: (slug: string) => string, place: string, kept?: Passage[]): Passage[] {
  const names = [...e.lenses.map(lensTitle), ...e.skills.map(skillName), place];
  const made = passagesOf.get(e);
  if (made && made.names.length === names.length && made.names.every((name, i) => name === names[i])) return made.passages;
  const passages = kept ?? entryPassages(e, lensTitle, skillName, place);
  passagesOf.set(e, { names, passages });
  return passages;
}

const passagesOf = new WeakMap<EntryRecord, { names: string[]; passages: Passage[] }>();

/** What an entry's record holds of its images' facts (nothing for an entry without images). */
function imagesKey(fields: EntryFile['fields'], media: ReadonlyMap<string, ImageFacts> | undefined): string {
  if (!fields.cover && !fields.gallery?.length) return '';
  return [fields.cover, ...(fields.gallery ?? [])].map((image) => (image ? (media?.get(image.path)?.sha ?? '-') : '')).join(',');
}

function entryRecord(model: ContentModel, file: EntryFile, locale: Locale, siteUrl: string, media?: ReadonlyMap<string, ImageFacts>): EntryRecord {
  const { fields, body, translated } = resolve(model, file, locale);
  const end = fields.end ?? null;
  // Alt texts as translated (coverAlt, galleryAlts), over the English's own.
  const alts = fields as { coverAlt?: string; galleryAlts?: string[] };
  const cover = fields.cover && imageRecord(fields.cover.path, alts.coverAlt ?? fields.cover.alt, media, siteUrl);
  const gallery = (fields.gallery ?? []).flatMap((image, i) => imageRecord(image.path, alts.galleryAlts?.[i] ?? image.alt, media, siteUrl) ?? []);
  return {
    slug: file.slug,
    kind: file.kind,
    title: fields.title,
    organisation: fields.organisation,
    period: { start: fields.start, end, label: periodLabel(fields.start, end, locale) },
    summary: fields.summary,
    keyResult: fields.keyResult,
    tags: fields.tags,
    lenses: fields.lenses,
    featured: fields.featured ?? false,
    url: pageUrl(siteUrl, locale, `/entries/${file.slug}`),
    locale,
    translated,
    overview: body,
    contributions: fields.contributions,
    achievements: fields.achievements,
    whyItMatters: fields.whyItMatters,
    keyResults: fields.keyResults,
    skills: fields.skills,
    proofLinks: fields.proofLinks,
    ...(cover ? { cover } : {}),
    gallery,
  };
}

function entryPassages(e: EntryRecord, lensTitle: (id: LensId) => string, skillName: (slug: string) => string, place: string): Passage[] {
  const now = e.period.end === null ? `${CURRENT_WORDS[e.locale]} ${e.kind === 'experience' ? CURRENT_JOB_WORDS[e.locale] : ''}` : '';
  const meta = [e.organisation, place, now, e.tags.join(' '), e.skills.map(skillName).join(' '), e.lenses.map(lensTitle).join(' '), e.keyResult].join(' \n');
  const title = `${e.title} — ${e.organisation}`;
  const texts = [
    `${e.summary} ${e.keyResult}`,
    ...splitPassages(e.overview),
    e.contributions.join(' '),
    [...e.achievements, ...e.keyResults].join(' '),
    e.whyItMatters,
  ].filter((t) => t.trim());
  // The record's fields go with its lead passage only: repeated on every passage they would lengthen each
  // one (BM25 reads a longer passage as less about any one word), and the record's confidence counts them anyway.
  // (a passage stating her terms of hire is found by the words of such a question, whichever it is)
  return texts.map((text, i) =>
    passage(
      {
        locale: e.locale,
        slug: e.slug,
        kind: 'entry',
        title,
        meta: i === 0 ? meta + termsOf(text, e.locale) : termsOf(text, e.locale).trim() || undefined,
        text,
      },
      e.url,
    ),
  );
}

/** The words a passage is also found by when its text states her terms of hire (terms-question.ts), after a line break; '' when it does not. */
const termsOf = (text: string, locale: Locale) => (statesTerms(text, locale) ? ` \n${TERMS_WORDS[locale]}` : '');
