// Pages rendered once per build. Every public page (HTML, its Markdown twin, the feed, the sitemap,
// llms.txt, resume.json, and the data requests of client-side navigation) is a pure function of the live
// build, the path and the query: the first request renders it — without the visitor's headers, so nothing
// per-visitor can reach the cache — and later ones are answered from memory, before the Express/Remix
// pipeline, as gzip bytes made once. Per answer only the CSP nonce changes (SplicedText). Entries belong to
// a build: a deploy leaves the old ones unreachable and they are dropped at the next request. Memory is
// bounded by a byte budget (least recently used dropped first).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Branch } from '../contract/shared.ts';
import type { PageCacheFigures } from '../server/health.server.ts';
import { accepts, COMPRESS_MIN, decodedPath, notModified } from './edge.server.ts';
import { PlainBytes, SplicedText } from './spliced-gzip.ts';
import { cacheCounters } from '../server/metrics.server.ts';
import { isAppError } from '../contract/errors.ts';
import { Locale } from '../contract/shared.ts';

/**
 * What renders a page: the web app's handler, given a path with its (normalised) query and the nonce to use; with
 * `status`, the site's own error page of that status instead (its language the path's).
 */
export type PageRenderer = (target: string, branch: Branch, nonce: string, req: IncomingMessage, status?: number) => Promise<Response>;

export interface PageCacheOptions {
  /** The live build of a branch: its id (the cache's generation) and when its content was committed. */
  build(branch: Branch): { id: string; committedAt: string };
  render: PageRenderer;
  /** The security headers of a page answer, made with `nonce` as its nonce (see page-headers.server.ts). */
  securityHeaders(branch: Branch, nonce: string): Record<string, string>;
  /** Bytes the cache may hold (rendered text and its gzip); 0 renders every request. */
  budgetBytes: number;
  /** Paths the web app answers itself: the console. */
  bypass(pathname: string): boolean;
  /** Where a failed render is reported (the service's log). */
  logError(error: unknown, url: string): void;
  /** Runs a render of a page not kept (the service-wide work queue, by the request's client); a refusal answers the busy page. */
  admit?<T>(work: () => Promise<T>, req: IncomingMessage): Promise<T>;
}

/** How long browsers and a shared cache in front keep a page of the live site (see docs/deploy.md). */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400';
/** The preview (dev) is never stored and never indexed. */
const PREVIEW_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
/** Headers of a rendered answer that the cache sets itself (or that describe bytes it sends differently). */
const OWN_HEADERS = new Set([
  'cache-control',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'etag',
  'last-modified',
  'vary',
  'connection',
  'date',
]);

interface Page {
  branch: Branch;
  buildId: string;
  status: number;
  headers: Record<string, string>;
  body: SplicedText | PlainBytes;
  /** Identifies the rendered text (without its nonce): the same page at another build keeps it. */
  tag: string;
  size: number;
}

/** A page's Markdown twin ("/entries/x.md") is answered by the route `/_md/:path` (app/routes/[_md].$path.tsx). */
export function markdownTwinPath(pathname: string): string | undefined {
  return pathname.endsWith('.md') ? `/_md/${encodeURIComponent(pathname)}` : undefined;
}

/** The query with its parameters in name order, so one page is one entry however its links spell it. */
export function normaliseQuery(query: string): string {
  if (!query) return '';
  const params = [...new URLSearchParams(query)];
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(params).toString();
}

const decodable = (pathname: string) => decodedPath(pathname) !== undefined;

export function createPageCache(options: PageCacheOptions) {
  // A marker for the nonce in rendered pages, random per process so no text can contain it by chance or design.
  const marker = randomBytes(18).toString('base64url');
  const security = new Map<Branch, Array<[name: string, value: string, afterNonce?: string]>>();
  const pages = new Map<string, Page>(); // insertion order = recency (a hit moves its page to the end)
  const rendering = new Map<string, Promise<Page | Rendered>>();
  const generation = new Map<Branch, string>();
  let bytes = 0;
  const stats = { hits: 0, misses: 0, renders: 0, uncacheable: 0, evicted: 0 };
  const counts = cacheCounters('page');

  /** The security headers of a branch, each split where the nonce goes (the CSP names it). */
  function securityOf(branch: Branch) {
    let headers = security.get(branch);
    if (!headers) {
      headers = Object.entries(options.securityHeaders(branch, marker)).map(([name, value]) => {
        const at = value.indexOf(marker);
        return at === -1 ? [name, value] : [name, value.slice(0, at), value.slice(at + marker.length)];
      });
      security.set(branch, headers);
    }
    return headers;
  }

  function forget(key: string, page: Page) {
    pages.delete(key);
    bytes -= page.size;
  }

  /** A deploy makes a new generation: the pages of the one before are dropped. */
  function current(branch: Branch): string {
    const { id } = options.build(branch);
    if (generation.get(branch) !== id) {
      generation.set(branch, id);
      for (const [key, page] of pages) if (page.branch === branch && page.buildId !== id) forget(key, page);
    }
    return id;
  }

  function keep(key: string, page: Page) {
    if (page.size > options.budgetBytes / 4) return; // one page never takes most of the budget
    pages.set(key, page);
    bytes += page.size;
    for (const [old, oldPage] of pages) {
      if (bytes <= options.budgetBytes) break;
      forget(old, oldPage);
      stats.evicted++;
    }
  }

  async function render(target: string, branch: Branch, buildId: string, req: IncomingMessage, status?: number): Promise<Page | Rendered> {
    stats.renders++;
    const response = await options.render(target, branch, marker, req, status);
    const body = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!OWN_HEADERS.has(name)) headers[name] = value;
    });
    const cacheControl = response.headers.get('cache-control') ?? '';
    const cacheable = response.status === 200 && !response.headers.has('set-cookie') && !/no-store|private/.test(cacheControl);
    if (!cacheable)
      return { status: response.status, headers: { ...headers, 'Cache-Control': cacheControl || 'no-cache' }, body: new SplicedText(body, marker, 1) };
    // Images are compressed already: kept and answered as they are.
    const text = /^image\//.test(response.headers.get('content-type') ?? '') ? new PlainBytes(body) : new SplicedText(body, marker);
    const tag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    return { branch, buildId, status: 200, headers, body: text, tag, size: text.size + target.length + 200 };
  }

  /** Answers a page request from the cache (rendering it first if needed); false when the web app must. */
  function serve(req: IncomingMessage, res: ServerResponse, branch: Branch): boolean {
    if (options.budgetBytes <= 0 || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    if (options.bypass(pathname) || !decodable(pathname)) return false;
    const query = normaliseQuery(q === -1 ? '' : url.slice(q + 1));
    const target = (markdownTwinPath(pathname) ?? pathname) + (query ? `?${query}` : '');
    const buildId = current(branch);
    const key = `${branch} ${target}`;
    const page = pages.get(key);
    if (page) {
      stats.hits++;
      counts.hit();
      pages.delete(key);
      pages.set(key, page);
      answer(req, res, branch, page, options.build(branch).committedAt, securityOf(branch));
      return true;
    }
    stats.misses++;
    counts.miss();
    const flight = `${buildId} ${key}`;
    let pending = rendering.get(flight);
    if (!pending) {
      const made = () => render(target, branch, buildId, req);
      pending = (options.admit ? options.admit(made, req) : made()).finally(() => rendering.delete(flight));
      rendering.set(flight, pending);
      void pending.then(
        (made) => {
          if ('tag' in made && generation.get(branch) === buildId && !pages.has(key)) keep(key, made);
          else if (!('tag' in made)) stats.uncacheable++;
        },
        () => {},
      );
    }
    pending.then(
      (made) => answer(req, res, branch, made, options.build(branch).committedAt, securityOf(branch)),
      (error: unknown) => {
        if (isAppError(error) && (error.status === 503 || error.status === 429))
          return void busy(req, res, branch, pathname, error.status, error.headers ?? {});
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end('The page could not be rendered.\n');
        options.logError(error, target);
      },
    );
    return true;
  }

  /**
   * The site's own "try again in a moment" page (503 when the queue is full, 429 when this client holds its share
   * of it; with the refusal's Retry-After) in the language of the page asked for: rendered once per build, branch,
   * status and language, outside the work queue, and answered from memory after that, so a flood costs a lookup
   * per request.
   */
  const busyPages = new Map<string, Rendered>();
  function busy(req: IncomingMessage, res: ServerResponse, branch: Branch, pathname: string, status: number, headers: Record<string, string>) {
    const first = pathname.split('/')[1] ?? '';
    const home = first !== 'en' && (Locale.options as readonly string[]).includes(first) ? `/${first}` : '/';
    const buildId = current(branch);
    const key = `${buildId} ${branch} ${status} ${home}`;
    const kept = busyPages.get(key);
    const reply = (page: Rendered) =>
      answer(
        req,
        res,
        branch,
        { ...page, headers: { ...page.headers, ...headers, 'Cache-Control': 'no-store' } },
        options.build(branch).committedAt,
        securityOf(branch),
      );
    if (kept) return reply(kept);
    const flight = `busy ${key}`;
    let pending = rendering.get(flight);
    if (!pending) {
      pending = render(home, branch, buildId, req, status).finally(() => rendering.delete(flight));
      rendering.set(flight, pending);
    }
    pending.then(
      (page) => {
        if (!('tag' in page)) {
          for (const old of busyPages.keys()) if (!old.startsWith(`${buildId} `)) busyPages.delete(old);
          busyPages.set(key, page);
        }
        reply(page);
      },
      (error: unknown) => {
        if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
        res.end('The site is busy; try again in a moment.\n');
        options.logError(error, home);
      },
    );
  }

  return {
    serve,
    /** What the cache holds, for benchmarks and the health of a deploy. */
    stats: (): PageCacheStats => ({ ...stats, pages: pages.size, bytes, budgetBytes: options.budgetBytes }),
  };
}

/**
 * Sends a page: its validators (not on the preview), 304 when the client's copy is fresh, else the body (gzip when
 * asked) with the branch's security headers, the nonce set into them and into the page.
 */
function answer(
  req: IncomingMessage,
  res: ServerResponse,
  branch: Branch,
  page: Page | Rendered,
  committedAt: string,
  security: ReadonlyArray<[name: string, value: string, afterNonce?: string]>,
) {
  const preview = branch === 'dev';
  const compressible = page.body.compressible && page.body.fixedLength >= COMPRESS_MIN;
  const gzip = compressible && accepts(req.headers['accept-encoding'], 'gzip');
  const validators: Record<string, string> = {};
  if ('tag' in page && !preview) {
    validators.ETag = `"${page.tag}${gzip ? '-gzip' : ''}"`;
    validators['Last-Modified'] = new Date(committedAt).toUTCString();
  }
  const caching: Record<string, string> = {
    ...(preview ? PREVIEW_HEADERS : { 'Cache-Control': 'tag' in page ? PAGE_CACHE_CONTROL : page.headers['Cache-Control']! }),
    ...(compressible ? { Vary: 'Accept-Encoding' } : {}),
  };
  if ('tag' in page && !preview && isFresh(req, page.tag, committedAt)) {
    // No Content-Security-Policy here: a 304's headers replace the stored ones, and the stored page carries
    // the nonce its own answer named.
    res.writeHead(304, { ...validators, ...caching });
    return res.end();
  }
  const nonce = page.body.holes ? randomBytes(16).toString('base64') : '';
  const headers: Record<string, string> = {};
  for (const [name, value, afterNonce] of security) headers[name] = afterNonce === undefined ? value : value + nonce + afterNonce;
  const body = gzip ? page.body.gzip(nonce) : page.body.text(nonce);
  res.writeHead(page.status, {
    ...headers,
    ...page.headers,
    ...validators,
    ...caching,
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    'Content-Length': String(body.length),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export interface PageCacheStats extends PageCacheFigures {
  misses: number;
  uncacheable: number;
  evicted: number;
}

/** A rendered answer that is not kept (not a 200, or it sets a cookie or says no-store): sent once as it is. */
interface Rendered {
  status: number;
  headers: Record<string, string>;
  body: SplicedText | PlainBytes;
}

/** The request's validators match the page: If-None-Match when given (weak comparison), else If-Modified-Since. */
function isFresh(req: IncomingMessage, tag: string, committedAt: string): boolean {
  if (req.headers['if-none-match'] !== undefined) return notModified(req, `"${tag}"`, `"${tag}-gzip"`);
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(Date.parse(committedAt) / 1000) * 1000 <= since;
}
