// Zod schemas of every file kind in the content tree. Validation, the build and the admin schema
// operation all use these, so what the editor is told is exactly what the build enforces.
import { z } from 'zod';
import type { VocabularyName } from '../contract/vocabulary.ts';
import { limits, translatedMax } from '../contract/limits.ts';
import { DocumentName, LensId, lensIds, Slug, Tag, tags, locales, translationLocales } from '../contract/shared.ts';
import { MEDIA_DIR, MEDIA_NAME, mediaExtensions } from './paths.ts';

// Every field is bounded (limits.ts): what the API answers with is made from these, and says so.
const Text = z.string().trim().min(1, 'must not be empty');
const YearMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written "YYYY-MM", in quotes');
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written "YYYY-MM-DD", in quotes');
const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(limits.url);
const TextList = z.array(Text.max(limits.listItem)).max(limits.listItems);
/** A list as a translation holds it: items as long as `translatedMax` allows. */
const TranslatedList = z.array(Text.max(translatedMax(limits.listItem))).max(limits.listItems);
/** A translated field, for an English field of at most `english` characters. */
const Translated = (english: number) => Text.max(translatedMax(english)).optional();
/** Metadata naming the vocabulary a field's values come from: JSON Schema carries it as "x-vocabulary" (admin_schema). */
const from = (vocabulary: VocabularyName) => ({ 'x-vocabulary': vocabulary });

export const ProofLink = z.strictObject({ label: Text.max(limits.linkLabel), url: HttpUrl });

/** An image's alt text: required (missing, "cover.alt is required"), since a picture without one says nothing to someone who cannot see it. */
const Alt = z
  .string()
  .trim()
  .min(1, 'must not be empty: describe what the image shows for someone who cannot see it')
  .max(limits.alt)
  .describe('What the image shows, for someone who cannot see it; translated like the other fields');
/** An image of content/media/, referred to by its path, with its alt text. */
export const ImageRef = z
  .strictObject({
    path: z
      .string()
      .max(limits.path)
      .regex(
        new RegExp(`^${MEDIA_DIR}/${MEDIA_NAME.source.slice(1)}`),
        `must be the path of an image under ${MEDIA_DIR}/ (${MEDIA_DIR}/<name>.${mediaExtensions.join('|')}); upload one first`,
      )
      .describe(`An image under ${MEDIA_DIR}/ (JPEG, PNG, WebP or AVIF), uploaded with admin_upload_media`),
    alt: Alt,
  })
  .meta({ 'x-media': true });

export const EntryFields = z
  .strictObject({
    title: Text.max(limits.title).describe('Role, project or degree name'),
    organisation: Text.max(limits.organisation),
    location: Text.max(limits.location).optional(),
    start: YearMonth.describe('First month, "YYYY-MM"'),
    end: YearMonth.nullable().optional().describe('Last month, "YYYY-MM"; null or absent while ongoing'),
    featured: z.boolean().optional().describe('Shown as a highlight on the home page'),
    summary: Text.max(limits.summary).describe('One or two sentences'),
    keyResult: Text.max(limits.keyResult).describe('The most important measurable result, one line'),
    tags: z.array(Tag).min(1).max(tags.length).describe('Industry tags').meta(from('tags')),
    lenses: z.array(LensId).min(1).max(lensIds.length).describe('Role lenses this entry is evidence for').meta(from('lenses')),
    skills: z.array(Slug).min(1).max(limits.listItems).describe('Skill slugs; each must exist under content/skills/').meta(from('skills')),
    contributions: TextList.min(1).describe('What the subject did'),
    achievements: TextList.default([]),
    keyResults: TextList.default([]),
    whyItMatters: Text.max(limits.paragraph).describe('Markdown: why this matters to an employer'),
    proofLinks: z.array(ProofLink).max(limits.listItems).default([]),
    cover: ImageRef.optional().describe('The entry’s image: shown on its page and its card in the list'),
    gallery: z.array(ImageRef).max(limits.gallery).optional().describe(`More images of the work, shown on the entry’s page (at most ${limits.gallery})`),
  })
  .refine((e) => !e.end || e.end >= e.start, { message: 'end must not be before start', path: ['end'] });

export const LensFields = z.strictObject({
  title: Text.max(limits.lensTitle),
  honestGaps: TextList.min(1).describe('Plain statements of what is thin or missing for this role'),
});

export const SkillFields = z.strictObject({
  name: Text.max(limits.skillName),
  category: z.enum(['language', 'ai', 'engineering', 'infrastructure', 'leadership', 'business', 'communication', 'hospitality', 'creative']),
});

export const DocumentFields = z.strictObject({
  title: Text.max(limits.title),
  summary: Text.max(limits.documentSummary).describe('One sentence on what the document holds, shown in the list of documents and in llms.txt'),
  updatedAt: Day,
});
export const BriefFields = z.strictObject({
  title: Text.max(limits.title),
  questions: z
    .array(Text.max(limits.briefQuestion))
    .max(limits.briefQuestions)
    .default([])
    .describe('Questions a visitor might ask about the subject, offered as suggestions when the chat opens'),
});

export const SiteFile = z.strictObject({
  name: Text.max(limits.name),
  shortName: Slug.describe('Short name; also the MCP server name'),
  fictional: z.boolean().default(false),
  notice: z.string().max(limits.notice).optional(),
  description: Text.max(limits.description),
  descriptionTranslations: z
    .partialRecord(z.enum(translationLocales).meta(from('locales')), Text.max(translatedMax(limits.description)))
    .optional()
    .describe('The description in other locales (the English description where one is missing)'),
  defaultLocale: z.enum(locales).default('en').meta(from('locales')),
  subject: z.strictObject({
    name: Text.max(limits.name),
    headline: Text.max(limits.headline),
    headlineTranslations: z
      .partialRecord(z.enum(translationLocales).meta(from('locales')), Text.max(translatedMax(limits.headline)))
      .optional()
      .describe('The headline in other locales (the English headline where one is missing)'),
    location: Text.max(limits.location).optional(),
    email: z.email().max(limits.email).optional(),
    portrait: ImageRef.extend({
      altTranslations: z
        .partialRecord(z.enum(translationLocales).meta(from('locales')), Alt)
        .optional()
        .describe('The alt text in other locales (the English alt where one is missing)'),
    })
      .optional()
      .describe('A picture of the subject: on the home page, in the Open Graph cards, JSON-LD and JSON Resume'),
  }),
  links: z
    .array(
      ProofLink.extend({
        labelTranslations: z
          .partialRecord(z.enum(translationLocales).meta(from('locales')), Text.max(limits.linkLabel))
          .optional()
          .describe('The label in other locales (the English label where one is missing)'),
      }),
    )
    .max(limits.listItems)
    .default([])
    .describe('Profiles and proof elsewhere, on the home page and in every door’s description of the subject'),
});

/**
 * content/search/related-terms.json: per locale, groups of words or phrases that mean nearly the same to
 * someone searching the profile (a recruiter's words beside the profile's own). A query holding one member
 * of a group also looks for the others.
 */
const PLACE_CODE = /^(?:[A-Z]{2}|\d{3})$/;
const PlaceNames = z
  .partialRecord(z.enum(locales).meta(from('locales')), Text.max(limits.relatedTerm))
  .describe('What the place is called in each locale; its key where not given. A country or region code needs none: its names come from the runtime (CLDR)');
const Place = z
  .strictObject({
    in: z
      .array(Text.max(limits.relatedTerm))
      .max(limits.relatedGroup)
      .default([])
      .describe('The places it lies in: other keys of `places`, ISO 3166 country codes (PT) or UN M49 region codes (039 Southern Europe, 150 Europe)'),
    names: PlaceNames.default({}),
  })
  .describe('A place locations name');
const Organisation = z
  .strictObject({
    industries: z
      .partialRecord(z.enum(locales).meta(from('locales')), z.array(Text.max(limits.relatedTerm)).max(limits.relatedGroup))
      .describe('Per locale, the industries or sectors it works in'),
  })
  .describe('An organisation entries name');
const capped = <T extends z.ZodType>(schema: T, what: string) =>
  z.record(Text.max(limits.relatedTerm), schema).refine((r) => Object.keys(r).length <= limits.relatedGroups, `at most ${limits.relatedGroups} ${what}`);

export const RelatedTermsFile = z
  .strictObject({
    places: capped(Place, 'places')
      .default({})
      .superRefine((places, ctx) => {
        for (const [name, { in: within }] of Object.entries(places))
          for (const parent of within)
            if (!PLACE_CODE.test(parent) && !(parent in places))
              ctx.addIssue({ code: 'custom', path: [name, 'in'], message: `"${parent}" is neither a place of this list nor a country (PT) or region (150) code` });
      })
      .describe('Places entries are located in (keys as locations write them: Lisbon, Osaka), each with what it lies in: a question naming the country or region finds the city'),
    organisations: capped(Organisation, 'organisations')
      .default({})
      .describe('Organisations entries name (keys as written in `organisation`), with their industries: a question naming the industry finds the organisation'),
    names: z
      .partialRecord(z.enum(locales).meta(from('locales')), Text.max(limits.relatedTerm))
      .default({})
      .describe(
        "The subject's name as questions in a locale write it in another script (ja: ノア・カステラン), its parts in the order of site.json's name: a question naming her so asks about her, as one naming her in Latin letters does",
      ),
    groups: z
      .partialRecord(
        z.enum(locales).meta(from('locales')),
        z
          .array(z.array(Text.max(limits.relatedTerm)).min(2, 'a group relates at least two words or phrases').max(limits.relatedGroup))
          .max(limits.relatedGroups),
      )
      .describe('Per locale (en, zh, zh-hant, ja, fr, es, eo), groups of related words or phrases; search adds the others of a group to a query holding one'),
  })
  .describe('Related words, places and organisations that search adds to a query or a record');
export type PlaceTable = Pick<z.output<typeof RelatedTermsFile>, 'places' | 'organisations'>;
export type SubjectNames = z.output<typeof RelatedTermsFile>['names'];

// Read-only in the console's form: it is set by the translate stage, by "Translate now" and by "Mark as current".
const Source = z
  .string()
  .min(1)
  .max(limits.sourceHash)
  .meta({ description: 'Hash of the English fields this translation was made from', readOnly: true });

// A translation's fields may run longer than the English ones (`translatedMax`).
export const EntryTranslationFields = z.strictObject({
  source: Source,
  title: Translated(limits.title),
  organisation: Translated(limits.organisation),
  location: Translated(limits.location),
  summary: Translated(limits.summary),
  keyResult: Translated(limits.keyResult),
  contributions: TranslatedList.optional(),
  achievements: TranslatedList.optional(),
  keyResults: TranslatedList.optional(),
  whyItMatters: Translated(limits.paragraph),
  coverAlt: Translated(limits.alt).describe('The cover image’s alt text'),
  galleryAlts: z.array(Text.max(translatedMax(limits.alt))).max(limits.gallery).optional().describe('The gallery’s alt texts, in its order'),
});
export const LensTranslationFields = z.strictObject({ source: Source, title: Translated(limits.lensTitle), honestGaps: TranslatedList.optional() });
export const SkillTranslationFields = z.strictObject({ source: Source, name: Translated(limits.skillName) });
export const DocumentTranslationFields = z.strictObject({ source: Source, title: Translated(limits.title), summary: Translated(limits.documentSummary) });
export const BriefTranslationFields = z.strictObject({
  source: Source,
  title: Translated(limits.title),
  questions: z.array(Text.max(translatedMax(limits.briefQuestion))).max(limits.briefQuestions).optional(),
});

/** The kinds of file in the content tree, with where they live and what their front matter holds. */
export const fileKinds = {
  entry: { pattern: 'content/corpus/{experiences,projects,community,education}/<slug>.md', fields: EntryFields, translation: EntryTranslationFields, body: 'overview (Markdown)' },
  lens: { pattern: 'content/lenses/<lens id>.md', fields: LensFields, translation: LensTranslationFields, body: 'pitch (Markdown)' },
  skill: { pattern: 'content/skills/<slug>.md', fields: SkillFields, translation: SkillTranslationFields, body: 'how the subject uses it (Markdown)' },
  document: { pattern: 'content/documents/<name>.md', fields: DocumentFields, translation: DocumentTranslationFields, body: 'the document (Markdown)' },
  brief: { pattern: 'content/brief.md', fields: BriefFields, translation: BriefTranslationFields, body: 'the brief (Markdown)' },
} as const;

export type FileKind = keyof typeof fileKinds;

/** Fields a translation may carry, per kind (the body is always translatable). */
export const translatableFields: Record<FileKind, readonly string[]> = {
  entry: ['title', 'organisation', 'location', 'summary', 'keyResult', 'contributions', 'achievements', 'keyResults', 'whyItMatters', 'coverAlt', 'galleryAlts'],
  lens: ['title', 'honestGaps'],
  skill: ['name'],
  document: ['title', 'summary'],
  brief: ['title', 'questions'],
};

/** Translatable fields the English holds inside another field: an image's alt text (`cover.alt` is `coverAlt`). */
const nestedTranslatable: Partial<Record<FileKind, Record<string, (fields: Record<string, unknown>) => unknown>>> = {
  entry: {
    coverAlt: (fields) => (fields.cover as { alt?: string } | undefined)?.alt,
    galleryAlts: (fields) => (fields.gallery as Array<{ alt: string }> | undefined)?.map((image) => image.alt),
  },
};

/** The English value of a translatable field of a `kind` file (undefined when it has none). */
export function englishValue(kind: FileKind, fields: Record<string, unknown>, key: string): unknown {
  const nested = nestedTranslatable[kind]?.[key];
  return nested ? nested(fields) : fields[key];
}

/** Whether a translatable field sits inside another one in the English (and so counts in a source hash only when present). */
export const isNestedTranslatable = (kind: FileKind, key: string): boolean => nestedTranslatable[kind]?.[key] !== undefined;

export const corpusFolders = { experiences: 'experience', projects: 'project', community: 'community', education: 'education' } as const;

export { DocumentName };
