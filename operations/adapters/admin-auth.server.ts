// Who is calling the admin surface: the bearer token, or a console session cookie (with an Origin check on
// writes against CSRF). Also sign-in and sign-out, shared by the REST endpoints (whoami, login, logout) and
// the browser console, which reads the same headers from a Fetch request.
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { bearerToken, requireBearer, tokenMatches, unauthorized } from '../server/auth.server.ts';
import { anonymous, type Principal } from '../server/implement.server.ts';
import type { SessionStore } from '../server/sessions.server.ts';
import { createLoginThrottle, type LoginThrottle } from '../server/login-throttle.server.ts';
import { countThrottled } from '../server/metrics.server.ts';
import type { SiteUrls } from '../server/services.server.ts';
import type { Logger } from '../server/log.server.ts';
import { headerOf, readJsonBody, sendEmpty, sendJson, type EdgeRequest, type Endpoint } from './edge.server.ts';

/** Reads one request header (node or Fetch). */
export type Headers = (name: string) => string | undefined;

export interface AdminAuthDeps {
  adminToken: string;
  sessions: SessionStore;
  /** Failed sign-ins per address (default: kept in this process). */
  throttle?: LoginThrottle;
  urls: SiteUrls;
  /** Where sign-in events go (never the token or the cookie). */
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export type AdminAuth = ReturnType<typeof createAdminAuth>;

export function createAdminAuth({ adminToken, sessions, urls, logger, throttle = createLoginThrottle() }: AdminAuthDeps) {
  // One budget per IP for the whole service: the main and preview listeners share it, so a second
  // listener does not double the guesses an address gets (nor does a second instance, with Redis).
  // Attempts are counted when they start and kept when they fail.

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

  /** A write's Origin (or Referer) is the branch's own public address (BASE_URL / DEV_URL); the Host header is the client's to choose, so it proves nothing. */
  function sameOrigin(headers: Headers, branch: Branch): boolean {
    const referer = headers('referer');
    const origin = headers('origin') ?? (referer ? safeOrigin(referer) : undefined);
    return origin !== undefined && origin === siteOrigin(branch);
  }

  function cookie(branch: Branch, value: string, maxAge: number): string {
    return `${cookieName(branch)}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure(branch) ? '; Secure' : ''}`;
  }

  /** Who is calling: bearer first, then the session cookie; a cookie write from another site is refused. */
  async function principal(headers: Headers, method: string, branch: Branch): Promise<Principal> {
    if (bearerToken(headers('authorization')) !== undefined) {
      try {
        requireBearer(headers('authorization'), adminToken);
        return { kind: 'admin', via: 'bearer' };
      } catch (error) {
        return { kind: 'refused', error: error as AppError };
      }
    }
    const session = await sessions.verify(readCookie(headers, branch));
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

  /**
   * Counts one login attempt from `ip` before its token is read, and refuses (429) once the budget is spent:
   * requests whose bodies arrive later were all counted when their headers came, so sending many at once buys
   * no extra guesses. Returns the refund, for an attempt that turns out not to be a guess.
   */
  async function countAttempt(ip: string): Promise<() => Promise<void>> {
    const attempt = await throttle.attempt(ip);
    if (!attempt.allowed) {
      countThrottled('login');
      const retry = Math.max(1, Math.ceil(attempt.retryAfterMs / 1000));
      logger?.warn({ event: 'auth', action: 'login', outcome: 'throttled', ip, retryAfter: retry }, 'login throttled');
      throw new AppError('rate_limited', `Too many failed logins from this address; try again in ${retry} seconds.`, {
        headers: { 'Retry-After': String(retry) },
      });
    }
    return attempt.refund;
  }

  /**
   * Opens a console session for the right token; throttles attempts per IP. `token` may be a function that
   * reads it (the request body): the attempt is counted before it runs. Returns the Set-Cookie value.
   */
  async function login({ token: tokenOrReader, ip, headers, branch }: { token: unknown; ip: string; headers: Headers; branch: Branch }): Promise<string> {
    const refund = await countAttempt(ip);
    let token: unknown;
    try {
      token = typeof tokenOrReader === 'function' ? await (tokenOrReader as () => Promise<unknown>)() : tokenOrReader;
    } catch (error) {
      await refund(); // an unreadable body is not a guess
      throw error;
    }
    if (typeof token !== 'string' || !token) {
      await refund();
      throw new AppError('bad_request', 'Send the admin token as {"token": "…"}.', { errors: [{ pointer: '/token', message: 'token is required' }] });
    }
    if (!tokenMatches(token, adminToken)) {
      logger?.warn({ event: 'auth', action: 'login', outcome: 'failed', ip, branch }, 'login failed');
      throw unauthorized('The admin token is not valid.');
    }
    await throttle.clear(ip); // the right token: every attempt of this address is refunded
    const previous = await sessions.verify(readCookie(headers, branch));
    if (previous) await sessions.destroy(previous); // rotate: a sign-in never reuses a session id
    const { cookieValue, maxAgeSeconds } = await sessions.create();
    logger?.info({ event: 'auth', action: 'login', outcome: 'ok', ip, branch }, 'login ok');
    return cookie(branch, cookieValue, maxAgeSeconds);
  }

  /** Ends the session of the request's cookie (if any) and returns the Set-Cookie value that clears it. */
  async function logout({ headers, branch }: { headers: Headers; branch: Branch }): Promise<string> {
    const session = await sessions.verify(readCookie(headers, branch));
    if (session) {
      if (!sameOrigin(headers, branch)) throw new AppError('forbidden', 'Sign out from the site itself (Origin check).');
      await sessions.destroy(session);
    }
    logger?.info({ event: 'auth', action: 'logout', hadSession: Boolean(session), branch }, 'logout');
    return cookie(branch, '', 0);
  }

  const endpoints: Endpoint[] = [
    {
      methods: ['GET'],
      path: '/api/admin/whoami',
      async handle({ req, res, method, branch }) {
        const who = await principal(headerOf(req), method, branch);
        if (who.kind === 'refused') throw who.error;
        if (who.kind !== 'admin') throw unauthorized();
        sendJson(req, res, 200, { authenticated: true, via: who.via }, { 'Cache-Control': 'no-store' });
      },
    },
    {
      methods: ['POST'],
      path: '/api/admin/login',
      async handle({ req, res, ip, branch }) {
        const setCookie = await login({ token: () => readToken(req), ip, headers: headerOf(req), branch });
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
  const body = await readJsonBody(req, 16 * 1024, { form: true });
  return body && typeof body === 'object' ? (body as { token?: unknown }).token : undefined;
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
