// The contract's implementation, typed by it, and `invoke`: the one pipeline every surface runs an
// operation through (REST, MCP, the site's loaders, the console, the agent's tools):
//   authorize → parse the input → rate-limit → handler → check the output (development and tests) → errors.
// Authorization comes first so that nobody without the token learns anything from a validation message;
// rate limits come after parsing so that a malformed request does not spend a client's budget.
import type { z } from 'zod';
import { AppError } from '../contract/errors.ts';
import type { AnyOperation, InputOf, OutputOf } from '../contract/define.ts';
import { inputProblems, parseInput, type FieldNames } from '../contract/issues.ts';
import type { Branch } from '../contract/shared.ts';
import type { RateLimits } from './rate-limit.server.ts';
import { unauthorized } from './auth.server.ts';

/** Who is calling, as the edge established it. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'admin'; via: 'bearer' | 'session' }
  /** Credentials were given but refused (a wrong token, a cross-site cookie write): the error says why. */
  | { kind: 'refused'; error: AppError };

export const anonymous: Principal = { kind: 'anonymous' };

/** What a handler knows about the call besides its input. */
export interface CallContext {
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

/** A handler returns what its output schema accepts; `invoke` checks it in development and tests. */
export type HandlerOf<Op extends AnyOperation> = (input: InputOf<Op>, ctx: CallContext) => z.input<Op['output']> | Promise<z.input<Op['output']>>;

/** One handler per operation of `Ops`, by name: a missing or mistyped handler does not compile. */
export type Handlers<Ops extends readonly AnyOperation[]> = { [Op in Ops[number] as Op['name']]: HandlerOf<Op> };

export interface InvokeOptions {
  /** The caller's names for input fields (REST `q` for `query`), so messages use the names they sent. */
  names?: FieldNames;
  /** Fields that address a resource (REST path segments): an invalid value there is 404, not 400. */
  addresses?: readonly string[];
}

export interface Invocation<T = unknown> {
  output: T;
  /** Headers the answer should carry (rate-limit budgets). */
  headers: Record<string, string>;
}

export interface Implementation {
  readonly operations: readonly AnyOperation[];
  invoke<Op extends AnyOperation>(op: Op, raw: unknown, ctx: CallContext, options?: InvokeOptions): Promise<Invocation<OutputOf<Op>>>;
}

export interface ImplementOptions {
  rateLimits: Pick<RateLimits, 'consume'>;
  /** Check every output against its schema (on in development and tests, off in production). */
  checkOutputs: boolean;
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

  return {
    operations,
    async invoke(op, raw, ctx, invokeOptions = {}) {
      const handler = table[op.name];
      if (!handler) throw new AppError('not_found', `There is no operation named "${op.name}".`);
      try {
        if (op.auth === 'admin') authorize(ctx.principal);
        const input = parseOperationInput(op, raw, invokeOptions);
        const headers = op.rateLimit ? (await options.rateLimits.consume(op.rateLimit, ctx.ip)).headers : {};
        ctx.admitted?.(headers);
        const progress = ctx.progress && options.checkOutputs && op.streams ? checkedProgress(op, ctx.progress) : ctx.progress;
        const output = await handler(input, progress === ctx.progress ? ctx : { ...ctx, progress });
        if (options.checkOutputs) checkOutput(op, output);
        return { output: output as OutputOf<typeof op>, headers };
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (ctx.signal?.aborted) throw new AppError('unavailable', 'The request was cancelled.');
        options.logError(`[vitae] ${op.name} failed unexpectedly`, error);
        throw new AppError('internal', 'Something went wrong on our side; the server log has the details.', { cause: error });
      }
    },
  };
}

/** Throws unless the principal may run admin operations: 401 without credentials, the refusal when they were refused. */
export function authorize(principal: Principal): void {
  if (principal.kind === 'admin') return;
  if (principal.kind === 'refused') throw principal.error;
  throw unauthorized();
}

function parseOperationInput(op: AnyOperation, raw: unknown, { names, addresses }: InvokeOptions): unknown {
  if (!addresses?.length) return parseInput(op.input, raw, names);
  const result = op.input.safeParse(raw ?? {});
  if (result.success) return result.data;
  // A path segment that names nothing valid addresses a resource that does not exist.
  const problems = inputProblems(result.error, names);
  const index = result.error.issues.findIndex((issue) => addresses.includes(String(issue.path[0])));
  if (index === -1) return parseInput(op.input, raw, names);
  const field = String(result.error.issues[index]!.path[0]);
  const value = (raw as Record<string, unknown>)[field];
  throw new AppError('not_found', `Nothing at ${op.rest.path.replace(`{${names?.[field] ?? field}}`, String(value))}: ${problems[index]!.message}.`);
}

/** Progress events checked against the operation's `streams` schema before they are passed on (development and tests). */
function checkedProgress(op: AnyOperation, progress: (event: { type: string }) => void): (event: { type: string }) => void {
  return (event) => {
    mustMatch(op, op.streams!, event, 'reported progress');
    progress(event);
  };
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
