// `npm start`: the composition of the service, in the order it is made —
//   configuration → services (repository, builds, pipeline, models) → the operations' implementation →
//   surfaces (one HTTP edge for REST, MCP, chat and sign-in; the Remix web app for pages) → listeners.
// Any problem at start is one clear message and exit code 1. Tests start the same composition in process.
import express from 'express';
import compression from 'compression';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { AppError } from './operations/contract/errors.ts';
import type { Branch } from './operations/contract/shared.ts';
import { ConfigError, loadConfig, type Config } from './operations/server/config.server.ts';
import { openServices, StartupError, type Services } from './operations/server/services.server.ts';
import { implementOperations, type OperationsLayer } from './operations/server/handlers.server.ts';
import { createSessionStore } from './operations/server/sessions.server.ts';
import { createAdminAuth } from './operations/adapters/admin-auth.server.ts';
import { chatEndpoints } from './operations/adapters/chat.server.ts';
import { clientIp } from './operations/adapters/client-ip.server.ts';
import { answerClientError, createEdge, sendError, type Endpoint, type WebHandler } from './operations/adapters/edge.server.ts';
import { mcpEndpoints } from './operations/adapters/mcp-http.server.ts';
import { operationEndpoints } from './operations/adapters/rest.server.ts';
import { healthEndpoint, openApiEndpoint } from './operations/adapters/service-endpoints.server.ts';
import { createSiteGateway, type SiteGateway } from './operations/adapters/site-gateway.server.ts';

export interface RunningService {
  services: Services;
  layer: OperationsLayer;
  /** The web app's door onto the operations. */
  gateway: SiteGateway;
  /** Actual ports (useful with port 0). */
  ports: Partial<Record<Branch, number>>;
  urls: Partial<Record<Branch, string>>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** The web app for every request no endpoint claims; default a JSON 404 (tests of the API alone). */
  web?: (gateway: SiteGateway, config: Config) => Promise<WebHandler>;
  /** Ports per branch; default PORT for main and PREVIEW_PORT for dev (0 there means no preview). Tests pass 0 for a free port. */
  listen?: Partial<Record<Branch, number>>;
}

const notFoundPage: WebHandler = (req, res) => sendError(req, res, new AppError('not_found', `No page at ${req.url}.`));

export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const log = config.LOG_LEVEL === 'silent' ? () => {} : (line: string) => console.error(line);
  const services = await openServices(config, log);
  const { corpus, urls, secrets } = services;
  const layer = implementOperations(services, {
    checkOutputs: process.env.NODE_ENV !== 'production',
    logError: (message, error) => console.error(message, error),
  });
  const sessions = await createSessionStore(services.dataDir, secrets.sessionSecret, secrets.adminToken);
  const auth = createAdminAuth({ adminToken: secrets.adminToken, sessions, urls });
  const endpoints: Endpoint[] = [
    ...operationEndpoints({ layer, corpus, authenticate: auth.authenticate }),
    healthEndpoint(services),
    openApiEndpoint(services, () => endpoints),
    ...auth.endpoints,
    ...chatEndpoints({ agent: layer.agent, models: services.models, rateLimits: services.rateLimits }),
    ...mcpEndpoints({ layer, corpus, urls, adminToken: secrets.adminToken, host: config.HOST }),
  ];
  const gateway = createSiteGateway({ layer, auth, corpus, features: { chat: Boolean(services.models), transcription: Boolean(services.models) } });
  const web = options.web ? await options.web(gateway, config) : notFoundPage;
  const edge = createEdge(endpoints, { trustProxy: config.TRUST_PROXY, web });

  const servers: Server[] = [];
  const ports: Partial<Record<Branch, number>> = {};
  const listening: Partial<Record<Branch, string>> = {};
  const listen = options.listen ?? { main: config.PORT, ...(config.PREVIEW_PORT ? { dev: config.PREVIEW_PORT } : {}) };
  for (const [branch, port] of Object.entries(listen) as Array<[Branch, number]>) {
    const server = createServer((req, res) => edge(req, res, branch));
    server.keepAliveTimeout = 65_000;
    server.on('clientError', answerClientError); // node's own 400/431: a body in the service's words, not an empty answer
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, config.HOST, () => resolve());
    });
    ports[branch] = (server.address() as AddressInfo).port;
    listening[branch] = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${ports[branch]}`;
    servers.push(server);
  }

  return {
    services,
    layer,
    gateway,
    ports,
    urls: listening,
    async close() {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      await services.close();
    },
  };
}

/** The Remix web app (site and console), one Express app per branch, reading through the site gateway. */
export async function remixWeb(gateway: SiteGateway, config: Config): Promise<WebHandler> {
  const buildPath = new URL('./build/index.js', import.meta.url);
  if (!existsSync(buildPath)) {
    console.warn('[vitae] the web build is missing (run `npm run build`); serving the API only');
    return (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('The website is not built. Run `npm run build` (npm start does it for you).\n');
    };
  }
  const build = (await import(buildPath.href)) as ServerBuild;
  const apps = new Map<Branch, express.Express>();
  for (const branch of ['main', 'dev'] as const) {
    const app = express();
    app.disable('x-powered-by');
    app.use(compression()); // pages, styles and scripts gzip-compressed (the edge answers API requests before this app)
    app.use('/build', express.static('public/build', { immutable: true, maxAge: '1y', index: false }));
    app.use(express.static('public', { maxAge: '1h', index: false }));
    // A page's Markdown twin ("/entries/x.md", "/index.md") is answered by the route app/routes/[_md].$path.tsx;
    // the page path travels as one encoded segment so that no page route can claim it (Remix reads originalUrl).
    app.get(/\.md$/, (req, _res, next) => {
      const query = req.originalUrl.indexOf('?');
      req.url = req.originalUrl = `/_md/${encodeURIComponent(req.path)}${query === -1 ? '' : req.originalUrl.slice(query)}`;
      next();
    });
    const remix = createRequestHandler({
      build,
      mode: process.env.NODE_ENV ?? 'production',
      getLoadContext: (req) => ({ vitae: gateway, branch, ip: clientIp(req, config.TRUST_PROXY), routes: build.routes }),
    });
    // Remix's handler passes its own failures to next(); the promise it returns carries nothing else.
    app.all('*', (req, res, next) => void remix(req, res, next));
    apps.set(branch, app);
  }
  return (req, res, branch) => apps.get(branch)!(req, res);
}

async function main() {
  const config = loadConfig();
  const service = await startService(config, { web: remixWeb });
  const { services } = service;
  const live = services.corpus.build('main');
  console.log(`Vitae: ${live.model.site.name} — ${live.model.entries.size} entries, commit ${live.commit.slice(0, 7)}`);
  console.log(`  site       ${config.baseUrl}   (listening on ${service.urls.main})`);
  if (service.urls.dev) console.log(`  preview    ${config.devUrl}   (dev branch, listening on ${service.urls.dev})`);
  console.log(`  API        ${config.baseUrl}/api/v1/entries   OpenAPI ${config.baseUrl}/openapi.json`);
  console.log(`  MCP        ${config.baseUrl}/mcp   admin ${config.baseUrl}/mcp/admin`);
  if (services.secrets.adminTokenGenerated) {
    console.log(`  admin      ${config.baseUrl}/api/admin   token (generated once, kept in ${config.DATA_DIR}/secrets/admin-token):`);
    console.log(`             ${services.secrets.adminToken}`);
  } else if (!config.ADMIN_TOKEN) {
    console.log(`  admin      ${config.baseUrl}/api/admin   token in ${config.DATA_DIR}/secrets/admin-token`);
  } else {
    console.log(`  admin      ${config.baseUrl}/api/admin   token from ADMIN_TOKEN`);
  }
  const stop = () => void service.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
    else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      console.error(`Cannot listen: ${(error as Error).message}. Set PORT / PREVIEW_PORT to free ports.`);
    else console.error(error);
    process.exit(1);
  });
}
