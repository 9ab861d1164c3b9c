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
 * A commit as history shows it, from its whole message: the subject (the first line), and as its author whoever
 * wrote it — the first `Co-authored-by:` of its trailers when there is one (what the github backend records for an
 * editor, since GitHub names the token's user), else git's author. Within the lengths the contract states: a commit
 * made elsewhere may have a subject of any length, or an octopus merge's dozens of parents (the first is the one
 * history follows).
 */
export function listedCommit(commit: HistoryCommit): HistoryCommit {
  return {
    ...commit,
    parents: commit.parents.slice(0, limits.parents),
    message: clipped(commit.message.split('\n')[0]!.trim(), limits.commitMessageRead),
    author: clipped(coAuthorOf(commit.message)?.name || commit.author, limits.author),
  };
}

/** Who wrote a commit made for someone other than the service: an editor, by name and address. */
export interface CommitAuthor {
  name: string;
  email: string;
}

const CO_AUTHORED = 'Co-authored-by';
/** A line of a trailer block: `Key: value`, or the continuation of the one before (it starts with white space). */
const TRAILER = /^[A-Za-z0-9][A-Za-z0-9-]*:\s|^\s+\S/;
const CO_AUTHOR = /^co-authored-by:\s*(.*?)\s*(?:<([^<>]*)>)?\s*$/i;

/**
 * `author` safe to put in a trailer or an environment variable: no line breaks or other control characters (a name
 * with "\n" would forge a second trailer), no angle brackets (they delimit the address), white space collapsed,
 * and `Name <email>` within `limits.author`. Undefined when nothing of the name or the address is left.
 */
export function safeAuthor(author: CommitAuthor | undefined): CommitAuthor | undefined {
  if (!author) return undefined;
  const clean = (text: unknown) =>
    String(text ?? '')
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029<>]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const cut = (text: string, max: number) => [...text].slice(0, Math.max(0, max)).join('').trim();
  const email = cut(clean(author.email).replace(/\s/g, ''), 254);
  const name = cut(clean(author.name), limits.author - email.length - 3);
  // git drops these from the ends of a name or an address, and refuses a name left empty.
  const something = (text: string) => /[^\s.,:;"'\\]/.test(text);
  return something(name) && something(email) ? { name, email } : undefined;
}

/** The last paragraph of a message when it is a trailer block (never the subject's), as lines; [] when there is none. */
function trailerBlock(message: string): { before: string; lines: string[] } {
  const text = message.replace(/\s+$/, '');
  const cut = text.search(/\n[ \t]*\n(?![\s\S]*\n[ \t]*\n)/);
  if (cut < 0) return { before: text, lines: [] };
  const lines = text
    .slice(cut)
    .replace(/^\n[ \t]*\n/, '')
    .split('\n');
  return lines.every((line) => TRAILER.test(line)) && TRAILER.test(lines[0]!) && !/^\s/.test(lines[0]!)
    ? { before: text.slice(0, cut), lines }
    : { before: text, lines: [] };
}

/** The first `Co-authored-by:` of a message's trailers, by name (and address); undefined when it has none. */
export function coAuthorOf(message: string): { name: string; email?: string } | undefined {
  for (const line of trailerBlock(message).lines) {
    const match = CO_AUTHOR.exec(line);
    if (match?.[1]) return { name: match[1], ...(match[2] ? { email: match[2] } : {}) };
  }
  return undefined;
}

/**
 * The message with a `Co-authored-by: Name <email>` trailer naming `author`: first among the trailers (history
 * names the first co-author as the commit's author, so one written into the message cannot stand in for the real
 * one), in the message's trailer block or a new one after a blank line, as git does; never twice. The message as
 * it is without an author.
 */
export function withCoAuthor(message: string, author: CommitAuthor | undefined): string {
  const who = safeAuthor(author);
  if (!who) return message;
  const trailer = `${CO_AUTHORED}: ${who.name} <${who.email}>`;
  const { before, lines } = trailerBlock(message);
  const same = (line: string) => line.trim().toLowerCase() === trailer.toLowerCase();
  if (lines[0] && same(lines[0])) return message;
  return `${before}\n\n${[trailer, ...lines.filter((line) => !same(line))].join('\n')}`;
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
  /** Who wrote the change, when not the service: the local backend's git author; on GitHub a `Co-authored-by:` trailer. */
  author?: CommitAuthor;
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
  /** One blob's bytes (an image's). */
  bytes(sha: string): Promise<Buffer>;
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
   * may move a branch to it); the conflicting paths instead when both sides changed a file. `author`: as a commit's.
   */
  merge<T>(
    ours: string,
    theirs: string,
    message: string,
    use: (commit: string) => Promise<T>,
    author?: CommitAuthor,
  ): Promise<{ value: T } | { conflicts: string[] }>;
}
