// The security headers of the site's pages, in one place for both ways a page is answered: the web app
// (Express middleware, per request) and the page cache (the same middleware run once with a marker for the
// nonce, then the marker replaced per answer).
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The CSP nonce an answer's inline scripts carry: set on `res.locals.cspNonce` before this middleware runs. */
const nonceOf = (res: ServerResponse) => (res as ServerResponse & { locals?: { cspNonce?: string } }).locals?.cspNonce ?? '';

/** Headers for every page of a site; `https` when the site is served over https (HSTS, upgraded requests). */
export function pageSecurity(https: boolean): Middleware {
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${nonceOf(res)}'`],
        // Inline styles are allowed, inline scripts are not: the console's editor (CodeMirror) injects its
        // theme as <style> elements and positions its widgets with style attributes at run time, and a few
        // components set style attributes; CSS cannot run code, scripts stay nonce-only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"], // the chat and voice input call this site's /api only
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Only when the site is served over https; not for subdomains, which may be other people's sites.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
  });
  return (req, res, next) =>
    headers(req, res, (error?: unknown) => {
      // Not in helmet: the microphone (voice input in the chat) for this site only, nothing else for anyone.
      res.setHeader('Permissions-Policy', 'microphone=(self), camera=(), geolocation=(), payment=(), usb=(), browsing-topics=()');
      next(error);
    });
}

/** The headers `middleware` sets on an answer whose nonce is `nonce`, collected without an answer. */
export function headersOf(middleware: Middleware, nonce: string): Record<string, string> {
  const headers = new Map<string, string>();
  const res = {
    locals: { cspNonce: nonce },
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let done = false;
  middleware({ headers: {}, method: 'GET', url: '/' } as IncomingMessage, res as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    done = true;
  });
  if (!done) throw new Error('the page headers are not set synchronously');
  return Object.fromEntries(headers);
}
