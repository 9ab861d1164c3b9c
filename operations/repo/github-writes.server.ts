// What the github backend writes. A commit is one GraphQL `createCommitOnBranch`, whose `expectedHeadOid` is the
// compare-and-swap (docs/deploy.md, "GitHub backend", says why not the Git Data API); a promotion's merge is made by
// the merges API on a short-lived branch, so the merged tree is validated before main moves to it.
import { randomBytes } from 'node:crypto';
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { bytesOf, type FileChange } from './change-checks.ts';
import { withCoAuthor, type CommitAuthor, type CommitRequest, type CommitResult } from './git-backend.ts';
import { call, explainFailure, redactor, remember, type Hub, type OctokitFailure } from './github-api.server.ts';
import { compareRefs, head, meta, treeAt } from './github-reads.server.ts';

const CREATE_COMMIT = `mutation ($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid committedDate } }
}`;

/** A commit message as createCommitOnBranch takes it (a headline and a body) and as GitHub then records it. */
function asCommitted(message: string): { headline: string; body: string; text: string } {
  const [headline, ...rest] = message.split('\n');
  const body = rest.join('\n').replace(/^\n+/, '');
  return { headline: headline!, body, text: body ? `${headline}\n\n${body}` : headline! };
}

export async function commit(hub: Hub, asked: CommitRequest): Promise<CommitResult> {
  // The commit is the token's user's on GitHub: a trailer names who wrote it (history lists them as its author).
  const { author, ...plain } = asked;
  const request = { ...plain, message: withCoAuthor(asked.message, author) };
  const { branch, base, changes, shas, message, after } = request;
  const made = await createCommit(hub, branch, base, changes, message);
  if (made !== 'stale') {
    const files = changes.map((c) => c.path);
    remember(hub.commits, made.oid, { sha: made.oid, parents: [base], message, authorDate: made.committedDate, committedAt: made.committedDate, files }, 4096);
    remember(hub.trees, made.oid, after.tree, 64);
    for (const c of changes) if (!c.delete && !c.bytes) hub.blobs.set(shas.get(c.path)!, c.content!);
    hub.heads.delete(branch);
    return { made: made.oid };
  }
  // The branch moved between our read and the commit. Ours after all (the retry of a request whose answer was lost)?
  const moved = await head(hub, branch);
  if (moved !== base && (await isOurs(hub, moved, request))) return { made: moved };
  return { movedTo: moved };
}

/** Whether the commit `sha` is the one our mutation would have made: a retry after a lost answer meets it. */
async function isOurs(hub: Hub, sha: string, { base, message, changes, shas }: CommitRequest): Promise<boolean> {
  const m = await meta(hub, sha);
  // GitHub records the headline, a blank line and the body: compare with that, not with the message as given.
  const trimmed = (text: string) => text.replace(/\s+$/, '');
  if (m.parents[0] !== base || trimmed(m.message) !== trimmed(asCommitted(message).text)) return false;
  const tree = new Map((await treeAt(hub, sha)).map((e) => [e.path, e.sha]));
  return changes.every((c) => (c.delete ? !tree.has(c.path) : tree.get(c.path) === shas.get(c.path)));
}

async function createCommit(
  hub: Hub,
  branch: Branch,
  expected: string,
  changes: FileChange[],
  message: string,
): Promise<{ oid: string; committedDate: string } | 'stale'> {
  const { headline, body } = asCommitted(message);
  const input = {
    branch: { repositoryNameWithOwner: hub.options.repository, branchName: branch },
    expectedHeadOid: expected,
    message: { headline, ...(body ? { body } : {}) },
    fileChanges: {
      additions: changes.filter((c) => !c.delete).map((c) => ({ path: c.path, contents: bytesOf(c).toString('base64') })),
      deletions: changes.filter((c) => c.delete).map((c) => ({ path: c.path })),
    },
  };
  try {
    const result = await hub.octokit.graphql<{ createCommitOnBranch: { commit: { oid: string; committedDate: string } } }>(CREATE_COMMIT, { input });
    return result.createCommitOnBranch.commit;
  } catch (error) {
    const errors = (error as OctokitFailure).errors ?? [];
    if (errors.some((e) => e.type === 'STALE_DATA')) return 'stale';
    const forbidden = errors.find((e) => e.type === 'FORBIDDEN');
    if (forbidden) throw explainFailure({ status: 403, message: forbidden.message }, `committing to ${branch}`, hub.options);
    if (errors.length) {
      const said = redactor(hub.options.token)(errors.map((e) => e.message).join('; '));
      throw new AppError('repo_error', `GitHub refused the commit to ${branch}: ${said}`, { status: 502 });
    }
    throw explainFailure(error, `committing to ${branch}`, hub.options);
  }
}

/**
 * Moves a branch forward to `sha`. The ref API has no compare-and-swap, so the move is refused unless it is a
 * fast-forward (`force: false`): a branch that moved elsewhere in between answers 422, said here as 'stale'.
 */
export async function moveRef(hub: Hub, branch: Branch, sha: string): Promise<'moved' | 'stale'> {
  const { owner, repo } = hub;
  try {
    await hub.octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha, force: false });
    hub.heads.delete(branch);
    return 'moved';
  } catch (error) {
    if ((error as OctokitFailure).status === 422) return 'stale';
    throw explainFailure(error, `moving the branch ${branch}`, hub.options);
  }
}

/** The merges API on a short-lived branch made at `ours`, deleted once `use` has had the merge commit. */
export async function merge<T>(
  hub: Hub,
  ours: string,
  theirs: string,
  message: string,
  use: (commit: string) => Promise<T>,
  author?: CommitAuthor,
): Promise<{ value: T } | { conflicts: string[] }> {
  const { owner, repo } = hub;
  const staging = `vitae-promote-${randomBytes(6).toString('hex')}`;
  await call(hub, 'creating the promotion branch', () => hub.octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${staging}`, sha: ours }));
  try {
    let made: string;
    try {
      const commit_message = withCoAuthor(message, author);
      made = (await hub.octokit.rest.repos.merge({ owner, repo, base: staging, head: theirs, commit_message })).data.sha;
    } catch (error) {
      if ((error as OctokitFailure).status !== 409) throw explainFailure(error, 'merging dev into main', hub.options);
      return { conflicts: await conflicts(hub, ours, theirs) };
    }
    return { value: await use(made) };
  } finally {
    await hub.octokit.rest.git.deleteRef({ owner, repo, ref: `heads/${staging}` }).catch(() => {});
  }
}

/** GitHub does not say which files conflict: those both sides changed since they diverged. */
async function conflicts(hub: Hub, ours: string, theirs: string): Promise<string[]> {
  const [theirSide, ourSide] = await Promise.all([compareRefs(hub, ours, theirs), compareRefs(hub, theirs, ours)]);
  const changedByUs = new Set((ourSide.files ?? []).map((f) => f.filename));
  return (theirSide.files ?? [])
    .map((f) => f.filename)
    .filter((p) => changedByUs.has(p))
    .sort();
}
