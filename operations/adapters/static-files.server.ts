// The web app's static files (public/: the built scripts and styles under /build/, the icon) answered from
// memory before the Express pipeline: read and gzip-compressed once, then sent as they are. Express's static
// middleware and compression did both per request (about 1.5k answers/s for a stylesheet). Files under
// /build/ have their content's hash in their name: immutable, cached for a year. The rest for an hour.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { contentType } from 'mime-types';
import { accepts, decodedPath, notModified } from './edge.server.ts';

interface StaticFile {
  bytes: Buffer;
  gzip?: Buffer;
  type: string;
  /** The ETag's opaque part: the identity form is `"tag"`, the gzip form `"tag-gzip"`. */
  tag: string;
  cacheControl: string;
}

/** Types worth compressing (text); images and fonts are compressed already. */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;
/** A file larger than this is left to Express (streamed from disk). */
const MAX_FILE = 4 * 1024 * 1024;

export function createStaticFiles(rootDir: string) {
  const root = resolve(rootDir);
  const files = new Map<string, StaticFile>();

  function load(pathname: string): StaticFile | undefined {
    const decoded = decodedPath(pathname);
    if (decoded === undefined || decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return undefined;
    const path = resolve(join(root, decoded));
    if (!path.startsWith(root + sep)) return undefined;
    try {
      const stat = statSync(path);
      if (!stat.isFile() || stat.size > MAX_FILE) return undefined;
    } catch {
      return undefined;
    }
    const bytes = readFileSync(path);
    const type = contentType(path.slice(path.lastIndexOf('/') + 1)) || 'application/octet-stream';
    return {
      bytes,
      gzip: COMPRESSIBLE.test(type) && bytes.length >= 1024 ? gzipSync(bytes, { level: 9 }) : undefined,
      type,
      tag: createHash('sha256').update(bytes).digest('base64url').slice(0, 22),
      cacheControl: pathname.startsWith('/build/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    };
  }

  return {
    /** Whether `pathname` is a file answered here before (the route of its answer, for /metrics). */
    has: (pathname: string) => files.has(pathname),
    /** Answers a request for a file under the root with `headers`; false when there is none (the request goes on). */
    serve(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): boolean {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q === -1 ? url : url.slice(0, q);
      // Only names with an extension: a page's path never looks up the disk.
      if (!/\.\w+$/.test(pathname) || pathname.endsWith('.md')) return false;
      let file = files.get(pathname);
      if (!file) {
        // Files are few (the web build's output) and kept once read; a name that is no file is looked up each
        // time, so no address anyone makes up takes memory.
        file = load(pathname);
        if (!file) return false;
        files.set(pathname, file);
      }
      const gzip = file.gzip && accepts(req.headers['accept-encoding'], 'gzip');
      const common = {
        ...headers,
        ETag: gzip ? `"${file.tag}-gzip"` : `"${file.tag}"`,
        'Cache-Control': file.cacheControl,
        ...(file.gzip ? { Vary: 'Accept-Encoding' } : {}),
      };
      if (notModified(req, `"${file.tag}"`, `"${file.tag}-gzip"`)) {
        res.writeHead(304, common);
        res.end();
        return true;
      }
      const body = gzip ? file.gzip! : file.bytes;
      res.writeHead(200, { ...common, 'Content-Type': file.type, 'Content-Length': String(body.length), ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
