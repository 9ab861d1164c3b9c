// Admin authentication on the REST surface: the bearer token, or a console session cookie (with an
// Origin check on writes against CSRF). Also the REST-only routes whoami, login and logout.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../contract/errors.ts';
import type { AnyOperation } from '../contract/define.ts';
import type { Branch } from '../contract/shared.ts';
import { bearerToken, requireBearer, tokenMatches, unauthorized } from '../server/auth.server.ts';
import type { Runtime } from '../server/runtime.server.ts';
import type { SessionStore } from '../server/sessions.server.ts';
import { clientIp } from './client-ip.server.ts';
import { parseQuery, readBody, sendError, sendJson } from './http.server.ts';

const LOGIN_LIMIT = 5; // failed logins per IP…
const LOGIN_WINDOW_MS = 15 * 60 * 1000; // …per quarter of an hour
// One budget per IP for the whole service: the main and preview listeners share it, so a second
// listener does not double the guesses an address gets.
const loginFailures = new WeakMap<Runtime, Map<string, { count: number; resetAt: number }>>();

export function createAdminAuth(runtime: Runtime, branch: Branch, sessions: SessionStore) {
  const siteOrigin = new URL(runtime.siteUrl(branch)).origin;
  const secure = siteOrigin.startsWith('https:');
  const cookieName = secure ? '__Host-vitae_session' : 'vitae_session';
  const failures = loginFailures.get(runtime) ?? new Map<string, { count: number; resetAt: number }>();
  loginFailures.set(runtime, failures);

  function readCookie(req: IncomingMessage): string | undefined {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === cookieName) return value.join('=');
    }
    return undefined;
  }

  function sameOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin ?? (req.headers.referer ? safeOrigin(req.headers.referer) : undefined);
    if (!origin) return false;
    return origin === siteOrigin || origin === `http://${req.headers.host}` || origin === `https://${req.headers.host}`;
  }

  function cookie(value: string, maxAge: number): string {
    return `${cookieName}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
  }

  /** Who is calling: bearer first, then the session cookie. Throws 401 when neither is valid. */
  function identify(req: IncomingMessage): { via: 'bearer' | 'session'; session?: string } {
    if (bearerToken(req) !== undefined) {
      requireBearer(req, runtime.adminToken);
      return { via: 'bearer' };
    }
    const session = sessions.verify(readCookie(req));
    if (session) return { via: 'session', session };
    throw unauthorized();
  }

  return {
    /** The `authorize` hook of the REST adapter for admin operations. */
    authorize(req: IncomingMessage, _op: AnyOperation): void {
      const who = identify(req);
      const write = !['GET', 'HEAD'].includes(req.method ?? 'GET');
      if (who.via === 'session' && write && !sameOrigin(req)) {
        throw new AppError('forbidden', 'A console write must come from the site itself (Origin check); use the bearer token for scripts.');
      }
    },

    /** whoami, login and logout: REST only, not operations. */
    async routes(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
      const route = pathname.replace(/\/$/, '');
      if (!['/api/admin/whoami', '/api/admin/login', '/api/admin/logout'].includes(route)) return false;
      const method = req.method ?? 'GET';
      try {
        if (route === '/api/admin/whoami') {
          if (method !== 'GET' && method !== 'HEAD') throw new AppError('method_not_allowed', 'whoami accepts GET.', { headers: { Allow: 'GET' } });
          const who = identify(req);
          sendJson(req, res, 200, { authenticated: true, via: who.via }, { 'Cache-Control': 'no-store' });
          return true;
        }
        if (method !== 'POST') throw new AppError('method_not_allowed', `${route} accepts POST.`, { headers: { Allow: 'POST' } });
        if (route === '/api/admin/logout') {
          const session = sessions.verify(readCookie(req));
          if (session) {
            if (!sameOrigin(req)) throw new AppError('forbidden', 'Log out from the site itself (Origin check).');
            await sessions.destroy(session);
          }
          res.writeHead(204, { 'Set-Cookie': cookie('', 0), 'Cache-Control': 'no-store' });
          res.end();
          return true;
        }
        // login
        const ip = clientIp(req, runtime.config.TRUST_PROXY);
        const now = Date.now();
        const failed = failures.get(ip);
        if (failed && failed.resetAt > now && failed.count >= LOGIN_LIMIT) {
          const retry = Math.ceil((failed.resetAt - now) / 1000);
          throw new AppError('rate_limited', `Too many failed logins from this address; try again in ${retry} seconds.`, { headers: { 'Retry-After': String(retry) } });
        }
        const raw = (await readBody(req, 16 * 1024)).toString('utf8');
        const type = String(req.headers['content-type'] ?? '');
        let token: unknown;
        if (type.includes('application/x-www-form-urlencoded')) token = Object.fromEntries(parseQuery(raw)).token;
        else {
          try {
            token = (JSON.parse(raw || '{}') as { token?: unknown }).token;
          } catch {
            throw new AppError('bad_request', 'Send the token as JSON {"token": "…"} or as a form field "token".', { errors: [{ pointer: '/token', message: 'malformed JSON' }] });
          }
        }
        if (typeof token !== 'string' || !token) throw new AppError('bad_request', 'Send the admin token as {"token": "…"}.', { errors: [{ pointer: '/token', message: 'token is required' }] });
        if (!tokenMatches(token, runtime.adminToken)) {
          const entry = failed && failed.resetAt > now ? failed : { count: 0, resetAt: now + LOGIN_WINDOW_MS };
          entry.count++;
          failures.set(ip, entry);
          if (failures.size > 10_000) for (const [key, value] of failures) if (value.resetAt <= now) failures.delete(key);
          throw unauthorized('The admin token is not valid.');
        }
        failures.delete(ip);
        const previous = sessions.verify(readCookie(req));
        if (previous) await sessions.destroy(previous); // rotate: a login never reuses a session id
        const { cookieValue, maxAgeSeconds } = await sessions.create();
        res.writeHead(204, { 'Set-Cookie': cookie(cookieValue, maxAgeSeconds), 'Cache-Control': 'no-store' });
        res.end();
        return true;
      } catch (error) {
        sendError(req, res, error);
        return true;
      }
    },
  };
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
