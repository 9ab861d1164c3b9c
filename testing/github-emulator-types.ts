// Test support: the GitHub emulator's types (testing/github-emulator.ts says what it emulates), the state its
// parts share — git plumbing (github-emulator-git.ts), the REST endpoints (github-emulator-routes.ts), GraphQL
// (github-emulator-graphql.ts) and the server — and the error an endpoint throws to answer a GitHub-shaped failure.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Git } from '../operations/repo/git.server.ts';

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

export const ZERO = '0000000000000000000000000000000000000000';
export const SHA = /^[0-9a-f]{40}$/;

/** Thrown by an endpoint: answered as GitHub answers a failure (`message`, `documentation_url`), with `headers`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** What the emulator's parts share: the repository, its name, the fault switches, the ref listeners. */
export interface EmulatorState {
  /** git on the bare repository. */
  git: Git;
  bareDir: string;
  /** `owner/name` */
  repository: string;
  owner: string;
  name: string;
  /** `/repos/{owner}/{name}` */
  repoPrefix: string;
  /** The server's own URL, known once it listens (answers carry URLs of other resources). */
  base: string;
  faults: Faults;
  listeners: Set<(update: RefUpdate) => void>;
}

/** A built-in endpoint; `write` ones are refused to a read-only token and cut by the `dropWrite` switch. */
export interface BuiltinRoute {
  method: string;
  pattern: RegExp;
  write: boolean;
  handler: RouteHandler;
}
