// The admin operations: read and change the content repository through validated commits, follow the
// publish pipeline, promote `dev` to `main`. All need an account's token (or a console session); a commit to `main`
// and promote need the publisher role (operations/contract/roles.ts).
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { limits, translatedMax } from './limits.ts';
import { Branch, DateTime, DiffText, MarkdownText, GitSha, Locale, locales, PlainText, Problems, RepoPath, Slug, TEXT, Url, wholeNumber } from './shared.ts';
import { Document, EntryLong, Lens } from './public.ts';
import { BaseSha, CommitResult, CommitSha, Content, ContentPath, MEDIA_BASE64_MAX, Message, Sha, TranslationState } from './admin-fields.ts';
import { adminCommitChanges, adminValidateChanges, committedEvent } from './change-sets.ts';
import { adminSchema } from './content-schema.ts';
import { MODEL_EDITS, roleToCommitTo } from './roles.ts';
import { adminTranslate, adminTranslation } from './translations.ts';

export { Change, CommitResult, TranslationState } from './admin-fields.ts';
export { adminSchema, ContentSchema, vocabularyNames, type VocabularyName } from './content-schema.ts';
export { adminTranslate, adminTranslation } from './translations.ts';
export { adminCommitChanges, adminValidateChanges } from './change-sets.ts';

export const DeployRun = z
  .object({
    id: PlainText(100),
    branch: Branch,
    commit: GitSha,
    status: z
      .enum(['queued', 'running', 'success', 'failure', 'cancelled'])
      .describe('success: built and deployed, even when its translate stage is partial or failure (the English is served where a translation is missing)'),
    stages: z
      .array(
        z.object({
          name: z.enum(['translate', 'build', 'deploy']),
          status: z
            .enum(['queued', 'running', 'success', 'partial', 'failure', 'skipped', 'cancelled'])
            .describe('partial (translate): some translations could not be made, each named in `note`; the run still builds and deploys what was made'),
          startedAt: DateTime.nullable(),
          finishedAt: DateTime.nullable(),
          note: PlainText(limits.message).optional(),
        }),
      )
      .max(3),
    createdAt: DateTime,
    error: PlainText(limits.message).optional(),
    url: Url,
    siteUrl: Url,
    by: PlainText(limits.author)
      .optional()
      .describe('Who made the commit the run publishes: the account that committed through the service, or the Co-authored-by of the commit on GitHub'),
  })
  .meta({ id: 'DeployRun' });

/** How many files a search of the content (admin_list_files with `q`) lists at most. */
export const FILE_MATCHES = 200;
/** Commits or publish runs in one page of history. */
const PAGE_MAX = 100;
/** A matching line as a file search shows it: about 160 characters around the match, cut on character boundaries. */
const MATCH_TEXT_MAX = 400;
/** An image on one side of a comparison: its blob (admin_read_file with `ref` reads it) and its size. */
const MediaSide = z.object({ sha: GitSha, size: z.number().int().min(0).describe('Bytes') });
/** A unified diff of two versions of a file: each line of both, with a prefix and a few lines of headers and hunks. */
const DIFF_MAX = 4 * limits.contentFile + 4096;

export const adminListFiles = defineOperation({
  name: 'admin_list_files',
  summary: 'List content files with path, size and sha, or search them',
  description:
    'Files under `dir` (default all of `content/`) on a branch, each with its size, blob sha, title and translation state per locale. Pass a file’s sha back when writing it to be told, rather than overwrite, when someone changed it meanwhile. ' +
    `With \`q\`, only the files whose path, title or text holds it (any case and accents, every locale), each with its first matching line; at most ${FILE_MATCHES}.`,
  rest: { method: 'GET', path: '/api/admin/files' },
  cli: 'admin ls [dir]',
  input: z.object({
    dir: z.string().max(limits.path).meta(TEXT).optional().describe('A folder such as "content/corpus/projects"; default all content'),
    branch: Branch.default('main'),
    q: z.string().trim().min(1, 'give something to search for').max(200).meta(TEXT).optional().describe('Search the path, title and text of every file'),
  }),
  output: z
    .object({
      branch: Branch,
      files: z
        .array(
          z.object({
            path: RepoPath,
            size: z.number().int().min(0).describe('Bytes'),
            sha: GitSha,
            title: PlainText(translatedMax(limits.name)).optional().describe('The title, name or heading the file gives itself, when its content is valid'),
            translations: z
              .partialRecord(z.enum(locales), TranslationState)
              .optional()
              .describe('On a source file the translate stage translates: the state of its translation in each locale but English'),
            match: z
              .object({
                line: z.number().int().min(1).max(limits.contentFile).describe('1-based'),
                text: PlainText(MATCH_TEXT_MAX).describe('The line, trimmed to about 160 characters around the match'),
              })
              .optional()
              .describe('With q: the first line holding it (absent when only the path or the title does)'),
          }),
        )
        .max(limits.contentFiles),
      truncated: z.boolean().optional().describe(`With q: true when more than ${FILE_MATCHES} files matched and only the first are listed`),
    })
    .meta({ id: 'FileList' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request', 'forbidden_path', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [
      { summary: 'The projects on the dev branch', input: { dir: 'content/corpus/projects', branch: 'dev' } },
      { summary: 'Every file that mentions a hotel, in any language', input: { q: 'hotel' } },
    ],
    invalid: [
      { summary: 'An unknown branch', input: { branch: 'staging' } },
      { summary: 'A blank search', input: { q: '  ' } },
    ],
  },
});

export const adminReadFile = defineOperation({
  name: 'admin_read_file',
  summary: 'Read one content file’s raw source and sha, by path or by slug',
  description:
    'A file’s exact text and blob sha on a branch, or at an older commit with `ref`. Name it by `path`, or by an entry’s `slug`. An image under content/media/ has no text: its bytes come as `contentBase64`.',
  rest: { method: 'GET', path: '/api/admin/file' },
  cli: 'admin get <path|slug>',
  cliArgs: { 'path|slug': { pathOrSlug: true } },
  input: z
    .object({
      path: ContentPath.optional(),
      slug: z.string().max(limits.slug).meta(TEXT).optional().describe('An entry, lens or skill slug'),
      branch: Branch.default('main'),
      ref: CommitSha.optional().describe('A commit to read the file at (from admin_history); default the head of the branch'),
    })
    .refine((i) => Boolean(i.path) !== Boolean(i.slug), { message: 'give either path or slug', path: ['path'] }),
  output: z
    .object({
      path: RepoPath,
      sha: GitSha,
      content: PlainText(limits.contentFile).describe('The text; empty for an image (its bytes are in contentBase64)'),
      contentBase64: z
        .string()
        .max(MEDIA_BASE64_MAX)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/)
        .meta({ contentEncoding: 'base64' })
        .optional()
        .describe('An image under content/media/: its bytes, base64-encoded'),
      branch: Branch,
      ref: GitSha.describe('The commit the file was read at'),
      translations: z
        .partialRecord(z.enum(locales), TranslationState)
        .optional()
        .describe('On a source file the translate stage translates, read at the head of the branch: its translation’s state in each locale but English'),
    })
    .meta({ id: 'ContentFile' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request', 'not_found', 'forbidden_path', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [
      { summary: 'An entry by its slug', input: { slug: 'concierge-copilot' } },
      { summary: 'The site file by its path', input: { path: 'content/site.json', branch: 'dev' } },
    ],
    invalid: [{ summary: 'Both a path and a slug', input: { path: 'content/site.json', slug: 'concierge-copilot' } }],
  },
});

export const adminValidate = defineOperation({
  name: 'admin_validate',
  summary: 'Validate a file as if written: the problems of the whole tree after the change (empty when valid)',
  description:
    'Checks `content` as if it were written at `path`, against the whole tree (references, unique slugs, translations), without writing anything. The console calls it as the editor types.',
  rest: { method: 'POST', path: '/api/admin/validate' },
  cli: 'admin validate <path> <file>',
  cliArgs: { file: { readInto: 'content' } },
  input: z.object({ path: ContentPath, content: Content, branch: Branch.default('main') }),
  output: z.object({ valid: z.boolean(), problems: Problems }).meta({ id: 'ValidationResult' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request', 'forbidden_path', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [
      {
        summary: 'A new skill as it would be written',
        input: { path: 'content/skills/rust.md', content: '---\nname: Rust\ncategory: engineering\n---\nSystems programming.\n' },
      },
    ],
    invalid: [{ summary: 'No content', input: { path: 'content/skills/rust.md' } }],
  },
});

export const adminWriteFile = defineOperation({
  name: 'admin_write_file',
  summary: 'Create or replace a content file in one validated commit',
  description:
    'Validates the whole tree with the change, then commits it alone; nothing is written when a problem is found (422 lists each). With `sha`, the commit is refused with 409 if the file changed since that sha. Each commit starts a publish run.',
  rest: { method: 'PUT', path: '/api/admin/file' },
  cli: 'admin put <path> <file>',
  cliArgs: { file: { readInto: 'content' } },
  input: z.object({ path: ContentPath, content: Content, message: Message, branch: Branch.default('main'), sha: BaseSha.optional() }),
  output: CommitResult,
  dryRun: { operation: 'admin_validate' },
  effect: { destructive: true, idempotent: true },
  auth: 'admin',
  role: (input) => roleToCommitTo(input.branch),
  audit: committedEvent,
  errors: ['unauthorized', 'forbidden', 'bad_request', 'forbidden_path', 'invalid', 'repo_error', 'repo_not_configured', 'unavailable'],
  examples: {
    invalid: [
      { summary: 'No commit message', input: { path: 'content/skills/typescript.md', content: '---\nname: TypeScript\n---\nx\n', message: ' ' } },
      { summary: 'A sha that is not one', input: { path: 'content/skills/typescript.md', content: 'x', message: 'm', sha: 'abc' } },
    ],
  },
});

export const adminDeleteFile = defineOperation({
  name: 'admin_delete_file',
  summary: 'Delete a content file in one validated commit (history keeps it)',
  description:
    'Removes a file in a commit of its own, after checking that nothing still refers to it (422 names what does). History keeps every earlier version; with `sha`, refused with 409 if the file changed since.',
  rest: { method: 'DELETE', path: '/api/admin/file', from: 'query+body' },
  cli: 'admin rm <path>',
  input: z.object({ path: ContentPath, message: Message, branch: Branch.default('main'), sha: Sha.optional() }),
  output: CommitResult,
  effect: { destructive: true, idempotent: true },
  auth: 'admin',
  role: (input) => roleToCommitTo(input.branch),
  audit: committedEvent,
  errors: ['unauthorized', 'forbidden', 'bad_request', 'not_found', 'forbidden_path', 'invalid', 'repo_error', 'repo_not_configured', 'unavailable'],
  examples: {
    invalid: [{ summary: 'No commit message', input: { path: 'content/skills/rust.md' } }],
  },
});

export const adminDeployStatus = defineOperation({
  name: 'admin_deploy_status',
  summary: 'Recent publish runs (translate → build → deploy), newest first',
  description:
    'The publish runs of a branch, newest first: each stage’s status, start and end, and why a failed stage failed. A failed run leaves the previous build live.',
  rest: { method: 'GET', path: '/api/admin/deploys' },
  cli: 'admin deploys',
  input: z.object({ branch: Branch.default('main'), limit: wholeNumber(z.number().int().min(1).max(PAGE_MAX)).default(20) }),
  output: z.object({ runs: z.array(DeployRun).max(PAGE_MAX) }).meta({ id: 'DeployRuns' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request'],
  examples: {
    valid: [{ summary: 'The last five runs of dev', input: { branch: 'dev', limit: 5 } }],
    invalid: [{ summary: 'Too many runs', input: { limit: 1000 } }],
  },
});

export const adminPromote = defineOperation({
  name: 'admin_promote',
  summary: 'Merge dev into main (fast-forward when possible) and publish it',
  description:
    'Publishes what was previewed on `dev`: a fast-forward of `main` when it has not moved, else a merge commit; a conflict changes nothing and answers 409 naming the files. `merged: false` when there is nothing to promote.',
  rest: { method: 'POST', path: '/api/admin/promote' },
  cli: 'admin promote',
  input: z.object({
    message: Message.optional().describe(
      'Why it is published: the merge commit’s message (default "Promote dev to main"); a fast-forward makes no commit, and the audit trail keeps it',
    ),
  }),
  output: CommitResult.extend({ merged: z.boolean(), fastForward: z.boolean() }).meta({ id: 'PromoteResult' }),
  // What it would merge, file by file, is what compare shows (`vitae admin promote --dry-run` prints it).
  dryRun: { operation: 'admin_compare', input: { base: 'main', head: 'dev' } },
  // Destructive: main takes dev's version of every file dev changed, and loses the files dev deleted. Idempotent:
  // a second promote finds nothing to merge.
  effect: { destructive: true, idempotent: true },
  auth: 'admin',
  role: 'publisher',
  audit: (input, output) =>
    output.merged
      ? // (a fast-forward makes no commit to carry the message: the trail keeps it)
        {
          action: 'promote',
          detail: `main ${output.commit.sha.slice(0, 7)}${output.fastForward ? ' (fast-forward)' : ''}: ${input.message ?? output.commit.message}`,
        }
      : undefined,
  errors: ['unauthorized', 'forbidden', 'bad_request', 'invalid', 'repo_error', 'repo_not_configured', 'unavailable'],
  examples: {
    valid: [{ summary: 'Publish what dev previews', input: { message: 'Publish the spring update' } }],
    invalid: [{ summary: 'A blank message', input: { message: '   ' } }],
  },
});

export const adminAiEdit = defineOperation({
  name: 'admin_ai_edit',
  summary: 'Have the model propose an edit: the whole new file, a diff and its validation problems. Never commits',
  description: 'Drafts from the saved file, or from `content` when given (unsaved text). Apply it with admin_write_file and the returned baseSha.',
  rest: { method: 'POST', path: '/api/admin/ai-edit' },
  cli: 'admin ai-edit <path|slug> <instruction>',
  cliArgs: { 'path|slug': { pathOrSlug: true } },
  input: z
    .object({
      instruction: z.string().trim().min(1, 'say what to change').max(2000).meta(TEXT),
      path: ContentPath.optional(),
      slug: z.string().max(limits.slug).meta(TEXT).optional(),
      branch: Branch.default('main'),
      content: Content.optional().describe('Unsaved text to draft from; default the saved file'),
    })
    .refine((i) => Boolean(i.path) !== Boolean(i.slug), { message: 'give either path or slug', path: ['path'] }),
  output: z
    .object({
      path: RepoPath,
      proposed: PlainText(limits.contentFile).describe('The whole file as the model would have it'),
      diff: DiffText(DIFF_MAX).describe('Unified diff from the base to the proposal'),
      problems: Problems,
      baseSha: GitSha.nullable(),
    })
    .meta({ id: 'AiEditProposal' }),
  answeredByModel: true,
  auth: 'admin',
  rateLimit: MODEL_EDITS,
  errors: ['not_found', 'forbidden_path', 'chat_not_configured', 'unavailable', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [{ summary: 'Shorten a summary', input: { slug: 'concierge-copilot', instruction: 'Make the summary one sentence.', branch: 'dev' } }],
    invalid: [{ summary: 'No instruction', input: { slug: 'concierge-copilot', instruction: ' ' } }],
  },
});

/** Where a page of history starts: a commit and how many commits after it were listed before. */
const HistoryCursor = z
  .string()
  .regex(/^[0-9a-f]{40}:\d{1,7}$/, 'pass the `next` of the page before as the cursor')
  .max(48);

export const HistoryCommit = z
  .object({
    sha: GitSha,
    parents: z.array(GitSha).max(limits.parents).describe('Parent commits: one, or two for a merge (the first is the branch before it)'),
    message: PlainText(limits.commitMessageRead),
    author: PlainText(limits.author),
    time: DateTime.describe('ISO 8601'),
    files: z
      .array(RepoPath)
      .max(2 * limits.contentFiles)
      .describe('Paths the commit changed (against its first parent)'),
  })
  .meta({ id: 'HistoryCommit' });

export const adminHistory = defineOperation({
  name: 'admin_history',
  summary: 'The commits of a branch, or of one file on it, newest first, a page at a time',
  description: 'Each commit with its message, author, time and the files it changed. Pass `next` back as `cursor` for the following page.',
  rest: { method: 'GET', path: '/api/admin/history' },
  cli: 'admin log [path]',
  input: z.object({
    branch: Branch.default('main'),
    path: ContentPath.optional().describe('Only commits that changed this file'),
    cursor: HistoryCursor.optional().describe('Where the page starts (the `next` of the page before)'),
    limit: wholeNumber(z.number().int().min(1).max(PAGE_MAX)).default(20),
  }),
  output: z
    .object({ commits: z.array(HistoryCommit).max(PAGE_MAX), next: HistoryCursor.nullable().describe('Cursor of the next page; null on the last') })
    .meta({ id: 'History' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request', 'forbidden_path', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [{ summary: 'The last five commits of dev', input: { branch: 'dev', limit: 5 } }],
    invalid: [{ summary: 'A page of a thousand', input: { limit: 1000 } }],
  },
});

export const adminCompare = defineOperation({
  name: 'admin_compare',
  summary: 'What one branch has that another does not: its commits and each changed file with a diff',
  description: 'With the defaults, exactly what promote would publish: the commits on dev that main lacks and the files they change, each with a unified diff.',
  rest: { method: 'GET', path: '/api/admin/compare' },
  cli: 'admin compare',
  input: z
    .object({ base: Branch.default('main'), head: Branch.default('dev') })
    .refine((i) => i.base !== i.head, { message: 'compare two different branches', path: ['head'] }),
  output: z
    .object({
      base: Branch,
      head: Branch,
      aheadBy: z.number().int().min(0).describe('Commits on head that base does not have'),
      commits: z.array(HistoryCommit).max(limits.comparedCommits).describe(`The first ${limits.comparedCommits} of them, oldest first`),
      files: z
        .array(
          z.object({
            path: RepoPath,
            status: z.enum(['added', 'modified', 'deleted']),
            diff: DiffText(DIFF_MAX).describe('Unified diff from base to head; for an image, the line "Binary files … differ" as git says it'),
            media: z
              .object({ before: MediaSide.nullable(), after: MediaSide.nullable() })
              .optional()
              .describe('An image under content/media/ (bytes, no text): its blob and size on each side, null where it does not exist'),
          }),
        )
        .max(2 * limits.contentFiles),
    })
    .meta({ id: 'Comparison' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [{ summary: 'What promote would publish', input: { base: 'main', head: 'dev' } }],
    invalid: [{ summary: 'A branch against itself', input: { base: 'dev', head: 'dev' } }],
  },
});

export const adminPreview = defineOperation({
  name: 'admin_preview',
  summary: 'What a file would publish: its public record in a locale, made from unsaved text; writes nothing',
  description:
    'The record the site and the API would serve if the file had this text (an entry, a lens, a document or the brief), in the locale asked ' +
    '(a translation previews its own locale), with the names the page shows beside it, or the problems that keep it from being published.',
  rest: { method: 'POST', path: '/api/admin/preview' },
  cli: 'admin preview <path> <file>',
  cliArgs: { file: { readInto: 'content' } },
  input: z.object({ path: ContentPath, content: Content, branch: Branch.default('main'), locale: Locale.default('en') }),
  output: z
    .object({
      path: RepoPath,
      locale: Locale,
      kind: z.enum(['entry', 'lens', 'document', 'brief', 'skill', 'site']).nullable().describe('null when the content is invalid'),
      entry: EntryLong.optional(),
      lens: Lens.optional(),
      document: Document.optional(),
      brief: z.object({ title: PlainText(translatedMax(limits.title)), markdown: MarkdownText(limits.contentFile), translated: z.boolean() }).optional(),
      labels: z
        .object({
          skills: z.record(Slug, PlainText(translatedMax(limits.skillName))),
          lenses: z.record(Slug, PlainText(translatedMax(limits.lensTitle))),
        })
        .describe('Names of the skills and lenses in the locale, for the links a page shows'),
      problems: Problems,
    })
    .meta({ id: 'Preview' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request', 'forbidden_path', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [
      {
        summary: 'A skill as it would be published',
        input: { path: 'content/skills/rust.md', content: '---\nname: Rust\ncategory: engineering\n---\nSystems programming.\n', locale: 'fr' },
      },
    ],
    invalid: [{ summary: 'An unknown locale', input: { path: 'content/brief.md', content: 'x', locale: 'de' } }],
  },
});

export const adminOperations = [
  adminSchema,
  adminListFiles,
  adminReadFile,
  adminValidate,
  adminWriteFile,
  adminDeleteFile,
  adminCommitChanges,
  adminValidateChanges,
  adminAiEdit,
  adminTranslate,
  adminTranslation,
  adminDeployStatus,
  adminPromote,
  adminHistory,
  adminCompare,
  adminPreview,
] as const;
