// Who is calling the admin surface: the bearer token, or a console session cookie (with an Origin check on
// writes against CSRF). Also sign-in and sign-out, shared by the REST endpoints (whoami, login, logout) and
// the browser console, which reads the same headers from a Fetch request. Every credential is checked under
// the one failure budget per address and per credential (credential-throttle.server.ts), /mcp/admin's too.
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { bearerToken, throttled, tokenMatches, unauthorized } from '../server/auth.server.ts';
import { anonymous, type Principal } from '../server/implement.server.ts';
import type { SessionStore } from '../server/sessions.server.ts';
import { createCredentialThrottle, type CredentialThrottle } from '../server/credential-throttle.server.ts';
import type { SiteUrls } from '../server/services.server.ts';
import type { Logger } from '../server/log.server.ts';
import { headerOf, readJsonBody, sendEmpty, sendJson, type EdgeRequest, type Endpoint } from './edge.server.ts';

/** Reads one request header (node or Fetch). */
export type Headers = (name: string) => string | undefined;

export interface AdminAuthDeps {
  adminToken: string;
  sessions: SessionStore;
  /** The failure budgets of credentials, per address and per credential (default: kept in this process). */
  throttle?: CredentialThrottle;
  urls: SiteUrls;
  /** Where sign-in events go (never the token or the cookie). */
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export type AdminAuth = ReturnType<typeof createAdminAuth>;

export function createAdminAuth({ adminToken, sessions, urls, logger, throttle = createCredentialThrottle() }: AdminAuthDeps) {
  // One budget per address for the whole service, whatever the credential and the surface: the main and preview
  // listeners share it, so a second listener does not double the guesses an address gets (nor does a second
  // instance, with Redis). Attempts are counted when they start and kept when they fail; a success refunds its own
  // (only its own: one valid credential, a session or METRICS_TOKEN, must not buy guesses at another).

  const siteOrigin = (branch: Branch) => new URL(urls.of(branch)).origin;
  const secure = (branch: Branch) => siteOrigin(branch).startsWith('https:');
  const cookieName = (branch: Branch) => (secure(branch) ? '__Host-vitae_session' : 'vitae_session');

  const readCookie = (headers: Headers, branch: Branch) => cookieValue(headers('cookie'), cookieName(branch));

  /** A write's Origin (or Referer) is the branch's own public address (BASE_URL / DEV_URL); the Host header is the client's to choose, so it proves nothing. */
  function sameOrigin(headers: Headers, branch: Branch): boolean {
    const referer = headers('referer');
    const origin = headers('origin') ?? (referer ? safeOrigin(referer) : undefined);
    return origin !== undefined && origin === siteOrigin(branch);
  }

  function cookie(branch: Branch, value: string, maxAge: number): string {
    return `${cookieName(branch)}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure(branch) ? '; Secure' : ''}`;
  }

  /** The admin token of an Authorization header: 401 without it or when wrong, 429 once the budget is spent. */
  async function bearer(authorization: string | undefined, ip: string): Promise<AppError | undefined> {
    const token = bearerToken(authorization);
    if (token === undefined) return unauthorized();
    const verdict = await throttle.check('bearer', ip, token, (given) => tokenMatches(given, adminToken));
    if (verdict.outcome === 'accepted') return undefined;
    if (verdict.outcome === 'throttled') {
      logger?.warn({ event: 'auth', action: 'bearer', outcome: 'throttled', ip, retryAfter: verdict.retryAfterSeconds }, 'admin token throttled');
      return throttled(verdict.retryAfterSeconds);
    }
    logger?.warn({ event: 'auth', action: 'bearer', outcome: 'failed', ip }, 'admin token refused');
    return unauthorized('The admin token is not valid.');
  }

  /**
   * The session of a console cookie, checked under the budgets: a forged cookie (not signed with SESSION_SECRET)
   * is a failure; one of ours whose session has ended (signed out, expired, an old admin token) is a failure of
   * that cookie only, not of the address, so that a returning editor's browser does not lock it out of signing in.
   * Returns the session's id, undefined for none, or the 429 when a budget is spent.
   */
  async function sessionOf(cookieValue: string | undefined, ip: string): Promise<string | AppError | undefined> {
    if (!cookieValue) return undefined;
    const counted = await throttle.attempt('session', { address: ip, secret: cookieValue });
    if (!counted.allowed) {
      const retry = Math.max(1, Math.ceil(counted.retryAfterMs / 1000));
      logger?.warn({ event: 'auth', action: 'session', outcome: 'throttled', ip, retryAfter: retry }, 'session cookie throttled');
      return throttled(retry);
    }
    const cookie = await sessions.inspect(cookieValue);
    if (cookie.state === 'live') {
      await counted.refund();
      return cookie.id;
    }
    if (cookie.state === 'ended') await counted.refund('address');
    else logger?.warn({ event: 'auth', action: 'session', outcome: 'forged', ip }, 'forged session cookie');
    return undefined;
  }

  /** Who is calling: bearer first, then the session cookie; a cookie write from another site is refused. */
  async function principal(headers: Headers, method: string, branch: Branch, ip: string): Promise<Principal> {
    if (bearerToken(headers('authorization')) !== undefined) {
      const refusal = await bearer(headers('authorization'), ip);
      return refusal ? { kind: 'refused', error: refusal } : { kind: 'admin', via: 'bearer' };
    }
    const session = await sessionOf(readCookie(headers, branch), ip);
    if (session instanceof AppError) return { kind: 'refused', error: session };
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

  /** A sign-in refused for a spent budget: logged, and the 429 to throw. */
  function loginThrottled(retryAfterMs: number, ip: string): AppError {
    const retry = Math.max(1, Math.ceil(retryAfterMs / 1000));
    logger?.warn({ event: 'auth', action: 'login', outcome: 'throttled', ip, retryAfter: retry }, 'login throttled');
    return throttled(retry);
  }

  /**
   * Opens a console session for the right token, under the budgets. `token` may be a function that reads it
   * (the request body): the attempt is counted on the address's budget before it runs, so requests whose bodies
   * arrive later were all counted when their headers came and sending many at once buys no extra guesses; the
   * token's own budget is counted once it is read. Returns the Set-Cookie value.
   */
  async function login({ token: tokenOrReader, ip, headers, branch }: { token: unknown; ip: string; headers: Headers; branch: Branch }): Promise<string> {
    const fromAddress = await throttle.attempt('login', { address: ip });
    if (!fromAddress.allowed) throw loginThrottled(fromAddress.retryAfterMs, ip);
    let token: unknown;
    try {
      token = typeof tokenOrReader === 'function' ? await (tokenOrReader as () => Promise<unknown>)() : tokenOrReader;
    } catch (error) {
      await fromAddress.refund(); // an unreadable body is not a guess
      throw error;
    }
    if (typeof token !== 'string' || !token) {
      await fromAddress.refund();
      throw new AppError('bad_request', 'Send the admin token as {"token": "…"}.', { errors: [{ pointer: '/token', message: 'token is required' }] });
    }
    const ofToken = await throttle.attempt('login', { secret: token });
    if (!ofToken.allowed) {
      await fromAddress.refund(); // not compared: no guess from this address
      throw loginThrottled(ofToken.retryAfterMs, ip);
    }
    if (!tokenMatches(token, adminToken)) {
      logger?.warn({ event: 'auth', action: 'login', outcome: 'failed', ip, branch }, 'login failed');
      throw unauthorized('The admin token is not valid.');
    }
    await Promise.all([fromAddress.refund(), ofToken.refund()]);
    const previous = await sessions.verify(readCookie(headers, branch));
    if (previous) await sessions.destroy(previous); // rotate: a sign-in never reuses a session id
    const { cookieValue, maxAgeSeconds } = await sessions.create();
    logger?.info({ event: 'auth', action: 'login', outcome: 'ok', ip, branch }, 'login ok');
    return cookie(branch, cookieValue, maxAgeSeconds);
  }

  /** Ends the session of the request's cookie (if any) and returns the Set-Cookie value that clears it. */
  async function logout({ headers, branch, ip }: { headers: Headers; branch: Branch; ip: string }): Promise<string> {
    const session = await sessionOf(readCookie(headers, branch), ip);
    if (session instanceof AppError) throw session;
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
      async handle({ req, res, method, branch, ip }) {
        const who = await principal(headerOf(req), method, branch, ip);
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
      async handle({ req, res, branch, ip }) {
        const setCookie = await logout({ headers: headerOf(req), branch, ip });
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
    authenticate: ({ req, method, branch, ip }: EdgeRequest) => principal(headerOf(req), method, branch, ip),
    /** Throws unless the request carries the admin token (bearer only: /mcp/admin), under the budgets. */
    async requireBearer({ req, ip }: Pick<EdgeRequest, 'req' | 'ip'>): Promise<void> {
      const refusal = await bearer(req.headers.authorization, ip);
      if (refusal) throw refusal;
    },
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

/** The value of the cookie `name` in a Cookie header, if it is there. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
