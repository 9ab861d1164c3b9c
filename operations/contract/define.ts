// `defineOperation`: one operation is plain data (name, REST route, CLI usage, schemas, auth, errors).
// Every surface (REST, OpenAPI, MCP, CLI, HTTP client) is derived from these definitions.
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

export interface OperationDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
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
  /** Available to the site's own agent as a tool (public read operations). */
  agentTool?: boolean;
  /** A per-client-IP budget shared by every surface that runs this operation (REST and MCP). */
  rateLimit?: RateLimitSpec;
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

export type AnyOperation = OperationDef<z.ZodObject, z.ZodType>;
export type InputOf<Op extends AnyOperation> = z.output<Op['input']>;
export type RawInputOf<Op extends AnyOperation> = z.input<Op['input']>;
export type OutputOf<Op extends AnyOperation> = z.output<Op['output']>;

export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(def: OperationDef<I, O>): OperationDef<I, O> {
  return def;
}
