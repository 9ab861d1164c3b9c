// The console's writes (the Remix actions under /admin: preview, review, publish, sign-in and sign-out; its
// operations go to their REST routes under /api/admin) go through the same input rules as the REST API before the web app sees them: a limit per route known
// before reading (413 on Content-Length, cut when chunks pass it), the caller decided from the headers before any
// body is read (a stranger's 100 MB is refused unread), the body's type (415), UTF-8 and JSON depth (400), and the
// service-wide budget of bytes being read. Only then is the request handed to the web app, with its body read.
// Refusals are the JSON error body of every other surface; a signed-out form is sent to sign-in, as its page is.
// The site's one form ("Compare with a role", posted without scripts) goes through the same rules.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../contract/errors.ts';
import { locales, type Branch } from '../contract/shared.ts';
import { decodedPath, decodeUtf8, hasBody, MAX_BODY, mediaTypeOf, parseJson, parseQuery, readBody, sendError } from './edge.server.ts';

type BodyKind = 'json' | 'form';

interface Rule {
  /** What the action reads: JSON (the console's fetches) or an urlencoded HTML form. */
  body: BodyKind;
  /** The most it reads, in bytes. */
  limit: number;
  /** Whether only a signed-in editor may send it (all but signing in and out). */
  signedIn: boolean;
  /** The route has no page to read, only an action (a GET is 405, not the web app's complaint in the log). */
  actionOnly?: boolean;
}

const FORM_SMALL = 16 * 1024;
/** The console's routes that take a body; any other /admin route gets the last rule. */
const RULES: Array<[RegExp, Rule]> = [
  // The text of a content file: as large as REST allows for admin_preview.
  [/^\/admin\/preview\/?$/, { body: 'json', limit: MAX_BODY, signedIn: true, actionOnly: true }],
  // A change set as one form field: urlencoded, each byte of non-ASCII text is three, so three times REST's.
  [/^\/admin\/review\/?$/, { body: 'form', limit: 3 * MAX_BODY, signedIn: true }],
  [/^\/admin\/publish\/?$/, { body: 'form', limit: FORM_SMALL, signedIn: true }],
  [/^\/admin\/login\/?$/, { body: 'form', limit: FORM_SMALL, signedIn: false }],
  [/^\/admin\/logout\/?$/, { body: 'form', limit: FORM_SMALL, signedIn: false }],
  // The site's one form: "Compare with a role" posted without scripts, in any locale. A description of 12,000
  // characters, urlencoded, is up to nine bytes a character.
  [new RegExp(`^(?:/(?:${locales.join('|')}))?/match/?$`), { body: 'form', limit: 128 * 1024, signedIn: false }],
];

/** The rule of a console route that takes a write; undefined for every other path (read only, the site's pages included). */
const ruleOf = (pathname: string): Rule | undefined => RULES.find(([path]) => path.test(pathname))?.[1];

export interface ConsoleGateOptions {
  /** Who is calling, from the request's headers alone (cookie, bearer, Origin). */
  principal(req: IncomingMessage, branch: Branch): Promise<{ kind: string; error?: unknown }>;
  /** Hands the request on to the web app with its body, read and checked. */
  dispatch(req: IncomingMessage, res: ServerResponse, branch: Branch, body: Buffer): Promise<void>;
}

/**
 * The gate: `serve` answers or hands on a console write and returns true; anything else (a read, a page outside
 * /admin) returns false and goes its way.
 */
export function consoleGate({ principal, dispatch }: ConsoleGateOptions) {
  async function pass(req: IncomingMessage, res: ServerResponse, branch: Branch, pathname: string, rule: Rule): Promise<void> {
    if (Number(req.headers['content-length']) > rule.limit) throw tooLarge(rule.limit);
    if (decodedPath(pathname) === undefined) throw new AppError('bad_request', 'The address has malformed percent-encoding.');
    checkOrigin(req);
    if (rule.signedIn) {
      const who = await principal(req, branch);
      if (who.kind === 'refused') throw who.error;
      if (who.kind !== 'admin') return signIn(req, res, rule);
    }
    if (hasBody(req) || req.headers['content-type'] !== undefined) checkType(req, rule.body);
    const body = await readBody(req, rule.limit);
    if (body.length) {
      const text = decodeUtf8(body);
      if (rule.body === 'json') parseJson(text);
      else parseQuery(text.trim()); // each name and value decodes as UTF-8, or 400
    } else if (rule.body === 'json') {
      throw new AppError('bad_request', 'Send the input as a JSON object (an empty body is none).', {
        errors: [{ pointer: '', message: 'the body is empty' }],
      });
    } else {
      req.headers['content-type'] = 'application/x-www-form-urlencoded'; // an empty form, as the web app reads one
    }
    await dispatch(req, res, branch, body);
  }

  return {
    serve(req: IncomingMessage, res: ServerResponse, branch: Branch): boolean {
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q === -1 ? url : url.slice(0, q);
      const rule = ruleOf(pathname);
      const read = method === 'GET' || method === 'HEAD';
      if (read && !rule?.actionOnly) return false;
      // The site's pages are read, the console's written with POST: any other method is 405 naming those that
      // work, before the web app (which would run an action for any method, or fail on a foreign Origin).
      const allowed = !rule ? 'GET, HEAD' : rule.actionOnly ? 'POST' : 'GET, HEAD, POST';
      const refuse = (error: unknown) => sendError(req, res, error, { 'Cache-Control': 'no-store' });
      if (method !== 'POST' || !rule) {
        refuse(
          new AppError('method_not_allowed', `${pathname} does not accept ${method}; use ${allowed.replace(/, (?=[A-Z]+$)/, ' or ')}.`, {
            headers: { Allow: allowed },
          }),
        );
        return true;
      }
      pass(req, res, branch, pathname, rule).catch(refuse);
      return true;
    },
  };
}

/**
 * A write whose Origin names another host than the one it was sent to is another site's (the check Remix makes of
 * a form post, answered here as a 403 rather than its 500). Without an Origin (scripts, old browsers) the
 * admin surface's own checks decide.
 */
function checkOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (!origin) return;
  const forwarded = String(req.headers['x-forwarded-host'] ?? '')
    .split(',')[0]!
    .trim();
  const host = forwarded || req.headers.host;
  let from: string | undefined;
  try {
    from = new URL(origin).host; // "null" (a sandboxed or opaque origin) is no site's: refused
  } catch {
    from = undefined;
  }
  if (!host || from !== host)
    throw new AppError('forbidden', 'A console write must come from the site itself (Origin check); use the bearer token for scripts.');
}

const tooLarge = (limit: number) => new AppError('payload_too_large', `The request body is larger than ${Math.round(limit / 1024)} kB.`);

function checkType(req: IncomingMessage, kind: BodyKind): void {
  const type = mediaTypeOf(req);
  if (kind === 'json') {
    if (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)) return;
    throw new AppError('unsupported_media_type', `Send the console's requests as JSON (Content-Type: application/json), not ${type || 'no type'}.`);
  }
  if (type === 'application/x-www-form-urlencoded') return;
  throw new AppError(
    'unsupported_media_type',
    `Send this form as application/x-www-form-urlencoded (the browser's default for a form), not ${type || 'no type'}.`,
  );
}

/**
 * A signed-out editor's write: a JSON request is told 401 as over REST; a form is sent to sign-in and back, as its
 * page would (a browser's form post follows a 303; the web app's own fetch follows Remix's redirect headers).
 */
function signIn(req: IncomingMessage, res: ServerResponse, rule: Rule): void {
  if (rule.body === 'json') throw new AppError('unauthorized', 'Sign in to the console first (at /admin/login), or again if your session has ended.');
  const url = new URL(req.url ?? '/admin', 'http://console');
  const data = url.searchParams.has('_data');
  url.searchParams.delete('_data');
  url.searchParams.delete('index');
  const next = `/admin/login?next=${encodeURIComponent(url.pathname + url.search)}`;
  const close = hasBody(req) ? { Connection: 'close' } : {};
  if (data) res.writeHead(204, { 'X-Remix-Redirect': next, 'X-Remix-Status': '302', 'Cache-Control': 'no-store', ...close });
  else res.writeHead(303, { Location: next, 'Cache-Control': 'no-store', ...close });
  res.end();
}
