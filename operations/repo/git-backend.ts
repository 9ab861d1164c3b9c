// The port under the content repository: what a place that stores git objects must answer, and nothing of the
// policy above it. Locks, write checks, validation, the commit's retry on a moved branch and the promotion's
// choice between nothing, a fast-forward and a merge are written once in content-repo.server.ts; a backend
// (local-backend.server.ts over the git CLI, github-repo.server.ts over the GitHub API) only reads trees,
// blobs and history, and moves a branch by compare-and-swap.
import { clipped } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import type { Branch } from '../contract/shared.ts';
import type { FileChange, RepoFiles } from './change-checks.ts';
import type { TreeFile } from './local-repo.server.ts';

export type { TreeFile } from './local-repo.server.ts';

export interface HistoryCommit {
  sha: string;
  parents: string[];
  message: string;
  author: string;
  time: string;
  files: string[];
}

/** How many commits a comparison lists at most (aheadBy still counts them all). */
export const COMPARE_COMMITS = limits.comparedCommits;

/**
 * A commit as history shows it, within the lengths the contract states: a commit made elsewhere may have a subject
 * of any length, or an octopus merge's dozens of parents (the first is the one history follows).
 */
export function listedCommit(commit: HistoryCommit): HistoryCommit {
  return {
    ...commit,
    parents: commit.parents.slice(0, limits.parents),
    message: clipped(commit.message, limits.commitMessageRead),
    author: clipped(commit.author, limits.author),
  };
}

export interface FileVersion {
  commit: string;
  text: string | null;
}

/** A commit as the backend records it: its whole message (not only the subject) and both times. */
export interface CommitMeta {
  sha: string;
  parents: string[];
  message: string;
  author: string;
  authorDate: string;
  committedAt: string;
}

/** Where `to` stands against `from`: what it has that `from` lacks, and the reverse. */
export interface Divergence {
  aheadBy: number;
  behindBy: number;
  /** The newest commit both have (null: unrelated histories). */
  mergeBase: string | null;
  /** The commits `to` has that `from` lacks and that change content/, newest first, at most COMPARE_COMMITS. */
  commits(): Promise<HistoryCommit[]>;
  /** Every file `to` changed since the merge base, with its blob sha there (null: deleted). */
  files(): Promise<Array<{ path: string; sha: string | null }>>;
}

export interface CommitRequest {
  branch: Branch;
  /** The commit the branch must still point at: the compare-and-swap. */
  base: string;
  /** Checked, validated, with the translations of deleted sources; none leaves its file as it is. */
  changes: FileChange[];
  /** The blob sha of each written file (git's sha of its text), by path. */
  shas: ReadonlyMap<string, string>;
  message: string;
  /** The files the new commit will have, for a backend that keeps trees or blobs it has seen. */
  after: RepoFiles;
}

/** `made`: the new commit the branch now points at; `movedTo`: the branch had moved there, and nothing was written. */
export type CommitResult = { made: string } | { movedTo: string };

export interface GitBackend {
  /** The commit a branch points at; `repo_not_configured` when there is no such branch. */
  head(branch: Branch): Promise<string>;
  /** The full sha of a commit named by a (possibly abbreviated) sha; `not_found` when there is none. */
  resolveCommit(ref: string): Promise<string>;
  /** The entries under content/ at a commit (files, symlinks, submodules; no folders), sorted by path. */
  tree(commit: string): Promise<TreeFile[]>;
  /** Blob texts by sha (UTF-8). */
  texts(shas: string[]): Promise<Map<string, string>>;
  meta(sha: string): Promise<CommitMeta>;
  /** Commits from `start` back that change `path` (default content/), newest first: `limit` after `skip`, and whether more follow. */
  log(start: string, page: { path?: string; skip: number; limit: number }): Promise<{ commits: HistoryCommit[]; more: boolean }>;
  /** One file's text after each of the last `limit` commits from `head` that changed it, newest first. */
  fileVersions(head: string, path: string, limit: number): AsyncIterable<FileVersion>;
  /** The newest commits from `head`, newest first. */
  recentCommits(head: string, count: number): Promise<string[]>;
  /** When a commit last changed each path under content/ as of `commit`; `known` gives the times already made for a commit. */
  fileTimes(commit: string, known: (sha: string) => ReadonlyMap<string, Date> | undefined): Promise<Map<string, Date>>;
  compare(from: string, to: string): Promise<Divergence>;
  /** One commit of `request.changes` on `request.base`, and the branch moved to it only if it still points at the base. */
  commit(request: CommitRequest): Promise<CommitResult>;
  /** Moves a branch from `expected` to `to` (a descendant of it); 'stale' when the branch is no longer at `expected`. */
  moveRef(branch: Branch, to: string, expected: string): Promise<'moved' | 'stale'>;
  /**
   * Merges `theirs` into `ours` as a commit with two parents that no branch points at yet, and hands it to `use` (which
   * may move a branch to it); the conflicting paths instead when both sides changed a file.
   */
  merge<T>(ours: string, theirs: string, message: string, use: (commit: string) => Promise<T>): Promise<{ value: T } | { conflicts: string[] }>;
}
