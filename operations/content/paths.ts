// Which paths an editor may write: regular `.md` and `.json` files under `content/`, and images under
// `content/media/` (bytes, not text), nothing that could leave it or touch anything else. Anything else is 403
// forbidden_path.
import { AppError } from '../contract/errors.ts';

import { isMediaPath, MEDIA_DIR, mediaExtensions } from '../contract/media-files.ts';

export { isMediaPath, MEDIA_DIR, mediaExtensions } from '../contract/media-files.ts';
export const MEDIA_NAME = new RegExp(`^[a-z0-9][a-z0-9_-]*(?:\\.[a-z0-9_-]+)*\\.(?:${mediaExtensions.join('|')})$`);


/**
 * `media`: false to check a folder's probe path by the rules of any folder (assertContentDir). `access`: how the rule
 * is worded, for a write (the default) or a read; the rules are the same.
 */
export function writablePathProblem(path: string, media = true, access: 'write' | 'read' = 'write'): string | undefined {
  const able = access === 'read' ? 'readable' : 'writable';
  if (typeof path !== 'string' || !path) return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL byte';
  if (path.includes('\\')) return 'backslashes are not allowed; use "/"';
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) return 'absolute paths are not allowed; paths start with "content/"';
  if (/%[0-9a-fA-F]{2}/.test(path)) return 'percent-encoded characters are not allowed in a content path';
  const segments = path.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return '"." and ".." segments are not allowed';
  if (segments.some((s) => s === '')) return 'empty path segments ("//" or a trailing "/") are not allowed';
  if (segments.some((s) => s.startsWith('.'))) return `dot-files and dot-folders are not ${able}`;
  if (segments[0] !== 'content' || segments.length < 2) return `only files under content/ are ${able}`;
  if (media && isMediaPath(path)) {
    if (segments.length !== 3) return `images live directly in ${MEDIA_DIR}/, not in a folder under it`;
    if (!MEDIA_NAME.test(segments[2]!))
      return `an image under ${MEDIA_DIR}/ is named with lowercase letters, digits, "-" and "_", ending in .${mediaExtensions.join(', .')}`;
    return undefined;
  }
  if (!/\.(md|json)$/.test(path)) return `only .md and .json files are ${able}`;
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'control characters are not allowed';
  return undefined;
}

export function assertWritablePath(path: string): void {
  const problem = writablePathProblem(path);
  if (problem) throw new AppError('forbidden_path', `"${printable(path)}" is not a writable content file: ${problem}.${relativeHint(path)}`);
}

/** The same rules for a read, said as a read's: the path names no content file (nothing about writing). */
export function assertReadablePath(path: string): void {
  const problem = writablePathProblem(path, true, 'read');
  if (problem) throw new AppError('forbidden_path', `"${printable(path)}" is not a content file: ${problem}.${relativeHint(path)}`);
}

/** For a path that is not under content/: paths start at the repository's root, and the one probably meant. */
function relativeHint(path: string): string {
  if (typeof path !== 'string' || path.startsWith('content/')) return '';
  const meant = `content/${path}`;
  return writablePathProblem(meant) ? ' Paths are relative to the repository, such as content/site.json.' : ` Paths are relative to the repository: ${printable(meant)}.`;
}

/** A folder filter for listings: same rules, but for a directory. */
export function assertContentDir(dir: string): string {
  const clean = dir.replace(/\/+$/, '');
  if (!clean) return 'content';
  const problem = writablePathProblem(`${clean}/x.md`, false);
  if (problem) throw new AppError('forbidden_path', `"${printable(dir)}" is not a content folder: ${problem}.`);
  return clean;
}

function printable(path: string): string {
  return String(path).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).slice(0, 200);
}

export const writablePathRules = [
  'Regular .md and .json files under content/ only; images (.jpg, .jpeg, .png, .webp, .avif) directly in content/media/, uploaded with admin_upload_media.',
  'No "..", ".", empty segments, absolute paths, backslashes, NUL or control characters, percent-encoding.',
  'No dot-files or dot-folders; symlinks are never written or followed.',
];
