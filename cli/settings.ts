// Where the CLI finds the service and its credentials: --url, then SITE_URL, then the local default;
// the admin token from SITE_ADMIN_TOKEN, else the one `vitae login` stored for that URL (never a flag, so
// it stays out of shell history).
import { readFileSync } from 'node:fs';
import { UsageError } from './input.ts';
import type { Env } from './colour.ts';
import { storedToken } from './credentials.ts';

export const DEFAULT_SITE_URL = 'http://localhost:3000';

export const version: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

export const userAgent = `vitae-cli/${version}`;

export function siteUrl(flag: string | undefined, env: Env): string {
  const value = flag ?? (env.SITE_URL || DEFAULT_SITE_URL);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag ? '--url' : 'SITE_URL'} "${value}" is not a URL; give one like ${DEFAULT_SITE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag ? '--url' : 'SITE_URL'} must be an http or https URL, not "${value}"`);
  return value.replace(/\/+$/, '');
}

export type TokenSource = 'env' | 'login';

export interface AdminCredential {
  token: string;
  source: TokenSource;
}

/** SITE_ADMIN_TOKEN when set, else the token `vitae login` stored for `url`. */
export function adminCredential(env: Env, url: string): AdminCredential | undefined {
  const fromEnv = env.SITE_ADMIN_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, source: 'env' };
  const stored = storedToken(env, url);
  return stored ? { token: stored, source: 'login' } : undefined;
}

export const adminToken = (env: Env, url: string) => adminCredential(env, url)?.token;
