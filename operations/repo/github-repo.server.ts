// The content repository on GitHub, behind the same `ContentRepo` interface as the local one.
//
// Reads: a branch head is one conditional request (ETag → 304 costs nothing), a commit's whole tree one
// recursive git-trees call, each blob one call by sha — and trees, blobs and commit details are kept by sha,
// since nothing under a sha ever changes. Writes: one GraphQL `createCommitOnBranch` per change set, whose
// `expectedHeadOid` is the compare-and-swap (docs/deploy.md, "GitHub backend", says why not the Git Data API).
// Promote: the merges API on a short-lived branch, validated, then main fast-forwarded to the merge.
// Rate limits go through @octokit/plugin-throttling, 5xx and network failures through @octokit/plugin-retry;
// what still fails is `repo_error` 502 in words that name the cause (and never the token).
import { Octokit } from '@octokit/rest';
import { throttling } from '@octokit/plugin-throttling';
import { retry } from '@octokit/plugin-retry';
import { randomBytes } from 'node:crypto';
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { assertContentDir, assertWritablePath } from '../content/paths.ts';
import { createKeyedLock } from './keyed-lock.ts';
import { REGULAR } from '../content/tree.ts';
import {
  blobSha,
  checkBase,
  fileDiffs,
  checkPaths,
  filesAfter,
  invalidChange,
  problemsOfChange,
  problemsWith,
  reviewChange,
  withTranslationsOfDeleted,
  type RepoFiles,
} from './change-checks.ts';
import {
  COMPARE_COMMITS,
  listedCommit,
  type CommitOutcome,
  type Comparison,
  type ContentRepo,
  type FileChange,
  type FileVersion,
  type HistoryCommit,
  type PromoteOutcome,
} from './content-repo.server.ts';
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

export interface GitHubRepo extends ContentRepo {
  /** Checks at start that the repository is there and the token may read it; says what is missing. */
  check(): Promise<{ canWrite: boolean }>;
}

interface CommitMeta {
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

const MyOctokit = Octokit.plugin(throttling, retry);
/** GitHub's commit API lists at most this many files; a commit with more is diffed tree against tree. */
const COMMIT_FILES_LIMIT = 300;
const SHA = /^[0-9a-f]{40}$/;
/** Up to this many missing blobs are read one call each; more go through GraphQL in batches. */
const BLOBS_ONE_BY_ONE = 8;
const BLOBS_PER_QUERY = 100;

/** A commit message as createCommitOnBranch takes it (a headline and a body) and as GitHub then records it. */
function asCommitted(message: string): { headline: string; body: string; text: string } {
  const [headline, ...rest] = message.split('\n');
  const body = rest.join('\n').replace(/^\n+/, '');
  return { headline: headline!, body, text: body ? `${headline}\n\n${body}` : headline! };
}

const CREATE_COMMIT = `mutation ($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid committedDate } }
}`;

/** A status-less failure, a 5xx, a 401/403/404 or a GraphQL error, as the RequestError-like value Octokit throws. */
interface OctokitFailure {
  status?: number;
  message?: string;
  errors?: Array<{ type?: string; message?: string }>;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

export function createGitHubRepo(options: GitHubRepoOptions): GitHubRepo {
  const [owner, repo] = options.repository.split('/') as [string, string];
  const log = options.log ?? (() => {});
  const redact = (text: string) => text.split(options.token).join('[token]');
  const octokit = new MyOctokit({
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

  const withLock = createKeyedLock();
  const heads = new Map<Branch, { etag: string; sha: string }>();
  const trees = new Map<string, TreeFile[]>();
  const blobs = new Map<string, string>();
  const metas = new Map<string, CommitMeta>();
  const filesCache = new Map<string, RepoFiles>();
  const timesCache = new Map<string, Map<string, Date>>();
  const remember = <T>(cache: Map<string, T>, key: string, value: T, max: number) => {
    cache.set(key, value);
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return value;
  };

  /** Runs a GitHub call and turns its failure into the service's words. */
  async function call<T>(what: string, run: () => Promise<T>, notFound?: () => AppError): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw explain(error, what, notFound);
    }
  }

  function explain(error: unknown, what: string, notFound?: () => AppError): AppError {
    if (error instanceof AppError) return error;
    const e = error as OctokitFailure;
    const status = e.status;
    const said = redact(String(e.message ?? error))
      .split('\n')[0]!
      .slice(0, 200);
    const writing = /commit|promote|merge|branch/.test(what);
    const permission = writing ? '"Contents: Read and write"' : '"Contents: Read"';
    if (status === 404 && notFound) return notFound();
    if (status === 401)
      return new AppError('repo_error', `GitHub refused the token while ${what} (401 ${said}): GITHUB_TOKEN is invalid or expired.`, { status: 502 });
    if (status === 403 && /rate limit/i.test(said))
      return new AppError('repo_error', `GitHub's rate limit held while ${what}, after waiting it out; try again later.`, { status: 502 });
    if (status === 403)
      return new AppError('repo_error', `GitHub refused ${what} (403 ${said}): the token lacks the ${permission} permission on ${options.repository}.`, {
        status: 502,
      });
    if (status === 404)
      return new AppError(
        'repo_error',
        `GitHub answered 404 while ${what}: ${options.repository} does not exist or the token lacks the "Contents: Read" permission on it.`,
        { status: 502 },
      );
    // Octokit reports a failure without an answer (refused, reset, DNS) as a 500 with no response.
    if (status === undefined || (status === 500 && !e.response))
      return new AppError('repo_error', `GitHub could not be reached while ${what} (${said}), also after retrying; is GITHUB_API_URL right?`, { status: 502 });
    if (status >= 500) return new AppError('repo_error', `GitHub failed while ${what} (${status} ${said}), also after retrying.`, { status: 502 });
    return new AppError('repo_error', `GitHub answered ${status} while ${what}: ${said}`, { status: 502 });
  }

  // ---- reads ---------------------------------------------------------------------------------------------

  async function head(branch: Branch): Promise<string> {
    const known = heads.get(branch);
    try {
      const res = await octokit.rest.git.getRef({ owner, repo, ref: `heads/${branch}`, headers: known ? { 'if-none-match': known.etag } : {} });
      const sha = res.data.object.sha;
      if (res.headers.etag) heads.set(branch, { etag: res.headers.etag, sha });
      return sha;
    } catch (error) {
      const status = (error as OctokitFailure).status;
      if (status === 304 && known) return known.sha;
      // GitHub answers 404 both for a missing branch and for a repository that is missing (or hidden from the token).
      const repoThere =
        status === 404 &&
        (await octokit.rest.repos.get({ owner, repo }).then(
          () => true,
          () => false,
        ));
      throw explain(
        error,
        `reading the head of ${branch}`,
        repoThere ? () => new AppError('repo_not_configured', `The content repository has no branch "${branch}".`) : undefined,
      );
    }
  }

  async function treeAt(commit: string): Promise<TreeFile[]> {
    const cached = trees.get(commit);
    if (cached) return cached;
    const { data } = await call(`reading the tree of ${commit.slice(0, 7)}`, () =>
      octokit.rest.git.getTree({ owner, repo, tree_sha: commit, recursive: 'true' }),
    );
    if (data.truncated) throw new AppError('repo_error', `The tree of ${commit.slice(0, 7)} is too large for one GitHub call.`, { status: 502 });
    const files = data.tree
      .filter((e) => e.type !== 'tree' && e.path.startsWith('content/'))
      .map((e) => ({ path: e.path, mode: e.mode, sha: e.sha, size: e.size ?? 0 }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return remember(trees, commit, files, 64);
  }

  /** Blobs by sha: a few through the git-blobs API, many through GraphQL, a hundred a query (a first start reads the whole tree). */
  async function blobTexts(shas: string[]): Promise<void> {
    let missing = [...new Set(shas)].filter((sha) => !blobs.has(sha));
    if (missing.length > BLOBS_ONE_BY_ONE) {
      for (let i = 0; i < missing.length; i += BLOBS_PER_QUERY) {
        const part = missing.slice(i, i + BLOBS_PER_QUERY);
        const query = `query ($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${part
          .map((sha, j) => `b${j}: object(oid: "${sha}") { ... on Blob { text isBinary isTruncated } }`)
          .join(' ')} } }`;
        const data = await call(`reading ${part.length} blobs`, () =>
          octokit.graphql<{ repository: Record<string, { text: string | null; isBinary: boolean; isTruncated: boolean } | null> }>(query, {
            owner,
            name: repo,
          }),
        );
        part.forEach((sha, j) => {
          const blob = data.repository[`b${j}`];
          if (blob && blob.text !== null && !blob.isTruncated && !blob.isBinary) blobs.set(sha, blob.text);
        });
      }
      missing = missing.filter((sha) => !blobs.has(sha)); // binary or truncated ones: byte for byte below
    }
    await Promise.all(
      missing.map(async (sha) => {
        const { data } = await call(`reading blob ${sha.slice(0, 7)}`, () => octokit.rest.git.getBlob({ owner, repo, file_sha: sha }));
        blobs.set(sha, Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8'));
      }),
    );
  }

  async function filesAt(commit: string): Promise<RepoFiles> {
    const cached = filesCache.get(commit);
    if (cached) return cached;
    const tree = await treeAt(commit);
    const regular = tree.filter((e) => REGULAR.has(e.mode));
    await blobTexts(regular.map((e) => e.sha));
    return remember(filesCache, commit, { tree, texts: new Map(regular.map((e) => [e.path, blobs.get(e.sha)!])) }, 8);
  }

  async function meta(sha: string): Promise<CommitMeta> {
    const cached = metas.get(sha);
    if (cached) return cached;
    const { data } = await call(`reading commit ${sha.slice(0, 7)}`, () => octokit.rest.git.getCommit({ owner, repo, commit_sha: sha }));
    return remember(
      metas,
      sha,
      {
        sha: data.sha,
        parents: data.parents.map((p) => p.sha),
        message: data.message,
        author: data.author.name,
        authorDate: data.author.date,
        committedAt: data.committer.date,
      },
      4096,
    );
  }

  /** The paths a commit changed against its first parent (the commit API's list, or a tree diff when it is long). */
  async function changedFiles(sha: string): Promise<string[]> {
    const known = metas.get(sha);
    if (known?.files) return known.files;
    const { data } = await call(`reading commit ${sha.slice(0, 7)}`, () => octokit.rest.repos.getCommit({ owner, repo, ref: sha }));
    const parents = data.parents.map((p) => p.sha);
    let files = (data.files ?? []).map((f) => f.filename);
    const blobs = new Map((data.files ?? []).map((f) => [f.filename, f.status === 'removed' ? null : f.sha]));
    if (files.length >= COMMIT_FILES_LIMIT || !parents.length) {
      const after = await treeAt(sha);
      const before = parents[0] ? new Map((await treeAt(parents[0])).map((e) => [e.path, e.sha])) : new Map<string, string>();
      const now = new Map(after.map((e) => [e.path, e.sha]));
      files = [...new Set([...before.keys(), ...now.keys()])].filter((p) => before.get(p) !== now.get(p));
    }
    const entry: CommitMeta = {
      sha: data.sha,
      parents,
      message: data.commit.message,
      author: data.commit.author?.name ?? '',
      authorDate: data.commit.author?.date ?? '',
      committedAt: data.commit.committer?.date ?? '',
      files,
      blobs,
    };
    return remember(metas, sha, entry, 4096).files!;
  }

  /** The blob `path` has after commit `sha` (null: not there), from the commit API, or its tree when the API's list is cut short. */
  async function blobAfter(sha: string, path: string): Promise<string | null> {
    await changedFiles(sha);
    const listed = metas.get(sha)?.blobs?.get(path);
    return listed !== undefined ? listed : ((await treeAt(sha)).find((e) => e.path === path)?.sha ?? null);
  }

  const subject = (message: string) => message.split('\n')[0]!;
  const underContent = (files: string[], path?: string) =>
    files.filter((f) => (path ? f === path || f.startsWith(`${path}/`) : f.startsWith('content/'))).sort();

  async function historyCommit(sha: string, path?: string): Promise<HistoryCommit> {
    if (metas.get(sha)?.author === undefined) metas.delete(sha);
    const files = await changedFiles(sha);
    const m = metas.get(sha)!;
    return listedCommit({ sha, parents: m.parents, message: subject(m.message), author: m.author ?? '', time: m.authorDate, files: underContent(files, path) });
  }

  /** The full sha of a commit named by a (possibly abbreviated) sha; 404 when there is none. */
  async function commitOf(ref: string): Promise<string> {
    if (SHA.test(ref) && (filesCache.has(ref) || metas.has(ref) || trees.has(ref))) return ref;
    const { data } = await call(
      `looking up commit ${ref}`,
      () => octokit.rest.repos.getCommit({ owner, repo, ref, per_page: 1 }),
      () => new AppError('not_found', `No commit "${ref}" in the content repository.`),
    ).catch((error: unknown) => {
      // GitHub answers 422 for a sha that names nothing.
      if (error instanceof AppError && /answered 422/.test(error.message)) throw new AppError('not_found', `No commit "${ref}" in the content repository.`);
      throw error;
    });
    return data.sha;
  }

  function parseCursor(cursor: string): [string, number] {
    const match = /^([0-9a-f]{40}):(\d{1,7})$/.exec(cursor);
    if (!match)
      throw new AppError('bad_request', 'cursor is not one this service gave out; pass the `next` of the page before.', {
        errors: [{ pointer: '/cursor', message: 'unknown cursor' }],
      });
    return [match[1]!, Number(match[2])];
  }

  /** Commits from `start` (newest first) touching `path`, `count` of them after skipping `skip`, and whether more follow. */
  async function listCommits(start: string, path: string, skip: number, count: number): Promise<{ shas: string[]; more: boolean }> {
    // Pages of the commits API are fixed-size: the largest page size dividing both skip and count reads no extra.
    const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
    const perPage = Math.min(100, gcd(skip, count) || count);
    const shas: string[] = [];
    let page = Math.floor(skip / perPage) + 1;
    let more: boolean;
    for (;;) {
      const res = await call('listing commits', () => octokit.rest.repos.listCommits({ owner, repo, sha: start, path, per_page: perPage, page }));
      for (const c of res.data) metas.set(c.sha, metas.get(c.sha) ?? metaOfListed(c));
      shas.push(...res.data.map((c) => c.sha));
      more = /rel="next"/.test(res.headers.link ?? '');
      if (shas.length >= count || !more) break;
      page++;
    }
    return { shas: shas.slice(0, count), more: more || shas.length > count };
  }

  function metaOfListed(c: {
    sha: string;
    parents: Array<{ sha: string }>;
    commit: { message: string; author: { name?: string; date?: string } | null; committer: { date?: string } | null };
  }): CommitMeta {
    return {
      sha: c.sha,
      parents: c.parents.map((p) => p.sha),
      message: c.commit.message,
      author: c.commit.author?.name ?? '',
      authorDate: c.commit.author?.date ?? '',
      committedAt: c.commit.committer?.date ?? '',
    };
  }

  async function compareRefs(base: string, target: string) {
    const { data } = await call(`comparing ${base} with ${target}`, () =>
      octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${target}` }),
    );
    return data;
  }

  // ---- writes --------------------------------------------------------------------------------------------

  /** Whether the commit `sha` is the one our mutation would have made: a retry after a lost answer meets it. */
  async function isOurs(sha: string, base: string, message: string, changes: FileChange[], shas: Map<string, string>): Promise<boolean> {
    const m = await meta(sha);
    // GitHub records the headline, a blank line and the body: compare with that, not with the message as given.
    const trimmed = (text: string) => text.replace(/\s+$/, '');
    if (m.parents[0] !== base || trimmed(m.message) !== trimmed(asCommitted(message).text)) return false;
    const tree = new Map((await treeAt(sha)).map((e) => [e.path, e.sha]));
    return changes.every((c) => (c.delete ? !tree.has(c.path) : tree.get(c.path) === shas.get(c.path)));
  }

  async function createCommit(
    branch: Branch,
    expected: string,
    changes: FileChange[],
    message: string,
  ): Promise<{ oid: string; committedDate: string } | 'stale'> {
    const { headline, body } = asCommitted(message);
    const input = {
      branch: { repositoryNameWithOwner: options.repository, branchName: branch },
      expectedHeadOid: expected,
      message: { headline, ...(body ? { body } : {}) },
      fileChanges: {
        additions: changes.filter((c) => !c.delete).map((c) => ({ path: c.path, contents: Buffer.from(c.content!, 'utf8').toString('base64') })),
        deletions: changes.filter((c) => c.delete).map((c) => ({ path: c.path })),
      },
    };
    try {
      const result = await octokit.graphql<{ createCommitOnBranch: { commit: { oid: string; committedDate: string } } }>(CREATE_COMMIT, { input });
      return result.createCommitOnBranch.commit;
    } catch (error) {
      const errors = (error as OctokitFailure).errors ?? [];
      if (errors.some((e) => e.type === 'STALE_DATA')) return 'stale';
      const forbidden = errors.find((e) => e.type === 'FORBIDDEN');
      if (forbidden) throw explain({ status: 403, message: forbidden.message }, `committing to ${branch}`);
      if (errors.length)
        throw new AppError('repo_error', `GitHub refused the commit to ${branch}: ${redact(errors.map((e) => e.message).join('; '))}`, { status: 502 });
      throw explain(error, `committing to ${branch}`);
    }
  }

  async function moveRef(branch: Branch, sha: string, what: string): Promise<'moved' | 'not-fast-forward'> {
    try {
      await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha, force: false });
      return 'moved';
    } catch (error) {
      if ((error as OctokitFailure).status === 422) return 'not-fast-forward';
      throw explain(error, what);
    }
  }

  // ---- the interface -------------------------------------------------------------------------------------

  const repository: GitHubRepo = {
    async check() {
      // No retries here: a start should say at once that the API is unreachable.
      const { data } = await octokit.rest.repos.get({ owner, repo, request: { retries: 0 } });
      return { canWrite: Boolean(data.permissions?.push) };
    },

    head,
    filesAt,

    async committedAt(commit: string): Promise<Date> {
      return new Date((await meta(commit)).committedAt);
    },

    async fileTimes(commit: string): Promise<Map<string, Date>> {
      const cached = timesCache.get(commit);
      if (cached) return cached;
      // Walk the first parents back until every current path has a time (a path's first sighting is its
      // last change); a commit whose times are known already ends the walk.
      const wanted = new Set((await treeAt(commit)).map((e) => e.path));
      const times = new Map<string, Date>();
      let at: string | undefined = commit;
      while (at && [...wanted].some((p) => !times.has(p))) {
        const known = timesCache.get(at);
        if (known) {
          for (const [path, time] of known) if (!times.has(path)) times.set(path, time);
          break;
        }
        const files = await changedFiles(at);
        const m: CommitMeta = metas.get(at)!;
        const time = new Date(m.committedAt);
        for (const path of files) if (path.startsWith('content/') && !times.has(path)) times.set(path, time);
        at = m.parents[0];
      }
      return remember(timesCache, commit, times, 8);
    },

    async recentCommits(branch: Branch, count: number): Promise<string[]> {
      return (await listCommits(await head(branch), 'content', 0, count)).shas;
    },

    async listFiles(branch: Branch, dir: string): Promise<TreeFile[]> {
      const tree = await treeAt(await head(branch));
      return tree.filter((e) => REGULAR.has(e.mode) && (e.path === dir || e.path.startsWith(`${dir}/`)));
    },

    async readFile(branch: Branch, path: string, ref?: string) {
      const commit = ref ? await commitOf(ref) : await head(branch);
      const entry = (await treeAt(commit)).find((e) => e.path === path);
      if (!entry) throw new AppError('not_found', `No file "${path}" on ${ref ? `commit ${ref.slice(0, 7)}` : branch}.`);
      if (!REGULAR.has(entry.mode)) throw new AppError('forbidden_path', `"${path}" is a symlink or submodule and is not readable as content.`);
      await blobTexts([entry.sha]);
      return { sha: entry.sha, content: blobs.get(entry.sha)!, commit };
    },

    async history(branch: Branch, { path, cursor, limit }: { path?: string; cursor?: string; limit: number }) {
      const [start, skip] = cursor ? parseCursor(cursor) : [await head(branch), 0];
      // A cursor of the right shape whose commit this repository has not (made up, or from another repository)
      // is the caller's mistake, said as one, not git's or GitHub's complaint.
      if (cursor) await commitOf(start).catch(() => parseCursor(''));
      const { shas, more } = await listCommits(start, path ?? 'content', skip, limit);
      const commits = await Promise.all(shas.map((sha) => historyCommit(sha, path)));
      return { commits, next: more ? `${start}:${skip + limit}` : null };
    },

    async *fileVersions(branch: Branch, path: string, limit: number): AsyncIterable<FileVersion> {
      // A call for the commits, then one per version asked for (and its blob, unless read before).
      const { shas } = await listCommits(await head(branch), path, 0, limit);
      for (const commit of shas) {
        const blob = await blobAfter(commit, path);
        if (blob) await blobTexts([blob]);
        yield { commit, text: blob ? blobs.get(blob)! : null };
      }
    },

    async compare(base: Branch, target: Branch): Promise<Comparison> {
      const data = await compareRefs(base, target);
      const to = await head(target);
      // The compare API lists commits oldest first; the local backend (git log) newest first.
      const shas = data.commits
        .map((c) => c.sha)
        .reverse()
        .slice(0, COMPARE_COMMITS);
      for (const c of data.commits) metas.set(c.sha, metas.get(c.sha) ?? metaOfListed(c));
      const commits = await Promise.all(shas.map((sha) => historyCommit(sha)));
      const mergeBase = data.merge_base_commit?.sha;
      const before = mergeBase ? (await filesAt(mergeBase)).texts : new Map<string, string>();
      const after = (await filesAt(to)).texts;
      return { aheadBy: data.ahead_by, commits: commits.filter((c) => c.files.length), files: fileDiffs(before, after) };
    },

    async validate(branch: Branch, changes: FileChange[]) {
      return problemsOfChange(await filesAt(await head(branch)), changes);
    },

    async review(branch: Branch, changes: FileChange[]) {
      return reviewChange(await filesAt(await head(branch)), changes);
    },

    /** One commit for all changes, or nothing: paths, base shas and the whole tree are checked first. */
    commit(branch: Branch, asked: FileChange[], message: string): Promise<CommitOutcome> {
      // Before the lock, what needs no tree; a deletion's full check (a file name, or an entry that is not a file)
      // needs the tree, and is made inside (checkPaths).
      for (const change of asked) (change.delete ? assertContentDir : assertWritablePath)(change.path);
      return withLock(branch, async () => {
        let base = await head(branch);
        let parent = await filesAt(base);
        checkPaths(asked, parent.tree);
        checkBase(asked, parent.tree);
        const shas = new Map(asked.filter((c) => !c.delete).map((c) => [c.path, blobSha(c.content!)]));
        for (let attempt = 0; ; attempt++) {
          // The translations a deleted source takes with it, as the tree committed onto has them.
          const changes = withTranslationsOfDeleted(asked, parent.tree);
          const files = changes.map((c) => ({ path: c.path, sha: c.delete ? null : shas.get(c.path)! }));
          const problems = await problemsWith(parent, changes);
          if (problems.length) throw invalidChange(problems);
          const current = new Map(parent.tree.map((e) => [e.path, e.sha]));
          if (changes.every((c) => (c.delete ? !current.has(c.path) : current.get(c.path) === shas.get(c.path)))) {
            return { branch, commit: { sha: base, message: subject((await meta(base)).message) }, files, changed: false };
          }
          const made = await createCommit(branch, base, changes, message);
          if (made !== 'stale') {
            metas.set(made.oid, {
              sha: made.oid,
              parents: [base],
              message,
              authorDate: made.committedDate,
              committedAt: made.committedDate,
              files: changes.map((c) => c.path),
            });
            const after = filesAfter(parent, changes, shas);
            remember(filesCache, made.oid, after, 8);
            remember(trees, made.oid, after.tree, 64);
            for (const c of changes) if (!c.delete) blobs.set(shas.get(c.path)!, c.content!);
            heads.delete(branch);
            return { branch, commit: { sha: made.oid, message }, files, changed: true };
          }
          // The branch moved between our read and the commit. Ours after all (a retry after a lost answer)?
          const moved = await head(branch);
          if (moved !== base && (await isOurs(moved, base, message, changes, shas))) {
            const after = filesAfter(parent, changes, shas);
            remember(filesCache, moved, after, 8);
            return { branch, commit: { sha: moved, message }, files, changed: true };
          }
          // Someone else's commit: build on it only if it left every file we were asked to touch as we read it.
          const next = await filesAt(moved);
          const now = new Map(next.tree.map((e) => [e.path, e.sha]));
          const touched = asked.find((c) => current.get(c.path) !== now.get(c.path));
          if (touched || attempt >= 4) {
            throw new AppError(
              'repo_error',
              touched
                ? `The branch ${branch} moved while committing and "${touched.path}" changed there; nothing was written. Read it again and reapply your change.`
                : `The branch ${branch} kept moving while committing; nothing was written. Try again.`,
              { status: 409, ...(touched ? { details: { path: touched.path, currentSha: now.get(touched.path) ?? null } } : {}) },
            );
          }
          base = moved;
          parent = next;
        }
      });
    },

    /** Merges dev into main: a fast-forward when possible, else the merges API; conflicts change nothing. */
    promote(message: string | undefined): Promise<PromoteOutcome> {
      return withLock('main', async () => {
        const main = await head('main');
        const dev = await head('dev');
        const comparison = await compareRefs(main, dev);
        const changed = (files: typeof comparison.files) => (files ?? []).map((f) => ({ path: f.filename, sha: f.status === 'removed' ? null : f.sha }));
        if (comparison.ahead_by === 0) {
          return {
            branch: 'main',
            commit: { sha: main, message: subject((await meta(main)).message) },
            files: [],
            changed: false,
            merged: false,
            fastForward: false,
          };
        }
        if (comparison.behind_by === 0) {
          const problems = await problemsWith(await filesAt(dev), []);
          if (problems.length) throw new AppError('invalid', 'dev is not valid content; fix it before promoting.', { errors: problems });
          if ((await moveRef('main', dev, 'fast-forwarding main to dev')) !== 'moved')
            throw new AppError('repo_error', 'The branch main moved while promoting; nothing was changed. Try again.', { status: 409 });
          heads.delete('main');
          return {
            branch: 'main',
            commit: { sha: dev, message: subject((await meta(dev)).message) },
            files: changed(comparison.files),
            changed: true,
            merged: true,
            fastForward: true,
          };
        }
        // Merge on a short-lived branch first, so the merged tree is validated before main moves to it.
        const text = message ?? 'Promote dev to main';
        const staging = `vitae-promote-${randomBytes(6).toString('hex')}`;
        await call('creating the promotion branch', () => octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${staging}`, sha: main }));
        try {
          let merge: string;
          try {
            const res = await octokit.rest.repos.merge({ owner, repo, base: staging, head: dev, commit_message: text });
            merge = res.data.sha;
          } catch (error) {
            if ((error as OctokitFailure).status !== 409) throw explain(error, 'merging dev into main');
            // GitHub does not say which files conflict: those both sides changed since they diverged.
            const mainSide = await compareRefs(dev, main);
            const ours = new Set((mainSide.files ?? []).map((f) => f.filename));
            const paths = (comparison.files ?? [])
              .map((f) => f.filename)
              .filter((p) => ours.has(p))
              .sort();
            throw new AppError(
              'repo_error',
              `dev and main both changed ${paths.join(', ') || 'the same files'}; resolve the conflict on dev (make it match main where needed) and promote again. Nothing was changed.`,
              { status: 409, details: { conflicts: paths } },
            );
          }
          const problems = await problemsWith(await filesAt(merge), []);
          if (problems.length)
            throw new AppError('invalid', 'Merging dev into main would leave the content invalid; nothing was changed.', { errors: problems });
          if ((await moveRef('main', merge, 'moving main to the merge')) !== 'moved')
            throw new AppError('repo_error', 'The branch main moved while promoting; nothing was changed. Try again.', { status: 409 });
          heads.delete('main');
          return {
            branch: 'main',
            commit: { sha: merge, message: text },
            files: changed((await compareRefs(main, merge)).files),
            changed: true,
            merged: true,
            fastForward: false,
          };
        } finally {
          await octokit.rest.git.deleteRef({ owner, repo, ref: `heads/${staging}` }).catch(() => {});
        }
      });
    },
  };
  return repository;
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

/** Opens the github backend and checks, once, that the repository is there and the token may read it (and write). */
export async function openGitHubRepo(options: GitHubRepoOptions): Promise<{ repo: GitHubRepo; canWrite: boolean }> {
  const repo = createGitHubRepo(options);
  try {
    const { canWrite } = await repo.check();
    return { repo, canWrite };
  } catch (error) {
    const status = (error as OctokitFailure).status;
    const said = String((error as Error).message ?? error)
      .split(options.token)
      .join('[token]')
      .split('\n')[0];
    if (status === 401) throw new Error(`GITHUB_TOKEN was refused by ${options.apiUrl} (401 ${said}): the token is invalid or expired.`, { cause: error });
    if (status === 404 || status === 403)
      throw new Error(
        `GITHUB_REPOSITORY ${options.repository} is not readable with GITHUB_TOKEN (${status}): the repository does not exist or the token lacks access to it.`,
        { cause: error },
      );
    throw new Error(`GITHUB_API_URL ${options.apiUrl} is unreachable (${said}).`, { cause: error });
  }
}
