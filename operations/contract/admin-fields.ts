// The fields admin operations share: content paths, shas, commit messages, a whole file's text, a change of a
// change set, and what a commit answers. Plain zod, like every part of the contract.
import { z } from 'zod';
import { limits } from './limits.ts';
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

export const Change = z.union([
  z.strictObject({ path: ContentPath, content: Content, sha: BaseSha.optional() }),
  z.strictObject({ path: ContentPath, delete: z.literal(true), sha: Sha.optional() }),
]);
