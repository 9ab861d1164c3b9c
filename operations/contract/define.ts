// `defineOperation`: one operation is plain data (name, REST route, CLI usage, schemas, auth, errors,
// examples and hints). Every surface (REST, OpenAPI, MCP, CLI, HTTP client, the agent's tools) is derived
// from these definitions, and the implementation is typed by them (operations/server/implement.server.ts).
import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';
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

export interface OperationDef<N extends string = string, I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
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
  errors: ErrorCode[];
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
   * The operation cannot run without a model provider: when none is configured it is refused with this error
   * before its input is read (and before the caller's budget is spent).
   */
  needsModel?: 'chat_not_configured' | 'transcription_not_configured';
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
  /** The positional is a file name (or `-` for stdin) whose text fills `field` (parsed as JSON with `json`). */
  | { readInto: string; json?: boolean }
  /** The positional is a content path when it contains a `/` or a file extension, else a slug. */
  | { pathOrSlug: true };

export type AnyOperation = OperationDef<string, z.ZodObject, z.ZodType>;
export type InputOf<Op extends AnyOperation> = z.output<Op['input']>;
export type RawInputOf<Op extends AnyOperation> = z.input<Op['input']>;
export type OutputOf<Op extends AnyOperation> = z.output<Op['output']>;

/** Keeps the literal name, so the operation list can type its implementation by name. */
export function defineOperation<const N extends string, I extends z.ZodObject, O extends z.ZodType>(def: OperationDef<N, I, O>): OperationDef<N, I, O> {
  return def;
}
