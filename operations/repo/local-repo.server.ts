// The embedded content repository: a bare git repository under DATA_DIR, seeded from the product's own
// `content/` on first start with branches `main` and `dev`. Reading a tree never touches a working copy.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { isMediaPath } from '../content/paths.ts';
import { createGit, type Git, type GitObserver } from './git.server.ts';

export interface TreeFile {
  path: string;
  mode: string;
  sha: string;
  size: number;
}

/** Reads every regular file under `dir` (a folder named `content`) into a path → text map. */
export async function readContentDir(root: string): Promise<Map<string, string>> {
  const paths = (await filesUnder(root)).filter((full) => !isMediaPath(repoPathOf(root, full)));
  // Read a few dozen at once: one after another, the 18k files of 100× the demo took 2.5 s.
  const texts = new Array<string>(paths.length);
  for (let i = 0; i < paths.length; i += 64) {
    await Promise.all(paths.slice(i, i + 64).map(async (full, j) => (texts[i + j] = await readFile(full, 'utf8'))));
  }
  return new Map(paths.map((full, i) => [repoPathOf(root, full), texts[i]!]));
}

/** The images of a content folder (its media/ folder), byte for byte, by repository path: they are not text. */
export async function readMediaDir(root: string): Promise<Map<string, Buffer>> {
  const media = join(root, 'media');
  if (!existsSync(media)) return new Map();
  const paths = await filesUnder(media);
  return new Map(await Promise.all(paths.map(async (full) => [repoPathOf(root, full), await readFile(full)] as const)));
}

const repoPathOf = (root: string, full: string) => relative(join(root, '..'), full).split(sep).join('/');

async function filesUnder(root: string): Promise<string[]> {
  const paths: string[] = [];
  async function walk(dir: string) {
    for (const dirent of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, dirent.name);
      if (dirent.isDirectory()) await walk(full);
      else if (dirent.isFile()) paths.push(full);
    }
  }
  await walk(root);
  return paths;
}

export async function openLocalRepo(gitDir: string, log: (line: string) => void = () => {}, onCommand?: GitObserver): Promise<Git> {
  const git = createGit(gitDir, onCommand);
  if (!existsSync(join(gitDir, 'HEAD'))) {
    await mkdir(gitDir, { recursive: true });
    await git.run(['init', '--bare', '--quiet', '--initial-branch=main']);
    await git.run(['config', 'core.logAllRefUpdates', 'always']); // reflogs keep every published state recoverable
    await git.run(['config', 'gc.auto', '0']);
  }
  // A commit that was answered 200 must survive a power cut: fsync objects and refs before returning.
  await git.run(['config', 'core.fsync', 'committed']);
  await git.run(['config', 'core.fsyncMethod', 'fsync']);
  await removeCrashLeftovers(gitDir, log);
  return git;
}

/**
 * A crash inside `git update-ref` leaves `refs/heads/<branch>.lock` (and `HEAD.lock`), and git then refuses every later
 * update of that branch until someone deletes it. This service owns the repository, and nothing of ours
 * runs before it has opened it, so at start such a lock is stale: remove it, and our private index files.
 */
async function removeCrashLeftovers(gitDir: string, log: (line: string) => void): Promise<void> {
  const stale: string[] = [];
  for (const name of await readdir(gitDir).catch(() => [] as string[])) {
    // HEAD.lock too: updating a branch that HEAD points at also locks HEAD (for its reflog).
    if (name.endsWith('.lock') || name.startsWith('vitae-index-') || /^index-\d+-\d+-/.test(name)) stale.push(join(gitDir, name));
  }
  async function walk(dir: string) {
    for (const dirent of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = join(dir, dirent.name);
      if (dirent.isDirectory()) await walk(full);
      else if (dirent.name.endsWith('.lock')) stale.push(full);
    }
  }
  await walk(join(gitDir, 'refs'));
  for (const file of stale) {
    await rm(file, { force: true });
    log(`[vitae] removed ${relative(gitDir, file)} left in the content repository by an earlier crash`);
  }
}

/** Creates the first commit from a content folder (its texts, and its images from readMediaDir) and points `main` and `dev` at it. */
export async function seedRepo(
  git: Git,
  files: ReadonlyMap<string, string>,
  message = 'Seed content from the product',
  media: ReadonlyMap<string, Uint8Array> = new Map(),
): Promise<string> {
  const tree = await writeTree(git, [
    ...[...files].map(([path, text]) => ({ path, content: Buffer.from(text, 'utf8') })),
    ...[...media].map(([path, bytes]) => ({ path, content: Buffer.from(bytes) })),
  ]);
  const commit = await git.text(['commit-tree', tree, '-m', message]);
  await git.run(['update-ref', 'refs/heads/main', commit, '']);
  await git.run(['update-ref', 'refs/heads/dev', commit, '']);
  return commit;
}

/** Writes blobs and a tree for a complete set of files (through a private index, so no work tree is involved). */
export async function writeTree(git: Git, files: Array<{ path: string; content: Buffer }>): Promise<string> {
  const shas = await hashObjects(
    git,
    files.map((f) => f.content),
  );
  const index = join(git.gitDir, `index-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    const lines = files.map((f, i) => `100644 ${shas[i]}\t${f.path}`).join('\n');
    await git.run(['update-index', '--add', '--index-info'], { input: lines + '\n', env });
    return await git.text(['write-tree'], { env });
  } finally {
    await rm(index, { force: true });
  }
}

/**
 * Stores blobs and returns their shas in order, with one `git fast-import` for them all: a process per blob
 * took 4 s for the 1,800 files of 10× the demo at a first start (and 40 s at 100×). Below
 * `fastimport.unpackLimit` (100) the objects are written loose, as `hash-object -w` would; above it, as one pack.
 * `--done` makes a stream cut short fail instead of storing part of it.
 */
export async function hashObjects(git: Git, contents: Buffer[]): Promise<string[]> {
  if (!contents.length) return [];
  const stream: Buffer[] = [];
  contents.forEach((content, i) => stream.push(Buffer.from(`blob\nmark :${i + 1}\ndata ${content.length}\n`), content, NEWLINE));
  stream.push(Buffer.from('done\n'));
  const marks = join(git.gitDir, `vitae-marks-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  try {
    await git.run(['fast-import', '--quiet', '--done', `--export-marks=${marks}`], { input: Buffer.concat(stream) });
    const shas = new Array<string>(contents.length);
    for (const line of (await readFile(marks, 'utf8')).split('\n')) {
      const match = /^:(\d+) ([0-9a-f]{40,64})$/.exec(line);
      if (match) shas[Number(match[1]) - 1] = match[2]!;
    }
    const missing = shas.findIndex((sha) => !sha);
    if (missing >= 0) throw new AppError('repo_error', `git fast-import did not store blob ${missing + 1} of ${contents.length}`);
    return shas;
  } finally {
    await rm(marks, { force: true });
  }
}

const NEWLINE = Buffer.from('\n');

export async function resolveBranch(git: Git, branch: Branch): Promise<string | null> {
  const { stdout, code } = await git.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], { okCodes: [1] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/** Lists the files of `content/` at a commit: path, mode, blob sha and size. */
export async function listTree(git: Git, commit: string): Promise<TreeFile[]> {
  const out = (await git.run(['ls-tree', '-r', '-l', '-z', '--full-tree', commit, '--', 'content'])).stdout.toString('utf8');
  return out
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, , sha, size] = line.slice(0, tab).split(/\s+/);
      return { path: line.slice(tab + 1), mode: mode!, sha: sha!, size: Number(size) || 0 };
    });
}

/** Reads many blobs with one `cat-file --batch` process. */
export async function readBlobs(git: Git, shas: string[]): Promise<Map<string, Buffer>> {
  const result = new Map<string, Buffer>();
  if (!shas.length) return result;
  const unique = [...new Set(shas)];
  const out = (await git.run(['cat-file', '--batch'], { input: unique.join('\n') + '\n' })).stdout;
  let offset = 0;
  for (const sha of unique) {
    const headerEnd = out.indexOf(0x0a, offset);
    const header = out.subarray(offset, headerEnd).toString('utf8');
    const [, type, size] = header.split(' ');
    if (type !== 'blob') throw new AppError('repo_error', `object ${sha} is not a blob (${header})`);
    const start = headerEnd + 1;
    result.set(sha, out.subarray(start, start + Number(size)));
    offset = start + Number(size) + 1;
  }
  return result;
}
