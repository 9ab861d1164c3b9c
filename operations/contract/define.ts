// `defineOperation`: one operation is plain data (name, REST route, CLI usage, schemas, auth, errors,
// examples and hints). Every surface (REST, OpenAPI, MCP, CLI, HTTP client, the agent's tools) is derived
// from these definitions, and the implementation is typed by them (operations/server/implement.server.ts).
import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
   */
  cli: string;
  /** How positionals that are not field names map onto the input. */
  cliArgs?: Record<string, CliArg>;
  input: I;
  output: O;
  auth: 'public' | 'admin';
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
  /** A per-client-IP budget shared by every surface that runs this operation (REST and MCP). */
  rateLimit?: RateLimitSpec;
  examples?: OperationExamples<I>;
}

export interface RateLimitSpec {
  /** Operations naming the same bucket share one budget. */
  bucket: string;
  points: number;
  windowSeconds: number;
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
