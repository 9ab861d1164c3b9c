// Starts the HTTP listeners: `main` on PORT and the `dev` preview on PREVIEW_PORT, each serving the
// operations' REST adapter first and handing every other request to the web app (Remix).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Branch } from '../contract/shared.ts';
import type { Config } from '../server/config.server.ts';
import { startRuntime, type Runtime } from '../server/runtime.server.ts';
import { createApiHandler, sendError } from './http.server.ts';
import { createMcpHandler } from './mcp-http.server.ts';
import { createChatHandler } from './chat.server.ts';
import { createAdminAuth } from './admin-auth.server.ts';
import { createSessionStore } from '../server/sessions.server.ts';
import { AppError } from '../contract/errors.ts';

export type WebHandler = (req: IncomingMessage, res: ServerResponse, branch: Branch) => void;

export interface RunningService {
  runtime: Runtime;
  /** Actual ports (useful with PORT=0). */
  ports: Partial<Record<Branch, number>>;
  urls: Partial<Record<Branch, string>>;
  close(): Promise<void>;
}

const notFoundPage: WebHandler = (req, res) => sendError(req, res, new AppError('not_found', `No page at ${req.url}.`));

export interface ServeOptions {
  web?: WebHandler;
  runtime?: Runtime;
  /** Ports per branch; default PORT for main and PREVIEW_PORT for dev (0 there means no preview). Tests pass 0 for a free port. */
  listen?: Partial<Record<Branch, number>>;
}

export async function serve(config: Config, options: ServeOptions = {}): Promise<RunningService> {
  const runtime = options.runtime ?? (await startRuntime(config));
  const web = options.web ?? notFoundPage;
  const servers: Array<[Branch, Server]> = [];
  const ports: Partial<Record<Branch, number>> = {};
  const urls: Partial<Record<Branch, string>> = {};
  const listen = options.listen ?? { main: config.PORT, ...(config.PREVIEW_PORT ? { dev: config.PREVIEW_PORT } : {}) };
  const listeners = Object.entries(listen) as Array<[Branch, number]>;

  const sessions = await createSessionStore(runtime.dataDir, runtime.sessionSecret, runtime.adminToken);
  for (const [branch, port] of listeners) {
    const adminAuth = createAdminAuth(runtime, branch, sessions);
    const api = createApiHandler(runtime, branch, { extra: [adminAuth.routes, createChatHandler(runtime, branch), createMcpHandler(runtime, branch)], authorize: adminAuth.authorize });
    const server = createServer((req, res) => {
      api(req, res).then(
        (handled) => {
          if (!handled) web(req, res, branch);
        },
        (error) => sendError(req, res, error),
      );
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, config.HOST, () => resolve());
    });
    const actual = (server.address() as AddressInfo).port;
    ports[branch] = actual;
    urls[branch] = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${actual}`;
    servers.push([branch, server]);
  }

  return {
    runtime,
    ports,
    urls,
    async close() {
      await Promise.all(
        servers.map(([, s]) => new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        })),
      );
      if (!options.runtime) await runtime.close();
    },
  };
}
