// The contract's implementation, typed by it, and `invoke`: the one pipeline every surface runs an
// operation through (REST, MCP, the site's loaders, the console, the agent's tools):
//   authorize → the per-build memo → parse the input → the role it needs → can it run here at all (a model it needs) →
//   rate-limit → handler → check the output and
//   that an error it raised is one its operation answers with (development and tests) → keep it in the memo → errors.
// Authorization comes first so that nobody without the token learns anything from a validation message;
// rate limits come after parsing so that a malformed request does not spend a client's budget. A feature that is not
// configured is refused after parsing too, so a bad request hears what is wrong with it whatever the configuration. A pure operation's
// answer is kept per build and input, once for every surface: a surface keeps its encoding of it (JSON bytes, a
// JSON-RPC result) beside it rather than a cache of its own.
import type { z } from 'zod';
import { AppError, isAppError, type AppErrorOptions, type ErrorCode } from '../contract/errors.ts';
import { answeredErrors, type AnyOperation, type ErrorsOf, type InputOf, type OutputOf } from '../contract/define.ts';
import { inputProblems, parseOperationInput, type FieldNames } from '../contract/issues.ts';
import type { Branch } from '../contract/shared.ts';
import { roleAllows, type Role } from '../contract/roles.ts';
import type { RateLimits } from './rate-limit.server.ts';
import { unauthorized } from './auth.server.ts';
import { BuildCache, steadyBuild, type ServedBuilds } from './build-cache.server.ts';
import { cacheCounters } from './metrics.server.ts';
import type { AuditTrail } from './audit.server.ts';

/** An account that edits: the owner (ADMIN_TOKEN, id `owner`, a publisher) or an editor (operations/server/editors.server.ts). */
export interface Account {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** Who is calling, as the edge established it. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'admin'; via: 'bearer' | 'session'; account: Account }
  /** Credentials were given but refused (a wrong token, a cross-site cookie write): the error says why. */
  | { kind: 'refused'; error: AppError };

export const anonymous: Principal = { kind: 'anonymous' };

/** The doors a call comes through (the label of the memo's hits in /metrics; what the one-door test counts). */
export const doors = ['rest', 'mcp', 'site', 'agent'] as const;
export type Door = (typeof doors)[number];

/** What a handler knows about the call besides its input. */
export interface CallContext {
  /** The door the call came through (default `site`: the web app's loaders and actions). */
  door?: Door;
  /** A surface's read of what it needs to answer at all (the MCP server's own name), not an answer: not counted in the cache figures. */
  uncounted?: boolean;
  /** The content branch this listener serves. */
  branch: Branch;
  /** Client address for rate limits, already resolved per TRUST_PROXY. */
  ip: string;
  principal: Principal;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  /** Where an operation that `streams` reports its progress (one event of its `streams` schema at a time). */
  progress?: (event: { type: string }) => void;
  /** Told the rate-limit headers as soon as the call is admitted, before it runs (a stream sends them with its first line). */
  admitted?: (headers: Record<string, string>) => void;
}

/** The error a handler throws to refuse a call: `code` must be one of those `C` (its operation's, `ErrorsOf`). */
export type Refuse<C extends ErrorCode> = (code: C, message: string, options?: AppErrorOptions) => AppError;

/** What a handler is given besides its input: the call, and `refuse`, typed by the errors its operation declares. */
export interface HandlerContext<Op extends AnyOperation> extends CallContext {
  /** `throw ctx.refuse('not_found', '…')`: a code the operation does not declare does not compile. */
  refuse: Refuse<ErrorsOf<Op>>;
}

/**
 * A handler returns what its output schema accepts and refuses with the errors its operation answers with (its own
 * through `ctx.refuse`); `invoke` checks both in development and tests.
 */
export type HandlerOf<Op extends AnyOperation> = (input: InputOf<Op>, ctx: HandlerContext<Op>) => z.input<Op['output']> | Promise<z.input<Op['output']>>;

/** One handler per operation of `Ops`, by name: a missing or mistyped handler does not compile. */
export type Handlers<Ops extends readonly AnyOperation[]> = { [Op in Ops[number] as Op['name']]: HandlerOf<Op> };

export interface InvokeOptions {
  /** The caller's names for input fields (REST `q` for `query`), so messages use the names they sent. */
  names?: FieldNames;
}

export interface Invocation<T = unknown> {
  output: T;
  /** Headers the answer should carry (rate-limit budgets). */
  headers: Record<string, string>;
  /**
   * A pure operation's answer that is its build's own (kept, or made from the build as it stands): the build's id,
   * a validator for the answer (an ETag). Absent for other operations, and for an answer made while the build's
   * hybrid search had fallen back to BM25 alone or while another build came to be served (not the build's answer:
   * neither kept nor to be revalidated; `steadyBuild`).
   */
  build?: string;
  /** The output as a surface encodes it (`kind` names the encoding), made once and kept beside a kept answer. */
  encoded<E>(kind: string, encode: (output: T) => E): E;
}

export interface Implementation {
  readonly operations: readonly AnyOperation[];
  invoke<Op extends AnyOperation>(op: Op, raw: unknown, ctx: CallContext, options?: InvokeOptions): Promise<Invocation<OutputOf<Op>>>;
  /**
   * The same per-build memo for a surface's answers that are not one operation's (an MCP list, resource or prompt
   * answer as bytes, made from operations' outputs): bounded and dropped with the build like the rest.
   */
  memo: SurfaceMemo;
}

export interface SurfaceMemo {
  /**
   * A value kept for the build `branch` serves now, under `key`; counted as a hit or miss of `door` in /metrics, or not
   * at all without one (what a surface needs to answer at all, such as the MCP server's own name: not an answer).
   */
  get<V>(branch: Branch, key: string, door?: Door): V | undefined;
  /** Call before the work: keeps a value made by it for the build served then, if that build is steady (`steadyBuild`). */
  keeper(branch: Branch): <V>(key: string, value: V, bytes: number) => void;
}

export interface ImplementOptions {
  rateLimits: Pick<RateLimits, 'consume'>;
  /** Without it nothing is kept (tests of handlers alone). */
  builds?: ServedBuilds;
  /** Where the events operations declare (`audit`) are recorded, with who made the call and from where. */
  audit?: Pick<AuditTrail, 'record'>;
  /** Runs the first answer of a public pure read (the service-wide work queue, by client address); kept answers skip it. */
  admit?<T>(work: () => Promise<T>, address: string): Promise<T>;
  /** Check every output against its schema (on in development and tests, off in production). */
  checkOutputs: boolean;
  /**
   * Why `op` cannot run in this service at all (it `needsModel` and none is configured), or undefined. Asked once the
   * input is parsed (a bad request is told what is wrong with it first) and before the rate limit (a refusal spends no budget).
   */
  unconfigured?(op: AnyOperation): AppError | undefined;
  /** Where unexpected errors are reported; the caller only ever sees a 500 without details. */
  logError: (message: string, error: unknown) => void;
}

export function implement<const Ops extends readonly AnyOperation[]>(
  operations: Ops,
  handlers: NoInfer<Handlers<Ops>>,
  options: ImplementOptions,
): Implementation {
  const table = handlers as unknown as Record<string, (input: unknown, ctx: CallContext) => unknown>;
  for (const op of operations) if (typeof table[op.name] !== 'function') throw new Error(`Operation ${op.name} has no handler`);

  const memo = createMemo(options);

  /** The audit event of a call that succeeded, with who made it and from where; a trail that cannot be written is logged, never the call's failure. */
  async function audited(op: AnyOperation, input: unknown, output: unknown, ctx: CallContext) {
    const event = op.audit?.(input as never, output);
    if (!event || !options.audit) return;
    const actor = ctx.principal.kind === 'admin' ? { id: ctx.principal.account.id, name: ctx.principal.account.name } : null;
    await options.audit
      .record({ ...event, actor, ip: ctx.ip })
      .catch((error: unknown) => options.logError(`[vitae] the audit trail could not record ${op.name}`, error));
  }

  return {
    operations,
    memo: memo.surfaces,
    async invoke<Op extends AnyOperation>(op: Op, raw: unknown, ctx: CallContext, invokeOptions: InvokeOptions = {}): Promise<Invocation<OutputOf<Op>>> {
      type Output = OutputOf<Op>;
      const handler = table[op.name];
      if (!handler) throw new AppError('not_found', `There is no operation named "${op.name}".`);
      try {
        if (op.auth === 'admin') authorize(ctx.principal);
        const kept = memo.find<Output>(op, raw, ctx);
        if (kept) return kept;
        const input = parseOperationInput(op, raw, invokeOptions.names);
        if (op.role) permit(op, input, ctx.principal);
        const refusal = options.unconfigured?.(op);
        if (refusal) throw refusal;
        const account = ctx.principal.kind === 'admin' ? ctx.principal.account.id : undefined;
        const headers = op.rateLimit ? (await options.rateLimits.consume(op.rateLimit, ctx.ip, account)).headers : {};
        ctx.admitted?.(headers);
        const progress = ctx.progress && options.checkOutputs && op.streams ? checkedProgress(op, ctx.progress) : ctx.progress;
        const called = { ...ctx, progress, refuse };
        const run = async () => {
          const output = options.checkOutputs ? await declaredOnly(op, () => handler(input, called), options.logError) : await handler(input, called);
          if (options.checkOutputs) checkOutput(op, output);
          return output as Output;
        };
        if (op.pure) return await memo.make(op, raw, ctx, run);
        const output = await run();
        if (op.audit) await audited(op, input, output, ctx);
        return { output, headers, encoded: (_kind, encode) => encode(output) };
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (ctx.signal?.aborted) throw new AppError('unavailable', 'The request was cancelled.');
        options.logError(`[vitae] ${op.name} failed unexpectedly`, error);
        throw new AppError('internal', 'Something went wrong on our side; the server log has the details.', { cause: error });
      }
    },
  };
}

/** A kept answer: the output, and each surface's encoding of it, made on first use. */
interface Kept {
  output: unknown;
  encodings: Map<string, unknown>;
  /** Its size when it is known (bytes); else measured as its JSON. */
  bytes?: number;
}

/**
 * The per-build memo of pure operations, one for every surface. An answer is found by the fields of the raw input the
 * operation declares (a parameter it does not know is dropped by its schema, so it must not make a new key either: a
 * stranger's 12 kB of junk per request would be kept until the next build), before the input is parsed: an input that
 * was kept parsed once already. Hits and misses are counted per surface in /metrics.
 */
function createMemo({ builds, admit = (work) => work() }: ImplementOptions) {
  const kept = new BuildCache<Kept>((entry) => entry.bytes ?? JSON.stringify(entry.output).length);
  const counters = Object.fromEntries(doors.map((door) => [door, cacheCounters(door)])) as Record<Door, ReturnType<typeof cacheCounters>>;
  const keyOf = (op: AnyOperation, raw: unknown) => (raw === undefined || isRecord(raw) ? `${op.name}\0${declaredKey(op, raw ?? {})}` : undefined);
  const answer = <T>(entry: Kept, build: string | undefined, grow: (bytes: number) => void): Invocation<T> => ({
    output: entry.output as T,
    headers: {},
    ...(build ? { build } : {}),
    encoded<E>(kind: string, encode: (output: T) => E): E {
      if (entry.encodings.has(kind)) return entry.encodings.get(kind) as E;
      const value = encode(entry.output as T);
      entry.encodings.set(kind, value);
      grow(sizeOf(value));
      return value;
    },
  });

  const surfaceMemo: SurfaceMemo = {
    get<V>(branch: Branch, key: string, door?: Door): V | undefined {
      const entry = builds && kept.get(builds.id(branch), `\u0001${key}`);
      const counter = door && counters[door];
      if (!entry) return void counter?.miss();
      counter?.hit();
      return entry.output as V;
    },
    keeper(branch: Branch) {
      if (!builds) return () => {};
      const { build, steady } = steadyBuild(builds, branch);
      return (key, value, bytes) => {
        if (steady()) kept.set(build, `\u0001${key}`, { output: value, encodings: new Map(), bytes }, builds.live());
      };
    },
  };

  return {
    surfaces: surfaceMemo,
    find<T>(op: AnyOperation, raw: unknown, ctx: CallContext): Invocation<T> | undefined {
      if (!op.pure || !builds) return undefined;
      const key = keyOf(op, raw);
      const build = builds.id(ctx.branch);
      const entry = key === undefined ? undefined : kept.get(build, key);
      const counter = ctx.uncounted ? undefined : counters[ctx.door ?? 'site'];
      if (!entry) return void counter?.miss();
      counter?.hit();
      return answer(entry, build, (bytes) => kept.grow(build, bytes));
    },
    async make<T>(op: AnyOperation, raw: unknown, ctx: CallContext, run: () => Promise<T>): Promise<Invocation<T>> {
      if (!builds) return answer({ output: await run(), encodings: new Map() }, undefined, () => {});
      const { build, steady } = steadyBuild(builds, ctx.branch);
      // A first answer for an anonymous caller of the service's own doors waits its turn in the work queue. Not the
      // site's loaders (their page render was admitted as a whole) nor the agent's tools (their question was): a
      // call admitted inside admitted work would wait for itself.
      const queued = op.auth === 'public' && (ctx.door === 'rest' || ctx.door === 'mcp');
      const entry: Kept = { output: await (queued ? admit(run, ctx.ip) : run()), encodings: new Map() };
      // An answer made without the build's embeddings model, or while another build came to be served, is not the
      // build's answer: neither kept nor given the build as its validator, which a client revalidating it later would
      // be told is current.
      if (!steady()) return answer(entry, undefined, () => {});
      const key = keyOf(op, raw);
      if (key !== undefined) kept.set(build, key, entry, builds.live());
      return answer(entry, build, (bytes) => kept.grow(build, bytes));
    },
  };
}

/** The bytes of an encoding: a string's or a buffer's length, or a Body's bytes. */
const sizeOf = (value: unknown): number => {
  const sized = value as { length?: unknown; bytes?: { length?: unknown } } | null;
  return typeof sized?.length === 'number' ? sized.length : typeof sized?.bytes?.length === 'number' ? sized.bytes.length : 0;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The part of a raw input that can change an answer: the fields the operation declares, sorted. */
function declaredKey(op: AnyOperation, raw: Record<string, unknown>): string {
  const shape = (op.input as { shape?: Record<string, unknown> }).shape;
  if (!shape) return JSON.stringify(raw);
  return JSON.stringify(
    Object.keys(raw)
      .filter((field) => field in shape)
      .sort()
      .map((field) => [field, raw[field]]),
  );
}

/** Throws unless the principal may run admin operations: 401 without credentials, the refusal when they were refused. */
export function authorize(principal: Principal): void {
  if (principal.kind === 'admin') return;
  if (principal.kind === 'refused') throw principal.error;
  throw unauthorized();
}

/** Refuses (403) a call the principal's role may not make, naming the role it needs. */
export function permit(op: AnyOperation, input: unknown, principal: Principal): void {
  const needed = typeof op.role === 'function' ? op.role(input as never) : op.role;
  if (!needed || principal.kind !== 'admin' || roleAllows(principal.account.role, needed)) return;
  const what =
    op.name === 'admin_promote'
      ? 'Promoting dev to main'
      : op.name === 'admin_audit'
        ? 'Reading the audit trail'
        : op.name.includes('editor')
          ? 'Managing editors'
          : 'Committing to main';
  const instead = what === 'Committing to main' ? ' Commit to dev instead (branch "dev"), and ask a publisher to promote it.' : '';
  throw new AppError('forbidden', `${what} needs the ${needed} role; ${principal.account.name} is ${article(principal.account.role)}.${instead}`, {
    details: { role: needed },
  });
}

const article = (role: Role) => (role === 'editor' ? 'an editor' : 'a publisher');

/** Progress events checked against the operation's `streams` schema before they are passed on (development and tests). */
function checkedProgress(op: AnyOperation, progress: (event: { type: string }) => void): (event: { type: string }) => void {
  return (event) => {
    mustMatch(op, op.streams!, event, 'reported progress');
    progress(event);
  };
}

/** The error a handler refuses a call with (`ctx.refuse`: its type keeps the code to the operation's). */
const refuse: Refuse<ErrorCode> = (code, message, options) => new AppError(code, message, options);

/**
 * Runs a handler, and reports an error it raises that its operation does not answer with (neither declared nor
 * implicit, `answeredErrors`) as the bug it is: logged naming both, and a 500 to the caller, so that the test that
 * met it fails and OpenAPI stays true. Errors from shared code (the repository, the models) are caught only here.
 */
async function declaredOnly<T>(op: AnyOperation, work: () => T, logError: ImplementOptions['logError']): Promise<Awaited<T>> {
  try {
    return await work();
  } catch (error) {
    if (!isAppError(error) || answeredErrors(op).includes(error.code)) throw error;
    logError(
      `[vitae] ${op.name} raised \`${error.code}\`, which its definition does not declare (errors: ${op.errors.join(', ') || 'none'}): declare it there or raise another`,
      error,
    );
    throw new AppError('internal', 'Something went wrong on our side; the server log has the details.', { cause: error });
  }
}

/** An output that breaks its own schema is a bug here, not the caller's fault: 500, and the log says why. */
function checkOutput(op: AnyOperation, output: unknown): void {
  mustMatch(op, op.output, output, 'answered with output');
}

/** Throws, naming the first problems, unless what the handler made (`what`) matches its schema. */
function mustMatch(op: AnyOperation, schema: z.ZodType, value: unknown, what: string): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  const problems = inputProblems(result.error).map((p) => `${p.pointer}: ${p.message}`);
  throw new Error(`${op.name} ${what} that does not match its schema: ${problems.slice(0, 5).join('; ')}`);
}
