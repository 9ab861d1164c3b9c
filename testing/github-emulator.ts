// Test support: a GitHub emulator. A node:http server on loopback that speaks the subset of the GitHub REST
// API (and the one GraphQL mutation) the `github` repository backend calls, backed by a REAL bare git
// repository driven through the git CLI: refs move only by compare-and-swap (`git update-ref <ref> <new>
// <old>`), and blobs, trees, commits, merges and comparisons are what git itself says. Tokens are checked
// (401 without one), GET answers carry ETags (If-None-Match → 304), and switches inject what GitHub does on
// a bad day: 5xx, rate limits (primary and secondary), a read-only token, a ref that moves mid-commit, a
// connection cut before or after a write lands.
//
// Other test support extends it: `route()` adds endpoints (checked before the built-in ones, after the
// token check and the fault switches), and `onRefUpdate()` tells about every branch move, ours or a push.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGit, type Git } from '../operations/repo/git.server.ts';
import { openLocalRepo, readContentDir, seedRepo } from '../operations/repo/local-repo.server.ts';

export interface RefUpdate {
  /** `refs/heads/main` */
  ref: string;
  branch: string;
  /** The previous commit, or null when the branch was created. */
  before: string | null;
  /** The new commit, or null when the branch was deleted. */
  after: string | null;
  /** 'api' for a write through the emulated API, 'push' for `emulator.push` (an outside push). */
  via: 'api' | 'push';
}

export interface EmulatorRequest {
  method: string;
  /** Path without the query. */
  path: string;
  url: URL;
  status: number;
  /** For POST /graphql: `createCommitOnBranch` (the mutation) or `query` (blob reads). */
  operation?: string;
}

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path regex's match. */
  match: RegExpExecArray;
  url: URL;
  /** The parsed JSON body (undefined when there is none). */
  body: any;
  /** The raw body. */
  raw: Buffer;
  /** Answers JSON (with an ETag and 304 handling on GET). */
  send(status: number, body?: unknown, headers?: Record<string, string>): void;
  /** The emulator itself (git access, branches). */
  emulator: GitHubEmulator;
}

export type RouteHandler = (context: RouteContext) => void | Promise<void>;

export interface Faults {
  /** The next n requests (matching `match` when given, tried on "METHOD /path" plus " createCommitOnBranch" or " query" for GraphQL) are answered with `status` (default 502). */
  serverErrors: { count: number; status?: number; match?: RegExp };
  /** The next n requests (matching `match`) are rate limited: 'secondary' (403 + retry-after), 'primary' (403 + x-ratelimit-remaining 0) or 429. */
  rateLimit: { count: number; kind?: 'secondary' | 'primary' | '429'; retryAfterSeconds?: number; match?: RegExp };
  /** The token may read but not write (writes answer 403 "Resource not accessible by personal access token"). */
  readOnly: boolean;
  /** The token has no access to the repository at all (every repository call answers 404, as GitHub does). */
  noAccess: boolean;
  /**
   * Runs once, just before the next ref update through the API is applied (after the new commit exists):
   * e.g. `emulator.push(...)` to make the branch move between the backend's read and its update.
   */
  beforeRefUpdate?: (branch: string) => void | Promise<void>;
  /** The next write request's connection is cut: 'before' it is applied (nothing lands) or 'after' (it lands, the answer is lost). */
  dropWrite?: 'before' | 'after';
}

export interface GitHubEmulator {
  /** What GITHUB_API_URL is set to. */
  url: string;
  token: string;
  /** `owner/name` */
  repository: string;
  owner: string;
  name: string;
  /** The bare repository (named content.git, so `contentGit(dir)` from testing/content-git.ts reads it). */
  bareDir: string;
  /** The folder holding bareDir. */
  dir: string;
  git: Git;
  faults: Faults;
  /** Every request answered, in order (faults and 304s included). */
  requests: EmulatorRequest[];
  /** Adds an endpoint, tried before the built-in ones. `pathRegex` is matched against the path without the query. */
  route(method: string, pathRegex: RegExp, handler: RouteHandler): void;
  /** Called after every branch move (through the API or `push`). Returns a function that unsubscribes. */
  onRefUpdate(listener: (update: RefUpdate) => void): () => void;
  /** The commit a branch points at (null when it does not exist). */
  head(branch: string): Promise<string | null>;
  /**
   * An outside push: commits `changes` on top of `branch` with git plumbing and moves the branch by
   * compare-and-swap; ref listeners are told (via: 'push'). Returns the new commit.
   */
  push(branch: string, changes: Array<{ path: string; content?: string; delete?: true; mode?: string }>, message?: string): Promise<string>;
  /** Moves a branch to a commit by compare-and-swap (e.g. to reset dev to main), telling the listeners. */
  setRef(branch: string, commit: string, via?: RefUpdate['via']): Promise<void>;
  /** Called (and awaited) when `close()` begins, before the server stops and the repository is removed: work of other test support that reads it ends there. */
  onClose(listener: () => void | Promise<void>): void;
  /** Stops what was added (`onClose`), then the server, then removes the repository. */
  close(): Promise<void>;
}

export interface EmulatorOptions {
  /** A content folder (named `content`) to seed `main` and `dev` from; without it the repository starts empty. */
  seedDir?: string;
  /** Default `vitae-test/profile`. */
  repository?: string;
}

const ZERO = '0000000000000000000000000000000000000000';
const SHA = /^[0-9a-f]{40}$/;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export async function startGitHubEmulator(options: EmulatorOptions = {}): Promise<GitHubEmulator> {
  const dir = await mkdtemp(join(tmpdir(), 'vitae-github-'));
  const bareDir = join(dir, 'content.git');
  const git = await openLocalRepo(bareDir);
  const gitAs = createGit(bareDir);
  if (options.seedDir) await seedRepo(git, await readContentDir(resolve(options.seedDir)));
  const repository = options.repository ?? 'vitae-test/profile';
  const [owner, name] = repository.split('/') as [string, string];
  const token = `ghp_emulator_${randomBytes(12).toString('hex')}`;
  const faults: Faults = { serverErrors: { count: 0 }, rateLimit: { count: 0 }, readOnly: false, noAccess: false };
  const requests: EmulatorRequest[] = [];
  const routes: Array<{ method: string; pattern: RegExp; handler: RouteHandler }> = [];
  const listeners = new Set<(update: RefUpdate) => void>();
  const closers: Array<() => void | Promise<void>> = [];
  const repoPrefix = `/repos/${owner}/${name}`;
  const rate = { limit: 5000, remaining: 5000 };

  const text = async (args: string[], opts?: Parameters<Git['run']>[1]) => (await gitAs.run(args, opts)).stdout.toString('utf8').trim();
  const tryText = async (args: string[]) => {
    const { stdout, code } = await gitAs.run(args, { okCodes: [1, 128] });
    return code === 0 ? stdout.toString('utf8').trim() : null;
  };

  async function head(branch: string): Promise<string | null> {
    return tryText(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
  }

  function notify(update: RefUpdate) {
    for (const listener of listeners) {
      try {
        listener(update);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  /** Compare-and-swap a branch: false when it did not point at `expected` (null: must not exist). */
  async function casRef(branch: string, next: string | null, expected: string | null, via: RefUpdate['via']): Promise<boolean> {
    const ref = `refs/heads/${branch}`;
    const args = next === null ? ['update-ref', '-d', ref, expected ?? ''] : ['update-ref', ref, next, expected ?? ZERO];
    const { code } = await gitAs.run(args, { okCodes: [1, 128] });
    if (code !== 0) return false;
    notify({ ref, branch, before: expected, after: next, via });
    return true;
  }

  /** Applies the `beforeRefUpdate` switch (once), then the compare-and-swap. */
  async function apiRefUpdate(branch: string, next: string | null, expected: string | null): Promise<boolean> {
    const hook = faults.beforeRefUpdate;
    if (hook) {
      faults.beforeRefUpdate = undefined;
      await hook(branch);
    }
    return casRef(branch, next, expected, 'api');
  }

  async function objectType(sha: string): Promise<string | null> {
    return tryText(['cat-file', '-t', sha]);
  }

  async function commitJson(sha: string) {
    const out = await text(['show', '-s', '--format=%H%x1f%T%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B', sha]);
    const [full, tree, parents, an, ae, ad, cn, ce, cd, ...message] = out.split('\x1f');
    return {
      sha: full!,
      tree: { sha: tree!, url: `${base}${repoPrefix}/git/trees/${tree}` },
      parents: (parents ? parents.split(' ') : []).map((p) => ({ sha: p, url: `${base}${repoPrefix}/git/commits/${p}` })),
      message: message.join('\x1f').replace(/\n+$/, ''),
      author: { name: an!, email: ae!, date: ad! },
      committer: { name: cn!, email: ce!, date: cd! },
      url: `${base}${repoPrefix}/git/commits/${full}`,
      html_url: `https://github.com/${repository}/commit/${full}`,
    };
  }

  /** A commit as the commits API shows it (`/commits`, `/compare`), optionally with its files against the first parent. */
  async function restCommit(sha: string, withFiles: boolean) {
    const c = await commitJson(sha);
    const entry: Record<string, unknown> = {
      sha: c.sha,
      commit: { message: c.message, author: c.author, committer: c.committer, tree: c.tree, url: c.url },
      parents: c.parents,
      html_url: c.html_url,
      url: `${base}${repoPrefix}/commits/${c.sha}`,
    };
    if (withFiles) {
      const against = c.parents[0]?.sha;
      const rows = against
        ? await text(['diff-tree', '-r', '--no-renames', '--name-status', against, c.sha])
        : await text(['diff-tree', '-r', '--root', '--no-commit-id', '--name-status', c.sha]);
      // Each file with the blob it has after the commit, as GitHub lists it (`sha`; a removed file's is not used).
      const files = parseNameStatus(rows);
      const kept = files.filter((f) => f.status !== 'removed');
      const shas = kept.length ? (await text(['rev-parse', ...kept.map((f) => `${c.sha}:${f.filename}`)])).split('\n') : [];
      entry.files = files.map((f) => ({ ...f, sha: f.status === 'removed' ? null : shas[kept.indexOf(f)]! }));
    }
    return entry;
  }

  function parseNameStatus(rows: string) {
    const statuses: Record<string, string> = { A: 'added', M: 'modified', D: 'removed', T: 'changed' };
    return rows
      .split('\n')
      .filter((l) => l.includes('\t'))
      .map((line) => {
        const [status, filename] = line.split('\t');
        return { filename: filename!, status: statuses[status!.charAt(0)] ?? 'modified' };
      });
  }

  async function treeEntries(treeish: string, recursive: boolean) {
    const out = (await gitAs.run(['ls-tree', ...(recursive ? ['-r', '-t'] : []), '-l', '-z', '--full-tree', treeish])).stdout.toString('utf8');
    return out
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const tab = line.indexOf('\t');
        const [mode, type, sha, size] = line.slice(0, tab).split(/\s+/);
        return {
          path: line.slice(tab + 1),
          mode: mode!,
          type: type!,
          sha: sha!,
          ...(type === 'blob' ? { size: Number(size) } : {}),
          url: `${base}${repoPrefix}/git/${type === 'tree' ? 'trees' : 'blobs'}/${sha}`,
        };
      });
  }

  /** Builds a tree from `baseTree` (or empty) with entries set or removed, through a private index. */
  async function writeTree(baseTree: string | null, entries: Array<{ path: string; mode: string; sha: string | null }>): Promise<string> {
    const index = join(bareDir, `emulator-index-${process.pid}-${randomBytes(6).toString('hex')}`);
    const env = { GIT_INDEX_FILE: index };
    try {
      if (baseTree) await gitAs.run(['read-tree', baseTree], { env });
      else await gitAs.run(['read-tree', '--empty'], { env });
      const lines = entries.map((e) => (e.sha === null ? `0 ${ZERO}\t${e.path}` : `${e.mode} ${e.sha}\t${e.path}`));
      if (lines.length) await gitAs.run(['update-index', '--add', '--index-info'], { input: lines.join('\n') + '\n', env });
      return await text(['write-tree'], { env });
    } finally {
      await rm(index, { force: true });
    }
  }

  async function hashBlob(content: Buffer): Promise<string> {
    return text(['hash-object', '-w', '--stdin'], { input: content });
  }

  async function makeCommit(
    tree: string,
    parents: string[],
    message: string,
    author?: { name?: string; email?: string; date?: string },
    committerDate?: string,
  ): Promise<string> {
    const env: Record<string, string> = committerDate ? { GIT_COMMITTER_DATE: committerDate, GIT_AUTHOR_DATE: committerDate } : {};
    if (author?.name) env.GIT_AUTHOR_NAME = author.name;
    if (author?.email) env.GIT_AUTHOR_EMAIL = author.email;
    if (author?.date) env.GIT_AUTHOR_DATE = author.date;
    return text(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], { input: message, env });
  }

  async function resolveCommitish(ref: string): Promise<string | null> {
    if (SHA.test(ref)) return (await objectType(ref)) === 'commit' ? ref : null;
    return (await head(ref)) ?? (/^[0-9a-f]{4,39}$/.test(ref) ? tryText(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]) : null);
  }

  // ---- built-in endpoints -------------------------------------------------------------------------------

  type Handler = (c: RouteContext) => Promise<void> | void;
  const builtin: Array<{ method: string; pattern: RegExp; write?: boolean; handler: Handler }> = [];
  const on = (method: string, path: string, handler: Handler, write = method !== 'GET') =>
    builtin.push({ method, pattern: new RegExp(`^${repoPrefix.replace(/[.]/g, '\\.')}${path}$`), handler, write });

  on('GET', '', ({ send }) =>
    send(200, {
      full_name: repository,
      name,
      owner: { login: owner },
      default_branch: 'main',
      private: true,
      permissions: { admin: false, maintain: false, push: !faults.readOnly, triage: false, pull: true },
    }),
  );

  on('GET', '/git/ref/heads/(.+)', async ({ match, send }) => {
    const sha = await head(match[1]!);
    if (!sha) throw new HttpError(404, 'Not Found');
    send(200, { ref: `refs/heads/${match[1]}`, object: { sha, type: 'commit', url: `${base}${repoPrefix}/git/commits/${sha}` } });
  });

  on('GET', '/branches/(.+)', async ({ match, send }) => {
    const sha = await head(match[1]!);
    if (!sha) throw new HttpError(404, 'Branch not found');
    send(200, { name: match[1], commit: await restCommit(sha, false), protected: false });
  });

  on('GET', '/git/trees/([0-9a-zA-Z._/-]+)', async ({ match, url, send }) => {
    const ref = match[1]!;
    const sha = SHA.test(ref) ? ref : await resolveCommitish(ref);
    const type = sha ? await objectType(sha) : null;
    if (!sha || (type !== 'tree' && type !== 'commit')) throw new HttpError(404, 'Not Found');
    const treeSha = type === 'tree' ? sha : await text(['rev-parse', `${sha}^{tree}`]);
    const recursive = url.searchParams.has('recursive') && url.searchParams.get('recursive') !== '0' && url.searchParams.get('recursive') !== 'false';
    send(200, { sha: treeSha, url: `${base}${repoPrefix}/git/trees/${treeSha}`, tree: await treeEntries(treeSha, recursive), truncated: false });
  });

  on('GET', '/git/blobs/([0-9a-f]{40})', async ({ match, send }) => {
    const sha = match[1]!;
    if ((await objectType(sha)) !== 'blob') throw new HttpError(404, 'Not Found');
    const content = (await gitAs.run(['cat-file', 'blob', sha])).stdout;
    send(200, {
      sha,
      node_id: '',
      size: content.length,
      url: `${base}${repoPrefix}/git/blobs/${sha}`,
      content: content.toString('base64'),
      encoding: 'base64',
    });
  });

  on('GET', '/git/commits/([0-9a-f]{40})', async ({ match, send }) => {
    if ((await objectType(match[1]!)) !== 'commit') throw new HttpError(404, 'Not Found');
    send(200, await commitJson(match[1]!));
  });

  on('POST', '/git/blobs', async ({ body, send }) => {
    if (typeof body?.content !== 'string') throw new HttpError(422, 'Invalid request: content is required');
    const content = Buffer.from(body.content, body.encoding === 'base64' ? 'base64' : 'utf8');
    const sha = await hashBlob(content);
    send(201, { sha, url: `${base}${repoPrefix}/git/blobs/${sha}` });
  });

  on('POST', '/git/trees', async ({ body, send }) => {
    if (!Array.isArray(body?.tree)) throw new HttpError(422, 'Invalid request: tree is required');
    let baseTree: string | null = null;
    if (body.base_tree) {
      baseTree = SHA.test(body.base_tree) && (await objectType(body.base_tree)) === 'tree' ? body.base_tree : null;
      if (!baseTree) throw new HttpError(422, 'Invalid request: base_tree is not a tree');
    }
    const entries: Array<{ path: string; mode: string; sha: string | null }> = [];
    for (const e of body.tree as Array<{ path: string; mode: string; type?: string; sha?: string | null; content?: string }>) {
      if (typeof e.path !== 'string' || !/^(100644|100755|040000|160000|120000)$/.test(e.mode))
        throw new HttpError(422, `Invalid tree entry ${JSON.stringify(e.path)}`);
      if (e.content !== undefined) entries.push({ path: e.path, mode: e.mode, sha: await hashBlob(Buffer.from(e.content, 'utf8')) });
      else if (e.sha === null) entries.push({ path: e.path, mode: e.mode, sha: null });
      else if (typeof e.sha === 'string' && SHA.test(e.sha) && (await objectType(e.sha))) entries.push({ path: e.path, mode: e.mode, sha: e.sha });
      else throw new HttpError(422, `Invalid tree entry ${e.path}: sha not found`);
    }
    const sha = await writeTree(baseTree, entries);
    send(201, { sha, url: `${base}${repoPrefix}/git/trees/${sha}`, tree: await treeEntries(sha, false), truncated: false });
  });

  on('POST', '/git/commits', async ({ body, send }) => {
    if (typeof body?.message !== 'string' || typeof body?.tree !== 'string') throw new HttpError(422, 'Invalid request: message and tree are required');
    if ((await objectType(body.tree)) !== 'tree') throw new HttpError(422, 'Invalid request: tree is not a tree');
    const parents: string[] = body.parents ?? [];
    for (const p of parents) if (!SHA.test(p) || (await objectType(p)) !== 'commit') throw new HttpError(422, `Invalid request: parent ${p} is not a commit`);
    const sha = await makeCommit(body.tree, parents, body.message, body.author);
    send(201, await commitJson(sha));
  });

  on('POST', '/git/refs', async ({ body, send }) => {
    const ref = String(body?.ref ?? '');
    const branch = /^refs\/heads\/(.+)$/.exec(ref)?.[1];
    if (!branch || !SHA.test(String(body?.sha)) || (await objectType(body.sha)) !== 'commit') throw new HttpError(422, 'Invalid request: ref or sha');
    if (!(await apiRefUpdate(branch, body.sha, null))) throw new HttpError(422, 'Reference already exists');
    send(201, { ref, object: { sha: body.sha, type: 'commit' } });
  });

  on('PATCH', '/git/refs/heads/(.+)', async ({ match, body, send }) => {
    const branch = match[1]!;
    const next = String(body?.sha ?? '');
    if (!SHA.test(next) || (await objectType(next)) !== 'commit') throw new HttpError(422, 'Object does not exist');
    const current = await head(branch);
    if (!current) throw new HttpError(422, 'Reference does not exist');
    if (!body.force && current !== next) {
      const ff = (await gitAs.run(['merge-base', '--is-ancestor', current, next], { okCodes: [1] })).code === 0;
      if (!ff) throw new HttpError(422, 'Update is not a fast forward');
    }
    // Compare-and-swap against what was checked: a push in between makes this a non-fast-forward too.
    if (current !== next && !(await apiRefUpdate(branch, next, current))) throw new HttpError(422, 'Update is not a fast forward');
    send(200, { ref: `refs/heads/${branch}`, object: { sha: next, type: 'commit' } });
  });

  on('DELETE', '/git/refs/heads/(.+)', async ({ match, res }) => {
    const current = await head(match[1]!);
    if (!current) throw new HttpError(422, 'Reference does not exist');
    await casRef(match[1]!, null, current, 'api');
    res.writeHead(204).end();
  });

  on('GET', '/commits', async ({ url, send }) => {
    const start = url.searchParams.get('sha') ?? 'main';
    const sha = await resolveCommitish(start);
    if (!sha) throw new HttpError(404, `No commit found for SHA: ${start}`);
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30)));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const path = url.searchParams.get('path');
    const out = await text(['log', '--format=%H', `--skip=${(page - 1) * perPage}`, `--max-count=${perPage + 1}`, sha, ...(path ? ['--', path] : [])]);
    const shas = out.split('\n').filter(Boolean);
    const pageShas = shas.slice(0, perPage);
    const headers: Record<string, string> = {};
    if (shas.length > perPage) {
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      headers.Link = `<${base}${next.pathname}${next.search}>; rel="next"`;
    }
    send(200, await Promise.all(pageShas.map((s) => restCommit(s, false))), headers);
  });

  on('GET', '/commits/([^/]+)', async ({ match, send }) => {
    const sha = await resolveCommitish(decodeURIComponent(match[1]!));
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${match[1]}`);
    send(200, await restCommit(sha, true));
  });

  on('GET', '/compare/(.+)\\.\\.\\.(.+)', async ({ match, send }) => {
    const [from, to] = await Promise.all([resolveCommitish(decodeURIComponent(match[1]!)), resolveCommitish(decodeURIComponent(match[2]!))]);
    if (!from || !to) throw new HttpError(404, 'Not Found');
    const mergeBase = await tryText(['merge-base', from, to]);
    const aheadBy = Number(await text(['rev-list', '--count', `${from}..${to}`]));
    const behindBy = Number(await text(['rev-list', '--count', `${to}..${from}`]));
    // GitHub lists at most 250 commits, oldest first.
    const shas = aheadBy ? (await text(['rev-list', '--reverse', `${from}..${to}`])).split('\n').filter(Boolean).slice(0, 250) : [];
    const files = mergeBase ? parseNameStatus(await text(['diff-tree', '-r', '--no-renames', '--name-status', mergeBase, to])) : [];
    const filesWithSha = await Promise.all(
      files.map(async (f) => ({ ...f, sha: f.status === 'removed' ? null : await tryText(['rev-parse', `${to}:${f.filename}`]) })),
    );
    send(200, {
      status: aheadBy && behindBy ? 'diverged' : aheadBy ? 'ahead' : behindBy ? 'behind' : 'identical',
      ahead_by: aheadBy,
      behind_by: behindBy,
      total_commits: aheadBy,
      base_commit: await restCommit(from, false),
      merge_base_commit: mergeBase ? await restCommit(mergeBase, false) : null,
      commits: await Promise.all(shas.map((s) => restCommit(s, false))),
      files: filesWithSha,
      html_url: `https://github.com/${repository}/compare/${match[1]}...${match[2]}`,
    });
  });

  on('POST', '/merges', async ({ body, send, res }) => {
    const baseBranch = String(body?.base ?? '');
    const headRef = String(body?.head ?? '');
    const current = await head(baseBranch);
    const incoming = await resolveCommitish(headRef);
    if (!current) throw new HttpError(404, 'Base does not exist');
    if (!incoming) throw new HttpError(404, 'Head does not exist');
    if ((await gitAs.run(['merge-base', '--is-ancestor', incoming, current], { okCodes: [1] })).code === 0) return void res.writeHead(204).end();
    const merge = await gitAs.run(['merge-tree', '--write-tree', '--no-messages', current, incoming], { okCodes: [1] });
    if (merge.code === 1) throw new HttpError(409, 'Merge conflict');
    const tree = merge.stdout.toString('utf8').trim().split('\n')[0]!;
    const message = typeof body.commit_message === 'string' ? body.commit_message : `Merge ${headRef} into ${baseBranch}`;
    const commit = await makeCommit(tree, [current, incoming], message);
    if (!(await apiRefUpdate(baseBranch, commit, current))) throw new HttpError(409, 'Base moved during the merge; try again');
    send(201, await restCommit(commit, false));
  });

  /** The one GraphQL mutation the backend uses: createCommitOnBranch (expectedHeadOid is the compare-and-swap). */
  async function graphql({ body, send }: RouteContext) {
    const query = String(body?.query ?? '');
    if (/^\s*query\b/.test(query) && /object\(oid:/.test(query)) return blobQuery(query, send);
    if (!/createCommitOnBranch/.test(query)) throw new HttpError(400, 'This emulator answers only the createCommitOnBranch mutation and blob queries');
    const input = body?.variables?.input;
    const fail = (type: string, message: string) =>
      send(200, { data: { createCommitOnBranch: null }, errors: [{ type, path: ['createCommitOnBranch'], message }] });
    if (!input?.branch?.branchName || !input?.expectedHeadOid || !input?.message?.headline)
      return fail('INVALID', 'branch, expectedHeadOid and message are required');
    if (input.branch.repositoryNameWithOwner && input.branch.repositoryNameWithOwner !== repository)
      return fail('NOT_FOUND', `Could not resolve to a Repository with the name '${input.branch.repositoryNameWithOwner}'.`);
    if (faults.readOnly) return fail('FORBIDDEN', 'Resource not accessible by personal access token');
    const branch: string = input.branch.branchName;
    // Few git commands per commit (the head and its tree in one, blobs in parallel, no read-back): the
    // emulator shares its process with the service under test.
    const resolved = await tryText(['rev-parse', `refs/heads/${branch}^{commit}`, `refs/heads/${branch}^{tree}`]);
    if (!resolved) return fail('NOT_FOUND', `A ref named "refs/heads/${branch}" does not exist.`);
    const [current, treeOfHead] = resolved.split('\n') as [string, string];
    if (current !== input.expectedHeadOid)
      return fail('STALE_DATA', `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`);
    const deletions: Array<{ path: string }> = input.fileChanges?.deletions ?? [];
    const additions: Array<{ path: string; contents: string }> = input.fileChanges?.additions ?? [];
    if (deletions.length) {
      const present = new Set(
        (await gitAs.run(['ls-tree', '-r', '-z', '--name-only', '--full-tree', current, '--', ...deletions.map((d) => d.path)])).stdout
          .toString('utf8')
          .split('\0'),
      );
      if (deletions.some((d) => !present.has(d.path)))
        return fail('UNPROCESSABLE', `A path was requested for deletion which does not exist as of commit oid \`${current}\``);
    }
    const shas = await Promise.all(additions.map((a) => hashBlob(Buffer.from(String(a.contents), 'base64'))));
    const entries = [
      ...deletions.map((d) => ({ path: d.path, mode: '100644', sha: null })),
      ...additions.map((a, i) => ({ path: a.path, mode: '100644', sha: shas[i]! })),
    ];
    const tree = await writeTree(treeOfHead, entries);
    const message = input.message.body ? `${input.message.headline}\n\n${input.message.body}` : input.message.headline;
    const committedDate = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const commit = await makeCommit(tree, [current], message, undefined, committedDate);
    if (!(await apiRefUpdate(branch, commit, current)))
      return fail('STALE_DATA', `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`);
    send(200, {
      data: {
        createCommitOnBranch: {
          commit: { oid: commit, url: `https://github.com/${repository}/commit/${commit}`, committedDate, message },
          ref: { name: branch, target: { oid: commit } },
        },
      },
    });
  }

  /** `repository { b0: object(oid: "…") { ... on Blob { text isBinary isTruncated } } … }`, read with one `cat-file --batch`. */
  async function blobQuery(query: string, send: RouteContext['send']) {
    const wanted = [...query.matchAll(/(\w+): object\(oid: "([0-9a-f]{40})"\)/g)].map((m) => ({ alias: m[1]!, sha: m[2]! }));
    const out = (await gitAs.run(['cat-file', '--batch'], { input: wanted.map((w) => w.sha).join('\n') + '\n' })).stdout;
    const repositoryData: Record<string, unknown> = {};
    let offset = 0;
    for (const { alias, sha } of wanted) {
      const end = out.indexOf(0x0a, offset);
      const [, type, size] = out.subarray(offset, end).toString('utf8').split(' ');
      if (!type || type === 'missing' || size === undefined) {
        repositoryData[alias] = null;
        offset = end + 1;
        continue;
      }
      const bytes = out.subarray(end + 1, end + 1 + Number(size));
      offset = end + 1 + Number(size) + 1;
      const binary = bytes.includes(0);
      repositoryData[alias] =
        type === 'blob' ? { oid: sha, text: binary ? null : bytes.toString('utf8'), isBinary: binary, isTruncated: false, byteSize: bytes.length } : {};
    }
    send(200, { data: { repository: repositoryData } });
  }

  // ---- the server -----------------------------------------------------------------------------------------

  const server: Server = createServer((req, res) => void answer(req, res));
  let base = '';

  function etagOf(payload: string) {
    return `W/"${createHash('sha1').update(payload).digest('hex')}"`;
  }

  async function answer(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    // Octokit escapes the slash of `heads/main` (`heads%2Fmain`); GitHub reads it as a slash, so routes match the decoded path.
    let path = url.pathname;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      // left as sent
    }
    const operation = path === '/graphql' ? (/createCommitOnBranch/.test(raw.toString('utf8')) ? 'createCommitOnBranch' : 'query') : undefined;
    const record: EmulatorRequest = { method, path, url, status: 0, ...(operation ? { operation } : {}) };
    requests.push(record);
    const rateHeaders = () => ({
      'x-ratelimit-limit': String(rate.limit),
      'x-ratelimit-remaining': String(rate.remaining),
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
    });
    const reply = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
      if (res.headersSent) return;
      record.status = status;
      if (payload === undefined) return void res.writeHead(status, { ...rateHeaders(), ...headers }).end();
      const json = JSON.stringify(payload);
      if (method === 'GET' && status === 200) {
        const etag = etagOf(json);
        if (req.headers['if-none-match'] === etag) {
          record.status = 304;
          return void res.writeHead(304, { ...rateHeaders(), ETag: etag, ...headers }).end();
        }
        headers = { ETag: etag, 'Cache-Control': 'private, max-age=60, s-maxage=60', ...headers };
      }
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...rateHeaders(), ...headers }).end(json);
    };
    const problem = (status: number, message: string, headers: Record<string, string> = {}) =>
      reply(status, { message, documentation_url: 'https://docs.github.com/rest', status: String(status) }, headers);

    try {
      const auth = req.headers.authorization ?? '';
      const given = /^(?:token|bearer)\s+(.+)$/i.exec(auth)?.[1];
      if (given !== token) return problem(401, 'Bad credentials');

      const matches = (m?: RegExp) => !m || m.test(`${method} ${path}${operation ? ` ${operation}` : ''}`);
      if (faults.rateLimit.count > 0 && matches(faults.rateLimit.match)) {
        faults.rateLimit.count--;
        const kind = faults.rateLimit.kind ?? 'secondary';
        const after = String(faults.rateLimit.retryAfterSeconds ?? 1);
        if (kind === 'secondary')
          return problem(403, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', { 'retry-after': after });
        if (kind === '429') return problem(429, 'You have exceeded a secondary rate limit.', { 'retry-after': after });
        record.status = 403;
        const reset = String(Math.ceil(Date.now() / 1000) + Number(after));
        return void res
          .writeHead(403, { 'Content-Type': 'application/json', 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })
          .end(JSON.stringify({ message: 'API rate limit exceeded for user.', documentation_url: 'https://docs.github.com/rest' }));
      }
      if (faults.serverErrors.count > 0 && matches(faults.serverErrors.match)) {
        faults.serverErrors.count--;
        return problem(faults.serverErrors.status ?? 502, 'Server Error');
      }

      const isGraphql = method === 'POST' && path === '/graphql';
      const body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
      const context: RouteContext = { req, res, match: /$/.exec('')!, url, body, raw, send: reply, emulator };

      for (const route of routes) {
        const m = route.method === method ? route.pattern.exec(path) : null;
        if (m) return void (await route.handler({ ...context, match: m }));
      }

      if (faults.noAccess && (path.startsWith(repoPrefix) || isGraphql)) return problem(404, 'Not Found');
      // dropWrite cuts a write: the mutation, not a query reading blobs.
      if (isGraphql) return await (operation === 'createCommitOnBranch' ? withDrop(() => graphql(context)) : graphql(context));
      for (const route of builtin) {
        const m = route.method === method ? route.pattern.exec(path) : null;
        if (!m) continue;
        if (route.write && faults.readOnly) return problem(403, 'Resource not accessible by personal access token');
        const run = () => route.handler({ ...context, match: m });
        return void (await (route.write ? withDrop(run) : run()));
      }
      if (path === '/user' && method === 'GET') return reply(200, { login: 'vitae-bot' });
      if (path === '/rate_limit' && method === 'GET') return reply(200, { resources: { core: { limit: rate.limit, remaining: rate.remaining } } });
      return problem(404, 'Not Found');
    } catch (error) {
      if (error instanceof HttpError) return problem(error.status, error.message, error.headers);
      if (error instanceof SyntaxError) return problem(400, 'Problems parsing JSON');
      return problem(500, `emulator failure: ${(error as Error).message}`);
    }

    /** The `dropWrite` switch: the connection is cut before the write is applied, or after it landed. */
    async function withDrop(run: () => Promise<void> | void): Promise<void> {
      const drop = faults.dropWrite;
      if (!drop) return void (await run());
      faults.dropWrite = undefined;
      if (drop === 'before') {
        record.status = -1;
        return void req.socket.destroy();
      }
      const realWriteHead = res.writeHead.bind(res);
      // Let the write happen, then cut the connection instead of answering.
      res.writeHead = () => {
        record.status = -1;
        req.socket.destroy();
        return res;
      };
      try {
        await run();
      } finally {
        res.writeHead = realWriteHead;
      }
    }
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const emulator: GitHubEmulator = {
    url: base,
    token,
    repository,
    owner,
    name,
    bareDir,
    dir,
    git: gitAs,
    faults,
    requests,
    route(method, pathRegex, handler) {
      routes.push({ method: method.toUpperCase(), pattern: pathRegex, handler });
    },
    onRefUpdate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    head,
    async push(branch, changes, message = 'outside push') {
      const parent = await head(branch);
      const entries: Array<{ path: string; mode: string; sha: string | null }> = [];
      for (const c of changes)
        entries.push({ path: c.path, mode: c.mode ?? '100644', sha: c.delete ? null : await hashBlob(Buffer.from(c.content ?? '', 'utf8')) });
      const tree = await writeTree(parent ? await text(['rev-parse', `${parent}^{tree}`]) : null, entries);
      const commit = await makeCommit(tree, parent ? [parent] : [], message, { name: 'Outsider', email: 'o@example.test' });
      if (!(await casRef(branch, commit, parent, 'push'))) throw new Error(`emulator push: ${branch} moved during the push`);
      return commit;
    },
    async setRef(branch, commit, via = 'push') {
      const current = await head(branch);
      if (!(await casRef(branch, commit, current, via))) throw new Error(`emulator setRef: ${branch} moved`);
    },
    onClose(listener) {
      closers.push(listener);
    },
    async close() {
      // Whatever reads the repository (the Actions' runs) stops first, so nothing reads it while it is removed.
      for (const closer of closers.splice(0)) await closer();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await rm(dir, { recursive: true, force: true });
    },
  };
  return emulator;
}
