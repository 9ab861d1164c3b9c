// The GitHub API client of the github backend, and its failures in the service's words. Rate limits go through
// @octokit/plugin-throttling, 5xx and network failures through @octokit/plugin-retry; what still fails is
// `repo_error` 502 in words that name the cause (and never the token).
import { Octokit } from '@octokit/rest';
import { throttling } from '@octokit/plugin-throttling';
import { retry } from '@octokit/plugin-retry';
import { AppError } from '../contract/errors.ts';
import type { TreeFile } from './local-repo.server.ts';

export interface GitHubRepoOptions {
  token: string;
  /** owner/name */
  repository: string;
  /** https://api.github.com, or an emulator. */
  apiUrl: string;
  /** Least time between two writes (GitHub asks for a second; tests pass 0). */
  writeIntervalMs?: number;
  /** The unit of the retry back-off (the retry plugin waits 1, 4, 9 units); default 1000 ms. */
  retryBaseMs?: number;
  /** The unit of a rate limit's retry-after (seconds → ms); default 1000. Tests shorten it. */
  rateLimitUnitMs?: number;
  /** Lines for the service log (rate limits waited out, retries). Never carries the token. */
  log?: (line: string) => void;
  /** The HTTP client under Octokit (default the global fetch): the service's counts requests for /metrics. */
  fetch?: typeof fetch;
}

/** A status-less failure, a 5xx, a 401/403/404 or a GraphQL error, as the RequestError-like value Octokit throws. */
export interface OctokitFailure {
  status?: number;
  message?: string;
  errors?: Array<{ type?: string; message?: string }>;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

const MyOctokit = Octokit.plugin(throttling, retry);
export type GitHubClient = InstanceType<typeof MyOctokit>;

/** The text of an error with the token taken out. */
export function redactor(token: string): (text: string) => string {
  return (text) => text.split(token).join('[token]');
}

export function createOctokit(options: GitHubRepoOptions): GitHubClient {
  const log = options.log ?? (() => {});
  const redact = redactor(options.token);
  return new MyOctokit({
    auth: options.token,
    baseUrl: options.apiUrl,
    userAgent: 'vitae-content-repo',
    ...(options.fetch ? { request: { fetch: options.fetch } } : {}),
    // Failed requests (a 304 among them) are the errors this backend explains itself; warnings (the plugins') are logged.
    log: { debug: () => {}, info: () => {}, warn: (m: string) => log(redact(`github: ${m}`)), error: () => {} },
    throttle: {
      // A primary limit is waited out (until x-ratelimit-reset) twice at most; a secondary one per its retry-after.
      onRateLimit: (retryAfter: number, request: { method: string; url: string }, _o: unknown, retryCount: number) => {
        log(`github: rate limit reached on ${request.method} ${request.url}; ${retryCount < 2 ? `waiting ${retryAfter}s` : 'giving up'}`);
        return retryCount < 2;
      },
      onSecondaryRateLimit: (retryAfter: number, request: { method: string; url: string }, _o: unknown, retryCount: number) => {
        log(`github: secondary rate limit on ${request.method} ${request.url}; ${retryCount < 3 ? `waiting ${retryAfter}s` : 'giving up'}`);
        return retryCount < 3;
      },
      retryAfterBaseValue: options.rateLimitUnitMs ?? 1000,
      // The plugin spaces every write a second apart (GitHub's advice against secondary limits); the spacing
      // is ours to set so tests need not wait (its `write` group is the documented place, `state.write`).
      write: spacedWrites(options.writeIntervalMs ?? 1000),
    },
    // 5xx and network failures are retried; answers that will not change are not (409: a merge conflict, 304: not modified).
    retry: { retries: 3, retryAfterBaseValue: options.retryBaseMs ?? 1000, doNotRetry: [304, 400, 401, 403, 404, 409, 410, 422, 451] },
  });
}

/** A GitHub failure while doing `what`, as the `repo_error` (or, through `notFound`, the 404) a caller can act on. */
export function explainFailure(error: unknown, what: string, options: { repository: string; token: string }, notFound?: () => AppError): AppError {
  if (error instanceof AppError) return error;
  const e = error as OctokitFailure;
  const status = e.status;
  const said = redactor(options.token)(String(e.message ?? error))
    .split('\n')[0]!
    .slice(0, 200);
  const writing = /commit|promote|merge|branch/.test(what);
  const permission = writing ? '"Contents: Read and write"' : '"Contents: Read"';
  const failed = (message: string) => new AppError('repo_error', message, { status: 502 });
  if (status === 404 && notFound) return notFound();
  if (status === 401) return failed(`GitHub refused the token while ${what} (401 ${said}): GITHUB_TOKEN is invalid or expired.`);
  if (status === 403 && /rate limit/i.test(said)) return failed(`GitHub's rate limit held while ${what}, after waiting it out; try again later.`);
  if (status === 403) return failed(`GitHub refused ${what} (403 ${said}): the token lacks the ${permission} permission on ${options.repository}.`);
  if (status === 404)
    return failed(`GitHub answered 404 while ${what}: ${options.repository} does not exist or the token lacks the "Contents: Read" permission on it.`);
  // Octokit reports a failure without an answer (refused, reset, DNS) as a 500 with no response.
  if (status === undefined || (status === 500 && !e.response))
    return failed(`GitHub could not be reached while ${what} (${said}), also after retrying; is GITHUB_API_URL right?`);
  if (status >= 500) return failed(`GitHub failed while ${what} (${status} ${said}), also after retrying.`);
  return failed(`GitHub answered ${status} while ${what}: ${said}`);
}

/**
 * The throttling plugin's write limiter (`throttle.write`, a Bottleneck group it calls `.key(id).schedule(options,
 * fn)` on): one write at a time, at least `ms` apart.
 */
function spacedWrites(ms: number) {
  let chain: Promise<unknown> = Promise.resolve();
  let last = 0;
  const limiter = {
    schedule<T>(_options: unknown, fn: (...args: unknown[]) => Promise<T>, ...args: unknown[]): Promise<T> {
      const run = chain.then(async () => {
        const wait = last + ms - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        last = Date.now();
        return fn(...args);
      });
      chain = run.catch(() => {});
      return run;
    },
  };
  return { key: () => limiter };
}

/** Why a start on GitHub cannot go on, in one line naming the variable to fix (and never the token). */
export function startFailure(error: unknown, options: GitHubRepoOptions): Error {
  const status = (error as OctokitFailure).status;
  const said = redactor(options.token)(String((error as Error).message ?? error)).split('\n')[0];
  if (status === 401) return new Error(`GITHUB_TOKEN was refused by ${options.apiUrl} (401 ${said}): the token is invalid or expired.`, { cause: error });
  if (status === 404 || status === 403)
    return new Error(
      `GITHUB_REPOSITORY ${options.repository} is not readable with GITHUB_TOKEN (${status}): the repository does not exist or the token lacks access to it.`,
      { cause: error },
    );
  return new Error(`GITHUB_API_URL ${options.apiUrl} is unreachable (${said}).`, { cause: error });
}

/** A commit as this backend has learnt it: from the git-commits API, a commit listing, or a commit made here. */
export interface KnownCommit {
  sha: string;
  parents: string[];
  message: string;
  /** Undefined for a commit made here until the commit API is asked (GitHub names the token's user). */
  author?: string;
  authorDate: string;
  committedAt: string;
  /** Paths changed against the first parent (undefined until asked for). */
  files?: string[];
  /** The blob each of those paths has after the commit (null: deleted), where the commit API said. */
  blobs?: Map<string, string | null>;
}

/**
 * One repository on GitHub as the backend's functions share it: the client, and what is kept by sha because
 * nothing under a sha ever changes (trees, blob texts, commits, comparisons of two commits), and each branch head's
 * ETag, so asking for a head that did not move is a 304 that costs no rate limit.
 */
export interface Hub {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  options: GitHubRepoOptions;
  heads: Map<string, { etag: string; sha: string }>;
  trees: Map<string, TreeFile[]>;
  blobs: Map<string, string>;
  commits: Map<string, KnownCommit>;
  compares: Map<string, Awaited<ReturnType<GitHubClient['rest']['repos']['compareCommitsWithBasehead']>>['data']>;
}

export function createHub(options: GitHubRepoOptions): Hub {
  const [owner, repo] = options.repository.split('/') as [string, string];
  const octokit = createOctokit(options);
  return { octokit, owner, repo, options, heads: new Map(), trees: new Map(), blobs: new Map(), commits: new Map(), compares: new Map() };
}

/** Runs a GitHub call and turns its failure into the service's words. */
export async function call<T>(hub: Hub, what: string, run: () => Promise<T>, notFound?: () => AppError): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw explainFailure(error, what, hub.options, notFound);
  }
}

/** Keeps `value` under `key`, dropping the oldest entry past `max`. */
export function remember<T>(cache: Map<string, T>, key: string, value: T, max: number): T {
  cache.set(key, value);
  if (cache.size > max) cache.delete(cache.keys().next().value!);
  return value;
}
