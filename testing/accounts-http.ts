// Test support for the editors' accounts: raw HTTP calls made as one credential or another (a bearer token, or a
// console cookie with the site's Origin on writes), each from an address of its own when the service trusts a
// proxy, and the few account steps the suites share (add an editor, sign in to the console, read the audit trail).
import assert from 'node:assert/strict';
import { ErrorBodySchema } from '../operations/contract/shared.ts';

/** The site origin the test services are given (BASE_URL), which console writes must name. */
export const SITE_ORIGIN = 'http://vitae.test';

export interface Reply {
  status: number;
  headers: Headers;
  /** The JSON body, or undefined when empty or not JSON. */
  body: any;
  text: string;
}

export interface As {
  /** `Authorization: Bearer <token>`. */
  token?: string;
  /** A console session's `name=value` cookie (writes add the site's Origin). */
  cookie?: string;
}

export interface CallOptions extends As {
  body?: unknown;
  headers?: Record<string, string>;
  /** X-Forwarded-For (the service must trust a proxy to read it). */
  address?: string;
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  if (options.cookie !== undefined) {
    headers.Cookie = options.cookie;
    if (method !== 'GET') headers.Origin = SITE_ORIGIN;
  }
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.address) headers['X-Forwarded-For'] = options.address;
  const res = await fetch(base + path, {
    method,
    headers: { ...headers, ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Asserts the status (and for an error its code), with the body in the message; answers the body. */
export function expectStatus(reply: Reply, status: number, code?: string): any {
  assert.equal(reply.status, status, `expected ${status}${code ? ` ${code}` : ''}, got ${reply.status}: ${reply.text.slice(0, 600)}`);
  if (code !== undefined) assert.equal(reply.body?.code, code, reply.text.slice(0, 600));
  // an error's body is the documented Error (/openapi.json's, which allows no other field)
  if (status >= 400 && reply.body !== undefined) {
    const documented = ErrorBodySchema.strict().safeParse(reply.body);
    assert.ok(documented.success, `not the documented Error: ${documented.error?.message} in ${reply.text.slice(0, 600)}`);
  }
  return reply.body;
}

/** A 403 `forbidden` that names the role needed, in its message and its `role` field. */
export function expectForbidden(reply: Reply, role = 'publisher'): any {
  const body = expectStatus(reply, 403, 'forbidden');
  assert.equal(body.role, role, reply.text);
  assert.match(body.message, new RegExp(`needs the ${role} role`), reply.text);
  return body;
}

export interface NewEditor {
  id: string;
  name: string;
  email: string;
  role: 'editor' | 'publisher';
  token: string;
  tokens: Array<{ id: string }>;
}

/** Adds an editor as `by` (a publisher's token): the answer, with the token shown once. */
export async function addEditor(base: string, by: string, input: { name: string; email: string; role?: 'editor' | 'publisher' }, address?: string) {
  const editor = expectStatus(await call(base, 'POST', '/api/admin/editors', { token: by, body: input, address }), 200) as NewEditor;
  assert.match(editor.token, /^vitae_[a-z0-9]{8}_/);
  assert.equal(editor.tokens.length, 1);
  return editor;
}

/** Signs in to the console with a token: the session cookie (`name=value`). */
export async function signIn(base: string, token: string, address?: string): Promise<string> {
  const reply = await call(base, 'POST', '/api/admin/login', { body: { token }, address });
  expectStatus(reply, 204);
  return reply.headers.get('set-cookie')!.split(';')[0]!;
}

export interface AuditEvent {
  id: string;
  at: string;
  action: string;
  actor: { id: string; name: string } | null;
  ip: string;
  detail: string;
}

/**
 * The audit trail newest first, page by page (`limit` each) down to the event after `after` (an event id), checking
 * that the pages join up: each event once, ids falling one by one, times never rising.
 */
export async function auditSince(base: string, token: string, after = 0, limit = 4): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null | undefined;
  do {
    const query = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const page = expectStatus(await call(base, 'GET', `/api/admin/audit${query}`, { token }), 200);
    assert.ok(page.events.length <= limit);
    events.push(...page.events);
    cursor = page.next;
    if (events.length && Number(events.at(-1)!.id) <= after) break;
  } while (cursor);
  for (let i = 1; i < events.length; i++) {
    assert.equal(Number(events[i]!.id), Number(events[i - 1]!.id) - 1, 'ids fall one by one across pages');
    assert.ok(events[i]!.at <= events[i - 1]!.at, 'newest first');
  }
  return events.filter((e) => Number(e.id) > after);
}

/** The id of the newest event of the trail (0 when it is empty). */
export async function newestAuditId(base: string, token: string): Promise<number> {
  const page = expectStatus(await call(base, 'GET', '/api/admin/audit?limit=1', { token }), 200);
  return page.events.length ? Number(page.events[0].id) : 0;
}
