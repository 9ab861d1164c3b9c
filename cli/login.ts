// `vitae login` / `vitae logout`: the admin token of a site, stored per site URL (cli/credentials.ts). Login
// checks the token with a read-only admin operation first, so a wrong token is refused, never stored.
import { ApiError, createClient, NetworkError } from '../operations/adapters/client.ts';
import { exitCodes } from '../operations/contract/errors.ts';
import { operationsByName } from '../operations/contract/index.ts';
import { credentialsFile, forgetToken, storeToken } from './credentials.ts';
import { CliFailure, networkFailure, TOKEN_HELP } from './failure.ts';
import { readTextFrom } from './input.ts';
import type { CliIO } from './io.ts';
import { isInteractive, readHidden } from './prompt.ts';
import { siteUrl, userAgent } from './settings.ts';

/** A cheap read that needs the token, and says whose it is. */
const CHECK_OPERATION = 'whoami';

export async function login(io: CliIO, urlFlag: string | undefined, tokenStdin: boolean): Promise<void> {
  const url = siteUrl(urlFlag, io.env);
  let token: string;
  if (tokenStdin) token = (await readTextFrom(io.stdin)('-')).trim();
  else if (isInteractive(io)) token = (await readHidden(io, `Admin token for ${url}: `)).trim();
  else
    throw new CliFailure(
      exitCodes.usage,
      'vitae login: there is no terminal to ask for the token on; pipe it in with --token-stdin (vitae login --token-stdin < token-file)',
    );
  if (!token) throw new CliFailure(exitCodes.usage, `vitae login: the token is empty; nothing was stored. ${TOKEN_HELP}`);
  if (/\s/.test(token)) throw new CliFailure(exitCodes.usage, 'vitae login: a token has no spaces or line breaks; give the token alone');

  const op = operationsByName.get(CHECK_OPERATION);
  if (!op) throw new CliFailure(exitCodes.error, `vitae login needs the ${CHECK_OPERATION} operation to check the token.`);
  const client = createClient({ baseUrl: url, token, fetch: io.fetch, userAgent });
  let account: { name?: string; role?: string } = {};
  try {
    account = await client.call<typeof account>(op, {}, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    if (error instanceof NetworkError) throw networkFailure(url, error);
    if (error instanceof ApiError && error.status === 401)
      throw new CliFailure(exitCodes.auth, `The service at ${url} refused this token; nothing was stored. ${TOKEN_HELP}`, error.body);
    if (error instanceof ApiError) throw new CliFailure(exitCodes.unavailable, `Could not check the token at ${url}: ${error.body.message}`, error.body);
    throw error;
  }
  storeToken(io.env, url, token);
  const who = account.name && account.role ? ` as ${account.name} (${account.role})` : '';
  io.stderr.write(`Logged in to ${url}${who}. The token is stored in ${credentialsFile(io.env)} (readable only by you).\n`);
  if (io.env.SITE_ADMIN_TOKEN?.trim()) io.stderr.write('Note: SITE_ADMIN_TOKEN is set in this shell and is used instead while it is.\n');
}

export async function logout(io: CliIO, urlFlag: string | undefined): Promise<void> {
  const url = siteUrl(urlFlag, io.env);
  if (forgetToken(io.env, url)) io.stderr.write(`Logged out of ${url}: its token was removed from ${credentialsFile(io.env)}.\n`);
  else io.stderr.write(`No token was stored for ${url}; nothing to remove.\n`);
  if (io.env.SITE_ADMIN_TOKEN?.trim()) io.stderr.write('Note: SITE_ADMIN_TOKEN is still set in this shell; unset it too.\n');
}
