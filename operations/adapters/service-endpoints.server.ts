// The service's own endpoints beside the operations: `/api/health` (liveness and configuration, never a
// secret), `/openapi.json` (the API description, made once per build), `/api/v1` (the API's index) and `/media/…`
// (the images' variants).
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import type { MediaLibrary } from '../server/media-library.server.ts';
import { healthReport, type HealthDeps } from '../server/health.server.ts';
import type { ServedBuilds } from '../server/build-cache.server.ts';
import type { SiteUrls } from '../server/services.server.ts';
import { Body, JSON_TYPE, notModified, PUBLIC_CORS, sendBody, sendEmpty, sendError, sendJson, type Endpoint } from './edge.server.ts';
import { API_INDEX_PATH, apiIndex, apiIndexSchema } from './api-index.ts';
import { createOpenApiDocument, type ExtraPaths } from './openapi.ts';

export const healthEndpoint = (deps: HealthDeps): Endpoint => ({
  methods: ['GET'],
  path: '/api/health',
  cors: true,
  handle: ({ req, res, branch }) => sendJson(req, res, 200, healthReport(deps, branch), { ...PUBLIC_CORS, 'Cache-Control': 'no-store' }),
  openapi: {
    operationId: 'health',
    summary: 'Liveness and configuration (never secrets)',
    description:
      'Whether the service is up, its version and uptime, the content commit live on this branch, and which optional parts are configured (chat, transcription, repository backend, admin). Never a secret.',
    tags: ['service'],
    responses: { 200: { description: 'The service is up', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
});

/** `/openapi.json`, describing the operations and every other endpoint that declares itself. */
export function openApiEndpoint({ builds, urls }: { builds: Pick<ServedBuilds, 'served'>; urls: SiteUrls }, endpoints: () => readonly Endpoint[]): Endpoint {
  const made = new Map<Branch, { buildId: string; body: Body; etag: string }>();
  return {
    methods: ['GET'],
    path: '/openapi.json',
    cors: true,
    handle({ req, res, branch }) {
      const build = builds.served(branch);
      let doc = made.get(branch);
      if (doc?.buildId !== build.id) {
        const extra: ExtraPaths = {};
        for (const endpoint of endpoints()) {
          if (!endpoint.openapi) continue;
          for (const method of endpoint.methods) (extra[endpoint.path] ??= {})[method.toLowerCase()] = endpoint.openapi;
        }
        doc = {
          buildId: build.id,
          body: Body.of(JSON.stringify(createOpenApiDocument(urls.of(branch), build.site.name, extra, build.site.subject))),
          etag: `"openapi-${build.id}"`,
        };
        made.set(branch, doc);
      }
      const headers = { ...PUBLIC_CORS, ETag: doc.etag, 'Cache-Control': 'public, max-age=0, must-revalidate' };
      if (notModified(req, doc.etag)) return sendEmpty(res, 304, headers);
      sendBody(req, res, 200, doc.body, { 'Content-Type': JSON_TYPE, ...headers });
    },
  };
}

/** `/api/v1`: the API's index (apiIndex), kept per branch and build as /openapi.json is, and revalidated the same way. */
export function apiIndexEndpoint({ builds, urls }: { builds: Pick<ServedBuilds, 'served'>; urls: SiteUrls }): Endpoint {
  const made = new Map<Branch, { buildId: string; body: Body; etag: string }>();
  return {
    methods: ['GET'],
    path: API_INDEX_PATH,
    cors: true,
    handle({ req, res, branch }) {
      const build = builds.served(branch);
      let index = made.get(branch);
      if (index?.buildId !== build.id) {
        const body = Body.of(JSON.stringify(apiIndex(urls.of(branch), build.site.name)));
        index = { buildId: build.id, body, etag: `"api-${build.id}"` };
        made.set(branch, index);
      }
      const headers = { ...PUBLIC_CORS, ETag: index.etag, 'Cache-Control': 'public, max-age=0, must-revalidate' };
      if (notModified(req, index.etag)) return sendEmpty(res, 304, headers);
      sendBody(req, res, 200, index.body, { 'Content-Type': JSON_TYPE, ...headers });
    },
    openapi: {
      operationId: 'api_index',
      summary: 'Where to start: the API description, the MCP server and the public routes',
      description: 'Links to /openapi.json, the public MCP server and /api/health, and the public routes with the operation each runs.',
      tags: ['service'],
      responses: {
        200: { description: 'The index', content: { 'application/json': { schema: apiIndexSchema } } },
        304: { description: 'Not modified: the `If-None-Match` ETag is still current.' },
      },
    },
  };
}

/**
 * `/media/<content hash>-<width>.<format>`: an image's variant, made the first time it is asked for; never changes. Static
 * files as the pages and the records' `sources` name them (like /og/ cards, not an API: OpenAPI leaves them out).
 */
export const mediaEndpoint = (media: Pick<MediaLibrary, 'variant'>): Endpoint => ({
  methods: ['GET'],
  path: '/media/{name}',
  cors: true,
  async handle({ req, res, params }) {
    const name = params.name ?? ''; // a variant's name is plain ASCII: anything encoded names none
    const variant = await media.variant(name);
    if (!variant)
      return sendError(
        req,
        res,
        new AppError('not_found', `No image at /media/${name}: the names of images come from the pages and the API, and change when the image does.`),
      );
    const etag = `"${name}"`;
    const headers = { ...PUBLIC_CORS, ETag: etag, 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' };
    if (notModified(req, etag)) return sendEmpty(res, 304, headers);
    res.writeHead(200, { ...headers, 'Content-Type': variant.type, 'Content-Length': String(variant.bytes.length) });
    res.end(req.method === 'HEAD' ? undefined : variant.bytes);
  },
});
