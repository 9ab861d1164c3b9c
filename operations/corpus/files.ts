// Files written whole or not at all, for what the build floor keeps under DATA_DIR (kept builds, embeddings).
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';

/**
 * Writes `file` whole: a temporary file beside it (`tmp`, by default a name of its own), synced, then renamed over
 * it. A failed write removes its temporary file.
 */
export async function writeWhole(file: string, chunks: readonly Buffer[], tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`): Promise<void> {
  const handle = await open(tmp, 'w', 0o644);
  try {
    for (const chunk of chunks) await handle.write(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(tmp).catch(() => {});
    throw error;
  }
  await handle.close();
  await rename(tmp, file);
}
