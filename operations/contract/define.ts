// `defineOperation`: one operation is plain data (name, REST route, CLI usage, schemas, auth, errors,
// examples and hints). Every surface (REST, OpenAPI, MCP, CLI, HTTP client, the agent's tools) is derived
// from these definitions, and the implementation is typed by them (operations/server/implement.server.ts).
import type { z } from 'zod';
import { errorTable, type ErrorCode } from './errors.ts';
import type { AuditAction, Role } from './roles.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestBinding {
  method: HttpMethod;
  /** Path template with `{param}` placeholders, e.g. `/api/v1/entries/{slug}`. */
  path: string;
  /** REST names of input fields that differ from the tool argument names: `{ query: 'q' }`. */
  rename?: Record<string, string>;
  /** Where non-path fields come from: `query` for GET, `body` for writes, `query+body` to accept both. */
  from?: 'query' | 'body' | 'query+body';
  /**
   * A text representation served by default instead of JSON (JSON stays available with `Accept: application/json`).
   * Used by the brief, which is Markdown first.
   */
  text?: { mediaType: string; field: string };
  /**
   * The answer is streamed as text instead of sent as JSON. `text-events`: `text/plain`,
   * the operation's `text` progress events as they come and, when the input says `events: true`, its other events as
   * status lines (U+001E, one JSON object, a line break), ending with `{"type":"done","sources":[…]}` from the output.
   * A failure once the answer has begun is an `{"type":"error","message":…}` line followed by a done line without sources.
   */
  stream?: 'text-events';
  /** The largest request body in bytes, refused (413) from its declared length before it is read; 1 MB when absent. */
  maxBody?: number;
  /**
   * The body may also be `multipart/form-data` (an HTML form's upload): its text parts are the input's fields, and its
   * one file part, named `part`, is read into the base64 field `into`; under the same `maxBody`.
   */
  multipart?: { part: string; into: string };
}

/** A record an answer is built on, as the agent cites it: found directly (`direct`) or in a list or search. */
export interface CitedRecord {
  slug: string;
  title: string;
  url: string;
  direct: boolean;
}

export interface OperationExamples<I extends z.ZodObject> {
  /** Inputs that succeed on the demo content; shown in OpenAPI and run by the surface tests. */
  valid?: Array<{ summary: string; input: z.input<I> }>;
  /** Inputs every surface must refuse with the same words (`bad_request`). */
  invalid?: Array<{ summary: string; input: Record<string, unknown> }>;
}

export interface OperationDef<
  N extends string = string,
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
  E extends ErrorCode = ErrorCode,
> {
  name: N;
  summary: string;
  description?: string;
  rest: RestBinding;
  /**
   * CLI usage after `vitae`, e.g. `get <slug>` or `admin put <path> <file>`. Each `<positional>` fills the
   * input field of the same name unless `cliArgs` says otherwise; every other field becomes an `--option`.
   * Absent exactly when the operation is not offered on the command line (`surfaces`).
   */
  cli?: string;
  /**
   * The surfaces made from this definition (all three when absent). REST is every operation's door (the site's
   * own loaders call through the same `invoke`); an operation meant for the site's widgets alone (the chat's stream,
   * transcription) is neither an MCP tool nor a generated CLI command.
   */
  surfaces?: readonly Surface[];
  /** How positionals that are not field names map onto the input. */
  cliArgs?: Record<string, CliArg>;
  input: I;
  output: O;
  auth: 'public' | 'admin';
  /**
   * The role an admin call needs (any signed-in account when absent): `publisher`, or a function of the parsed input
   * when it depends on it (a commit to `main` needs a publisher, one to `dev` an editor). Checked by `invoke` after
   * parsing, so every surface refuses the same calls (403 `forbidden`, naming the role); declare `forbidden` too.
   */
  role?: Role | RoleOf<z.output<I>>;
  /**
   * What the audit trail records of a call that succeeded (`invoke` adds who, when and from where), or undefined for
   * nothing (a commit that changed nothing). Never a token or a body.
   */
  audit?: AuditOf<z.output<I>, z.output<O>>;
  /**
   * The errors its handler refuses a call with (and so the answers OpenAPI lists), besides those every surface and
   * `invoke` add from the rest of the definition (`implicitErrors`). Kept as literals: a handler's `ctx.refuse` takes
   * only these codes (a compile error otherwise), and `invoke` reports any other its handler raises (development and
   * tests).
   */
  errors: readonly E[];
  /** The answer depends only on the input and the live build, so it may be cached per build. */
  pure?: boolean;
  /**
   * What a call does to the content, for hosts that ask before a change (MCP tool annotations); absent for
   * an operation that only reads. `destructive`: it may replace or remove what is there; `idempotent`: the
   * same call again changes nothing more.
   */
  effect?: { destructive: boolean; idempotent: boolean };
  /**
   * A model writes the answer (the agent's, a proposed edit, drafted translations): the call reaches beyond the
   * profile to a model provider, and the same input may be answered differently each time. Nothing stored changes.
   */
  answeredByModel?: boolean;
  /**
   * The operation can report its progress as it works: one event of this schema at a time. REST streams the events
   * as JSON lines when asked for `application/x-ndjson`, ending with `{"type":"done","output":…}`; other surfaces
   * answer the finished output.
   */
  streams?: z.ZodType<{ type: string }>;
  /**
   * Offered to the site's own agent as a tool (public reads only); `cites` names the records an answer
   * from this tool may cite, so the agent can list its sources.
   */
  agent?: { cites(output: z.output<O>): CitedRecord[] };
  /**
   * The operation cannot run without a model provider: when none is configured it is refused with this error once
   * its input is parsed (a bad request hears what is wrong with it first), before the caller's budget is spent.
   */
  needsModel?: 'chat_not_configured' | 'transcription_not_configured';
  /**
   * How to see what a call would change without making it (there is no dry-run flag): an operation that changes
   * nothing, by name, with the input it takes (absent: the call's own). Named when a REST call is refused for a query
   * parameter it does not take (`?dry=1`); the CLI's `--dry-run` shows the same.
   */
  dryRun?: { operation: string; input?: Record<string, string> };
  /** A per-client-IP budget shared by every surface that runs this operation (REST and MCP). */
  rateLimit?: RateLimitSpec;
  examples?: OperationExamples<I>;
}

/** A role chosen from the input; a method's parameter, so an operation's own is assignable to the list's (bivariant). */
type RoleOf<In> = { of(input: In): Role }['of'];
type AuditOf<In, Out> = { of(input: In, output: Out): { action: AuditAction; detail: string } | undefined }['of'];

export interface RateLimitSpec {
  /** Operations naming the same bucket share one budget. */
  bucket: string;
  points: number;
  windowSeconds: number;
}

/** Where an operation is offered besides the site: its REST route, an MCP tool, a generated CLI command. */
export type Surface = 'rest' | 'mcp' | 'cli';

const everySurface: readonly Surface[] = ['rest', 'mcp', 'cli'];

/** Whether `surface` offers the operation (its `surfaces`, every one when it names none). */
export function offeredOn(op: Pick<AnyOperation, 'surfaces'>, surface: Surface): boolean {
  return (op.surfaces ?? everySurface).includes(surface);
}

export type CliArg =
  /**
   * The positional is a file name (or `-` for stdin) whose text fills `field` (parsed as JSON with `json`; with
   * `base64`, the file's bytes, base64-encoded: an image).
   */
  | { readInto: string; json?: boolean; base64?: boolean }
  /** The positional is a content path when it contains a `/` or a file extension, else a slug. */
  | { pathOrSlug: true };

export type AnyOperation = OperationDef<string, z.ZodObject, z.ZodType>;
export type InputOf<Op extends AnyOperation> = z.output<Op['input']>;
export type RawInputOf<Op extends AnyOperation> = z.input<Op['input']>;
export type OutputOf<Op extends AnyOperation> = z.output<Op['output']>;

/** The error codes an operation's handler may refuse a call with, as types: those it declares, and `bad_request` (every operation reads an input). */
export type ErrorsOf<Op extends AnyOperation> = Op['errors'][number] | 'bad_request';

/**
 * The errors that `invoke` and the surfaces answer an operation with whatever its handler does, from the rest of its
 * definition, so that its `errors` need not (but may) repeat them; OpenAPI lists them beside the declared ones:
 * - every operation: `bad_request` (its input is parsed: schema, query and body shapes) and `internal` (a bug);
 * - a body read (REST, not GET, not `from: 'query'`): `payload_too_large` (over `maxBody`), `unsupported_media_type`
 *   (not JSON) and `unavailable` (the service-wide read budget is spent);
 * - a path parameter (`{slug}`): `not_found`, when its value cannot name anything;
 * - `auth: 'admin'`: `unauthorized` (no or a wrong credential), `rate_limited` (too many wrong ones), `unavailable`
 *   (the account or session store cannot be reached) and, for a write (not GET), `forbidden` (a console session's
 *   write from another site);
 * - `role`: `forbidden` (the account's role is not enough);
 * - `rateLimit`: `rate_limited`; a public `pure` read (its first answer waits in the service-wide work queue):
 *   `rate_limited` and `unavailable`; `streams` or a streamed answer: `unavailable` (the service restarting);
 * - `needsModel`: that error.
 * Not listed: the router's own answers (404 for no route, 405, 431), which are no operation's, and a cancelled call's
 * `unavailable`, which nobody reads.
 */
export function implicitErrors(op: AnyOperation): ErrorCode[] {
  const codes: ErrorCode[] = ['bad_request', 'internal'];
  const write = op.rest.method !== 'GET';
  if (write && op.rest.from !== 'query') codes.push('payload_too_large', 'unsupported_media_type', 'unavailable');
  if (op.rest.path.includes('{')) codes.push('not_found');
  if (op.auth === 'admin') codes.push('unauthorized', 'rate_limited', 'unavailable', ...(write ? (['forbidden'] as const) : []));
  if (op.role) codes.push('forbidden');
  if (op.rateLimit) codes.push('rate_limited');
  if (op.pure && op.auth === 'public') codes.push('rate_limited', 'unavailable');
  if (op.streams || op.rest.stream) codes.push('unavailable');
  if (op.needsModel) codes.push(op.needsModel);
  return [...new Set(codes)];
}

/** Every error an operation may answer with: those it declares and the implicit ones, in the error table's order. */
export function answeredErrors(op: AnyOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...op.errors, ...implicitErrors(op)]);
  return (Object.keys(errorTable) as ErrorCode[]).filter((code) => codes.has(code));
}

/**
 * Keeps the literal name, so the operation list can type its implementation by name, and the declared errors as
 * literals, so a handler's refusals are typed by them.
 */
export function defineOperation<const N extends string, I extends z.ZodObject, O extends z.ZodType, const E extends ErrorCode = never>(
  def: OperationDef<N, I, O, E>,
): OperationDef<N, I, O, E> {
  return def;
}
