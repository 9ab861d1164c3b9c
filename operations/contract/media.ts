// The media operation: an image uploaded into content/media/ as one commit. The image is checked by its bytes, not
// its name (the type sniffed from them, the size, the dimensions) and stored without its metadata (EXIF, XMP: a
// photo's GPS location never reaches the repository). Where images are referred to from the content, and the variants
// a build makes of them, are the content schema's and the build's.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import {
  BaseSha,
  CommitResult,
  ContentPath,
  IMAGE_COMMIT_ERRORS,
  ImageBase64,
  MEDIA_BASE64_MAX,
  MEDIA_MAX_BYTES,
  MEDIA_MAX_SIDE,
  Message,
  mediaTypes,
} from './admin-fields.ts';
import { Branch, GitSha, RepoPath } from './shared.ts';
import { roleToCommitTo } from './roles.ts';

export { MEDIA_MAX_BYTES, MEDIA_MAX_SIDE, mediaTypes } from './admin-fields.ts';
/** The body of an upload: the base64 of the largest image, and the JSON (or the multipart form) around it. */
export const MEDIA_BODY_MAX = MEDIA_BASE64_MAX + 64 * 1024;

export const MediaUpload = z
  .object({
    path: RepoPath,
    sha: GitSha.describe('The blob sha of the image as stored (its metadata stripped)'),
    type: z.enum(mediaTypes).describe('The type its bytes show'),
    width: z.number().int().min(1).max(MEDIA_MAX_SIDE).describe('Pixels, as shown (its orientation applied)'),
    height: z.number().int().min(1).max(MEDIA_MAX_SIDE).describe('Pixels, as shown (its orientation applied)'),
    size: z.number().int().min(1).max(MEDIA_MAX_BYTES).describe('Bytes, as stored'),
    ...CommitResult.shape,
  })
  .meta({ id: 'MediaUpload' });

export const adminUploadMedia = defineOperation({
  name: 'admin_upload_media',
  summary: 'Upload an image (JPEG, PNG, WebP, AVIF) into content/media/ in one commit',
  description:
    `Stores an image at \`path\` (\`content/media/<name>.<ext>\`) in one commit. The image is checked by its bytes, not its name: its type (JPEG, PNG, WebP or AVIF; SVG and anything else refused with 415), ` +
    `an extension that matches it, at most ${MEDIA_MAX_BYTES / 1024 / 1024} MB (413) and ${MEDIA_MAX_SIDE}×${MEDIA_MAX_SIDE} pixels. ` +
    'Its metadata (EXIF, XMP: camera, GPS location) is stripped and its orientation applied before it is stored. With `sha`, refused with 409 if the file changed since. Each commit starts a publish run. ' +
    'Over REST the body is JSON with the image as base64, or `multipart/form-data` with the fields as text parts and the image as the part `file`.',
  rest: { method: 'POST', path: '/api/admin/media', maxBody: MEDIA_BODY_MAX, multipart: { part: 'file', into: 'contentBase64' } },
  cli: 'admin upload <path> <file>',
  cliArgs: { file: { readInto: 'contentBase64', base64: true } },
  input: z.object({
    path: ContentPath.describe('Where the image goes: content/media/<name>.<ext>, the extension that of its type (.jpg or .jpeg, .png, .webp, .avif)'),
    contentBase64: ImageBase64,
    message: Message,
    branch: Branch.default('main'),
    sha: BaseSha.optional(),
  }),
  output: MediaUpload,
  effect: { destructive: true, idempotent: true },
  auth: 'admin',
  role: (input) => roleToCommitTo(input.branch),
  audit: (_input, output) =>
    output.changed
      ? {
          action: 'commit' as const,
          detail: `${output.branch} ${output.commit.sha.slice(0, 7)} "${output.commit.message.split('\n')[0]}": ${output.path} (${output.type}, ${output.width}×${output.height})`,
        }
      : undefined,
  errors: IMAGE_COMMIT_ERRORS,
  examples: {
    invalid: [
      { summary: 'No image', input: { path: 'content/media/portrait.jpg', contentBase64: '', message: 'Add a portrait' } },
      { summary: 'No commit message', input: { path: 'content/media/portrait.jpg', contentBase64: 'aGVsbG8=', message: ' ' } },
    ],
  },
});
