// The admin operations of translations as a workflow: draft the stale or missing translations of one file with the
// model ("Translate now", never committed), and read where a translation stands with the English it was made from.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { Content, ContentPath, TranslationState } from './admin-fields.ts';
import { limits } from './limits.ts';
import { Branch, GitSha, PlainText, Problems, RepoPath, TEXT, TranslationLocale, translationLocales } from './shared.ts';
import { MODEL_EDITS } from './roles.ts';

/** The hash of the English a translation is made from (see operations/content/source-hash.ts). */
const SourceHash = z
  .string()
  .length(16)
  .regex(/^[0-9a-f]{16}$/);

export const adminTranslate = defineOperation({
  name: 'admin_translate',
  summary: 'Have the model draft the stale or missing translations of one file: complete translation files with their problems. Never commits',
  description:
    'Translates the English file (the saved one, or `content` when given: unsaved text) into each locale whose translation is stale or missing, or into `locales`. ' +
    'Each draft is the whole translation file, recorded as made from that English, with the problems it would have beside it; a locale the model failed is in `failures`. Review the drafts, then commit them with admin_commit_changes.',
  rest: { method: 'POST', path: '/api/admin/translate' },
  cli: 'admin translate <path|slug>',
  cliArgs: { 'path|slug': { pathOrSlug: true } },
  input: z
    .object({
      path: ContentPath.optional().describe('The English file, e.g. "content/corpus/projects/concierge-copilot.md"'),
      slug: z.string().max(limits.slug).meta(TEXT).optional().describe('An entry, lens or skill slug'),
      branch: Branch.default('main'),
      content: Content.optional().describe('Unsaved English text to translate; default the saved file'),
      locales: z
        .array(TranslationLocale)
        .min(1)
        .max(6)
        .optional()
        .describe(
          'Locales to draft (as JSON on the command line, e.g. ["fr","ja"]); default every locale whose translation is stale or missing against that English',
        ),
    })
    .refine((i) => Boolean(i.path) !== Boolean(i.slug), { message: 'give either path or slug', path: ['path'] }),
  output: z
    .object({
      path: RepoPath.describe('The English file'),
      sourceHash: SourceHash.describe('The hash of the English translated: each draft records it as `source`'),
      drafts: z
        .array(
          z.object({
            locale: TranslationLocale,
            path: RepoPath.describe('Where the translation lives'),
            content: PlainText(limits.contentFile).describe('The whole translation file'),
            sha: GitSha.nullable().describe(
              'Blob sha of the translation on the branch now (null: none yet); pass it with the commit to be told if it changes meanwhile',
            ),
            problems: Problems.describe('Its problems with that English in the tree (empty when it can be committed)'),
          }),
        )
        .max(translationLocales.length),
      failures: z.array(z.object({ locale: TranslationLocale, path: RepoPath, message: PlainText(limits.message) })).max(translationLocales.length),
    })
    .meta({ id: 'TranslationDrafts' }),
  answeredByModel: true,
  auth: 'admin',
  rateLimit: MODEL_EDITS,
  errors: [
    'unauthorized',
    'bad_request',
    'not_found',
    'forbidden_path',
    'invalid',
    'rate_limited',
    'chat_not_configured',
    'unavailable',
    'repo_error',
    'repo_not_configured',
  ],
  examples: {
    valid: [{ summary: 'Draft the French translation of an entry on dev', input: { slug: 'concierge-copilot', branch: 'dev', locales: ['fr'] } }],
    invalid: [{ summary: 'English into English', input: { slug: 'concierge-copilot', locales: ['en'] } }],
  },
});

export const adminTranslation = defineOperation({
  name: 'admin_translation',
  summary: 'Where a translation stands: current, stale or missing, and the English it was made from beside the English now',
  description:
    'For a translation (its path, or its English file’s path with `locale`): the `source` hash it records and the one the English has now, ' +
    'and the English text now and as it was when the translation was made (found in the English file’s history, the last 100 commits), ' +
    'so what changed since can be shown as a diff. `then` is null when that version is not found.',
  rest: { method: 'GET', path: '/api/admin/translation' },
  cli: 'admin translation <path>',
  input: z
    .object({
      path: ContentPath.describe('A translation, e.g. "content/i18n/fr/brief.md", or its English file with `locale`'),
      locale: TranslationLocale.optional(),
      branch: Branch.default('main'),
    })
    .refine((i) => i.locale !== undefined || i.path.startsWith('content/i18n/'), {
      message: 'give the locale of the translation, or the translation’s own path',
      path: ['locale'],
    }),
  output: z
    .object({
      path: RepoPath.describe('The translation'),
      locale: TranslationLocale,
      sourcePath: RepoPath.describe('The English file it translates'),
      state: TranslationState,
      recordedSource: PlainText(limits.sourceHash).nullable().describe('The `source` the translation records; null when it is missing'),
      currentSource: SourceHash.nullable().describe('The hash of the English now; null when the English is missing or invalid'),
      source: z.object({
        now: PlainText(limits.contentFile).nullable().describe('The English file now; null when it does not exist'),
        then: PlainText(limits.contentFile).nullable().describe('The English file as the translation was made from it; null when not found'),
        thenCommit: GitSha.nullable().describe('The commit that made the English so'),
      }),
    })
    .meta({ id: 'TranslationStatus' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request', 'not_found', 'forbidden_path', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [{ summary: 'The French translation of the brief', input: { path: 'content/i18n/fr/brief.md' } }],
    invalid: [{ summary: 'An English file without a locale', input: { path: 'content/brief.md' } }],
  },
});
