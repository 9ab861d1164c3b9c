// The console's browser side runs operations as the signed-in editor at their REST routes (/api/admin/…), with
// the console's session cookie: the same door, pipeline and answers as a script with the bearer token. Errors come
// back as words a person can act on, one wording per status, with the problems and the wait the service gave.
import { ApiError, NetworkError, requestFor } from '../../operations/adapters/client.ts';
import type { OperationNamed, OutputOf, RawInputOf } from '../../operations/contract/index.ts';
import { consoleRoutes, type ConsoleOperation } from './operation-routes.ts';
import type { ProblemOut } from './types.ts';

/** The method, address (relative to the console's own origin) and JSON body that carry `input` to operation `name`. */
export function requestOf<N extends ConsoleOperation>(name: N, input: RawInputOf<OperationNamed<N>>): { method: string; url: string; body?: string } {
  // Every operation's input is an object of fields; the REST client takes them as such.
  const fields = typeof input === 'object' && input !== null ? Object.fromEntries(Object.entries(input)) : {};
  const { method, url, body } = requestFor({ rest: consoleRoutes[name] }, fields, { baseUrl: '' });
  return { method, url, body };
}

/**
 * Runs an operation as the signed-in editor; throws ApiError with the operation's error body on failure. The browser
 * sends the session cookie (same origin) and, on a write, the Origin the service checks against cross-site requests.
 */
export async function callOperation<N extends ConsoleOperation>(
  name: N,
  input: RawInputOf<OperationNamed<N>>,
  signal?: AbortSignal,
): Promise<OutputOf<OperationNamed<N>>> {
  const { method, url, body: sent } = requestOf(name, input);
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { Accept: 'application/json', ...(sent === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: sent,
      signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new NetworkError(window.location.origin, error);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch (error) {
    // Cancelled while the answer was read (the text changed again): the caller's abort, not an answer. An answer
    // that cannot be read is never returned as if it were the operation's output.
    if ((error as Error).name === 'AbortError') throw error;
    if (res.ok) throw new NetworkError(window.location.origin, error);
    body = { code: 'http_error', message: res.statusText };
  }
  if (!res.ok) throw new ApiError(res.status, body as ErrorBody, res.headers);
  return body as OutputOf<OperationNamed<N>>;
}

export interface ErrorBody {
  code: string;
  message: string;
  errors?: ProblemOut[];
  [key: string]: unknown;
}

/** What went wrong, for a person: a short title, the service's own message, the problems, and what to do. */
export interface Trouble {
  status: number;
  code: string;
  title: string;
  message: string;
  problems: ProblemOut[];
  /** Seconds to wait before trying again (429). */
  retryAfter?: number;
  /** For a 409 on a file: the path that moved on the branch and its sha now. */
  conflict?: { path: string; currentSha: string | null };
}

const titles: Record<number, string> = {
  400: 'The request was not accepted',
  401: 'You are signed out',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Someone changed this in the meantime',
  413: 'Too large',
  422: 'The content would not be valid',
  429: 'Too many requests',
  500: 'Something went wrong on the server',
  502: 'The repository did not answer',
  503: 'Not available right now',
};

const advice: Record<number, string> = {
  401: 'Sign in again; your edits are kept in this browser.',
  403: 'Your role does not allow this: ask a publisher to do it, or to give you the publisher role. Your edits are kept in this browser.',
  409: 'Compare your edit with the current version and merge them; nothing you typed is lost.',
  422: 'Fix the problems listed, then try again.',
  429: 'Wait a moment, then try again.',
  502: 'Try again in a moment; nothing was written.',
  503: 'Nothing was written.',
};

export function troubleFromBody(status: number, body: ErrorBody, retryAfter?: number): Trouble {
  const path = typeof body.path === 'string' ? body.path : undefined;
  return {
    status,
    code: body.code,
    title: titles[status] ?? 'The request failed',
    message: [body.message, advice[status]].filter(Boolean).join(' '),
    problems: body.errors ?? [],
    ...(retryAfter ? { retryAfter } : {}),
    ...(status === 409 && path ? { conflict: { path, currentSha: (body.currentSha as string | null | undefined) ?? null } } : {}),
  };
}

/** Any error thrown by callOperation (or fetch) as a Trouble. */
export function troubleOf(error: unknown): Trouble {
  if (error instanceof ApiError) {
    const retry = Number(error.headers.get('retry-after'));
    return troubleFromBody(error.status, error.body, Number.isFinite(retry) && retry > 0 ? retry : undefined);
  }
  if (error instanceof NetworkError || (error instanceof TypeError && /fetch/i.test(error.message))) {
    return {
      status: 0,
      code: 'network',
      title: 'The service could not be reached',
      message: 'Check the connection and try again; your edits are kept in this browser.',
      problems: [],
    };
  }
  return { status: 0, code: 'unknown', title: 'Something went wrong', message: (error as Error)?.message ?? String(error), problems: [] };
}
