// The change-set operations: several texts, images and deletions in one validated commit, and the check of such a
// set before it is committed (the console's Review screen). An image travels as base64 beside the texts and is checked
// and stored exactly as admin_upload_media checks and stores one.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { locales, Problems, RepoPath, Branch } from './shared.ts';
import {
  Change,
  CHANGE_SET_BODY_MAX,
  CHANGE_SET_MEDIA_MAX,
  CommitResult,
  IMAGE_COMMIT_ERRORS,
  IMAGES_TOO_LARGE,
  imagesFitOneChangeSet,
  MEDIA_MAX_BYTES,
  Message,
} from './admin-fields.ts';
import { roleToCommitTo } from './roles.ts';

/** Changes in one change set. */
const CHANGES_MAX = 200;
const MB = 1024 * 1024;
const Changes = z.array(Change).min(1, 'give at least one change').max(CHANGES_MAX).refine(imagesFitOneChangeSet, IMAGES_TOO_LARGE);

/** What an image in a change set is checked for, said once for both operations. */
const IMAGES =
  `A change may be an image: \`{ path: "content/media/<name>.<ext>", contentBase64 }\`, checked by its bytes as admin_upload_media checks one (JPEG, PNG, WebP or AVIF, else 415; at most ${MEDIA_MAX_BYTES / MB} MB, else 413; the extension of its type and at most 8000 pixels a side, else 400) and stored without its metadata. ` +
  `The images of one set are at most ${CHANGE_SET_MEDIA_MAX / MB} MB together (the request body at most ${Math.round(CHANGE_SET_BODY_MAX / MB)} MB); an image that is not taken refuses the whole set.`;

/** The audit event of a commit that changed something: its branch, sha, message and files. */
export const committedEvent = (_input: unknown, output: z.output<typeof CommitResult>) =>
  output.changed
    ? {
        action: 'commit' as const,
        detail: `${output.branch} ${output.commit.sha.slice(0, 7)} "${output.commit.message.split('\n')[0]}": ${output.files.map((f) => f.path).join(', ')}`,
      }
    : undefined;

export const adminCommitChanges = defineOperation({
  name: 'admin_commit_changes',
  summary: 'Write and delete several content files, texts and images, in one validated commit',
  description:
    'Several writes and deletes in one commit, all or nothing: each file’s base sha is checked and the whole tree validated before anything is written. This is how the console commits a reviewed change set. ' +
    IMAGES,
  rest: { method: 'POST', path: '/api/admin/changes', maxBody: CHANGE_SET_BODY_MAX },
  cli: 'admin commit <changes>',
  cliArgs: { changes: { readInto: 'changes', json: true } },
  input: z.object({ changes: Changes, message: Message, branch: Branch.default('main') }),
  output: CommitResult,
  dryRun: { operation: 'admin_validate_changes' },
  // Idempotent as a write and a delete are: the same set again leaves the same tree, which is not committed
  // again, and a file already deleted cannot be deleted twice (404, nothing written).
  effect: { destructive: true, idempotent: true },
  auth: 'admin',
  role: (input) => roleToCommitTo(input.branch),
  audit: committedEvent,
  // (and not_found: a file to delete that is not there)
  errors: [...IMAGE_COMMIT_ERRORS, 'not_found'],
  examples: {
    invalid: [
      { summary: 'No changes', input: { changes: [], message: 'Nothing' } },
      {
        summary: 'An image sent for a text file',
        input: { changes: [{ path: 'content/skills/rust.md', contentBase64: 'aGVsbG8=' }], message: 'Rust' },
      },
      {
        summary: 'Both a text and a deletion for one file',
        input: { changes: [{ path: 'content/skills/rust.md', content: 'x', delete: true }], message: 'Rust' },
      },
    ],
  },
});

export const adminValidateChanges = defineOperation({
  name: 'admin_validate_changes',
  summary: 'Check a whole change set as admin_commit_changes would, without writing: its problems and every file it would touch',
  description:
    'The problems of the tree after all the changes, and the files the commit would add, modify or delete, with the translations a deleted source takes with it (`cascade`). ' +
    'Base shas are checked as a commit checks them (409 naming the file that changed), so what this says is what the commit will do. The console shows it on Review before the commit button. ' +
    IMAGES,
  rest: { method: 'POST', path: '/api/admin/changes/validate', maxBody: CHANGE_SET_BODY_MAX },
  cli: 'admin check <changes>',
  cliArgs: { changes: { readInto: 'changes', json: true } },
  input: z.object({ changes: Changes, branch: Branch.default('main') }),
  output: z
    .object({
      valid: z.boolean(),
      problems: Problems,
      files: z
        .array(
          z.object({
            path: RepoPath,
            status: z.enum(['added', 'modified', 'deleted']),
            cascade: z.boolean().describe('A translation deleted because its source is: not in the change set itself'),
          }),
        )
        // each change, and the translations a deleted source takes with it
        .max(CHANGES_MAX * locales.length),
    })
    .meta({ id: 'ChangeSetCheck' }),
  auth: 'admin',
  errors: ['unauthorized', 'bad_request', 'not_found', 'forbidden_path', 'payload_too_large', 'unsupported_media_type', 'repo_error', 'repo_not_configured'],
  examples: {
    valid: [
      {
        summary: 'A new skill, on dev',
        input: {
          branch: 'dev',
          changes: [{ path: 'content/skills/rust.md', content: '---\nname: Rust\ncategory: engineering\n---\nSystems programming.\n' }],
        },
      },
    ],
    invalid: [{ summary: 'No changes', input: { changes: [] } }],
  },
});
