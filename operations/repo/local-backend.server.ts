// The GitBackend port over the local bare repository, through git plumbing and a private index: blobs → tree →
// commit → `update-ref` with the old value (compare-and-swap). No working tree exists, so a crash can leave
// unreferenced objects at worst, never a half-applied change.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { slicer } from '../content/pause.ts';
import { bytesOf, type FileChange } from './change-checks.ts';
import {
  COMPARE_COMMITS,
  listedCommit,
  coAuthorOf,
  safeAuthor,
  withCoAuthor,
  type CommitAuthor,
  type CommitRequest,
  type CommitResult,
  type Divergence,
  type GitBackend,
  type HistoryCommit,
} from './git-backend.ts';
import type { Git } from './git.server.ts';
import { hashObjects, listTree, readBlobs, resolveBranch } from './local-repo.server.ts';

const ZERO = '0000000000000000000000000000000000000000';

export function createLocalBackend(git: Git): GitBackend {
  return {
    async head(branch) {
      const sha = await resolveBranch(git, branch);
      if (!sha) throw new AppError('repo_not_configured', `The content repository has no branch "${branch}".`);
      return sha;
    },
    async resolveCommit(ref) {
      const { stdout, code } = await git.run(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { okCodes: [1, 128] });
      if (code !== 0) throw new AppError('not_found', `No commit "${ref}" in the content repository.`);
      return stdout.toString('utf8').trim();
    },
    tree: (commit) => listTree(git, commit),
    texts: (shas) => texts(git, shas),
    bytes: async (sha) => (await readBlobs(git, [sha])).get(sha)!,
    async meta(sha) {
      const out = await git.text(['show', '-s', '--format=%H%x1f%P%x1f%an%x1f%aI%x1f%cI%x1f%B', sha]);
      const [full, parents, author, authorDate, committedAt, ...message] = out.split('\x1f');
      const fields = { author: author!, authorDate: authorDate!, committedAt: committedAt!, message: message.join('\x1f') };
      return { sha: full!, parents: parents ? parents.split(' ') : [], ...fields };
    },
    async log(start, { path, skip, limit }) {
      const commits = await log(git, [`--skip=${skip}`, `--max-count=${limit + 1}`, start], path);
      return { commits: commits.slice(0, limit), more: commits.length > limit };
    },
    fileVersions: (head, path, limit) => fileVersions(git, head, path, limit),
    async recentCommits(head, count) {
      return (await git.text(['rev-list', '--first-parent', `--max-count=${count}`, head])).split('\n').filter(Boolean);
    },
    fileTimes: (commit, known) => fileTimes(git, commit, known),
    compare: (from, to) => compare(git, from, to),
    commit: (request) => commit(git, request),
    moveRef: (branch, to, expected) => casUpdate(git, branch, to, expected),
    async merge(ours, theirs, message, use, author) {
      const merge = await git.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], { okCodes: [1] });
      const lines = merge.stdout.toString('utf8').trim().split('\n');
      if (merge.code === 1) return { conflicts: [...new Set(lines.slice(1).filter(Boolean))] };
      const commit = await git.text(['commit-tree', lines[0]!, '-p', ours, '-p', theirs, '-m', messageOf(message, author)], authoredBy(author));
      return { value: await use(commit) };
    },
  };
}

/** Blob texts with one `cat-file --batch`, decoded in slices: 18k texts at once held requests for 100 ms. */
async function texts(git: Git, shas: string[]): Promise<Map<string, string>> {
  const blobs = await readBlobs(git, shas);
  const pause = slicer();
  const decoded = new Map<string, string>();
  for (const [sha, bytes] of blobs) {
    if (decoded.size % 1024 === 0) await pause();
    decoded.set(sha, bytes.toString('utf8'));
  }
  return decoded;
}

/**
 * The git author of a commit `author` wrote (the environment git reads it from); the committer stays the service,
 * and without an author the commit is the service's own.
 */
function authoredBy(author: CommitAuthor | undefined): { env: Record<string, string> } | undefined {
  const who = safeAuthor(author);
  return who ? { env: { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email } } : undefined;
}

/**
 * The message as written: git records its author. But history names a message's first co-author as the commit's
 * author, so one that names co-authors itself gets its author's trailer first, lest another name stand in for theirs.
 */
const messageOf = (message: string, author: CommitAuthor | undefined) => (author && coAuthorOf(message) ? withCoAuthor(message, author) : message);

/** Commits from `git log`, each with the files it changed against its first parent. */
async function log(git: Git, args: string[], path?: string): Promise<HistoryCommit[]> {
  // The whole message, ended by \x1d, then the names: listedCommit takes its subject and a co-author from it.
  const out = await git.text([
    'log',
    '--format=%x1e%H%x1f%P%x1f%an%x1f%aI%x1f%B%x1d',
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
      const end = block.lastIndexOf('\x1d');
      const names = block.slice(end + 1).split('\n');
      const [sha, parents, author, time, ...message] = block.slice(0, end).split('\x1f');
      return listedCommit({
        sha: sha!,
        parents: parents ? parents.split(' ') : [],
        author: author!,
        time: time!,
        message: message.join('\x1f'),
        files: names.filter(Boolean),
      });
    });
}

async function* fileVersions(git: Git, head: string, path: string, limit: number) {
  // Each commit that changed the file and the blob it left (all zeros: deleted), in one log; the blobs in one read.
  const out = await git.text([
    'log',
    `--max-count=${limit}`,
    '--format=%x1e%H',
    '--raw',
    '--no-abbrev',
    '--no-renames',
    '--diff-merges=first-parent',
    head,
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
  const blobs = await texts(
    git,
    versions.flatMap((v) => (v.blob ? [v.blob] : [])),
  );
  for (const { commit, blob } of versions) yield { commit, text: blob ? blobs.get(blob)! : null };
}

async function fileTimes(git: Git, commit: string, known: (sha: string) => ReadonlyMap<string, Date> | undefined): Promise<Map<string, Date>> {
  // A commit whose first parent's times are known: those, with what it changed at its own time (a commit at
  // a time reads one diff, not the whole history, which at 100× the demo's content listed 20k paths per build).
  const [parents = '', date = ''] = (await git.text(['log', '-1', '--format=%P%x1f%cI', commit])).trim().split('\x1f');
  const parent = parents.split(' ')[0];
  const base = parent ? known(parent) : undefined;
  const times = new Map<string, Date>(base);
  if (base) {
    const time = new Date(date);
    const changed = await git.text(['diff-tree', '-r', '--no-renames', '--name-only', '-z', parent!, commit, '--', 'content/']);
    for (const name of changed.split('\0')) if (name.trim()) times.set(name.trim(), time);
    return times;
  }
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
    const [stamp, ...names] = record.split('\0');
    if (!stamp) continue;
    const time = new Date(stamp);
    for (const name of names.map((n) => n.trim())) if (name && !times.has(name)) times.set(name, time);
  }
  return times;
}

async function compare(git: Git, from: string, to: string): Promise<Divergence> {
  const mergeBase = (await git.run(['merge-base', from, to], { okCodes: [1] })).stdout.toString('utf8').trim() || null;
  // `from...to` counted from both sides: what only `from` has (behind), then what only `to` has (ahead).
  const [behindBy = 0, aheadBy = 0] = (await git.text(['rev-list', '--left-right', '--count', `${from}...${to}`])).split(/\s+/).map(Number);
  return {
    aheadBy,
    behindBy,
    mergeBase,
    commits: async () => (aheadBy ? log(git, [`--max-count=${COMPARE_COMMITS}`, `${from}..${to}`]) : []),
    files: () => changedFiles(git, mergeBase ?? from, to),
  };
}

/** The files that differ between two commits, with their blob shas at `to` (null when deleted). */
async function changedFiles(git: Git, from: string, to: string): Promise<Array<{ path: string; sha: string | null }>> {
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
}

async function commit(git: Git, { branch, base, changes, message, author }: CommitRequest): Promise<CommitResult> {
  const tree = await writeTreeWith(git, base, changes);
  const made = await git.text(['commit-tree', tree, '-p', base, '-m', messageOf(message, author)], authoredBy(author));
  if ((await casUpdate(git, branch, made, base)) === 'moved') return { made };
  const movedTo = await resolveBranch(git, branch);
  if (!movedTo) throw new AppError('repo_not_configured', `The branch ${branch} was deleted while committing; nothing was written.`);
  return { movedTo };
}

/** Builds a tree from `base` with changes applied, using a private index file. */
async function writeTreeWith(git: Git, base: string, changes: FileChange[]): Promise<string> {
  const writes = changes.filter((c) => !c.delete);
  const shas = await hashObjects(git, writes.map(bytesOf));
  const blobs = new Map(writes.map((c, i) => [c.path, shas[i]!]));
  const index = join(git.gitDir, `vitae-index-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await git.run(['read-tree', base], { env });
    const lines = changes.map((c) => (c.delete ? `0 ${ZERO}\t${c.path}` : `100644 ${blobs.get(c.path)}\t${c.path}`));
    await git.run(['update-index', '--index-info'], { input: lines.join('\n') + '\n', env });
    return await git.text(['write-tree'], { env });
  } finally {
    await rm(index, { force: true });
  }
}

async function casUpdate(git: Git, branch: Branch, next: string, expected: string): Promise<'moved' | 'stale'> {
  const args = ['update-ref', '-m', 'vitae', `refs/heads/${branch}`, next, expected];
  const { code } = await git.run(args, { okCodes: [128, 1] });
  if (code === 0) return 'moved';
  if ((await resolveBranch(git, branch)) !== expected) return 'stale';
  // The branch did not move, so git failed for another reason (a lock file, a full disk): the update is a
  // compare-and-swap, so trying once more is safe, and if it fails again that is a 502 in git's own words.
  await git.run(args);
  return 'moved';
}
