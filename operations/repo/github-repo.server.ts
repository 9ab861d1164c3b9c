// The content repository on GitHub: the one ContentRepo (content-repo.server.ts) over the GitBackend port as the
// GitHub API answers it (github-reads.server.ts, github-writes.server.ts), plus the start's check that the
// repository is there and the token may read it.
import { createRepo, type ContentRepo } from './content-repo.server.ts';
import type { GitBackend } from './git-backend.ts';
import { createHub, startFailure, type GitHubRepoOptions, type Hub } from './github-api.server.ts';
import { blobBytes, blobTexts, commitOf, compare, fileTimes, fileVersions, head, listCommits, log, meta, treeAt } from './github-reads.server.ts';
import { commit, merge, moveRef } from './github-writes.server.ts';

export type { GitHubRepoOptions } from './github-api.server.ts';

export interface GitHubRepo extends ContentRepo {
  /** Checks at start that the repository is there and the token may read it; says what is missing. */
  check(): Promise<{ canWrite: boolean }>;
}

/** The GitBackend port over one GitHub repository. */
export function createGitHubBackend(hub: Hub): GitBackend {
  return {
    head: (branch) => head(hub, branch),
    resolveCommit: (ref) => commitOf(hub, ref),
    tree: (sha) => treeAt(hub, sha),
    texts: (shas) => blobTexts(hub, shas),
    bytes: (sha) => blobBytes(hub, sha),
    meta: async (sha) => {
      const known = await meta(hub, sha);
      return { ...known, author: known.author ?? '' };
    },
    log: (start, page) => log(hub, start, page),
    fileVersions: (start, path, limit) => fileVersions(hub, start, path, limit),
    recentCommits: async (start, count) => (await listCommits(hub, start, 'content', 0, count)).shas,
    fileTimes: (sha, known) => fileTimes(hub, sha, known),
    compare: (from, to) => compare(hub, from, to),
    commit: (request) => commit(hub, request),
    moveRef: (branch, to) => moveRef(hub, branch, to),
    merge: (ours, theirs, message, use, author) => merge(hub, ours, theirs, message, use, author),
  };
}

export function createGitHubRepo(options: GitHubRepoOptions): GitHubRepo {
  const hub = createHub(options);
  return {
    ...createRepo(createGitHubBackend(hub)),
    async check() {
      // No retries here: a start should say at once that the API is unreachable.
      const { data } = await hub.octokit.rest.repos.get({ owner: hub.owner, repo: hub.repo, request: { retries: 0 } });
      return { canWrite: Boolean(data.permissions?.push) };
    },
  };
}

/** Opens the github backend and checks, once, that the repository is there and the token may read it (and write). */
export async function openGitHubRepo(options: GitHubRepoOptions): Promise<{ repo: GitHubRepo; canWrite: boolean }> {
  const repo = createGitHubRepo(options);
  try {
    const { canWrite } = await repo.check();
    return { repo, canWrite };
  } catch (error) {
    throw startFailure(error, options);
  }
}
