// Test support: raw HTTP calls to the admin API that keep every answer, so a suite can check at the end
// that the admin token never appeared in any response.
import assert from 'node:assert/strict';
import { ErrorBodySchema } from '../operations/contract/shared.ts';

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
  text: string;
}

export interface CallOptions {
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Send `Authorization: Bearer <token>` (default true). */
  auth?: boolean;
  /** Another listener, e.g. the dev preview. */
  base?: string;
}

export function adminHttp(baseUrl: () => string, token: string) {
  const seen: string[] = [];

  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...(options.auth === false ? {} : { Authorization: `Bearer ${token}` }) };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch((options.base ?? baseUrl()) + path, { method, headers: { ...headers, ...options.headers }, body });
    const text = await res.text();
    seen.push(text, JSON.stringify([...res.headers]));
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: the caller reads `text`
    }
    return { status: res.status, headers: res.headers, body: json, text };
  }

  return {
    call,
    /** Every body and header set answered so far. */
    seen,
    get: (path: string, options?: CallOptions) => call('GET', path, options),
    put: (body: unknown, options?: CallOptions) => call('PUT', '/api/admin/file', { ...options, body }),
    post: (path: string, body: unknown, options?: CallOptions) => call('POST', path, { ...options, body }),
  };
}

/** Asserts an error answer: status, code, the error body shape, and a message a person can act on. */
export function assertError(answer: Answer, status: number, code: string): any {
  assert.equal(answer.status, status, `expected ${status} ${code}, got ${answer.status}: ${answer.text.slice(0, 500)}`);
  ErrorBodySchema.parse(answer.body);
  assert.equal(answer.body.code, code, answer.text.slice(0, 500));
  assert.ok(answer.body.message.length > 10, 'the message says what went wrong');
  return answer.body;
}

export function assertOk(answer: Answer, status = 200): any {
  assert.equal(answer.status, status, answer.text.slice(0, 800));
  return answer.body;
}

/** Polls `check` until it returns a value (not undefined); fails after `timeoutMs` with `what`. */
export async function eventually<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
