// The HTTP client of the REST API, derived from the operation list: the CLI and the stdio MCP servers
// call operations through it. Imports no server code.
import type { AnyOperation } from '../contract/define.ts';
import type { ErrorBody } from '../contract/errors.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Headers,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }
}

/** The service could not be reached at all (refused, DNS, timeout). */
export class NetworkError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`Cannot reach ${url}: ${(cause as { cause?: { code?: string } })?.cause?.code ?? (cause as Error)?.message ?? String(cause)}`);
    this.name = 'NetworkError';
  }
}

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  fetch?: typeof fetch;
  userAgent?: string;
}

export interface OperationRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The HTTP request that carries `input` to `op`'s REST route. */
export function requestFor(op: Pick<AnyOperation, 'rest'>, input: Record<string, unknown>, options: ClientOptions): OperationRequest {
  const pathParams = new Set([...op.rest.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': options.userAgent ?? 'vitae-client' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (!pathParams.has(key) && value !== undefined) rest[key] = value;
  let url = options.baseUrl.replace(/\/+$/, '') + fillPath(op.rest.path, input);
  const from = op.rest.from ?? (op.rest.method === 'GET' ? 'query' : 'body');
  if (from === 'query') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) query.set(op.rest.rename?.[key] ?? key, String(value));
    const qs = query.toString();
    if (qs) url += `?${qs}`;
    return { method: op.rest.method, url, headers };
  }
  headers['Content-Type'] = 'application/json';
  return { method: op.rest.method, url, headers, body: JSON.stringify(rest) };
}

/** Fills a path template, percent-encoding each parameter. */
export function fillPath(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

export function createClient(options: ClientOptions) {
  const doFetch = options.fetch ?? fetch;
  return {
    options,
    async call<T = unknown>(op: AnyOperation, input: Record<string, unknown> = {}, init: { signal?: AbortSignal } = {}): Promise<T> {
      const request = requestFor(op, input, options);
      let res: Response;
      try {
        res = await doFetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: init.signal });
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw error;
        throw new NetworkError(options.baseUrl, error);
      }
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        body = { code: res.ok ? 'invalid_response' : 'http_error', message: text.slice(0, 200) || res.statusText };
      }
      if (!res.ok) throw new ApiError(res.status, body as ErrorBody, res.headers);
      return body as T;
    },
  };
}

export type Client = ReturnType<typeof createClient>;
