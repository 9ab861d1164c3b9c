// The fields admin operations share: content paths, shas, commit messages, a whole file's text, an image's bytes,
// a change of a change set (a text, an image or a deletion), and what a commit answers. Plain zod, like every part of the contract.
import { z } from 'zod';
import { describeIssue } from './issues.ts';
import { limits } from './limits.ts';
import { MEDIA_DIR, MEDIA_MAX_BYTES } from './media-files.ts';

export { MEDIA_MAX_BYTES, MEDIA_MAX_SIDE, mediaTypes } from './media-files.ts';
import { Branch, GitSha, PlainText, RepoPath, TEXT, Url } from './shared.ts';

export const ContentPath = z
  .string()
  .min(1)
  .max(limits.path)
  .meta(TEXT)
  .describe('Path in the repository, e.g. "content/corpus/projects/concierge-copilot.md"');
export const Sha = z
  .string()
  .regex(/^[0-9a-f]{40}$/, 'a sha is 40 hexadecimal characters')
  .max(40)
  .describe('Blob sha the change was based on; 409 if the file changed since');
export const CommitSha = z
  .string()
  .regex(/^[0-9a-f]{7,40}$/, 'a commit is 7 to 40 hexadecimal characters')
  .max(40);
export const TranslationState = z
  .enum(['current', 'stale', 'missing'])
  .describe('current: made from the English as it is; stale: the English changed since; missing: never made');
export const Message = z.string().trim().min(1, 'give a commit message').max(limits.commitMessage).meta(TEXT).describe('Commit message');
export const Content = z
  .string()
  .max(limits.contentFile, `a content file is at most ${limits.contentFile / 1024} kB`)
  .meta(TEXT)
  .describe('The whole file: YAML front matter and Markdown body, or JSON');

/**
 * What a write that commits images (the media upload, a change set carrying them) may refuse: the bytes checked
 * (`invalid`, `unsupported_media_type`, `payload_too_large`), the path (`forbidden_path`) and the repository.
 */
export const IMAGE_COMMIT_ERRORS = [
  'unauthorized',
  'forbidden',
  'bad_request',
  'forbidden_path',
  'payload_too_large',
  'unsupported_media_type',
  'invalid',
  'repo_error',
  'repo_not_configured',
  'unavailable',
] as const;

export const CommitResult = z
  .object({
    branch: Branch,
    commit: z.object({ sha: GitSha, message: PlainText(limits.commitMessageRead), url: Url.optional() }),
    files: z
      .array(z.object({ path: RepoPath, sha: GitSha.nullable().describe('New blob sha; null when deleted') }))
      .max(2 * limits.contentFiles) // each file of the tree before and of the tree after, at most
      .describe('The files the commit added, changed or deleted'),
    changed: z.boolean().describe('false when the content was already exactly this: no commit was made and no publish run started'),
  })
  .meta({ id: 'CommitResult' });

export const BaseSha = Sha.nullable().describe('Blob sha the change was based on, or null for a file that must not exist yet; 409 if the file changed since');

/** Where images live: content/media/<name>.<ext>. */
const MEDIA_PREFIX = `${MEDIA_DIR}/`;
/** Base64 of MEDIA_MAX_BYTES is 4/3 of it: a little more is still read, to be refused as too large (413), not as malformed. */
export const MEDIA_BASE64_MAX = Math.ceil((MEDIA_MAX_BYTES * 1.125 * 4) / 3);
/** The images of one change set together, in bytes: a few photos beside the texts that refer to them. */
export const CHANGE_SET_MEDIA_MAX = 24 * 1024 * 1024;
const CHANGE_SET_BASE64_MAX = Math.ceil((CHANGE_SET_MEDIA_MAX * 4) / 3);
/** The body of a change set: its images' base64 and a megabyte of text (what any other request may carry). */
export const CHANGE_SET_BODY_MAX = CHANGE_SET_BASE64_MAX + 1024 * 1024;
const MB = 1024 * 1024;

/** An image's bytes, base64-encoded, checked by the server by its content (type, size, dimensions). */
export const ImageBase64 = z
  .string()
  .min(1, 'send the image as base64 in "contentBase64"')
  .max(MEDIA_BASE64_MAX, `an image is at most ${MEDIA_MAX_BYTES / MB} MB`)
  .regex(/^[A-Za-z0-9+/\s]*(=\s*){0,2}$/, 'contentBase64 must be base64-encoded')
  .meta({ contentEncoding: 'base64' })
  .describe(`The image's bytes, base64-encoded; at most ${MEDIA_MAX_BYTES / MB} MB`);

const kindsOfChange = ['content', 'contentBase64', 'delete'] as const;

/** Why a change fits none of its three shapes, in words: the shape it meant (by its fields), and what is wrong with it. */
function changeError(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const change = issue.input;
  const shapes = '{ path, content } for a text file, { path, contentBase64 } for an image under content/media/, or { path, delete: true }';
  if (typeof change !== 'object' || change === null || Array.isArray(change)) return `must be one of ${shapes}`;
  const kinds = kindsOfChange.filter((k) => k in change);
  if (kinds.length !== 1)
    return `give exactly one of content, contentBase64 or delete${kinds.length ? ` (not ${kinds.join(' and ')} together)` : ''}: ${shapes}`;
  const path = (change as { path?: unknown }).path;
  if (kinds[0] === 'contentBase64' && typeof path === 'string' && !path.startsWith(MEDIA_PREFIX))
    return `contentBase64 is only for an image under ${MEDIA_PREFIX} (${MEDIA_PREFIX}<name>.jpg, .png, .webp or .avif); "${path}" is text: send it as content`;
  const ofShape = (issue as { errors?: z.core.$ZodIssue[][] }).errors?.[kindsOfChange.indexOf(kinds[0]!)] ?? [];
  return ofShape.length ? ofShape.map(describeIssue).join('; ') : undefined;
}

export const Change = z.union(
  [
    z.strictObject({ path: ContentPath, content: Content, sha: BaseSha.optional() }),
    z.strictObject({
      path: ContentPath.refine((path) => path.startsWith(MEDIA_PREFIX), `contentBase64 is only for an image under ${MEDIA_PREFIX}`).describe(
        `Where the image goes: ${MEDIA_PREFIX}<name>.<ext>, the extension that of its type (.jpg or .jpeg, .png, .webp, .avif)`,
      ),
      contentBase64: ImageBase64.describe(
        `An image's bytes, base64-encoded, at most ${MEDIA_MAX_BYTES / MB} MB; checked by its content (JPEG, PNG, WebP or AVIF) and stored without its metadata, as admin_upload_media stores one`,
      ),
      sha: BaseSha.optional(),
    }),
    z.strictObject({ path: ContentPath, delete: z.literal(true), sha: Sha.optional() }),
  ],
  { error: changeError },
);

/** The images of a change set together, base64: at most CHANGE_SET_MEDIA_MAX once decoded. */
export const imagesFitOneChangeSet = (changes: ReadonlyArray<z.output<typeof Change>>) =>
  changes.reduce((sum, c) => sum + ('contentBase64' in c ? c.contentBase64.length : 0), 0) <= CHANGE_SET_BASE64_MAX;
export const IMAGES_TOO_LARGE = `the images of one change set are at most ${CHANGE_SET_MEDIA_MAX / MB} MB together; commit the others in a change set of their own`;
