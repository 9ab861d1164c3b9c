// What an editor, a form or a model needs before writing content: each file kind with its fields (and their JSON
// Schema, which a form is generated from), the vocabularies with their labels, the writable paths, the conventions.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { limits } from './limits.ts';
import { Branch, documentNames, kinds, lensIds, locales, PlainText, Slug, tags } from './shared.ts';
import type { VocabularyName } from './vocabulary.ts';

export { vocabularyNames, type VocabularyName } from './vocabulary.ts';

// What the schema describes is the code's own (file kinds, their fields, enums): these bounds leave it room to grow.
const FILE_KINDS_MAX = 20;
const FIELDS_MAX = 100;
const WORDS_MAX = 1000;

/** A field's or a JSON Schema keyword's name, as the code spells it ("keyResult", "$schema"). */
const Name = z
  .string()
  .max(64)
  .regex(/^\$?[A-Za-z][A-Za-z0-9]*$/);

const FieldInfo = z.object({
  name: Name,
  label: PlainText(100).describe('The field’s name for people: "keyResult" is "Key result"'),
  type: PlainText(100),
  required: z.boolean(),
  description: PlainText(WORDS_MAX).optional(),
  allowed: z.array(PlainText(limits.slug)).max(FIELDS_MAX).optional(),
  rules: z.array(PlainText(WORDS_MAX)).max(FIELDS_MAX).optional(),
});

const JsonSchema = z.record(Name, z.unknown());
const Terms = z.array(z.object({ value: Slug, label: PlainText(limits.title) })).max(limits.contentFiles);

export const ContentSchema = z
  .object({
    fileKinds: z
      .array(
        z.object({
          kind: Slug,
          pattern: PlainText(limits.path),
          body: PlainText(100),
          fields: z.array(FieldInfo).max(FIELDS_MAX),
          translationFields: z.array(Name).max(FIELDS_MAX),
          jsonSchema: JsonSchema.describe(
            'JSON Schema (as input) of the front matter, or of the whole file for a JSON file; fields from a vocabulary carry "x-vocabulary"',
          ),
          translationJsonSchema: JsonSchema.optional().describe('JSON Schema of a translation’s front matter, for the kinds that have translations'),
        }),
      )
      .max(FILE_KINDS_MAX),
    kinds: z.array(z.enum(kinds)).max(kinds.length),
    tags: z.array(z.enum(tags)).max(tags.length),
    lenses: z.array(z.enum(lensIds)).max(lensIds.length),
    documents: z.array(z.enum(documentNames)).max(documentNames.length),
    locales: z.array(z.enum(locales)).max(locales.length),
    skills: z.array(Slug).max(limits.contentFiles).describe('Skill slugs that exist on the branch (its live build)'),
    vocabulary: z
      .object({ tags: Terms, lenses: Terms, skills: Terms, kinds: Terms, locales: Terms, documents: Terms } satisfies Record<VocabularyName, typeof Terms>)
      .describe(
        'Each vocabulary’s values with a label for people (tags and kinds in the site’s English words, lens titles, skill and document names from main)',
      ),
    writablePaths: z.array(PlainText(WORDS_MAX)).max(FIELDS_MAX),
    conventions: z.array(PlainText(WORDS_MAX)).max(FIELDS_MAX),
    jsonSchema: z.record(Slug, z.unknown()).describe('JSON Schema of each file kind’s front matter'),
  })
  .meta({ id: 'ContentSchema' });

export const adminSchema = defineOperation({
  name: 'admin_schema',
  summary: 'The content schema: file kinds, fields and rules, vocabularies, writable paths, conventions',
  description:
    'What an editor or an agent needs before writing: each file kind with its fields (labels, which are required, the values they allow) and its JSON Schema to generate a form from, the vocabularies (kinds, tags, lenses, locales, documents, existing skills) with labels, the paths that may be written, and the repository’s conventions. Read it first; it is generated from the validators themselves.',
  rest: { method: 'GET', path: '/api/admin/schema' },
  cli: 'admin schema',
  input: z.object({ branch: Branch.default('main').describe('Whose skills, lens titles and document names the vocabularies list') }),
  output: ContentSchema,
  auth: 'admin',
  errors: ['unauthorized', 'bad_request'],
  examples: {
    valid: [{ summary: 'With the skills and titles of dev', input: { branch: 'dev' } }],
    invalid: [{ summary: 'An unknown branch', input: { branch: 'staging' } }],
  },
});
