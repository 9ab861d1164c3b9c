// Secrets the service needs (admin token, session key): from the environment, or generated once with
// 32 random bytes and kept in DATA_DIR with mode 0600.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export async function loadOrCreateSecret(dataDir: string, name: string, fromEnv?: string): Promise<{ value: string; generated: boolean }> {
  if (fromEnv) return { value: fromEnv, generated: false };
  const file = join(dataDir, 'secrets', name);
  try {
    const value = (await readFile(file, 'utf8')).trim();
    if (value) return { value, generated: false };
  } catch {
    // not there yet: generated below
  }
  const value = randomBytes(32).toString('base64url');
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, value + '\n', { mode: 0o600, flag: 'w' });
  await chmod(file, 0o600);
  return { value, generated: true };
}
