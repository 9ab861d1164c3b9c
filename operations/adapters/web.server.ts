// The Remix web app (site and console) as the edge's web handler: static files from memory, public pages rendered
// once per build by Remix's own fetch handler and answered from the page cache, the console's writes through its
// gate, and whatever is left through one Express app per branch (forms, the console's reads, error pages).
import express from 'express';
import compression from 'compression';
import { createRequestHandler } from '@remix-run/express';
import { createRequestHandler as createRemixHandler, type ServerBuild } from '@remix-run/node';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Branch } from '../contract/shared.ts';
import type { Config } from '../server/config.server.ts';
import type { Logger } from '../server/log.server.ts';
import type { ServedBuilds } from '../server/build-cache.server.ts';
import type { WorkQueue } from '../server/work-queue.server.ts';
import { clientIp } from './client-ip.server.ts';
import { consoleGate } from './console-gate.server.ts';
import { consolePath, decodedPath, type WebHandler } from './edge.server.ts';
import { createPageCache, markdownTwinPath } from './page-cache.server.ts';
import { headersOf, pageSecurity } from './page-headers.server.ts';
import { pageRoutes } from './page-routes.server.ts';
import type { SiteGateway } from './site-gateway.server.ts';
import { createStaticFiles } from './static-files.server.ts';

/** The project's folder: the nearest one above this module with a package.json (server.ts sits in it, its production bundle in build/). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * The Remix web app (site and console), one Express app per branch, reading through the site gateway. Public
 * pages are answered by the page cache first (rendered once per build by the same Remix build); the console,
 * static files, forms and whatever the cache passes on go through Express.
 */
export async function remixWeb(
  gateway: SiteGateway,
  config: Config,
  logger: Logger,
  builds?: Pick<ServedBuilds, 'served'>,
  work?: WorkQueue,
): Promise<WebHandler> {
  const buildPath = pathToFileURL(join(projectRoot(), 'build', 'index.js'));
  if (!existsSync(buildPath)) {
    logger.warn('the web build is missing (run `npm run build`); serving the API only');
    return (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('The website is not built. Run `npm run build` (npm start does it for you).\n');
    };
  }
  const build = (await import(buildPath.href)) as ServerBuild;
  const mode = process.env.NODE_ENV ?? 'production';
  const siteUrl = (branch: Branch) => (branch === 'main' ? config.baseUrl : config.devUrl);
  const security = { main: pageSecurity(siteUrl('main').startsWith('https:')), dev: pageSecurity(siteUrl('dev').startsWith('https:')) };
  const loadContext = (branch: Branch, ip: string, cspNonce: string, httpStatus?: number) => ({
    vitae: gateway,
    branch,
    ip,
    routes: build.routes,
    // New for each request: a page render's loaders share its pure reads (get_site once per render).
    reads: {},
    cspNonce,
    httpStatus,
  });
  const apps = new Map<Branch, express.Express>();
  for (const branch of ['main', 'dev'] as const) {
    const app = express();
    app.disable('x-powered-by');
    // A nonce per answer, for the inline scripts Remix writes (entry.server.tsx hands it to them).
    app.use((_req, res, next) => {
      res.locals.cspNonce = randomBytes(16).toString('base64');
      next();
    });
    app.use(security[branch]);
    app.use(compression()); // pages, styles and scripts gzip-compressed (the edge answers API requests before this app)
    // An address that cannot be decoded ("/entries/%FF") is the site's 400 page (root loader): it travels on
    // with its "%" escaped, so no router or file server trips over it on the way.
    app.use((req, res, next) => {
      const query = req.url.indexOf('?');
      const path = query === -1 ? req.url : req.url.slice(0, query);
      if (decodedPath(path) === undefined) {
        res.locals.httpStatus = 400;
        req.url = req.originalUrl = path.replace(/%/g, '%25') + (query === -1 ? '' : req.url.slice(query));
      }
      // The console's pages and loader data are one editor's: never kept by a shared cache, and told apart by cookie.
      if (consolePath(path)) {
        res.setHeader('Cache-Control', 'private, no-store');
        res.setHeader('Vary', 'Cookie');
      }
      next();
    });
    app.use('/build', express.static(join(projectRoot(), 'public', 'build'), { immutable: true, maxAge: '1y', index: false }));
    app.use(express.static(join(projectRoot(), 'public'), { maxAge: '1h', index: false }));
    // A page's Markdown twin ("/entries/x.md", "/index.md") is answered by the route app/routes/[_md].$path.tsx;
    // the page path travels as one encoded segment so that no page route can claim it (Remix reads originalUrl).
    app.get(/\.md$/, (req, _res, next) => {
      const query = req.originalUrl.indexOf('?');
      req.url = req.originalUrl = `${markdownTwinPath(req.path)!}${query === -1 ? '' : req.originalUrl.slice(query)}`;
      next();
    });
    const remix = createRequestHandler({
      build,
      mode,
      getLoadContext: (req, res) =>
        loadContext(branch, clientIp(req, config.TRUST_PROXY), res.locals.cspNonce as string, res.locals.httpStatus as number | undefined),
    });
    // Remix's handler passes its own failures to next(); the promise it returns carries nothing else. (`use`,
    // not `all('*')`: a route with a parameter has Express decode the path, which fails on "/entries/%FF".)
    app.use((req, res, next) => void remix(req, res, next));
    // Whatever Express, a static file or Remix itself fails with: the site's own error page with that status,
    // rendered by Remix once more (the root loader reads `httpStatus`), and if even that fails a plain page:
    // never Express's page with a stack and file paths.
    app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
      const given = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
      const status = typeof given === 'number' && given >= 400 && given < 600 ? given : 500;
      if (status >= 500) logger.error({ err: error, url: req.originalUrl }, 'page failed');
      if (res.headersSent) return void res.destroy();
      const plain = () => {
        if (res.headersSent) return void res.destroy();
        res.status(status).type('html').set('Cache-Control', 'no-store');
        res.send(`<!doctype html><html lang="en"><meta charset="utf-8"><title>${status}</title><h1>${status}</h1><p><a href="/">Home</a></p></html>\n`);
      };
      if (res.locals.httpStatus) return plain();
      res.locals.httpStatus = status;
      void remix(req, res, plain);
    });
    apps.set(branch, app);
  }
  const expressApp: WebHandler = (req, res, branch) => apps.get(branch)!(req, res);
  // Remix's own fetch handler: public pages rendered once per build (below), and the console's writes once the
  // gate has read and checked their bodies.
  const render = createRemixHandler(build, mode);
  const gate = consoleGate({
    principal: (req, branch) =>
      gateway.principal({
        branch,
        ip: clientIp(req, config.TRUST_PROXY),
        request: new Request(`${siteUrl(branch)}${req.url ?? '/'}`, { headers: webHeaders(req) }),
      }),
    async dispatch(req, res, branch, body) {
      const nonce = randomBytes(16).toString('base64');
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      const request = new Request(`${siteUrl(branch)}${req.url ?? '/'}`, {
        method: req.method,
        headers: webHeaders(req),
        ...(body.length ? { body: new Uint8Array(body) } : {}),
        signal: gone.signal,
      });
      const response = await render(request, loadContext(branch, clientIp(req, config.TRUST_PROXY), nonce));
      await sendWebResponse(res, response, { ...headersOf(security[branch], nonce), 'Cache-Control': 'private, no-store', Vary: 'Cookie' });
    },
  });
  // The console's writes through the gate; everything else of the web app through Express.
  const toExpress: WebHandler = (req, res, branch) => void (gate.serve(req, res, branch) || expressApp(req, res, branch));
  if (!builds) return toExpress;

  // Static files from memory, then public pages rendered once per build by Remix's own fetch handler (no
  // Express, no visitor headers) and answered from memory. The console's reads go through Express.
  const files = createStaticFiles(join(projectRoot(), 'public'));
  const fileHeaders = { main: staticHeaders(headersOf(security.main, '')), dev: staticHeaders(headersOf(security.dev, '')) };
  const pages = createPageCache({
    build: (branch) => builds.served(branch),
    budgetBytes: config.PAGE_CACHE_MB * 1024 * 1024,
    securityHeaders: (branch, nonce) => headersOf(security[branch], nonce),
    bypass: consolePath,
    logError: (error, url) => logger.error({ err: error, url }, 'page render failed'),
    render: (target, branch, nonce, req, status) =>
      render(new Request(`${siteUrl(branch)}${target}`), loadContext(branch, clientIp(req, config.TRUST_PROXY), nonce, status)),
    ...(work ? { admit: <T>(made: () => Promise<T>, req: IncomingMessage) => work.run(made, clientIp(req, config.TRUST_PROXY)) } : {}),
  });
  return Object.assign(
    (req: IncomingMessage, res: ServerResponse, branch: Branch) =>
      void (files.serve(req, res, fileHeaders[branch]) || pages.serve(req, res, branch) || toExpress(req, res, branch)),
    { pageCache: pages.stats, pageRoute: await pageRoutes(build.routes, files.has) },
  );
}

/** A Node request's headers as Fetch headers (repeated ones joined, as Fetch does). */
function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** Writes a Fetch response to a Node one: `base` headers first, the response's own over them, each cookie apart. */
async function sendWebResponse(res: ServerResponse, response: Response, base: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(base)) res.setHeader(name, value);
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('Set-Cookie', cookies);
  res.writeHead(response.status, response.statusText || undefined);
  if (!response.body) return void res.end();
  // Read and written by hand: a stream pipeline would hang six listeners on the answer for a few kilobytes.
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return void (await reader.cancel());
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** A page's security headers as a static file needs them: no CSP (it governs documents, and a file runs none). */
const staticHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'Content-Security-Policy'));
