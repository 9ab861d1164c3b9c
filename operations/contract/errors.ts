// The one error table: every error code the service answers with, its HTTP status, and the CLI exit code.
// Surfaces never pick a status themselves; they look it up here.
import { limits } from './limits.ts';

export const errorTable = {
  bad_request: { status: 400, exit: 2, summary: 'The request does not match the operation’s schema.' },
  unauthorized: { status: 401, exit: 4, summary: 'Missing or invalid admin credentials.' },
  forbidden: { status: 403, exit: 5, summary: 'The request is not allowed (for example a cross-site write).' },
  forbidden_path: { status: 403, exit: 5, summary: 'The path is not a content file; only content files are read and written.' },
  not_found: { status: 404, exit: 3, summary: 'The addressed resource does not exist.' },
  method_not_allowed: { status: 405, exit: 2, summary: 'The route exists but not for this method.' },
  payload_too_large: { status: 413, exit: 2, summary: 'The request body is too large.' },
  unsupported_media_type: {
    status: 415,
    exit: 2,
    summary: 'The request body is not JSON (`Content-Type: application/json`), or an upload is not an image type taken.',
  },
  request_header_fields_too_large: { status: 431, exit: 2, summary: 'The request’s headers are too large.' },
  invalid: { status: 422, exit: 6, summary: 'The content fails validation; `errors` lists the problems.' },
  rate_limited: { status: 429, exit: 8, summary: 'Too many requests; retry after the `Retry-After` seconds.' },
  repo_error: { status: 502, exit: 7, summary: 'The repository refused (409: the branch moved) or failed (502).' },
  repo_not_configured: { status: 503, exit: 9, summary: 'No repository backend is usable.' },
  chat_not_configured: { status: 503, exit: 9, summary: 'No model provider is configured.' },
  transcription_not_configured: { status: 503, exit: 9, summary: 'No model provider is configured for transcription.' },
  unavailable: { status: 503, exit: 9, summary: 'The service cannot answer right now.' },
  internal: { status: 500, exit: 1, summary: 'An unexpected error; the server log has the details.' },
} as const;

export type ErrorCode = keyof typeof errorTable;

/** Exit codes of the CLI by error class, documented in `vitae --help` and the README. */
export const exitCodes = {
  ok: 0,
  error: 1,
  usage: 2,
  not_found: 3,
  auth: 4,
  forbidden: 5,
  invalid: 6,
  conflict: 7,
  rate_limited: 8,
  unavailable: 9,
} as const;

export interface Problem {
  path?: string;
  pointer?: string;
  message: string;
  line?: number;
}

/** `text` cut to at most `max` characters (UTF-16 units, a pair never split), ending in "…" when it was cut. */
export function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 2] ?? '') ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/**
 * Problems as an answer lists them (an error's `errors`, a validation's `problems`): at most `limits.problems`, the
 * last then saying how many more there are, each cut to the lengths the contract states (a message may quote a
 * git process's output, a path pushed from elsewhere may be longer than any the service writes).
 */
export function listedProblems(problems: readonly Problem[]): Problem[] {
  const cut = (problem: Problem): Problem => {
    const { path, pointer, message } = problem;
    if (message.length <= limits.message && (path?.length ?? 0) <= limits.path && (pointer?.length ?? 0) <= limits.path) return problem;
    return {
      ...problem,
      ...(path !== undefined ? { path: clipped(path, limits.path) } : {}),
      ...(pointer !== undefined ? { pointer: clipped(pointer, limits.path) } : {}),
      message: clipped(message, limits.message),
    };
  };
  if (problems.length <= limits.problems) return problems.map(cut);
  const listed = problems.slice(0, limits.problems - 1).map(cut);
  return [...listed, { message: `… and ${problems.length - listed.length} more problems, not listed` }];
}

/** What an error may carry besides its code and message. */
export interface AppErrorOptions {
  status?: number;
  errors?: Problem[];
  headers?: Record<string, string>;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** An error as a value: a code from the table, a message a person can act on, and optional details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: Problem[];
  readonly headers?: Record<string, string>;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? errorTable[code].status;
    this.errors = options.errors && listedProblems(options.errors);
    this.headers = options.headers;
    this.details = options.details;
  }

  toBody(): ErrorBody {
    return {
      code: this.code,
      message: clipped(this.message, limits.message),
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.details ?? {}),
    };
  }
}

export interface ErrorBody {
  code: string;
  message: string;
  errors?: Problem[];
  [key: string]: unknown;
}

/**
 * An AppError (or subclass), recognised by its shape: the web build bundles a copy of this module of its
 * own, so an error the server's copy threw is not `instanceof` the class the web code imports.
 */
export function isAppError(error: unknown): error is AppError {
  const e = error as Partial<AppError> | null;
  return error instanceof Error && typeof e?.code === 'string' && e.code in errorTable && typeof e.status === 'number' && typeof e.toBody === 'function';
}

/**
 * A 429, the one shape every refusal for too many requests has (a spent budget of ask, chat or match_role, a client
 * over its share of the work queue, a throttled credential): `Retry-After` and the body's `retryAfter` say the same
 * whole seconds, and a budget adds its `RateLimit` and `RateLimit-Policy` headers (the IETF draft's, never X-RateLimit-*).
 */
export function rateLimited(message: string, retryAfterSeconds: number, budgetHeaders: Record<string, string> = {}): AppError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError('rate_limited', message, { headers: { ...budgetHeaders, 'Retry-After': String(retryAfter) }, details: { retryAfter } });
}

export const notFound = (message: string): never => {
  throw new AppError('not_found', message);
};

/** The CLI exit code for an HTTP status (and so for every error code). */
export function exitCodeForStatus(status: number): number {
  if (status === 400 || status === 405 || status === 413 || status === 415 || status === 431) return exitCodes.usage;
  if (status === 401) return exitCodes.auth;
  if (status === 403) return exitCodes.forbidden;
  if (status === 404) return exitCodes.not_found;
  if (status === 409) return exitCodes.conflict;
  if (status === 422) return exitCodes.invalid;
  if (status === 429) return exitCodes.rate_limited;
  if (status >= 500) return exitCodes.unavailable;
  return exitCodes.error;
}
