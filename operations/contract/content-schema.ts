// What an editor, a form or a model needs before writing content: each file kind with its fields (and their JSON
// Schema, which a form is generated from), the vocabularies with their labels, the writable paths, the conventions.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { Branch, documentNames, kinds, lensIds, locales, tags } from './shared.ts';

/**
 * The vocabularies a field's values come from. A field that takes them says so in its JSON Schema as
 * `"x-vocabulary": "<name>"` (on the array for a list), and `vocabulary.<name>` lists the values with their labels.
 */
export const vocabularyNames = ['tags', 'lenses', 'skills', 'kinds', 'locales', 'documents'] as const;
export type VocabularyName = (typeof vocabularyNames)[number];

const FieldInfo = z.object({
  name: z.string(),
  label: z.string().describe('The field’s name for people: "keyResult" is "Key result"'),
  type: z.string(),
  required: z.boolean(),
  description: z.string().optional(),
  allowed: z.array(z.string()).optional(),
  rules: z.array(z.string()).optional(),
});

const JsonSchema = z.record(z.string(), z.unknown());
const Terms = z.array(z.object({ value: z.string(), label: z.string() }));

export const ContentSchema = z
  .object({
    fileKinds: z.array(
      z.object({
        kind: z.string(),
        pattern: z.string(),
        body: z.string(),
        fields: z.array(FieldInfo),
        translationFields: z.array(z.string()),
        jsonSchema: JsonSchema.describe(
          'JSON Schema (as input) of the front matter, or of the whole file for a JSON file; fields from a vocabulary carry "x-vocabulary"',
        ),
        translationJsonSchema: JsonSchema.optional().describe('JSON Schema of a translation’s front matter, for the kinds that have translations'),
      }),
    ),
    kinds: z.array(z.enum(kinds)),
    tags: z.array(z.enum(tags)),
    lenses: z.array(z.enum(lensIds)),
    documents: z.array(z.enum(documentNames)),
    locales: z.array(z.enum(locales)),
    skills: z.array(z.string()).describe('Skill slugs that exist on the branch (its live build)'),
    vocabulary: z
      .object({ tags: Terms, lenses: Terms, skills: Terms, kinds: Terms, locales: Terms, documents: Terms } satisfies Record<VocabularyName, typeof Terms>)
      .describe(
        'Each vocabulary’s values with a label for people (tags and kinds in the site’s English words, lens titles, skill and document names from main)',
      ),
    writablePaths: z.array(z.string()),
    conventions: z.array(z.string()),
    jsonSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of each file kind’s front matter'),
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
