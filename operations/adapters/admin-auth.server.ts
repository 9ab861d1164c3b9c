// Who is calling the admin surface: the bearer token, or a console session cookie (with an Origin check on
// writes against CSRF). Also sign-in and sign-out, shared by the REST endpoints (whoami, login, logout) and
// the browser console, which reads the same headers from a Fetch request. Every credential is checked under
// the one failure budget per address and per credential (credential-throttle.server.ts), /mcp/admin's too.
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { bearerToken, throttled, unauthorized } from '../server/auth.server.ts';
import { anonymous, type Account, type Principal } from '../server/implement.server.ts';
import type { Credentials } from '../server/editors.server.ts';
import type { AuditEntry, AuditTrail } from '../server/audit.server.ts';
import type { SessionStore } from '../server/sessions.server.ts';
import { createCredentialThrottle, type CredentialThrottle } from '../server/credential-throttle.server.ts';
import type { SiteUrls } from '../server/services.server.ts';
import type { Logger } from '../server/log.server.ts';
import { headerOf, readJsonBody, sendEmpty, type EdgeRequest, type Endpoint } from './edge.server.ts';

/** Reads one request header (node or Fetch). */
export type Headers = (name: string) => string | undefined;

export interface AdminAuthDeps {
  /** Who a token belongs to: ADMIN_TOKEN the owner's, the others an editor's (operations/server/editors.server.ts). */
  credentials: Credentials;
  sessions: SessionStore;
  /** The failure budgets of credentials, per address and per credential (default: kept in this process). */
  throttle?: CredentialThrottle;
  urls: SiteUrls;
  /** Where sign-in events go (never the token or the cookie). */
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** The audit trail: sign-ins, failed sign-ins (and refused bearer tokens), sign-outs. */
  audit?: Pick<AuditTrail, 'record'>;
}

export type AdminAuth = ReturnType<typeof createAdminAuth>;

export function createAdminAuth({ credentials, sessions, urls, logger, audit, throttle = createCredentialThrottle() }: AdminAuthDeps) {
  /** Records an audit event; a trail that cannot be written is logged, never the sign-in's failure. */
  const trail = (entry: AuditEntry) =>
    audit?.record(entry).catch((error: unknown) => logger?.warn({ event: 'audit', err: error, action: entry.action }, 'the audit trail could not be written'));
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

  /** The account of an Authorization header's token: 401 without it or when nobody holds it, 429 once the budget is spent. */
  async function bearer(authorization: string | undefined, ip: string): Promise<Account | AppError> {
    const token = bearerToken(authorization);
    if (token === undefined) return unauthorized();
    let account: Account | undefined;
    const verdict = await throttle.check('bearer', ip, token, async (given) => (account = (await credentials.resolve(given))?.account) !== undefined);
    if (verdict.outcome === 'accepted' && account) return account;
    if (verdict.outcome === 'throttled') {
      logger?.warn({ event: 'auth', action: 'bearer', outcome: 'throttled', ip, retryAfter: verdict.retryAfterSeconds }, 'admin token throttled');
      return throttled(verdict.retryAfterSeconds);
    }
    logger?.warn({ event: 'auth', action: 'bearer', outcome: 'failed', ip }, 'admin token refused');
    await trail({ action: 'sign-in-failed', actor: null, ip, detail: 'a bearer token nobody holds' });
    return unauthorized('The token is not valid: it is not ADMIN_TOKEN nor a live editor’s token.');
  }

  /**
   * The session of a console cookie, checked under the budgets: a forged cookie (not signed with SESSION_SECRET)
   * is a failure; one of ours whose session has ended (signed out, expired, an old admin token) is a failure of
   * that cookie only, not of the address, so that a returning editor's browser does not lock it out of signing in.
   * Returns the session's id and account, undefined for none, or the 429 when a budget is spent.
   */
  async function sessionOf(cookieValue: string | undefined, ip: string): Promise<{ id: string; account: Account } | AppError | undefined> {
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
      return { id: cookie.id, account: cookie.account };
    }
    if (cookie.state === 'ended') await counted.refund('address');
    else logger?.warn({ event: 'auth', action: 'session', outcome: 'forged', ip }, 'forged session cookie');
    return undefined;
  }

  /** Who is calling: bearer first, then the session cookie; a cookie write from another site is refused. */
  async function principal(headers: Headers, method: string, branch: Branch, ip: string): Promise<Principal> {
    if (bearerToken(headers('authorization')) !== undefined) {
      const account = await bearer(headers('authorization'), ip);
      return account instanceof AppError ? { kind: 'refused', error: account } : { kind: 'admin', via: 'bearer', account };
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
    return { kind: 'admin', via: 'session', account: session.account };
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
    const holder = await credentials.resolve(token);
    if (!holder) {
      logger?.warn({ event: 'auth', action: 'login', outcome: 'failed', ip, branch }, 'login failed');
      await trail({ action: 'sign-in-failed', actor: null, ip, detail: consoleAt(branch) });
      throw unauthorized('The token is not valid: it is not ADMIN_TOKEN nor a live editor’s token.');
    }
    await Promise.all([fromAddress.refund(), ofToken.refund()]);
    const previous = await sessions.verify(readCookie(headers, branch));
    if (previous) await sessions.destroy(previous); // rotate: a sign-in never reuses a session id
    const { cookieValue, maxAgeSeconds } = await sessions.create(holder.digest, holder.account.id);
    logger?.info({ event: 'auth', action: 'login', outcome: 'ok', ip, branch, account: holder.account.id }, 'login ok');
    await trail({ action: 'sign-in', actor: { id: holder.account.id, name: holder.account.name }, ip, detail: consoleAt(branch) });
    return cookie(branch, cookieValue, maxAgeSeconds);
  }

  /** Ends the session of the request's cookie (if any) and returns the Set-Cookie value that clears it. */
  async function logout({ headers, branch, ip }: { headers: Headers; branch: Branch; ip: string }): Promise<string> {
    const session = await sessionOf(readCookie(headers, branch), ip);
    if (session instanceof AppError) throw session;
    if (session) {
      if (!sameOrigin(headers, branch)) throw new AppError('forbidden', 'Sign out from the site itself (Origin check).');
      await sessions.destroy(session.id);
      await trail({ action: 'sign-out', actor: { id: session.account.id, name: session.account.name }, ip, detail: consoleAt(branch) });
    }
    logger?.info({ event: 'auth', action: 'logout', hadSession: Boolean(session), branch }, 'logout');
    return cookie(branch, '', 0);
  }

  const endpoints: Endpoint[] = [
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
    /** The account of the request's bearer token (bearer only: /mcp/admin), under the budgets; throws without one. */
    async requireBearer({ req, ip }: Pick<EdgeRequest, 'req' | 'ip'>): Promise<Principal> {
      const account = await bearer(req.headers.authorization, ip);
      if (account instanceof AppError) throw account;
      return { kind: 'admin', via: 'bearer', account };
    },
  };
}

/** The token from a JSON body or an HTML form. */
async function readToken(req: EdgeRequest['req']): Promise<unknown> {
  const body = await readJsonBody(req, 16 * 1024, { form: true });
  return body && typeof body === 'object' ? (body as { token?: unknown }).token : undefined;
}

/** Where a sign-in happened, as the audit trail says it: the site's address or the preview's. */
const consoleAt = (branch: Branch) => (branch === 'main' ? 'the console, at the site’s address' : 'the console, at the preview address (dev)');

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
