// `npm start`: the composition of the service, in the order it is made —
//   configuration → services (repository, builds, pipeline, models) → the operations' implementation →
//   surfaces (one HTTP edge for REST, MCP, chat and sign-in; the Remix web app for pages) → listeners.
// Any problem at start is one clear message and exit code 1. Tests start the same composition in process.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { AppError } from './operations/contract/errors.ts';
import type { Branch } from './operations/contract/shared.ts';
import { ConfigError, loadConfig, type Config } from './operations/server/config.server.ts';
import { openServices, StartupError, type Services } from './operations/server/services.server.ts';
import { implementOperations, type OperationsLayer } from './operations/server/handlers.server.ts';
import { createSessionStore } from './operations/server/sessions.server.ts';
import { createCredentials, createEditorStore } from './operations/server/editors.server.ts';
import { createAuditTrail } from './operations/server/audit.server.ts';
import { connectSharedState, shareEvents } from './operations/server/shared-state.server.ts';
import { createCredentialThrottle } from './operations/server/credential-throttle.server.ts';
import { createAdminAuth } from './operations/adapters/admin-auth.server.ts';
import { clientIp } from './operations/adapters/client-ip.server.ts';
import { answerClientError, createEdge, sendError, type Endpoint, type WebHandler } from './operations/adapters/edge.server.ts';
import { mcpEndpoints } from './operations/adapters/mcp-http.server.ts';
import { operationEndpoints } from './operations/adapters/rest.server.ts';
import { apiIndexEndpoint, healthEndpoint, mediaEndpoint, openApiEndpoint } from './operations/adapters/service-endpoints.server.ts';
import { githubWebhookEndpoint } from './operations/adapters/github-webhook.server.ts';
import { metricsEndpoint, requestMetrics } from './operations/adapters/metrics-http.server.ts';
import { createSiteGateway, type SiteGateway } from './operations/adapters/site-gateway.server.ts';
import { remixWeb } from './operations/adapters/web.server.ts';
import { createLogger, requestLog, type Logger } from './operations/server/log.server.ts';
import type { Run } from './operations/server/pipeline.server.ts';
import { observePipeline } from './operations/server/metrics.server.ts';
import { createWorkQueue, type WorkQueue, type WorkQueueOptions } from './operations/server/work-queue.server.ts';
// The site's English words for the fixed vocabularies (tags, kinds), which admin_schema labels its values with.
import englishMessages from './app/i18n/messages/en.json' with { type: 'json' };
import { labels } from './operations/contract/labels.ts';
import { servedBuilds, type ServedBuilds } from './operations/server/build-cache.server.ts';

// Tests and the production entry start the service with the web app of the adapters floor.
export { remixWeb };

export interface RunningService {
  services: Services;
  layer: OperationsLayer;
  /** The web app's door onto the operations. */
  gateway: SiteGateway;
  /** Actual ports (useful with port 0). */
  ports: Partial<Record<Branch, number>>;
  urls: Partial<Record<Branch, string>>;
  logger: Logger;
  /**
   * Stops the service. Without `graceMs` at once (tests): connections are closed and the pipeline is waited
   * for. With `graceMs` (a signal, see main): a graceful drain — see `drain` below. `clean` is false when the
   * grace ran out with work left.
   */
  close(options?: { graceMs?: number }): Promise<{ clean: boolean }>;
}

export interface StartOptions {
  /** The web app for every request no endpoint claims; default a JSON 404 (tests of the API alone). */
  web?: (gateway: SiteGateway, config: Config, logger: Logger, builds: ServedBuilds, work: WorkQueue) => Promise<WebHandler>;
  /** Ports per branch; default PORT for main and PREVIEW_PORT for dev (0 there means no preview). Tests pass 0 for a free port. */
  listen?: Partial<Record<Branch, number>>;
  /** The log; default one made from LOG_LEVEL writing to stdout (tests pass one with their own destination). */
  logger?: Logger;
  /** The clock of the credentials' failure budgets, in milliseconds; default Date.now (tests move it). */
  clock?: () => number;
  /** How much anonymous work runs and waits at once (default: one per core, 256 waiting); tests make it small. */
  work?: WorkQueueOptions;
}

const notFoundPage: WebHandler = (req, res) => sendError(req, res, new AppError('not_found', `No page at ${req.url}.`));

export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL });
  const services = await openServices(config, (line) => logger.warn(line.replace(/^\[vitae\] /, '')));
  const { corpus, urls, secrets } = services;
  logPipeline(services.pipeline, logger);
  observePipeline(services.pipeline);
  // Anonymous work that costs CPU (a page or an answer not kept yet) runs a few at a time, service-wide.
  const work = createWorkQueue(options.work);
  // The builds each branch serves, as the surfaces name them (the page cache, /openapi.json): no adapter reads the corpus.
  const builds = servedBuilds(corpus);
  // Console sessions, accounts, the audit trail and the credentials' failure budgets: in this process (files under
  // DATA_DIR), or in Redis shared with the other instances.
  const shared = connectSharedState(config.RATE_LIMIT_STORE);
  const editors = await createEditorStore(services.dataDir, shared.redis);
  const audit = await createAuditTrail(services.dataDir, shared.redis);
  const layer = implementOperations(
    { ...services, editors, audit },
    {
      uiMessages: { ...englishMessages, ...labels.en },
      admit: work.run,
      checkOutputs: process.env.NODE_ENV !== 'production',
      logError: (message, error) => logger.error({ err: error }, message.replace(/^\[vitae\] /, '')),
    },
  );
  const credentials = createCredentials(secrets.adminToken, editors);
  const sessions = await createSessionStore(services.dataDir, secrets.sessionSecret, credentials, shared.redis);
  const throttle = createCredentialThrottle({ redis: shared.redis, secret: secrets.sessionSecret, now: options.clock });
  const auth = createAdminAuth({ credentials, sessions, urls, logger, throttle, audit });
  // Aborted when chat streams must end (near the end of a graceful stop's grace): each ends with its status line.
  const streamsEnd = new AbortController();
  const endpoints: Endpoint[] = [
    ...operationEndpoints({ layer, authenticate: auth.authenticate, shutdown: streamsEnd.signal }),
    healthEndpoint({ ...services, pageCache: () => web.pageCache?.() }),
    openApiEndpoint({ builds, urls }, () => endpoints),
    apiIndexEndpoint({ builds, urls }),
    mediaEndpoint(services.media),
    ...auth.endpoints,
    // GitHub's webhook reaches one instance; the others hear of it through Redis (or their next poll).
    githubWebhookEndpoint({ secret: config.GITHUB_WEBHOOK_SECRET, onEvent: services.githubEvent && shareEvents(shared, services.githubEvent), throttle }),
    ...mcpEndpoints({ layer, urls, requireBearer: auth.requireBearer, host: config.HOST }),
    metricsEndpoint({
      tokens: [config.METRICS_TOKEN, secrets.adminToken].filter((token) => token !== undefined),
      publisher: async (token) => (await credentials.resolve(token))?.account.role === 'publisher',
      unknownPath: (req, res, branch) => web(req, res, branch),
      throttle,
    }),
  ];
  const gateway = createSiteGateway({
    layer,
    auth,
    features: { chat: Boolean(services.models), transcription: Boolean(services.models) },
    media: services.media,
  });
  const web = options.web ? await options.web(gateway, config, logger, builds, work) : notFoundPage;
  const logRequest = requestLog(logger, (req) => clientIp(req, config.TRUST_PROXY));
  const measureRequest = requestMetrics(web.pageRoute ?? (() => 'page'));
  const edge = createEdge(endpoints, {
    trustProxy: config.TRUST_PROXY,
    web,
    observe: (req, res, branch, route) => {
      logRequest(req, res, branch, route);
      measureRequest(req, res, branch, route);
    },
  });

  // Every response not yet closed, so a graceful stop knows when the last one is answered.
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let drained: (() => void) | undefined;
  const servers: Server[] = [];
  const ports: Partial<Record<Branch, number>> = {};
  const listening: Partial<Record<Branch, string>> = {};
  const listen = options.listen ?? { main: config.PORT, ...(config.PREVIEW_PORT ? { dev: config.PREVIEW_PORT } : {}) };
  for (const [branch, port] of Object.entries(listen) as Array<[Branch, number]>) {
    const server = createServer((req, res) => {
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        if (!draining) return;
        // The socket of an answer finished during a drain is closed as soon as it is idle.
        setImmediate(() => server.closeIdleConnections());
        if (!inFlight.size) drained?.();
      });
      // A request that arrives on a kept-alive connection during a drain is answered, then its connection closed.
      if (draining) res.setHeader('Connection', 'close');
      edge(req, res, branch);
    });
    server.keepAliveTimeout = 65_000;
    // node's own 400/431: a body in the service's words, not an empty answer, logged like any other request
    server.on('clientError', (error: Error, socket: Duplex) =>
      answerClientError(error, socket, (fields) =>
        logger.info({ event: 'request', ...fields, method: null, route: null, ip: (socket as Partial<Socket>).remoteAddress ?? null, branch }, 'request'),
      ),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.syscall === 'listen' ? new StartupError(listenProblem(error, config.HOST, port, branch === 'main' ? 'PORT' : 'PREVIEW_PORT')) : error),
      );
      server.listen(port, config.HOST, () => resolve());
    });
    ports[branch] = (server.address() as AddressInfo).port;
    listening[branch] = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${ports[branch]}`;
    servers.push(server);
  }

  /**
   * A graceful stop: no new connections (the listeners close: a client that connects now is refused), idle
   * keep-alive connections closed at once, every answer under way finished (its connection then closed),
   * chat streams ended with their final status line shortly before the grace runs out, then the pipeline
   * waited for. When the grace runs out, the remaining connections are destroyed.
   */
  async function drain(graceMs: number): Promise<{ clean: boolean }> {
    const deadline = Date.now() + graceMs;
    const left = () => Math.max(0, deadline - Date.now());
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const closed = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    // Idle keep-alive connections are closed at once — after a few milliseconds, so that a request whose bytes
    // had already arrived when the signal came is read (and answered) rather than cut.
    setTimeout(() => servers.forEach((server) => server.closeIdleConnections()), 25);
    // A stream still running this close to the end is told to finish now, with a status line saying why.
    const streamsTimer = setTimeout(() => streamsEnd.abort(), Math.max(0, graceMs - Math.min(2000, graceMs / 5)));
    const allAnswered = () => new Promise<void>((resolve) => (inFlight.size ? (drained = resolve) : resolve()));
    let answered: boolean;
    for (;;) {
      answered = await within(allAnswered(), left());
      if (!answered) break;
      // Every answer is out. Node leaves a connection that never sent a byte open (closeIdleConnections skips
      // it), so the listeners get a moment to close on their own; a request that still arrives is answered.
      for (const server of servers) server.closeIdleConnections();
      if ((await within(closed, Math.min(left(), 200))) || !inFlight.size) break;
    }
    clearTimeout(streamsTimer);
    streamsEnd.abort();
    for (const server of servers) server.closeAllConnections();
    const pipelineDone = await within(services.close(), left());
    await shared.close();
    if (!answered) logger.warn({ event: 'shutdown', open: inFlight.size }, 'the grace ran out: requests still open were cut');
    if (!pipelineDone) logger.warn({ event: 'shutdown' }, 'the grace ran out before the pipeline was idle: its run is marked interrupted at the next start');
    return { clean: answered && pipelineDone };
  }

  let closing: Promise<{ clean: boolean }> | undefined;
  return {
    services,
    layer,
    gateway,
    ports,
    urls: listening,
    logger,
    close(options = {}) {
      closing ??=
        options.graceMs === undefined
          ? (async () => {
              streamsEnd.abort();
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
              await shared.close();
              return { clean: true };
            })()
          : drain(options.graceMs);
      return closing;
    },
  };
}

/** True when `promise` settled within `ms`, false when the time ran out first. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One log record per change of a run's state (queued, each stage, the outcome). */
function logPipeline(pipeline: Services['pipeline'], logger: Logger): void {
  const seen = new Map<string, string>();
  pipeline.onChange((run: Run) => {
    const state = `${run.status} ${run.stages.map((s) => s.status).join(' ')}`;
    if (seen.get(run.id) === state) return;
    if (run.status === 'running' || run.status === 'queued') seen.set(run.id, state);
    else seen.delete(run.id);
    const fields = {
      event: 'run',
      runId: run.id,
      branch: run.branch,
      commit: run.commit.slice(0, 7),
      status: run.status,
      stages: Object.fromEntries(run.stages.map((s) => [s.name, s.status])),
      ...(run.error ? { error: run.error } : {}),
    };
    if (run.status === 'failure') logger.error(fields, `run ${run.status}`);
    else logger.info(fields, `run ${run.status}`);
  });
}

async function main() {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL });
  const service = await startService(config, { web: remixWeb, logger });
  const { services } = service;
  const live = services.corpus.build('main');
  const json = process.env.NODE_ENV === 'production' || !process.stdout.isTTY;
  if (json) {
    // Every stdout line is a JSON record for the log collector; the generated token (printed once, by design)
    // goes to stderr as the one plain line, and never into a record.
    logger.info(
      {
        event: 'start',
        site: config.baseUrl,
        preview: service.urls.dev ? config.devUrl : null,
        listening: service.urls,
        commit: live.commit.slice(0, 7),
        entries: live.model.entries.size,
      },
      `Vitae: ${live.model.site.name} started`,
    );
    if (services.secrets.adminTokenGenerated)
      process.stderr.write(`Vitae admin token (generated once, kept in ${config.DATA_DIR}/secrets/admin-token): ${services.secrets.adminToken}\n`);
  } else {
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
  }

  // SIGTERM (an orchestrator) or SIGINT (Ctrl-C): a graceful stop within SHUTDOWN_GRACE_SECONDS, exit 0 when
  // everything under way finished, 1 when the grace ran out. A second signal stops at once.
  const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ event: 'shutdown', signal }, 'second signal: stopping now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ event: 'shutdown', signal, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'stopping: finishing what is under way');
    // A backstop should anything in the drain hang past its deadline.
    setTimeout(() => process.exit(1), graceMs + 5000).unref();
    service.close({ graceMs }).then(
      ({ clean }) => {
        logger.info({ event: 'shutdown', clean }, clean ? 'stopped' : 'stopped after the grace ran out');
        process.exit(clean ? 0 : 1);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'the stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  });
}

/** Why a listener could not listen, in one line naming the variable to change (and the system's code, which test
 * harnesses look for to retry on other ports). */
function listenProblem({ code, message }: NodeJS.ErrnoException, host: string, port: number, variable: 'PORT' | 'PREVIEW_PORT'): string {
  const where = `Cannot listen on ${host}${port ? `:${port}` : ''}`;
  if (code === 'EADDRINUSE') return `${where}: another process uses the port (EADDRINUSE). Stop it, or set ${variable} to a free port.`;
  if (code === 'EADDRNOTAVAIL')
    return `${where}: ${host} is not an address of this machine (EADDRNOTAVAIL). Set HOST to 127.0.0.1, 0.0.0.0 or one of its addresses.`;
  if (code === 'EACCES') return `${where}: a port below 1024 needs privileges (EACCES). Set ${variable} to 1024 or above (behind a proxy).`;
  return `${where}: ${message}`;
}
