// admin_schema: the content schema an editor, a form or a model needs, generated from the zod schemas validation and
// the build use (operations/content/schema.ts): each file kind's fields and JSON Schema, and every vocabulary with
// labels for people. The schemas never change at run time; the labels of lenses, skills and documents are the branch's.
import { z } from 'zod';
import type { VocabularyName, VocabularyTerm } from '../contract/vocabulary.ts';
import { limits } from '../contract/limits.ts';
import { localeFacts } from '../contract/locales.ts';
import { documentNames, kinds, lensIds, locales, tags } from '../contract/shared.ts';
import { RELATED_TERMS_PATH } from '../content/locate.ts';
import { writablePathRules } from '../content/paths.ts';
import { fileKinds, RelatedTermsFile, SiteFile, translatableFields, type FileKind } from '../content/schema.ts';
import type { ContentModel } from '../content/tree.ts';

/**
 * The English UI's message table (app/i18n/messages/en.json), handed over by the composition (server.ts): tags and
 * entry kinds are labelled in the site's own words (`tag.ai`, `kind.project`), written once there.
 */
export type UiMessages = Readonly<Record<string, string>>;

type Json = Record<string, any>;

const noIds = z.registry();

/**
 * A zod schema's JSON Schema as input, self-contained: every part keeps its metadata (description, x-vocabulary)
 * but not an id, which would turn it into a reference; each property is titled with its label.
 */
export function jsonSchemaOf(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    metadata: noIds,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const { id: _id, ...meta } = z.globalRegistry.get(zodSchema) ?? {};
      Object.assign(jsonSchema, meta);
    },
  } as Parameters<typeof z.toJSONSchema>[1]) as Json;
  return titled(json);
}

/** A field's name for people, from the name itself: "keyResult" is "Key result", "proofLinks" "Proof links". */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\burl\b/, 'URL');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Gives every property of every object in a JSON Schema a `title` (its label), unless it has one. */
function titled(schema: Json): Json {
  for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
    property.title ??= labelOf(name);
    titled(property);
  }
  for (const part of [schema.items, schema.additionalProperties, ...(schema.anyOf ?? [])]) if (part && typeof part === 'object') titled(part as Json);
  return schema;
}

/** Each top-level field of a file kind as a form or a reader lists it: its label, type, whether required, what it allows. */
function fieldsOf(json: Json) {
  const required = new Set<string>(json.required ?? []);
  return Object.entries<Json>(json.properties ?? {}).map(([name, prop]) => {
    const items = prop.items as Json | undefined;
    const allowed = prop.enum ?? items?.enum;
    const rules = [
      prop.maxLength && `at most ${prop.maxLength} characters`,
      prop.pattern && `matches ${prop.pattern}`,
      prop.minItems && `at least ${prop.minItems} item${prop.minItems === 1 ? '' : 's'}`,
      prop.maxItems && `at most ${prop.maxItems} items`,
      items?.maxLength && `each at most ${items.maxLength} characters`,
      prop['x-vocabulary'] === 'skills' && 'each must exist under content/skills/',
      name === 'end' && 'not before start', // a refinement of the whole entry, which JSON Schema cannot say
    ].filter(Boolean) as string[];
    const type =
      prop.type === 'array'
        ? `${items?.type ?? 'object'}[]`
        : Array.isArray(prop.type)
          ? prop.type.join(' | ')
          : prop.anyOf
            ? prop.anyOf.map((a: Json) => a.type).join(' | ')
            : String(prop.type ?? 'any');
    return {
      name,
      label: String(prop.title ?? labelOf(name)),
      type,
      required: required.has(name),
      ...(prop.description ? { description: String(prop.description) } : {}),
      ...(allowed ? { allowed: (allowed as unknown[]).map(String) } : {}),
      ...(rules.length ? { rules } : {}),
    };
  });
}

/** What depends on the schemas alone, made once. */
let fixed: ReturnType<typeof describeFileKinds> | undefined;

function describeFileKinds() {
  const sources = Object.entries(fileKinds).map(([kind, def]) => {
    const jsonSchema = jsonSchemaOf(def.fields);
    return {
      kind,
      pattern: def.pattern,
      body: def.body,
      fields: fieldsOf(jsonSchema),
      translationFields: ['source', ...translatableFields[kind as FileKind]],
      jsonSchema,
      translationJsonSchema: jsonSchemaOf(def.translation),
    };
  });
  const jsonFile = (kind: string, pattern: string, schema: z.ZodType) => {
    const jsonSchema = jsonSchemaOf(schema);
    return { kind, pattern, body: 'none (JSON file)', fields: fieldsOf(jsonSchema), translationFields: [], jsonSchema };
  };
  return [...sources, jsonFile('site', 'content/site.json', SiteFile), jsonFile('related-terms', RELATED_TERMS_PATH, RelatedTermsFile)];
}

/** Each vocabulary's values with their labels: the UI's words for tags and kinds, the branch's titles and names for the rest. */
function vocabularyOf(model: ContentModel, messages: UiMessages): Record<VocabularyName, VocabularyTerm[]> {
  const term = (value: string, label: string | undefined) => ({ value, label: label ?? value });
  return {
    tags: tags.map((tag) => term(tag, messages[`tag.${tag}`])),
    lenses: lensIds.map((id) => term(id, model.lenses.get(id)?.fields.title)),
    skills: [...model.skills.keys()].sort().map((slug) => term(slug, model.skills.get(slug)!.fields.name)),
    kinds: kinds.map((kind) => term(kind, messages[`kind.${kind}`])),
    locales: locales.map((locale) => term(locale, localeFacts[locale].englishName)),
    documents: documentNames.map((name) => term(name, model.documents.get(name)?.fields.title)),
  };
}

/** The schema described with `model`'s skills and labels (a branch's live build): made once per model, as the build changes. */
const described = new WeakMap<ContentModel, ReturnType<typeof describe>>();

export function describeContentSchema(model: ContentModel, messages: UiMessages) {
  let schema = described.get(model);
  if (!schema) described.set(model, (schema = describe(model, messages)));
  return schema;
}

function describe(model: ContentModel, messages: UiMessages) {
  fixed ??= describeFileKinds();
  return {
    fileKinds: fixed,
    kinds: [...kinds],
    tags: [...tags],
    lenses: [...lensIds],
    documents: [...documentNames],
    locales: [...locales],
    skills: [...model.skills.keys()].sort(),
    vocabulary: vocabularyOf(model, messages),
    writablePaths: ['content/**/*.md', 'content/**/*.json', ...writablePathRules],
    conventions: [
      'Markdown files start with YAML front matter between "---" lines, then the Markdown body; quote strings that contain ": ".',
      `A content file is at most ${limits.contentFile} characters (512 kB), and a content tree at most ${limits.contentFiles} files.`,
      'The file name is the slug: lowercase letters, digits and single hyphens. Slugs are unique across entries, lenses and skills.',
      'The folder of an entry gives its kind: content/corpus/{experiences,projects,community,education}/.',
      'Translations live at content/i18n/<locale>/<same path as the English file> and hold only the translated fields plus `source`.',
      '`source` is the hash of the English fields a translation was made from. When the English changes, the translation is stale (still valid) and English is served until it is translated again; the translate stage redoes only stale and missing translations and never overwrites one whose source is unchanged.',
      'A translated list has as many items as the English one; a change to a translation is checked against its English, a stale translation left as it is is not.',
      'Every write validates the whole tree as it would be after the change: a broken reference (a missing skill, a translation of a file that does not exist) is rejected like a malformed field. Deleting a source file deletes its translations in the same commit.',
      'Send the `sha` you read with a write or delete to be told (409) if someone changed the file in between.',
      'Write to branch "dev" to preview on the dev site, then promote to publish on main.',
      'Images (JPEG, PNG, WebP, AVIF; at most 8 MB and 8000×8000 pixels) live in content/media/ and are uploaded with admin_upload_media (or with the text that uses them in one change set). Front matter refers to one as `{ path, alt }`: the subject’s portrait in site.json (`subject.portrait`, with `altTranslations` per locale), an entry’s `cover` and `gallery`. `alt` says what the image shows for someone who cannot see it and is required; a translation carries `coverAlt` and `galleryAlts` (in the gallery’s order). A reference to an image that does not exist, or deleting an image still referred to, is rejected.',
    ],
    jsonSchema: Object.fromEntries(fixed.filter((k) => k.kind in fileKinds).map((k) => [k.kind, k.jsonSchema])),
  };
}
