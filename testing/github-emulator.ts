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
// Its parts: git plumbing (github-emulator-git.ts), REST endpoints (github-emulator-routes.ts), GraphQL
// (github-emulator-graphql.ts); this file is the server, its token and fault switches, and the handle tests hold.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGit } from '../operations/repo/git.server.ts';
import { openLocalRepo, readContentDir, readMediaDir, seedRepo } from '../operations/repo/local-repo.server.ts';
import { casRef, head, push } from './github-emulator-git.ts';
import { graphql } from './github-emulator-graphql.ts';
import { builtinRoutes } from './github-emulator-routes.ts';
import {
  HttpError,
  type BuiltinRoute,
  type EmulatorOptions,
  type EmulatorRequest,
  type EmulatorState,
  type GitHubEmulator,
  type RouteContext,
  type RouteHandler,
} from './github-emulator-types.ts';

export type { EmulatorOptions, EmulatorRequest, Faults, GitHubEmulator, RefUpdate, RouteContext, RouteHandler } from './github-emulator-types.ts';

/** The server's view: the shared state, the token it accepts, what it answered, and the endpoints it tries. */
interface Served {
  s: EmulatorState;
  token: string;
  requests: EmulatorRequest[];
  /** Endpoints added by other test support (`route()`), tried before the built-in ones. */
  added: Array<{ method: string; pattern: RegExp; handler: RouteHandler }>;
  builtin: BuiltinRoute[];
  emulator: GitHubEmulator;
}

const RATE = { limit: 5000, remaining: 5000 };

export async function startGitHubEmulator(options: EmulatorOptions = {}): Promise<GitHubEmulator> {
  const dir = await mkdtemp(join(tmpdir(), 'vitae-github-'));
  const bareDir = join(dir, 'content.git');
  const seeding = await openLocalRepo(bareDir);
  if (options.seedDir) await seedRepo(seeding, await readContentDir(resolve(options.seedDir)), undefined, await readMediaDir(resolve(options.seedDir)));
  const repository = options.repository ?? 'vitae-test/profile';
  const [owner, name] = repository.split('/') as [string, string];
  const s: EmulatorState = {
    git: createGit(bareDir),
    bareDir,
    repository,
    owner,
    name,
    repoPrefix: `/repos/${owner}/${name}`,
    base: '',
    faults: { serverErrors: { count: 0 }, rateLimit: { count: 0 }, readOnly: false, noAccess: false },
    listeners: new Set(),
  };
  const served: Served = {
    s,
    token: `ghp_emulator_${randomBytes(12).toString('hex')}`,
    requests: [],
    added: [],
    builtin: builtinRoutes(s),
    emulator: undefined!,
  };
  const server = createServer((req, res) => void answer(served, req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  s.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closers: Array<() => void | Promise<void>> = [];

  const emulator: GitHubEmulator = {
    url: s.base,
    token: served.token,
    repository,
    owner,
    name,
    bareDir,
    dir,
    git: s.git,
    faults: s.faults,
    requests: served.requests,
    route(method, pathRegex, handler) {
      served.added.push({ method: method.toUpperCase(), pattern: pathRegex, handler });
    },
    onRefUpdate(listener) {
      s.listeners.add(listener);
      return () => s.listeners.delete(listener);
    },
    head: (branch) => head(s, branch),
    push: (branch, changes, message = 'outside push') => push(s, branch, changes, message),
    async setRef(branch, commit, via = 'push') {
      const current = await head(s, branch);
      if (!(await casRef(s, branch, commit, current, via))) throw new Error(`emulator setRef: ${branch} moved`);
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
  served.emulator = emulator;
  return emulator;
}

function etagOf(payload: string) {
  return `W/"${createHash('sha1').update(payload).digest('hex')}"`;
}

const rateHeaders = () => ({
  'x-ratelimit-limit': String(RATE.limit),
  'x-ratelimit-remaining': String(RATE.remaining),
  'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 3600),
  'x-ratelimit-resource': 'core',
});

/** How one request is answered: JSON with an ETag (and 304 on a match) for a GET, recorded in `requests`. */
function replier(req: IncomingMessage, res: ServerResponse, record: EmulatorRequest) {
  const reply = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
    if (res.headersSent) return;
    record.status = status;
    if (payload === undefined) return void res.writeHead(status, { ...rateHeaders(), ...headers }).end();
    const json = JSON.stringify(payload);
    if (record.method === 'GET' && status === 200) {
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
  return { reply, problem };
}

async function answer(served: Served, req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const url = new URL(req.url ?? '/', served.s.base);
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
  served.requests.push(record);
  const { reply, problem } = replier(req, res, record);
  try {
    const given = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (given !== served.token) return problem(401, 'Bad credentials');
    if (injectFault(served.s, record, res, problem)) return;
    const body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    const context: RouteContext = { req, res, match: /$/.exec('')!, url, body, raw, send: reply, emulator: served.emulator };
    await route(served, context, record, problem);
  } catch (error) {
    if (error instanceof HttpError) return problem(error.status, error.message, error.headers);
    if (error instanceof SyntaxError) return problem(400, 'Problems parsing JSON');
    return problem(500, `emulator failure: ${(error as Error).message}`);
  }
}

/** The rate-limit and server-error switches: true when the request was answered by one of them. */
function injectFault(s: EmulatorState, record: EmulatorRequest, res: ServerResponse, problem: ReturnType<typeof replier>['problem']): boolean {
  const { faults } = s;
  const matches = (m?: RegExp) => !m || m.test(`${record.method} ${record.path}${record.operation ? ` ${record.operation}` : ''}`);
  if (faults.rateLimit.count > 0 && matches(faults.rateLimit.match)) {
    faults.rateLimit.count--;
    const kind = faults.rateLimit.kind ?? 'secondary';
    const after = String(faults.rateLimit.retryAfterSeconds ?? 1);
    if (kind === 'secondary') {
      problem(403, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', { 'retry-after': after });
    } else if (kind === '429') {
      problem(429, 'You have exceeded a secondary rate limit.', { 'retry-after': after });
    } else {
      record.status = 403;
      const reset = String(Math.ceil(Date.now() / 1000) + Number(after));
      res
        .writeHead(403, { 'Content-Type': 'application/json', 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })
        .end(JSON.stringify({ message: 'API rate limit exceeded for user.', documentation_url: 'https://docs.github.com/rest' }));
    }
    return true;
  }
  if (faults.serverErrors.count > 0 && matches(faults.serverErrors.match)) {
    faults.serverErrors.count--;
    problem(faults.serverErrors.status ?? 502, 'Server Error');
    return true;
  }
  return false;
}

/** The endpoints: those added first, then (unless the token has no access) GraphQL and the built-in ones. */
async function route(served: Served, context: RouteContext, record: EmulatorRequest, problem: ReturnType<typeof replier>['problem']) {
  const { s } = served;
  const { method, path } = record;
  for (const added of served.added) {
    const m = added.method === method ? added.pattern.exec(path) : null;
    if (m) return void (await added.handler({ ...context, match: m }));
  }
  const isGraphql = method === 'POST' && path === '/graphql';
  if (s.faults.noAccess && (path.startsWith(s.repoPrefix) || isGraphql)) return problem(404, 'Not Found');
  // dropWrite cuts a write: the mutation, not a query reading blobs.
  if (isGraphql) return await (record.operation === 'createCommitOnBranch' ? withDrop(s, context, record, () => graphql(s, context)) : graphql(s, context));
  for (const builtin of served.builtin) {
    const m = builtin.method === method ? builtin.pattern.exec(path) : null;
    if (!m) continue;
    if (builtin.write && s.faults.readOnly) return problem(403, 'Resource not accessible by personal access token');
    const run = () => builtin.handler({ ...context, match: m });
    return void (await (builtin.write ? withDrop(s, context, record, run) : run()));
  }
  if (path === '/user' && method === 'GET') return context.send(200, { login: 'vitae-bot' });
  if (path === '/rate_limit' && method === 'GET') return context.send(200, { resources: { core: { limit: RATE.limit, remaining: RATE.remaining } } });
  return problem(404, 'Not Found');
}

/** The `dropWrite` switch: the connection is cut before the write is applied, or after it landed. */
async function withDrop(s: EmulatorState, { req, res }: RouteContext, record: EmulatorRequest, run: () => Promise<void> | void): Promise<void> {
  const drop = s.faults.dropWrite;
  if (!drop) return void (await run());
  s.faults.dropWrite = undefined;
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
