// The console's browser side calls operations over the REST API with the HTTP client every other client
// uses (generated from the operation list), signed in by its session cookie. Errors come back as words a
// person can act on, one wording per status, with the problems and the wait the service gave.
import { ApiError, createClient, NetworkError } from '../../operations/adapters/client.ts';
import { operationNamed, type OperationName, type OperationNamed, type OutputOf, type RawInputOf } from '../../operations/contract/index.ts';
import type { ProblemOut } from './types.ts';

let client: ReturnType<typeof createClient> | undefined;

/** Runs an operation through the REST API as the signed-in editor. */
export async function callOperation<N extends OperationName>(name: N, input: RawInputOf<OperationNamed<N>>, signal?: AbortSignal): Promise<OutputOf<OperationNamed<N>>> {
  client ??= createClient({ baseUrl: window.location.origin, userAgent: 'vitae-console' });
  return client.call<OutputOf<OperationNamed<N>>>(operationNamed(name), input, { signal });
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
    return { status: 0, code: 'network', title: 'The service could not be reached', message: 'Check the connection and try again; your edits are kept in this browser.', problems: [] };
  }
  return { status: 0, code: 'unknown', title: 'Something went wrong', message: (error as Error)?.message ?? String(error), problems: [] };
}
