// Every way a command can fail, turned into one or a few lines a person can act on and the documented exit
// code. No stack traces: a failure is an expected outcome with a cause and a next step.
import { ApiError, NetworkError } from '../operations/adapters/client.ts';
import type { AnyOperation } from '../operations/contract/define.ts';
import { errorTable, exitCodeForStatus, exitCodes, isAppError, type ErrorBody, type ErrorCode } from '../operations/contract/errors.ts';
import type { Colours } from './colour.ts';
import { formatProblems } from './format.ts';
import { restHintsToCommands } from './hints.ts';
import { UsageError } from './input.ts';
import type { TokenSource } from './settings.ts';

export class CliFailure extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
    /** The error body printed on stdout with `--json`: the API's, its hints naming commands instead of routes. */
    readonly body?: ErrorBody,
  ) {
    super(message);
    this.name = 'CliFailure';
  }
}

/** What a failure the CLI found itself is called with --json: the error code the service answers with for its exit code. */
const codeForExit: Record<number, ErrorCode> = {
  [exitCodes.error]: 'internal',
  [exitCodes.usage]: 'bad_request',
  [exitCodes.not_found]: 'not_found',
  [exitCodes.auth]: 'unauthorized',
  [exitCodes.forbidden]: 'forbidden',
  [exitCodes.invalid]: 'invalid',
  [exitCodes.conflict]: 'repo_error',
  [exitCodes.rate_limited]: 'rate_limited',
  [exitCodes.unavailable]: 'unavailable',
};

/** Without the escape sequences of colour. */
const withoutColour = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * What `--json` prints on stdout for a failure: the API's error body as it came, or, for one the CLI found
 * itself (bad input, no token, no terminal to ask on, the service unreachable), a body of the same shape.
 * None for a failure that says nothing more (its output is already printed) or is no error (exit 0).
 */
export function errorBodyOf(failure: CliFailure): ErrorBody | undefined {
  if (failure.body) return failure.body;
  if (failure.exitCode === exitCodes.ok || !failure.message) return undefined;
  return { code: codeForExit[failure.exitCode] ?? 'internal', message: withoutColour(failure.message).trim() };
}

/** Wrong use of the command line as a failure (exit 2), its problems listed as the API lists a 400's. */
export function usageFailure(error: UsageError, prefix: string): CliFailure {
  const message = `${prefix}: ${error.message}`;
  return new CliFailure(exitCodes.usage, message, { code: 'bad_request', message, ...(error.problems ? { errors: error.problems } : {}) });
}

/** Where the token comes from, said wherever a token is missing or refused. */
export const TOKEN_HELP =
  '`npm start` prints the admin token (or ADMIN_TOKEN sets it) and keeps a generated one in DATA_DIR/secrets/admin-token; ' +
  'store it once with `vitae login` (in a checkout: vitae login --token-stdin < .data/secrets/admin-token), or set SITE_ADMIN_TOKEN';

export const missingToken = (command: string, url: string) =>
  new CliFailure(exitCodes.auth, `vitae ${command} needs the admin token: run \`vitae login\` for ${url}, or set SITE_ADMIN_TOKEN. ${TOKEN_HELP}`);

/** Where the token a request used came from, as the 401 message names it. */
export const tokenOrigin = (source: TokenSource | undefined) => (source === 'login' ? 'stored by `vitae login`' : 'in SITE_ADMIN_TOKEN');

export function networkFailure(url: string, error: NetworkError): CliFailure {
  const prefix = `Cannot reach ${error.url}: `;
  const cause = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new CliFailure(
    exitCodes.unavailable,
    `Cannot reach the Vitae service at ${url} (${cause}). Start it with \`npm start\`, or point vitae at it with --url or SITE_URL.`,
  );
}

export interface FailureContext {
  op: AnyOperation;
  command: string;
  input: Record<string, unknown>;
  url: string;
  colours: Colours;
  /** Where the admin token came from, for the 401 message. */
  tokenSource?: TokenSource;
}

export function describeFailure(error: unknown, ctx: FailureContext): CliFailure {
  if (error instanceof CliFailure) return error;
  if (error instanceof UsageError) return usageFailure(error, `vitae ${ctx.command}`);
  if (error instanceof NetworkError) return networkFailure(ctx.url, error);
  // Refused before any request in the service's own words (an argument that addresses nothing: `vitae doc nope`).
  if (isAppError(error)) return new CliFailure(errorTable[error.code].exit, error.message, error.toBody());
  if (!(error instanceof ApiError)) return new CliFailure(exitCodes.error, `vitae ${ctx.command}: ${(error as Error)?.message ?? String(error)}`);

  const { status } = error;
  // The service's hints name REST routes (`GET /api/v1/entries`); on the command line, name the command, in the
  // message printed and in the body --json prints alike.
  const body: ErrorBody = { ...error.body, message: restHintsToCommands(String(error.body.message ?? '')) };
  const exit = exitCodeForStatus(status);
  const path = typeof ctx.input.path === 'string' ? ctx.input.path : typeof ctx.input.slug === 'string' ? ctx.input.slug : undefined;
  const c = ctx.colours;
  switch (status) {
    case 401:
      return new CliFailure(
        exit,
        `The service at ${ctx.url} refused the admin token ${tokenOrigin(ctx.tokenSource)} (${body.message.replace(/\.$/, '')}). ${TOKEN_HELP}`,
        body,
      );
    case 409: {
      const reread = path
        ? `vitae admin get ${path}${ctx.input.branch && ctx.input.branch !== 'main' ? ` --branch ${ctx.input.branch}` : ''}`
        : 'vitae admin get <path>';
      // The service names the file's current sha in full (`currentSha`): the base a retry passes.
      const current = typeof body.currentSha === 'string' ? body.currentSha : '<the sha it prints>';
      return new CliFailure(
        exit,
        `Conflict: ${body.message}\nSomeone changed it after your copy was read. ` +
          `Re-read the current version with \`${reread}\`, apply your change to it, then retry with --sha ${current}` +
          (path ? ` (or run \`vitae admin edit ${path}\`, which merges your change onto theirs).` : '.'),
        body,
      );
    }
    case 422:
      return new CliFailure(exit, `${body.message}\n${formatProblems(body.errors ?? [], path ?? '', c)}`, body);
    case 400:
      return new CliFailure(exit, `vitae ${ctx.command}: ${body.errors?.length ? body.errors.map((e) => e.message).join('; ') : body.message}`, body);
    case 429: {
      const retry = error.headers.get('retry-after');
      // The service's message usually says when already ("Try again in 37 seconds."): the wait is said once.
      const when = retry && !/try again/i.test(body.message) ? ` Try again in ${retry} seconds.` : '';
      return new CliFailure(exit, `${body.message}${when}`, body);
    }
    default:
      return new CliFailure(exit, `${body.message}${body.code ? c.dim(` (${status} ${body.code})`) : ''}`, body);
  }
}
