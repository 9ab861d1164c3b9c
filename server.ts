// `npm start`: parse the configuration, open the content repository, build, and serve the site, the API
// and the preview. Any problem at start is one clear message and exit code 1.
import express from 'express';
import compression from 'compression';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from './operations/server/config.server.ts';
import { StartupError } from './operations/server/runtime.server.ts';
import { serve, type WebHandler } from './operations/adapters/serve.server.ts';
import type { Branch } from './operations/contract/shared.ts';
import type { Runtime } from './operations/server/runtime.server.ts';

async function webHandler(getRuntime: () => Runtime): Promise<WebHandler> {
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
    app.use(compression()); // pages, styles and scripts gzip-compressed (the API adapter answers before this app)
    app.use('/build', express.static('public/build', { immutable: true, maxAge: '1y', index: false }));
    app.use(express.static('public', { maxAge: '1h', index: false }));
    // A page's Markdown twin ("/entries/x.md", "/index.md") is answered by the route app/routes/[_md].$path.tsx;
    // the page path travels as one encoded segment so that no page route can claim it (Remix reads originalUrl).
    app.get(/\.md$/, (req, _res, next) => {
      const query = req.originalUrl.indexOf('?');
      req.url = req.originalUrl = `/_md/${encodeURIComponent(req.path)}${query === -1 ? '' : req.originalUrl.slice(query)}`;
      next();
    });
    app.all('*', createRequestHandler({ build, mode: process.env.NODE_ENV ?? 'production', getLoadContext: () => ({ runtime: getRuntime(), branch }) }));
    apps.set(branch, app);
  }
  return (req, res, branch) => apps.get(branch)!(req, res);
}

async function main() {
  const config = loadConfig();
  let runtime: Runtime | undefined;
  const web = await webHandler(() => runtime!);
  const service = await serve(config, { web });
  runtime = service.runtime;
  const main = runtime.build('main');
  console.log(`Vitae: ${main.model.site.name} — ${main.model.entries.size} entries, commit ${main.commit.slice(0, 7)}`);
  console.log(`  site       ${config.baseUrl}   (listening on ${service.urls.main})`);
  if (service.urls.dev) console.log(`  preview    ${config.devUrl}   (dev branch, listening on ${service.urls.dev})`);
  console.log(`  API        ${config.baseUrl}/api/v1/entries   OpenAPI ${config.baseUrl}/openapi.json`);
  console.log(`  MCP        ${config.baseUrl}/mcp   admin ${config.baseUrl}/mcp/admin`);
  if (runtime.adminTokenGenerated) {
    console.log(`  admin      ${config.baseUrl}/api/admin   token (generated once, kept in ${config.DATA_DIR}/secrets/admin-token):`);
    console.log(`             ${runtime.adminToken}`);
  } else if (!config.ADMIN_TOKEN) {
    console.log(`  admin      ${config.baseUrl}/api/admin   token in ${config.DATA_DIR}/secrets/admin-token`);
  } else {
    console.log(`  admin      ${config.baseUrl}/api/admin   token from ADMIN_TOKEN`);
  }
  const stop = () => service.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`Cannot listen: ${(error as Error).message}. Set PORT / PREVIEW_PORT to free ports.`);
  else console.error(error);
  process.exit(1);
});
