// Who is calling the admin surface: the bearer token, or a console session cookie (with an Origin check on
// writes against CSRF). Also sign-in and sign-out, shared by the REST endpoints (whoami, login, logout) and
// the browser console, which reads the same headers from a Fetch request.
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { bearerToken, requireBearer, tokenMatches, unauthorized } from '../server/auth.server.ts';
import { anonymous, type Principal } from '../server/implement.server.ts';
import type { SessionStore } from '../server/sessions.server.ts';
import type { SiteUrls } from '../server/services.server.ts';
import { headerOf, parseQuery, readBody, sendEmpty, sendJson, type EdgeRequest, type Endpoint } from './edge.server.ts';

/** Reads one request header (node or Fetch). */
export type Headers = (name: string) => string | undefined;

const LOGIN_LIMIT = 5; // failed logins per IP…
const LOGIN_WINDOW_MS = 15 * 60 * 1000; // …per quarter of an hour

export interface AdminAuthDeps {
  adminToken: string;
  sessions: SessionStore;
  urls: SiteUrls;
}

export type AdminAuth = ReturnType<typeof createAdminAuth>;

export function createAdminAuth({ adminToken, sessions, urls }: AdminAuthDeps) {
  // One budget per IP for the whole service: the main and preview listeners share it, so a second
  // listener does not double the guesses an address gets.
  const failures = new Map<string, { count: number; resetAt: number }>();

  const siteOrigin = (branch: Branch) => new URL(urls.of(branch)).origin;
  const secure = (branch: Branch) => siteOrigin(branch).startsWith('https:');
  const cookieName = (branch: Branch) => (secure(branch) ? '__Host-vitae_session' : 'vitae_session');

  function readCookie(headers: Headers, branch: Branch): string | undefined {
    const name = cookieName(branch);
    for (const part of (headers('cookie') ?? '').split(';')) {
      const [key, ...value] = part.trim().split('=');
      if (key === name) return value.join('=');
    }
    return undefined;
  }

  function sameOrigin(headers: Headers, branch: Branch): boolean {
    const referer = headers('referer');
    const origin = headers('origin') ?? (referer ? safeOrigin(referer) : undefined);
    if (!origin) return false;
    const host = headers('host');
    return origin === siteOrigin(branch) || origin === `http://${host}` || origin === `https://${host}`;
  }

  function cookie(branch: Branch, value: string, maxAge: number): string {
    return `${cookieName(branch)}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure(branch) ? '; Secure' : ''}`;
  }

  /** Who is calling: bearer first, then the session cookie; a cookie write from another site is refused. */
  function principal(headers: Headers, method: string, branch: Branch): Principal {
    if (bearerToken(headers('authorization')) !== undefined) {
      try {
        requireBearer(headers('authorization'), adminToken);
        return { kind: 'admin', via: 'bearer' };
      } catch (error) {
        return { kind: 'refused', error: error as AppError };
      }
    }
    const session = sessions.verify(readCookie(headers, branch));
    if (!session) return anonymous;
    const write = method !== 'GET' && method !== 'HEAD';
    if (write && !sameOrigin(headers, branch)) {
      return {
        kind: 'refused',
        error: new AppError('forbidden', 'A console write must come from the site itself (Origin check); use the bearer token for scripts.'),
      };
    }
    return { kind: 'admin', via: 'session' };
  }

  /** Opens a console session for the right token; throttles failures per IP. Returns the Set-Cookie value. */
  async function login({ token, ip, headers, branch }: { token: unknown; ip: string; headers: Headers; branch: Branch }): Promise<string> {
    const now = Date.now();
    const failed = failures.get(ip);
    if (failed && failed.resetAt > now && failed.count >= LOGIN_LIMIT) {
      const retry = Math.ceil((failed.resetAt - now) / 1000);
      throw new AppError('rate_limited', `Too many failed logins from this address; try again in ${retry} seconds.`, {
        headers: { 'Retry-After': String(retry) },
      });
    }
    if (typeof token !== 'string' || !token)
      throw new AppError('bad_request', 'Send the admin token as {"token": "…"}.', { errors: [{ pointer: '/token', message: 'token is required' }] });
    if (!tokenMatches(token, adminToken)) {
      const entry = failed && failed.resetAt > now ? failed : { count: 0, resetAt: now + LOGIN_WINDOW_MS };
      entry.count++;
      failures.set(ip, entry);
      if (failures.size > 10_000) for (const [key, value] of failures) if (value.resetAt <= now) failures.delete(key);
      throw unauthorized('The admin token is not valid.');
    }
    failures.delete(ip);
    const previous = sessions.verify(readCookie(headers, branch));
    if (previous) await sessions.destroy(previous); // rotate: a sign-in never reuses a session id
    const { cookieValue, maxAgeSeconds } = await sessions.create();
    return cookie(branch, cookieValue, maxAgeSeconds);
  }

  /** Ends the session of the request's cookie (if any) and returns the Set-Cookie value that clears it. */
  async function logout({ headers, branch }: { headers: Headers; branch: Branch }): Promise<string> {
    const session = sessions.verify(readCookie(headers, branch));
    if (session) {
      if (!sameOrigin(headers, branch)) throw new AppError('forbidden', 'Sign out from the site itself (Origin check).');
      await sessions.destroy(session);
    }
    return cookie(branch, '', 0);
  }

  const endpoints: Endpoint[] = [
    {
      methods: ['GET'],
      path: '/api/admin/whoami',
      handle({ req, res, method, branch }) {
        const who = principal(headerOf(req), method, branch);
        if (who.kind === 'refused') throw who.error;
        if (who.kind !== 'admin') throw unauthorized();
        sendJson(req, res, 200, { authenticated: true, via: who.via }, { 'Cache-Control': 'no-store' });
      },
    },
    {
      methods: ['POST'],
      path: '/api/admin/login',
      async handle({ req, res, ip, branch }) {
        const token = await readToken(req);
        const setCookie = await login({ token, ip, headers: headerOf(req), branch });
        sendEmpty(res, 204, { 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' });
      },
    },
    {
      methods: ['POST'],
      path: '/api/admin/logout',
      async handle({ req, res, branch }) {
        const setCookie = await logout({ headers: headerOf(req), branch });
        sendEmpty(res, 204, { 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' });
      },
    },
  ];

  return {
    principal,
    login,
    logout,
    endpoints,
    /** The principal of a request at the edge. */
    authenticate: ({ req, method, branch }: EdgeRequest) => principal(headerOf(req), method, branch),
  };
}

/** The token from a JSON body or an HTML form. */
async function readToken(req: EdgeRequest['req']): Promise<unknown> {
  const raw = (await readBody(req, 16 * 1024)).toString('utf8');
  if (String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) return Object.fromEntries(parseQuery(raw)).token;
  try {
    return (JSON.parse(raw || '{}') as { token?: unknown }).token;
  } catch {
    throw new AppError('bad_request', 'Send the token as JSON {"token": "…"} or as a form field "token".', {
      errors: [{ pointer: '/token', message: 'malformed JSON' }],
    });
  }
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
