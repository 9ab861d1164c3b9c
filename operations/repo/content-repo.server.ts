// Validated, atomic commits to the content repository through git plumbing and a private index:
// blobs → tree → commit → `update-ref` with the old value (compare-and-swap). No working tree exists,
// so a crash can leave unreferenced objects at worst, never a half-applied change.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, clipped, type Problem } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import type { Branch } from '../contract/shared.ts';
import { irregularProblems, loadContentSliced, REGULAR } from '../content/tree.ts';
import { slicer } from '../content/pause.ts';
import { assertContentDir, assertWritablePath } from '../content/paths.ts';
import { createKeyedLock } from './keyed-lock.ts';
import {
  fileDiffs,
  checkBase,
  checkPaths,
  filesAfter,
  invalidChange,
  problemsOfChange,
  problemsWith as problemsOf,
  reviewChange,
  withTranslationsOfDeleted,
  type ChangeReview,
  type FileChange,
} from './change-checks.ts';
import type { Git } from './git.server.ts';
import { hashObjects, listTree, readBlobs, resolveBranch, type TreeFile } from './local-repo.server.ts';

export type { ChangeReview, FileChange } from './change-checks.ts';

export interface CommitOutcome {
  branch: Branch;
  commit: { sha: string; message: string };
  files: Array<{ path: string; sha: string | null }>;
  /** false when the change left the tree as it was (no commit was made). */
  changed: boolean;
}

export interface HistoryCommit {
  sha: string;
  parents: string[];
  message: string;
  author: string;
  time: string;
  files: string[];
}

export interface FileVersion {
  commit: string;
  text: string | null;
}

export interface Comparison {
  aheadBy: number;
  commits: HistoryCommit[];
  /** Each changed file's text on both sides (null where it does not exist). */
  files: Array<{ path: string; before: string | null; after: string | null }>;
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

export interface PromoteOutcome extends CommitOutcome {
  merged: boolean;
  fastForward: boolean;
}

/** The content repository as the admin operations and the pipeline see it, whatever the backend. */
export interface ContentRepo {
  /** The commit a branch points at. */
  head(branch: Branch): Promise<string>;
  /** Every file under content/ at a commit, with its text. */
  filesAt(commit: string): Promise<{ tree: TreeFile[]; texts: Map<string, string> }>;
  listFiles(branch: Branch, dir: string): Promise<TreeFile[]>;
  /** A file at the head of a branch, or at a commit (`ref`). */
  readFile(branch: Branch, path: string, ref?: string): Promise<{ sha: string; content: string; commit: string }>;
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
  /** One commit for all changes (and the deletion of the translations of each source file they delete), or nothing. */
  commit(branch: Branch, changes: FileChange[], message: string): Promise<CommitOutcome>;
  /** Merges dev into main. */
  promote(message: string | undefined): Promise<PromoteOutcome>;
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

const ZERO = '0000000000000000000000000000000000000000';

export function createContentRepo(git: Git): ContentRepo {
  const withLock = createKeyedLock();
  // A commit's files never change: kept per commit (the last few), and a commit made here is entered from
  // its parent's files and the change, so neither a writer nor the build after it reads the tree again.
  const filesCache = new Map<string, { tree: TreeFile[]; texts: Map<string, string> }>();
  /** When a commit last changed each path, per commit (the last few): shared, so never changed. */
  const timesCache = new Map<string, Map<string, Date>>();
  const remember = (commit: string, files: { tree: TreeFile[]; texts: Map<string, string> }) => {
    filesCache.set(commit, files);
    if (filesCache.size > 8) filesCache.delete(filesCache.keys().next().value!);
    return files;
  };

  async function head(branch: Branch): Promise<string> {
    const sha = await resolveBranch(git, branch);
    if (!sha) throw new AppError('repo_not_configured', `The content repository has no branch "${branch}".`);
    return sha;
  }

  /** The full sha of a commit named by a (possibly abbreviated) sha; 404 when there is none. */
  async function commitOf(ref: string): Promise<string> {
    const { stdout, code } = await git.run(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { okCodes: [1, 128] });
    if (code !== 0) throw new AppError('not_found', `No commit "${ref}" in the content repository.`);
    return stdout.toString('utf8').trim();
  }

  function parseCursor(cursor: string): [string, number] {
    const match = /^([0-9a-f]{40}):(\d{1,7})$/.exec(cursor);
    if (!match)
      throw new AppError('bad_request', 'cursor is not one this service gave out; pass the `next` of the page before.', {
        errors: [{ pointer: '/cursor', message: 'unknown cursor' }],
      });
    return [match[1]!, Number(match[2])];
  }

  /** Commits from `git log`, each with the files it changed against its first parent. */
  async function log(args: string[], path?: string): Promise<HistoryCommit[]> {
    const out = await git.text([
      'log',
      '--format=%x1e%H%x1f%P%x1f%an%x1f%aI%x1f%s',
      '--name-only',
      '--diff-merges=first-parent',
      '--no-renames',
      ...args,
      '--',
      path ?? 'content',
    ]);
    return out
      .split('\x1e')
      .filter(Boolean)
      .map((block) => {
        const [header, ...names] = block.split('\n');
        const [sha, parents, author, time, message] = header!.split('\x1f');
        return listedCommit({
          sha: sha!,
          parents: parents ? parents.split(' ') : [],
          author: author!,
          time: time!,
          message: message ?? '',
          files: names.filter(Boolean),
        });
      });
  }

  async function filesAt(commit: string): Promise<{ tree: TreeFile[]; texts: Map<string, string> }> {
    const cached = filesCache.get(commit);
    if (cached) return cached;
    const tree = await listTree(git, commit);
    const regular = tree.filter((e) => REGULAR.has(e.mode));
    // The texts of the commit read last, by blob sha: a tree read after another (main's and dev's at a start, a
    // push's) reads only the blobs that differ. Decoded in slices: 18k texts at once held requests for 100 ms.
    const known = new Map<string, string>();
    const last = [...filesCache.values()].at(-1);
    if (last) {
      for (const e of last.tree) {
        const text = last.texts.get(e.path);
        if (text !== undefined) known.set(e.sha, text);
      }
    }
    const blobs = await readBlobs(
      git,
      regular.filter((e) => !known.has(e.sha)).map((e) => e.sha),
    );
    const pause = slicer();
    const texts = new Map<string, string>();
    for (const e of regular) {
      if (texts.size % 1024 === 0) await pause();
      let text = known.get(e.sha);
      if (text === undefined) known.set(e.sha, (text = blobs.get(e.sha)!.toString('utf8')));
      texts.set(e.path, text);
    }
    return remember(commit, { tree, texts });
  }

  /** Problems of the whole tree at `commit` with `changes` applied (irregular files included). */
  async function problemsWith(commit: string, changes: FileChange[]): Promise<Problem[]> {
    return problemsOf(await filesAt(commit), changes);
  }

  /** Builds a tree from `base` with changes applied, using a private index file. */
  async function writeTreeWith(base: string, changes: FileChange[]): Promise<{ tree: string; blobs: Map<string, string> }> {
    const writes = changes.filter((c) => !c.delete);
    const shas = await hashObjects(
      git,
      writes.map((c) => Buffer.from(c.content!, 'utf8')),
    );
    const blobs = new Map(writes.map((c, i) => [c.path, shas[i]!]));
    const index = join(git.gitDir, `vitae-index-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    const env = { GIT_INDEX_FILE: index };
    try {
      await git.run(['read-tree', base], { env });
      const lines = changes.map((c) => (c.delete ? `0 ${ZERO}\t${c.path}` : `100644 ${blobs.get(c.path)}\t${c.path}`));
      await git.run(['update-index', '--index-info'], { input: lines.join('\n') + '\n', env });
      return { tree: await git.text(['write-tree'], { env }), blobs };
    } finally {
      await rm(index, { force: true });
    }
  }

  async function casUpdate(branch: Branch, next: string, expected: string): Promise<void> {
    const args = ['update-ref', '-m', 'vitae', `refs/heads/${branch}`, next, expected];
    const { code } = await git.run(args, { okCodes: [128, 1] });
    if (code === 0) return;
    if ((await resolveBranch(git, branch)) !== expected) {
      throw new AppError('repo_error', `The branch ${branch} moved while committing; nothing was written. Try again.`, { status: 409 });
    }
    // The branch did not move, so git failed for another reason (a lock file, a full disk): the update is a
    // compare-and-swap, so trying once more is safe, and if it fails again that is a 502 in git's own words.
    await git.run(args);
  }

  return {
    head,
    filesAt,

    async committedAt(commit: string): Promise<Date> {
      return new Date(await git.text(['show', '-s', '--format=%cI', commit]));
    },

    async fileTimes(commit: string): Promise<Map<string, Date>> {
      const known = timesCache.get(commit);
      if (known) return known;
      // A commit whose first parent's times are known: those, with what it changed at its own time (a commit at
      // a time reads one diff, not the whole history, which at 100× the demo's content listed 20k paths per build).
      const [parents = '', date = ''] = (await git.text(['log', '-1', '--format=%P%x1f%cI', commit])).trim().split('\x1f');
      const parent = parents.split(' ')[0];
      const base = parent ? timesCache.get(parent) : undefined;
      const times = new Map<string, Date>(base);
      if (base) {
        const time = new Date(date);
        const changed = await git.text(['diff-tree', '-r', '--no-renames', '--name-only', '-z', parent!, commit, '--', 'content/']);
        for (const name of changed.split('\0')) if (name.trim()) times.set(name.trim(), time);
      } else {
        const out = await git.text([
          'log',
          '--first-parent',
          '--diff-merges=first-parent',
          '--no-renames',
          '--name-only',
          '-z',
          '--format=%x1e%cI',
          commit,
          '--',
          'content/',
        ]);
        for (const record of out.split('\x1e')) {
          const [date, ...names] = record.split('\0');
          if (!date) continue;
          const time = new Date(date);
          for (const name of names.map((n) => n.trim())) if (name && !times.has(name)) times.set(name, time);
        }
      }
      timesCache.set(commit, times);
      if (timesCache.size > 8) timesCache.delete(timesCache.keys().next().value!);
      return times;
    },

    async recentCommits(branch: Branch, count: number): Promise<string[]> {
      return (await git.text(['rev-list', '--first-parent', `--max-count=${count}`, `refs/heads/${branch}`])).split('\n').filter(Boolean);
    },

    async listFiles(branch: Branch, dir: string): Promise<TreeFile[]> {
      const { tree } = await filesAt(await head(branch));
      return tree.filter((e) => REGULAR.has(e.mode) && (e.path === dir || e.path.startsWith(`${dir}/`)));
    },

    async readFile(branch: Branch, path: string, ref?: string): Promise<{ sha: string; content: string; commit: string }> {
      const commit = ref ? await commitOf(ref) : await head(branch);
      const { tree, texts } = await filesAt(commit);
      const entry = tree.find((e) => e.path === path);
      if (!entry) throw new AppError('not_found', `No file "${path}" on ${ref ? `commit ${ref.slice(0, 7)}` : branch}.`);
      if (!REGULAR.has(entry.mode)) throw new AppError('forbidden_path', `"${path}" is a symlink or submodule and is not readable as content.`);
      return { sha: entry.sha, content: texts.get(path)!, commit };
    },

    async history(branch: Branch, { path, cursor, limit }: { path?: string; cursor?: string; limit: number }) {
      // A cursor is the page's starting commit and how many commits precede it in that walk, so pages stay
      // consistent while the branch moves on.
      const [start, skip] = cursor ? parseCursor(cursor) : [await head(branch), 0];
      // A cursor of the right shape whose commit this repository has not (made up, or from another repository)
      // is the caller's mistake, said as one, not git's or GitHub's complaint.
      if (cursor) await commitOf(start).catch(() => parseCursor(''));
      const commits = await log([`--skip=${skip}`, `--max-count=${limit + 1}`, start], path);
      const more = commits.length > limit;
      return { commits: commits.slice(0, limit), next: more ? `${start}:${skip + limit}` : null };
    },

    async *fileVersions(branch: Branch, path: string, limit: number): AsyncIterable<FileVersion> {
      // Each commit that changed the file and the blob it left (all zeros: deleted), in one log; the blobs in one read.
      const out = await git.text([
        'log',
        `--max-count=${limit}`,
        '--format=%x1e%H',
        '--raw',
        '--no-abbrev',
        '--no-renames',
        '--diff-merges=first-parent',
        await head(branch),
        '--',
        path,
      ]);
      const versions = out
        .split('\x1e')
        .filter(Boolean)
        .map((block) => {
          const [commit, ...raw] = block.trim().split('\n');
          const blob = raw.map((line) => /^:\d+ \d+ [0-9a-f]+ ([0-9a-f]+) \w+\t(.+)$/.exec(line)).find((m) => m?.[2] === path)?.[1];
          return { commit: commit!, blob: blob && !/^0+$/.test(blob) ? blob : null };
        });
      const blobs = await readBlobs(
        git,
        versions.flatMap((v) => (v.blob ? [v.blob] : [])),
      );
      for (const { commit, blob } of versions) yield { commit, text: blob ? blobs.get(blob)!.toString('utf8') : null };
    },

    async compare(base: Branch, target: Branch): Promise<Comparison> {
      const [from, to] = await Promise.all([head(base), head(target)]);
      const mergeBase = (await git.run(['merge-base', from, to], { okCodes: [1] })).stdout.toString('utf8').trim();
      const aheadBy = Number(await git.text(['rev-list', '--count', `${from}..${to}`]));
      const commits = aheadBy ? await log([`--max-count=${COMPARE_COMMITS}`, `${from}..${to}`]) : [];
      // Files as head changed them since the branches diverged: what merging head into base brings.
      const before = mergeBase ? (await filesAt(mergeBase)).texts : new Map<string, string>();
      const after = (await filesAt(to)).texts;
      return { aheadBy, commits, files: fileDiffs(before, after) };
    },

    async validate(branch: Branch, changes: FileChange[]): Promise<Problem[]> {
      return problemsOfChange(await filesAt(await head(branch)), changes);
    },

    async review(branch: Branch, changes: FileChange[]): Promise<ChangeReview> {
      return reviewChange(await filesAt(await head(branch)), changes);
    },

    /** One commit for all changes, or nothing: paths, base shas and the whole tree are checked first. */
    commit(branch: Branch, asked: FileChange[], message: string): Promise<CommitOutcome> {
      // Before the lock, what needs no tree; a deletion's full check (a file name, or an entry that is not a file)
      // needs the tree, and is made inside (checkPaths).
      for (const change of asked) (change.delete ? assertContentDir : assertWritablePath)(change.path);
      return withLock(branch, async () => {
        const base = await head(branch);
        const parent = await filesAt(base);
        const { tree } = parent;
        checkPaths(asked, tree);
        checkBase(asked, tree);
        const changes = withTranslationsOfDeleted(asked, tree);
        const problems = await problemsOf(parent, changes);
        if (problems.length) throw invalidChange(problems);
        const { tree: newTree, blobs } = await writeTreeWith(base, changes);
        const files = changes.map((c) => ({ path: c.path, sha: c.delete ? null : blobs.get(c.path)! }));
        if (newTree === (await git.text(['rev-parse', `${base}^{tree}`]))) {
          return { branch, commit: { sha: base, message: await git.text(['log', '-1', '--format=%s', base]) }, files, changed: false };
        }
        const commit = await git.text(['commit-tree', newTree, '-p', base, '-m', message]);
        await casUpdate(branch, commit, base);
        remember(commit, filesAfter(parent, changes, blobs));
        return { branch, commit: { sha: commit, message }, files, changed: true };
      });
    },

    /** Merges dev into main: fast-forward when possible, else a merge commit; conflicts change nothing. */
    promote(message: string | undefined): Promise<PromoteOutcome> {
      return withLock('main', async () => {
        const main = await head('main');
        const dev = await head('dev');
        const isAncestor = async (a: string, b: string) => (await git.run(['merge-base', '--is-ancestor', a, b], { okCodes: [1] })).code === 0;
        // The files a promotion changes on main, with their new blob shas (null when deleted).
        const changedFiles = async (from: string, to: string) => {
          const rows = (await git.text(['diff-tree', '-r', '--no-commit-id', '--name-status', from, to]))
            .split('\n')
            .filter(Boolean)
            .map((line) => {
              const [status, path] = line.split('\t');
              return { path: path!, deleted: status === 'D' };
            });
          const kept = rows.filter((r) => !r.deleted);
          const shas = kept.length ? (await git.text(['rev-parse', ...kept.map((r) => `${to}:${r.path}`)])).split('\n') : [];
          return rows.map((r) => ({ path: r.path, sha: r.deleted ? null : shas[kept.indexOf(r)]! }));
        };
        if (main === dev || (await isAncestor(dev, main))) {
          return {
            branch: 'main',
            commit: { sha: main, message: await git.text(['log', '-1', '--format=%s', main]) },
            files: [],
            changed: false,
            merged: false,
            fastForward: false,
          };
        }
        if (await isAncestor(main, dev)) {
          const problems = await problemsWith(dev, []);
          if (problems.length) throw new AppError('invalid', 'dev is not valid content; fix it before promoting.', { errors: problems });
          await casUpdate('main', dev, main);
          return {
            branch: 'main',
            commit: { sha: dev, message: await git.text(['log', '-1', '--format=%s', dev]) },
            files: await changedFiles(main, dev),
            changed: true,
            merged: true,
            fastForward: true,
          };
        }
        const merge = await git.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', main, dev], { okCodes: [1] });
        const lines = merge.stdout.toString('utf8').trim().split('\n');
        if (merge.code === 1) {
          const paths = [...new Set(lines.slice(1).filter(Boolean))];
          throw new AppError(
            'repo_error',
            `dev and main both changed ${paths.join(', ')}; resolve the conflict on dev (make it match main where needed) and promote again. Nothing was changed.`,
            { status: 409, details: { conflicts: paths } },
          );
        }
        const tree = lines[0]!;
        const texts = new Map<string, string>();
        const merged = await listTree(git, tree);
        // Every blob of the merge is one of the two sides' but for a file both changed: read only those.
        const known = new Map<string, string>();
        for (const side of await Promise.all([filesAt(main), filesAt(dev)]))
          for (const e of side.tree) if (side.texts.has(e.path)) known.set(e.sha, side.texts.get(e.path)!);
        const blobs = await readBlobs(
          git,
          merged.filter((e) => REGULAR.has(e.mode) && !known.has(e.sha)).map((e) => e.sha),
        );
        for (const e of merged) if (REGULAR.has(e.mode)) texts.set(e.path, known.get(e.sha) ?? blobs.get(e.sha)!.toString('utf8'));
        const { problems } = await loadContentSliced(texts, slicer());
        problems.push(...irregularProblems(merged)); // a symlink on dev must not reach main through a merge either
        if (problems.length) throw new AppError('invalid', 'Merging dev into main would leave the content invalid; nothing was changed.', { errors: problems });
        const text = message ?? 'Promote dev to main';
        const commit = await git.text(['commit-tree', tree, '-p', main, '-p', dev, '-m', text]);
        await casUpdate('main', commit, main);
        return {
          branch: 'main',
          commit: { sha: commit, message: text },
          files: await changedFiles(main, commit),
          changed: true,
          merged: true,
          fastForward: false,
        };
      });
    },
  };
}
