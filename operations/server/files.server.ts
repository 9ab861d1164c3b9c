// Small durable-file helpers: write to a temporary file, fsync, rename, so a crash leaves the old or
// the new version and never half of one.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createKeyedLock } from '../repo/keyed-lock.ts';

/**
 * Writes to one path land one after another, in call order: two writers never share a temporary file,
 * and an older snapshot never replaces a newer one.
 */
export function writeFileAtomic(path: string, data: string, mode = 0o644): Promise<void> {
  return writesByPath(path, () => replaceFile(path, data, mode));
}

const writesByPath = createKeyedLock();

async function replaceFile(path: string, data: string, mode: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } catch {
    // some file systems cannot fsync a directory; the rename is still atomic
  } finally {
    await dir.close();
  }
}

export async function readJson<T>(path: string, fallback: T): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return fallback;
  }
}
