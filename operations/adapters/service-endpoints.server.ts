// The service's own endpoints beside the operations: `/api/health` (liveness and configuration, never a
// secret) and `/openapi.json` (the API description, made once per build).
import type { Branch } from '../contract/shared.ts';
import { healthReport, type HealthDeps } from '../server/health.server.ts';
import type { ServedBuilds } from '../server/build-cache.server.ts';
import type { SiteUrls } from '../server/services.server.ts';
import { Body, JSON_TYPE, notModified, PUBLIC_CORS, sendBody, sendEmpty, sendJson, type Endpoint } from './edge.server.ts';
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
