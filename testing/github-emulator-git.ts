// Test support: the GitHub emulator's git plumbing on its REAL bare repository. Refs move only by
// compare-and-swap (`git update-ref <ref> <new> <old>`), and blobs, trees and commits are what git itself says,
// shaped as GitHub's JSON shows them.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Git } from '../operations/repo/git.server.ts';
import { SHA, ZERO, type EmulatorState, type RefUpdate } from './github-emulator-types.ts';

export async function text(s: EmulatorState, args: string[], opts?: Parameters<Git['run']>[1]): Promise<string> {
  return (await s.git.run(args, opts)).stdout.toString('utf8').trim();
}

/** git's answer, or null when it fails (a ref or object that is not there). */
export async function tryText(s: EmulatorState, args: string[]): Promise<string | null> {
  const { stdout, code } = await s.git.run(args, { okCodes: [1, 128] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

export function head(s: EmulatorState, branch: string): Promise<string | null> {
  return tryText(s, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
}

function notify(s: EmulatorState, update: RefUpdate) {
  for (const listener of s.listeners) {
    try {
      listener(update);
    } catch {
      // a listener's failure is its own
    }
  }
}

/** Compare-and-swap a branch: false when it did not point at `expected` (null: must not exist). */
export async function casRef(s: EmulatorState, branch: string, next: string | null, expected: string | null, via: RefUpdate['via']): Promise<boolean> {
  const ref = `refs/heads/${branch}`;
  const args = next === null ? ['update-ref', '-d', ref, expected ?? ''] : ['update-ref', ref, next, expected ?? ZERO];
  const { code } = await s.git.run(args, { okCodes: [1, 128] });
  if (code !== 0) return false;
  notify(s, { ref, branch, before: expected, after: next, via });
  return true;
}

/** Applies the `beforeRefUpdate` switch (once), then the compare-and-swap. */
export async function apiRefUpdate(s: EmulatorState, branch: string, next: string | null, expected: string | null): Promise<boolean> {
  const hook = s.faults.beforeRefUpdate;
  if (hook) {
    s.faults.beforeRefUpdate = undefined;
    await hook(branch);
  }
  return casRef(s, branch, next, expected, 'api');
}

export function objectType(s: EmulatorState, sha: string): Promise<string | null> {
  return tryText(s, ['cat-file', '-t', sha]);
}

/** A commit as the git-commits API shows it. */
export async function commitJson(s: EmulatorState, sha: string) {
  const out = await text(s, ['show', '-s', '--format=%H%x1f%T%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B', sha]);
  const [full, tree, parents, an, ae, ad, cn, ce, cd, ...message] = out.split('\x1f');
  const api = `${s.base}${s.repoPrefix}`;
  return {
    sha: full!,
    tree: { sha: tree!, url: `${api}/git/trees/${tree}` },
    parents: (parents ? parents.split(' ') : []).map((p) => ({ sha: p, url: `${api}/git/commits/${p}` })),
    message: message.join('\x1f').replace(/\n+$/, ''),
    author: { name: an!, email: ae!, date: ad! },
    committer: { name: cn!, email: ce!, date: cd! },
    url: `${api}/git/commits/${full}`,
    html_url: `https://github.com/${s.repository}/commit/${full}`,
  };
}

/** A commit as the commits API shows it (`/commits`, `/compare`), optionally with its files against the first parent. */
export async function restCommit(s: EmulatorState, sha: string, withFiles: boolean) {
  const c = await commitJson(s, sha);
  const entry: Record<string, unknown> = {
    sha: c.sha,
    commit: { message: c.message, author: c.author, committer: c.committer, tree: c.tree, url: c.url },
    parents: c.parents,
    html_url: c.html_url,
    url: `${s.base}${s.repoPrefix}/commits/${c.sha}`,
  };
  if (withFiles) {
    const against = c.parents[0]?.sha;
    const rows = against
      ? await text(s, ['diff-tree', '-r', '--no-renames', '--name-status', against, c.sha])
      : await text(s, ['diff-tree', '-r', '--root', '--no-commit-id', '--name-status', c.sha]);
    // Each file with the blob it has after the commit, as GitHub lists it (`sha`; a removed file's is not used).
    const files = parseNameStatus(rows);
    const kept = files.filter((f) => f.status !== 'removed');
    const shas = kept.length ? (await text(s, ['rev-parse', ...kept.map((f) => `${c.sha}:${f.filename}`)])).split('\n') : [];
    entry.files = files.map((f) => ({ ...f, sha: f.status === 'removed' ? null : shas[kept.indexOf(f)]! }));
  }
  return entry;
}

export function parseNameStatus(rows: string) {
  const statuses: Record<string, string> = { A: 'added', M: 'modified', D: 'removed', T: 'changed' };
  return rows
    .split('\n')
    .filter((l) => l.includes('\t'))
    .map((line) => {
      const [status, filename] = line.split('\t');
      return { filename: filename!, status: statuses[status!.charAt(0)] ?? 'modified' };
    });
}

export async function treeEntries(s: EmulatorState, treeish: string, recursive: boolean) {
  const out = (await s.git.run(['ls-tree', ...(recursive ? ['-r', '-t'] : []), '-l', '-z', '--full-tree', treeish])).stdout.toString('utf8');
  return out
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, type, sha, size] = line.slice(0, tab).split(/\s+/);
      return {
        path: line.slice(tab + 1),
        mode: mode!,
        type: type!,
        sha: sha!,
        ...(type === 'blob' ? { size: Number(size) } : {}),
        url: `${s.base}${s.repoPrefix}/git/${type === 'tree' ? 'trees' : 'blobs'}/${sha}`,
      };
    });
}

/** Builds a tree from `baseTree` (or empty) with entries set or removed, through a private index. */
export async function writeTree(
  s: EmulatorState,
  baseTree: string | null,
  entries: Array<{ path: string; mode: string; sha: string | null }>,
): Promise<string> {
  const index = join(s.bareDir, `emulator-index-${process.pid}-${randomBytes(6).toString('hex')}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    if (baseTree) await s.git.run(['read-tree', baseTree], { env });
    else await s.git.run(['read-tree', '--empty'], { env });
    const lines = entries.map((e) => (e.sha === null ? `0 ${ZERO}\t${e.path}` : `${e.mode} ${e.sha}\t${e.path}`));
    if (lines.length) await s.git.run(['update-index', '--add', '--index-info'], { input: lines.join('\n') + '\n', env });
    return await text(s, ['write-tree'], { env });
  } finally {
    await rm(index, { force: true });
  }
}

export function hashBlob(s: EmulatorState, content: Buffer): Promise<string> {
  return text(s, ['hash-object', '-w', '--stdin'], { input: content });
}

export function makeCommit(
  s: EmulatorState,
  tree: string,
  parents: string[],
  message: string,
  author?: { name?: string; email?: string; date?: string },
  committerDate?: string,
): Promise<string> {
  const env: Record<string, string> = committerDate ? { GIT_COMMITTER_DATE: committerDate, GIT_AUTHOR_DATE: committerDate } : {};
  if (author?.name) env.GIT_AUTHOR_NAME = author.name;
  if (author?.email) env.GIT_AUTHOR_EMAIL = author.email;
  if (author?.date) env.GIT_AUTHOR_DATE = author.date;
  return text(s, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], { input: message, env });
}

/** A branch name, a full sha, or an abbreviated one, as the commit it names (null: none). */
export async function resolveCommitish(s: EmulatorState, ref: string): Promise<string | null> {
  if (SHA.test(ref)) return (await objectType(s, ref)) === 'commit' ? ref : null;
  return (await head(s, ref)) ?? (/^[0-9a-f]{4,39}$/.test(ref) ? tryText(s, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]) : null);
}

/** An outside push: `changes` committed on top of `branch` with plumbing, the branch moved by compare-and-swap. */
export async function push(
  s: EmulatorState,
  branch: string,
  changes: Array<{ path: string; content?: string; delete?: true; mode?: string }>,
  message: string,
): Promise<string> {
  const parent = await head(s, branch);
  const entries: Array<{ path: string; mode: string; sha: string | null }> = [];
  for (const c of changes)
    entries.push({ path: c.path, mode: c.mode ?? '100644', sha: c.delete ? null : await hashBlob(s, Buffer.from(c.content ?? '', 'utf8')) });
  const tree = await writeTree(s, parent ? await text(s, ['rev-parse', `${parent}^{tree}`]) : null, entries);
  const commit = await makeCommit(s, tree, parent ? [parent] : [], message, { name: 'Outsider', email: 'o@example.test' });
  if (!(await casRef(s, branch, commit, parent, 'push'))) throw new Error(`emulator push: ${branch} moved during the push`);
  return commit;
}
