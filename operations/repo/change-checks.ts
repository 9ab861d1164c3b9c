// What every repository backend checks before it writes, whatever stores the content: writable paths, the
// per-file base sha (409 on a stale one), and the whole tree as it would be after the change. Lifted out of
// the local backend so the github backend answers exactly the same way.
import { createHash } from 'node:crypto';
import { AppError, type Problem } from '../contract/errors.ts';
import { translationLocales } from '../contract/shared.ts';
import { sourceKindOf, translationPath } from '../content/locate.ts';
import { irregularProblems, problemsAfter, REGULAR } from '../content/tree.ts';
import { slicer } from '../content/pause.ts';
import { assertContentDir, assertWritablePath, isMediaPath, MEDIA_DIR } from '../content/paths.ts';
import { mediaPathsOf, missingImageProblems } from '../content/media-refs.ts';
import type { TreeFile } from './local-repo.server.ts';

export interface FileChange {
  path: string;
  /** The new text of a content file. */
  content?: string;
  /** The new bytes of a file under content/media/ (an image), written as they are and never read as text. */
  bytes?: Uint8Array;
  delete?: true;
  /** Blob sha the change was based on (null: the file must not exist yet). */
  sha?: string | null;
}

export interface RepoFiles {
  tree: TreeFile[];
  /** The text of every regular file but those under content/media/ (images, which are bytes). */
  texts: Map<string, string>;
}

/** The bytes a change writes: its image's, or its text's in UTF-8. */
export const bytesOf = (change: FileChange): Buffer =>
  change.bytes ? Buffer.from(change.bytes.buffer, change.bytes.byteOffset, change.bytes.byteLength) : Buffer.from(change.content!, 'utf8');

/** Each tree's files by path, made once per tree (a tree read is never changed): 18k paths at 100× the demo's content. */
const byPathIndexes = new WeakMap<readonly TreeFile[], ReadonlyMap<string, TreeFile>>();
function byPathOf(tree: readonly TreeFile[]): ReadonlyMap<string, TreeFile> {
  let index = byPathIndexes.get(tree);
  if (!index) byPathIndexes.set(tree, (index = new Map(tree.map((e) => [e.path, e]))));
  return index;
}

export function checkPaths(changes: FileChange[], tree: readonly TreeFile[]): void {
  const byPath = byPathOf(tree);
  const seen = new Set<string>();
  for (const change of changes) {
    const existing = byPath.get(change.path);
    // An entry an outside push put into content/ that is not a file (a symlink to a folder, a submodule) makes the
    // tree invalid, so every commit is refused until it goes: it may be deleted by its own path, whatever its name,
    // as long as that path is in content/. The entry leaves the tree; nothing it points at is followed.
    if (change.delete && existing && !REGULAR.has(existing.mode)) assertContentDir(change.path);
    else assertWritablePath(change.path);
    if (seen.has(change.path)) throw new AppError('bad_request', `"${change.path}" appears twice in one commit; give each file once.`);
    seen.add(change.path);
    if (!change.delete && isMediaPath(change.path) !== (change.bytes !== undefined))
      throw new AppError(
        'bad_request',
        change.bytes
          ? `"${change.path}" is not under ${MEDIA_DIR}/: only images are written as bytes.`
          : `"${change.path}" is an image under ${MEDIA_DIR}/: upload it with admin_upload_media, not as text.`,
      );
    // Deleting a symlink removes the tree entry without following it (and is the way to repair a tree an
    // outside push put one into); writing to it is refused.
    if (existing && !REGULAR.has(existing.mode) && !change.delete)
      throw new AppError('forbidden_path', `"${change.path}" is a symlink or submodule in the repository and cannot be written through.`);
    const segments = change.path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const prefix = byPath.get(segments.slice(0, i).join('/'));
      if (prefix) throw new AppError('forbidden_path', `"${prefix.path}" is a file or symlink, so "${change.path}" cannot be written under it.`);
    }
  }
}

export function checkBase(changes: FileChange[], tree: readonly TreeFile[]): void {
  const byPath = byPathOf(tree);
  for (const change of changes) {
    const current = byPath.get(change.path)?.sha ?? null;
    if (change.sha !== undefined && change.sha !== current) {
      throw new AppError(
        'repo_error',
        // The current sha in full: it is what a retry passes as its base (a short one is refused as not a sha).
        `"${change.path}" changed since sha ${String(change.sha).slice(0, 7)}${current ? ` (it is now ${current})` : ' (it has been deleted)'}. Read it again and reapply your change; nothing was written.`,
        { status: 409, details: { path: change.path, currentSha: current } },
      );
    }
    if (change.delete && !current) throw new AppError('not_found', `"${change.path}" does not exist on this branch, so it cannot be deleted.`);
  }
}

/**
 * Problems of the whole tree of `files` with `changes` applied (irregular files included): the changed files are
 * parsed and what refers to them checked again, from `files`' own check (tree.ts keeps the tree checked last).
 */
export async function problemsWith({ tree, texts }: RepoFiles, changes: FileChange[]): Promise<Problem[]> {
  // Images are bytes, checked as images when uploaded: the content check reads only the text files.
  const problems = await problemsAfter(
    texts,
    changes.filter((c) => !isMediaPath(c.path)).map((c) => [c.path, c.delete ? undefined : c.content!] as const),
    slicer(),
  );
  const deleted = new Set(changes.filter((c) => c.delete).map((c) => c.path));
  problems.push(...irregularProblems(tree).filter((p) => !deleted.has(p.path!)));
  problems.push(...imageProblemsAfter(tree, texts, changes, deleted));
  return problems;
}

/**
 * `changes` with the deletion of every translation of each source file they delete, after them: a translation of a
 * deleted file is invalid, and deleting an entry should not need its six translations deleted by hand first. A
 * translation the changes name themselves (deleted, or written: then it is refused as the translation of nothing)
 * is left as they say. The deletions added carry no base sha: the editor's sha is the source's.
 */
export function withTranslationsOfDeleted(changes: FileChange[], tree: readonly TreeFile[]): FileChange[] {
  const byPath = byPathOf(tree);
  const named = new Set(changes.map((c) => c.path));
  const added: FileChange[] = [];
  for (const change of changes) {
    if (!change.delete || !sourceKindOf(change.path)) continue;
    for (const locale of translationLocales) {
      const path = translationPath(change.path, locale);
      if (!byPath.has(path) || named.has(path)) continue;
      named.add(path);
      added.push({ path, delete: true });
    }
  }
  return added.length ? [...changes, ...added] : changes;
}

/** What `validate` answers, on either backend: the paths checked (a bad one throws), then the tree's problems after `changes`. */
export function problemsOfChange(files: RepoFiles, changes: FileChange[]): Promise<Problem[]> {
  checkPaths(changes, files.tree);
  return problemsWith(files, withTranslationsOfDeleted(changes, files.tree));
}

export interface ChangeReview {
  problems: Problem[];
  /** Every file the commit would touch, in the order of the changes; `cascade`: a translation deleted with its source. */
  files: Array<{ path: string; status: 'added' | 'modified' | 'deleted'; cascade: boolean }>;
}

/**
 * What committing `changes` onto `files` would do, without writing, on either backend: paths and base shas checked as
 * a commit checks them (a stale sha is the commit's 409), then the files it would touch and the tree's problems.
 */
export async function reviewChange(files: RepoFiles, changes: FileChange[]): Promise<ChangeReview> {
  checkPaths(changes, files.tree);
  checkBase(changes, files.tree);
  const all = withTranslationsOfDeleted(changes, files.tree);
  const byPath = byPathOf(files.tree);
  return {
    problems: await problemsWith(files, all),
    files: all.map((c, i) => ({ path: c.path, status: c.delete ? 'deleted' : byPath.has(c.path) ? 'modified' : 'added', cascade: i >= changes.length })),
  };
}

/** The files that differ between two trees' texts, by path, with their text before and after (null: absent). */
export function fileDiffs(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>) {
  const paths = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p)).sort();
  return paths.map((path) => ({ path, before: before.get(path) ?? null, after: after.get(path) ?? null }));
}

/** The 422 a change with problems answers. */
export function invalidChange(problems: Problem[]): AppError {
  return new AppError(
    'invalid',
    `The change would leave the content invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was written.`,
    { errors: problems },
  );
}

/** The files of a commit made from `parent` with `changes` applied (`blobs`: each written file's sha). */
export function filesAfter(parent: RepoFiles, changes: FileChange[], blobs: Map<string, string>): RepoFiles {
  const byPath = new Map(parent.tree.map((e) => [e.path, e]));
  const texts = new Map(parent.texts);
  for (const change of changes) {
    if (change.delete) {
      byPath.delete(change.path);
      texts.delete(change.path);
    } else {
      const size = change.bytes ? change.bytes.byteLength : Buffer.byteLength(change.content!, 'utf8');
      byPath.set(change.path, { path: change.path, mode: '100644', sha: blobs.get(change.path)!, size });
      if (!isMediaPath(change.path)) texts.set(change.path, change.content!);
    }
  }
  return { tree: [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), texts };
}

/** The sha git gives a blob with this text or these bytes (so a backend knows a file's sha without asking for it). */
export function blobSha(content: string | Uint8Array): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * References to images the tree would not hold after `changes`: those of the files they write, and, when they delete
 * an image, those of every other file (no unchanged file can lose its image otherwise); without changes, all of them.
 */
function imageProblemsAfter(tree: readonly TreeFile[], texts: ReadonlyMap<string, string>, changes: FileChange[], deleted: ReadonlySet<string>): Problem[] {
  const media = mediaPathsOf(tree);
  for (const change of changes) if (isMediaPath(change.path)) media[change.delete ? 'delete' : 'add'](change.path);
  const written = new Map(changes.filter((c) => !c.delete && !isMediaPath(c.path)).map((c) => [c.path, c.content!]));
  // No change: the tree itself is checked (a promote's), every reference in it.
  if (!changes.length) return missingImageProblems(texts, media);
  const problems = missingImageProblems(written, media);
  if ([...deleted].some(isMediaPath)) {
    const others = new Map([...texts].filter(([path]) => !written.has(path) && !deleted.has(path)));
    problems.push(...missingImageProblems(others, media));
  }
  return problems;
}
