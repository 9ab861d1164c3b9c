// The content repository as the admin operations and the pipeline see it, written once over the GitBackend port
// (git-backend.ts): per-branch locks, the write checks (change-checks.ts), validate-and-commit with its retry on a
// branch that moved, the promotion of dev to main, history's cursor and the caches of what never changes under a
// sha. A backend only reads and moves refs; createContentRepo is this over the local git repository, and
// createGitHubRepo (github-repo.server.ts) this over the GitHub API.
import { AppError, type Problem } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { REGULAR } from '../content/tree.ts';
import { slicer } from '../content/pause.ts';
import { assertContentDir, assertWritablePath, isMediaPath } from '../content/paths.ts';
import { createKeyedLock } from './keyed-lock.ts';
import {
  blobSha,
  bytesOf,
  checkBase,
  checkPaths,
  fileDiffs,
  filesAfter,
  invalidChange,
  problemsOfChange,
  problemsWith,
  reviewChange,
  withTranslationsOfDeleted,
  type ChangeReview,
  type FileChange,
  type RepoFiles,
} from './change-checks.ts';
import { safeAuthor, type CommitAuthor, type FileVersion, type GitBackend, type HistoryCommit } from './git-backend.ts';
import type { Git } from './git.server.ts';
import { createLocalBackend } from './local-backend.server.ts';
import type { TreeFile } from './local-repo.server.ts';

export type { ChangeReview, FileChange } from './change-checks.ts';
export { COMPARE_COMMITS, listedCommit, type CommitAuthor, type FileVersion, type HistoryCommit } from './git-backend.ts';

export interface CommitOutcome {
  branch: Branch;
  commit: { sha: string; message: string };
  files: Array<{ path: string; sha: string | null }>;
  /** false when the change left the tree as it was (no commit was made). */
  changed: boolean;
}

export interface Comparison {
  aheadBy: number;
  commits: HistoryCommit[];
  /** Each changed file's text on both sides (null where it does not exist); an image's blob and size instead of text. */
  files: Array<{ path: string; before: string | null; after: string | null; media?: MediaSides }>;
}

/** An image (bytes, no text) on each side of a comparison: its blob sha and size, or null where it does not exist. */
export interface MediaSides {
  before: { sha: string; size: number } | null;
  after: { sha: string; size: number } | null;
}

export interface PromoteOutcome extends CommitOutcome {
  merged: boolean;
  fastForward: boolean;
}

/** The content repository as the admin operations and the pipeline see it, whatever the backend. */
export interface ContentRepo {
  /** The commit a branch points at. */
  head(branch: Branch): Promise<string>;
  /** Every file under content/ at a commit, with its text (images under content/media/ have none: they are bytes). */
  filesAt(commit: string): Promise<{ tree: TreeFile[]; texts: Map<string, string> }>;
  listFiles(branch: Branch, dir: string): Promise<TreeFile[]>;
  /** A file at the head of a branch, or at a commit (`ref`). */
  /** A file at the head of a branch, or at a commit (`ref`); an image under content/media/ has no text but its `bytes`. */
  readFile(branch: Branch, path: string, ref?: string): Promise<{ sha: string; content: string; commit: string; bytes?: Buffer }>;
  /** Commits of a branch (or of one file on it), newest first, a page at a time. */
  history(branch: Branch, options: { path?: string; cursor?: string; limit: number }): Promise<{ commits: HistoryCommit[]; next: string | null }>;
  /**
   * One file's versions on a branch, newest first: each of the last `limit` commits that changed it, with its text
   * after that commit (null: deleted there). The GitHub backend reads them as they are asked for, so a walk that stops
   * early costs no more API calls; the local one reads them all in one log and one blob batch, which is cheaper still.
   */
  fileVersions(branch: Branch, path: string, limit: number): AsyncIterable<FileVersion>;
  /** What `head` has that `base` lacks: its commits, and every file it changes since they diverged. */
  compare(base: Branch, head: Branch): Promise<Comparison>;
  /** Problems of the whole tree as it would be with `changes`. */
  validate(branch: Branch, changes: FileChange[]): Promise<Problem[]>;
  /** What committing `changes` would do, without writing: the files it would touch and the tree's problems (409 on a stale base sha, as a commit). */
  review(branch: Branch, changes: FileChange[]): Promise<ChangeReview>;
  /**
   * One commit for all changes (and the deletion of the translations of each source file they delete), or nothing.
   * `author`: who wrote it, when not the service (an editor); without one the commit is the service's, as ever.
   */
  commit(branch: Branch, changes: FileChange[], message: string, author?: CommitAuthor): Promise<CommitOutcome>;
  /** Merges dev into main; a merge commit is `author`'s (a fast-forward makes no commit). */
  promote(message: string | undefined, author?: CommitAuthor): Promise<PromoteOutcome>;
  /** A blob's bytes by its sha (an image under content/media/: its sha is in the commit's tree). */
  bytes(sha: string): Promise<Buffer>;
  /** The images of a commit (the entries under content/media/, with their blob shas), without reading any file. */
  mediaAt(commit: string): Promise<TreeFile[]>;
  /** When a commit was made (its committer time). */
  committedAt(commit: string): Promise<Date>;
  /**
   * When a commit last changed each path under content/, as of `commit` (first-parent history: a merge counts
   * as the change it brings, at the time it was made). What sitemaps and feeds give as a page's modification time.
   */
  fileTimes(commit: string): Promise<Map<string, Date>>;
  /** The newest commits of a branch, newest first (candidates to serve when nothing was deployed yet). */
  recentCommits(branch: Branch, count: number): Promise<string[]>;
}

/** The content repository over the local bare git repository. */
export function createContentRepo(git: Git): ContentRepo {
  return createRepo(createLocalBackend(git));
}

/** How often a commit is tried again on a branch that moved under it (leaving the files it touches alone) before a 409. */
const COMMIT_ATTEMPTS = 5;

interface Policy {
  backend: GitBackend;
  withLock: ReturnType<typeof createKeyedLock>;
  /**
   * A commit's files never change: kept per commit (the last few), and a commit made here is entered from its
   * parent's files and the change, so neither a writer nor the build after it reads the tree again.
   */
  files: Map<string, RepoFiles>;
  /** When a commit last changed each path, per commit (the last few): shared, so never changed. */
  times: Map<string, Map<string, Date>>;
}

/** The content repository over any backend: the policy, written once. */
export function createRepo(backend: GitBackend): ContentRepo {
  const p: Policy = { backend, withLock: createKeyedLock(), files: new Map(), times: new Map() };
  const filesOfHead = async (branch: Branch) => filesAt(p, await backend.head(branch));
  return {
    head: (branch) => backend.head(branch),
    filesAt: (commit) => filesAt(p, commit),
    committedAt: async (commit) => new Date((await backend.meta(commit)).committedAt),
    bytes: (sha) => backend.bytes(sha),
    mediaAt: async (commit) => (await treeAt(p, commit)).filter((e) => REGULAR.has(e.mode) && isMediaPath(e.path)),
    fileTimes: (commit) => fileTimes(p, commit),
    recentCommits: async (branch, count) => backend.recentCommits(await backend.head(branch), count),
    listFiles: async (branch, dir) =>
      (await treeAt(p, await backend.head(branch))).filter((e) => REGULAR.has(e.mode) && (e.path === dir || e.path.startsWith(`${dir}/`))),
    readFile: (branch, path, ref) => readFile(p, branch, path, ref),
    history: (branch, options) => history(p, branch, options),
    fileVersions: async function* (branch, path, limit) {
      yield* backend.fileVersions(await backend.head(branch), path, limit);
    },
    compare: (base, target) => compare(p, base, target),
    validate: async (branch, changes) => problemsOfChange(await filesOfHead(branch), changes),
    review: async (branch, changes) => reviewChange(await filesOfHead(branch), changes),
    commit: (branch, changes, message, author) => commitChanges(p, branch, changes, message, safeAuthor(author)),
    promote: (message, author) => p.withLock('main', () => promote(p, message, safeAuthor(author))),
  };
}

function remember<T>(cache: Map<string, T>, key: string, value: T, max = 8): T {
  cache.set(key, value);
  if (cache.size > max) cache.delete(cache.keys().next().value!);
  return value;
}

/**
 * Every file under content/ at a commit. The texts of the files read last (and of the commits `alongside`, when
 * they are kept) are known by blob sha: a tree read after another (main's and dev's at a start, a push's, a
 * merge of two kept sides) asks the backend only for the blobs that differ. Entered in slices: 18k texts at once
 * held requests for 100 ms.
 */
async function filesAt(p: Policy, commit: string, alongside: string[] = []): Promise<RepoFiles> {
  const cached = p.files.get(commit);
  if (cached) return cached;
  const tree = await p.backend.tree(commit);
  // Images are bytes, never read as text: only checked as images when uploaded, and made into variants by the build.
  const regular = tree.filter((e) => REGULAR.has(e.mode) && !isMediaPath(e.path));
  const known = new Map<string, string>();
  const sides = [...alongside.map((sha) => p.files.get(sha)), [...p.files.values()].at(-1)];
  for (const side of sides) {
    if (!side) continue;
    for (const e of side.tree) {
      const text = side.texts.get(e.path);
      if (text !== undefined) known.set(e.sha, text);
    }
  }
  const read = await p.backend.texts(regular.filter((e) => !known.has(e.sha)).map((e) => e.sha));
  const pause = slicer();
  const texts = new Map<string, string>();
  for (const e of regular) {
    if (texts.size % 1024 === 0) await pause();
    texts.set(e.path, known.get(e.sha) ?? read.get(e.sha)!);
  }
  return remember(p.files, commit, { tree, texts });
}

/** A commit's entries without their texts: a listing or one file's read need not read every blob. */
async function treeAt(p: Policy, commit: string): Promise<TreeFile[]> {
  return p.files.get(commit)?.tree ?? p.backend.tree(commit);
}

async function readFile(p: Policy, branch: Branch, path: string, ref?: string): Promise<{ sha: string; content: string; commit: string; bytes?: Buffer }> {
  const commit = ref ? await p.backend.resolveCommit(ref) : await p.backend.head(branch);
  const entry = (await treeAt(p, commit)).find((e) => e.path === path);
  if (!entry) throw new AppError('not_found', `No file "${path}" on ${ref ? `commit ${ref.slice(0, 7)}` : branch}.`);
  if (!REGULAR.has(entry.mode)) throw new AppError('forbidden_path', `"${path}" is a symlink or submodule and is not readable as content.`);
  if (isMediaPath(path)) return { sha: entry.sha, content: '', commit, bytes: await p.backend.bytes(entry.sha) };
  const content = p.files.get(commit)?.texts.get(path) ?? (await p.backend.texts([entry.sha])).get(entry.sha)!;
  return { sha: entry.sha, content, commit };
}

async function fileTimes(p: Policy, commit: string): Promise<Map<string, Date>> {
  const known = p.times.get(commit);
  if (known) return known;
  return remember(p.times, commit, await p.backend.fileTimes(commit, (sha) => p.times.get(sha)));
}

function parseCursor(cursor: string): [string, number] {
  const match = /^([0-9a-f]{40}):(\d{1,7})$/.exec(cursor);
  if (!match)
    throw new AppError('bad_request', 'cursor is not one this service gave out; pass the `next` of the page before.', {
      errors: [{ pointer: '/cursor', message: 'unknown cursor' }],
    });
  return [match[1]!, Number(match[2])];
}

async function history(p: Policy, branch: Branch, { path, cursor, limit }: { path?: string; cursor?: string; limit: number }) {
  // A cursor is the page's starting commit and how many commits precede it in that walk, so pages stay
  // consistent while the branch moves on.
  const [start, skip] = cursor ? parseCursor(cursor) : [await p.backend.head(branch), 0];
  // A cursor of the right shape whose commit this repository has not (made up, or from another repository)
  // is the caller's mistake, said as one, not git's or GitHub's complaint.
  if (cursor) await p.backend.resolveCommit(start).catch(() => parseCursor(''));
  const { commits, more } = await p.backend.log(start, { ...(path ? { path } : {}), skip, limit });
  return { commits, next: more ? `${start}:${skip + limit}` : null };
}

async function compare(p: Policy, base: Branch, target: Branch): Promise<Comparison> {
  const [from, to] = await Promise.all([p.backend.head(base), p.backend.head(target)]);
  const divergence = await p.backend.compare(from, to);
  // Files as head changed them since the branches diverged: what merging head into base brings.
  const { mergeBase } = divergence;
  const before = mergeBase ? await filesAt(p, mergeBase) : { tree: [], texts: new Map<string, string>() };
  const after = await filesAt(p, to);
  const files = [...fileDiffs(before.texts, after.texts), ...mediaDiffs(before.tree, after.tree)].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  return { aheadBy: divergence.aheadBy, commits: await divergence.commits(), files };
}

/** The images (no text: compared by blob) that differ between two trees. */
function mediaDiffs(before: readonly TreeFile[], after: readonly TreeFile[]) {
  const side = (tree: readonly TreeFile[]) => new Map(tree.filter((e) => isMediaPath(e.path)).map((e) => [e.path, { sha: e.sha, size: e.size }]));
  const [was, is] = [side(before), side(after)];
  const paths = [...new Set([...was.keys(), ...is.keys()])].filter((path) => was.get(path)?.sha !== is.get(path)?.sha);
  return paths.map((path) => ({ path, before: null, after: null, media: { before: was.get(path) ?? null, after: is.get(path) ?? null } }));
}

const subject = (message: string) => message.split('\n')[0]!;

/** One commit for all changes, or nothing: paths, base shas and the whole tree are checked first. */
function commitChanges(p: Policy, branch: Branch, asked: FileChange[], message: string, author: CommitAuthor | undefined): Promise<CommitOutcome> {
  // Before the lock, what needs no tree; a deletion's full check (a file name, or an entry that is not a file)
  // needs the tree, and is made inside (checkPaths).
  for (const change of asked) (change.delete ? assertContentDir : assertWritablePath)(change.path);
  return p.withLock(branch, async () => {
    let base = await p.backend.head(branch);
    let parent = await filesAt(p, base);
    checkPaths(asked, parent.tree);
    checkBase(asked, parent.tree);
    const shas = new Map(asked.filter((c) => !c.delete).map((c) => [c.path, blobSha(bytesOf(c))]));
    for (let attempt = 1; ; attempt++) {
      // The translations a deleted source takes with it, as the tree committed onto has them.
      const changes = withTranslationsOfDeleted(asked, parent.tree);
      const files = changes.map((c) => ({ path: c.path, sha: c.delete ? null : shas.get(c.path)! }));
      const problems = await problemsWith(parent, changes);
      if (problems.length) throw invalidChange(problems);
      const current = new Map(parent.tree.map((e) => [e.path, e.sha]));
      if (changes.every((c) => (c.delete ? !current.has(c.path) : current.get(c.path) === shas.get(c.path)))) {
        return { branch, commit: { sha: base, message: subject((await p.backend.meta(base)).message) }, files, changed: false };
      }
      const after = filesAfter(parent, changes, shas);
      const result = await p.backend.commit({ branch, base, changes, shas, message, after, ...(author ? { author } : {}) });
      if ('made' in result) {
        remember(p.files, result.made, after);
        return { branch, commit: { sha: result.made, message }, files, changed: true };
      }
      // Someone else's commit moved the branch: build on it only if it left every file we were asked to touch as we read it.
      const next = await filesAt(p, result.movedTo);
      const now = new Map(next.tree.map((e) => [e.path, e.sha]));
      const touched = asked.find((c) => current.get(c.path) !== now.get(c.path));
      if (touched || attempt >= COMMIT_ATTEMPTS) {
        throw new AppError(
          'repo_error',
          touched
            ? `The branch ${branch} moved while committing and "${touched.path}" changed there; nothing was written. Read it again and reapply your change.`
            : `The branch ${branch} kept moving while committing; nothing was written. Try again.`,
          { status: 409, ...(touched ? { details: { path: touched.path, currentSha: now.get(touched.path) ?? null } } : {}) },
        );
      }
      base = result.movedTo;
      parent = next;
    }
  });
}

const mainMoved = () => new AppError('repo_error', 'The branch main moved while promoting; nothing was changed. Try again.', { status: 409 });

/** Merges dev into main (under main's lock): a fast-forward when possible, else a merge commit; conflicts change nothing. */
async function promote(p: Policy, message: string | undefined, author: CommitAuthor | undefined): Promise<PromoteOutcome> {
  const { backend } = p;
  const [main, dev] = await Promise.all([backend.head('main'), backend.head('dev')]);
  const divergence = await backend.compare(main, dev);
  if (divergence.aheadBy === 0) {
    const commit = { sha: main, message: subject((await backend.meta(main)).message) };
    return { branch: 'main', commit, files: [], changed: false, merged: false, fastForward: false };
  }
  if (divergence.behindBy === 0) {
    const problems = await problemsWith(await filesAt(p, dev), []);
    if (problems.length) throw new AppError('invalid', 'dev is not valid content; fix it before promoting.', { errors: problems });
    if ((await backend.moveRef('main', dev, main)) !== 'moved') throw mainMoved();
    const commit = { sha: dev, message: subject((await backend.meta(dev)).message) };
    return { branch: 'main', commit, files: await divergence.files(), changed: true, merged: true, fastForward: true };
  }
  const text = message ?? 'Promote dev to main';
  const merged = await backend.merge(
    main,
    dev,
    text,
    async (merge) => {
      // Every blob of the merge is one of the two sides' but for a file both changed: those kept are not read again.
      const problems = await problemsWith(await filesAt(p, merge, [main, dev]), []);
      if (problems.length) throw new AppError('invalid', 'Merging dev into main would leave the content invalid; nothing was changed.', { errors: problems });
      if ((await backend.moveRef('main', merge, main)) !== 'moved') throw mainMoved();
      return merge;
    },
    author,
  );
  if ('conflicts' in merged) {
    const paths = merged.conflicts;
    throw new AppError(
      'repo_error',
      `dev and main both changed ${paths.join(', ') || 'the same files'}; resolve the conflict on dev (make it match main where needed) and promote again. Nothing was changed.`,
      { status: 409, details: { conflicts: paths } },
    );
  }
  const files = await (await backend.compare(main, merged.value)).files();
  return { branch: 'main', commit: { sha: merged.value, message: text }, files, changed: true, merged: true, fastForward: false };
}
