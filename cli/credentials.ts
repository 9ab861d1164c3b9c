// Admin tokens stored by `vitae login`, one per site URL, in the user's config directory
// ($XDG_CONFIG_HOME/vitae/credentials.json, else ~/.config/vitae/): the directory is 0700 and the file 0600,
// written to a temporary file and renamed so a crash never leaves half a file. SITE_ADMIN_TOKEN wins over it.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from './colour.ts';

interface CredentialFile {
  /** Site URL (no trailing slash) → its admin token. */
  tokens: Record<string, { token: string; savedAt: string }>;
}

const home = (env: Env) => env.HOME || homedir();

export const configDir = (env: Env) => join(env.XDG_CONFIG_HOME || join(home(env), '.config'), 'vitae');
export const cacheDir = (env: Env) => join(env.XDG_CACHE_HOME || join(home(env), '.cache'), 'vitae');
export const credentialsFile = (env: Env) => join(configDir(env), 'credentials.json');

function load(env: Env): CredentialFile {
  try {
    const data = JSON.parse(readFileSync(credentialsFile(env), 'utf8')) as Partial<CredentialFile>;
    return { tokens: data.tokens && typeof data.tokens === 'object' ? data.tokens : {} };
  } catch {
    return { tokens: {} };
  }
}

function save(env: Env, data: CredentialFile): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = credentialsFile(env);
  if (!Object.keys(data.tokens).length) {
    rmSync(file, { force: true });
    return;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

const key = (url: string) => url.replace(/\/+$/, '');

export function storedToken(env: Env, url: string): string | undefined {
  return load(env).tokens[key(url)]?.token || undefined;
}

export function storeToken(env: Env, url: string, token: string): void {
  const data = load(env);
  data.tokens[key(url)] = { token, savedAt: new Date().toISOString() };
  save(env, data);
}

/** Removes the token of `url`; false when there was none. */
export function forgetToken(env: Env, url: string): boolean {
  const data = load(env);
  if (!data.tokens[key(url)]) return false;
  delete data.tokens[key(url)];
  save(env, data);
  return true;
}
