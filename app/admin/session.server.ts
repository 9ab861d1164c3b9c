// The console's server side: who is signed in (the admin surface's own session, read through the site
// gateway), the branch a page works on, and operations run as that editor. Loaders and actions use only
// these; the operations do the authorizing, validating and error wording.
import { redirect, type AppLoadContext } from '@remix-run/node';
import { isAppError } from '../../operations/contract/errors.ts';
import type { OperationName, OperationNamed, OutputOf, RawInputOf } from '../../operations/contract/index.ts';
import type { Branch } from '../../operations/contract/shared.ts';
import type { ErrorBody } from './api.ts';

/** The branch a console page works on: `?branch=main`, else the dev preview's branch. */
export function branchOf(request: Request): Branch {
  return new URL(request.url).searchParams.get('branch') === 'main' ? 'main' : 'dev';
}

/** Where sign-in sends the editor afterwards: a console path only, never another site. */
export function safeNext(next: string | null | undefined): string {
  return next && /^\/admin(?:[/?#]|$)/.test(next) && !next.startsWith('//') ? next : '/admin';
}

/** Redirects to sign-in (coming back here afterwards) unless the request carries a console session. */
export async function requireEditor(request: Request, context: AppLoadContext): Promise<void> {
  const { vitae, branch, ip } = context;
  const principal = await vitae.principal({ branch, ip, request });
  if (principal.kind === 'admin') return;
  const url = new URL(request.url);
  throw redirect(`/admin/login?next=${encodeURIComponent(url.pathname + url.search)}`);
}

/**
 * Runs an operation as the editor whose request this is. Its failure is thrown as a Response with the
 * operation's status and error body, so a console page's error boundary (or a fetch) shows its own words.
 */
export async function asEditor<N extends OperationName>(
  request: Request,
  context: AppLoadContext,
  name: N,
  input: RawInputOf<OperationNamed<N>>,
): Promise<OutputOf<OperationNamed<N>>> {
  const { vitae, branch, ip } = context;
  try {
    return await vitae.call(name, input, { branch, ip, request });
  } catch (error) {
    if (!isAppError(error)) throw error;
    throw Response.json(error.toBody(), { status: error.status, headers: { 'Cache-Control': 'no-store', ...error.headers } });
  }
}

/** A content file on a branch, or null when it does not exist there yet (a new file); other failures are thrown. */
export async function readIfExists(request: Request, context: AppLoadContext, path: string, branch: Branch) {
  try {
    const file = await asEditor(request, context, 'admin_read_file', { path, branch });
    return { sha: file.sha, content: file.content, ref: file.ref, translations: file.translations };
  } catch (error) {
    if (error instanceof Response && error.status === 404) return null;
    throw error; // a path that is not content is the page's error
  }
}

/** An operation's failure as data an action can return to its form (its status, body and wait). */
export type Failure = { ok: false; status: number; body: ErrorBody; retryAfter?: number };

/** Runs an operation for an action: its output, or its error as data for the page to show beside the form. */
export async function attempt<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | Failure> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (!(error instanceof Response) || error.ok) throw error;
    const retry = Number(error.headers.get('Retry-After'));
    return { ok: false, status: error.status, body: (await error.json()) as ErrorBody, ...(retry > 0 ? { retryAfter: retry } : {}) };
  }
}

/**
 * A publishers' read for a console page: its answer, or, when the signed-in role may not read it (403), the service's
 * words for the page to show in place of the data. Any other failure is the page's error, as with asEditor.
 */
export async function publisherRead<T>(run: () => Promise<T>): Promise<{ value: T; denied: null } | { value: null; denied: string }> {
  const outcome = await attempt(run);
  if (outcome.ok) return { value: outcome.value, denied: null };
  if (outcome.status === 403) return { value: null, denied: outcome.body.message };
  throw Response.json(outcome.body, { status: outcome.status, headers: { 'Cache-Control': 'no-store' } });
}
