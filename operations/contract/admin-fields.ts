// The fields admin operations share: content paths, shas, commit messages, a whole file's text, a change of a
// change set, and what a commit answers. Plain zod, like every part of the contract.
import { z } from 'zod';
import { Branch } from './shared.ts';

export const ContentPath = z.string().min(1).max(300).describe('Path in the repository, e.g. "content/corpus/projects/concierge-copilot.md"');
export const Sha = z
  .string()
  .regex(/^[0-9a-f]{40}$/, 'a sha is 40 hexadecimal characters')
  .describe('Blob sha the change was based on; 409 if the file changed since');
export const CommitSha = z.string().regex(/^[0-9a-f]{7,40}$/, 'a commit is 7 to 40 hexadecimal characters');
export const TranslationState = z
  .enum(['current', 'stale', 'missing'])
  .describe('current: made from the English as it is; stale: the English changed since; missing: never made');
export const Message = z.string().trim().min(1, 'give a commit message').max(500).describe('Commit message');
export const Content = z
  .string()
  .max(512 * 1024, 'a content file is at most 512 kB')
  .describe('The whole file: YAML front matter and Markdown body, or JSON');

export const CommitResult = z
  .object({
    branch: Branch,
    commit: z.object({ sha: z.string(), message: z.string(), url: z.string().optional() }),
    files: z.array(z.object({ path: z.string(), sha: z.string().nullable().describe('New blob sha; null when deleted') })),
    changed: z.boolean().describe('false when the content was already exactly this: no commit was made and no publish run started'),
  })
  .meta({ id: 'CommitResult' });

export const BaseSha = Sha.nullable().describe('Blob sha the change was based on, or null for a file that must not exist yet; 409 if the file changed since');

export const Change = z.union([
  z.strictObject({ path: ContentPath, content: Content, sha: BaseSha.optional() }),
  z.strictObject({ path: ContentPath, delete: z.literal(true), sha: Sha.optional() }),
]);
