// `node --import tsx scripts/call-paths.ts`: the project's files a call runs code in, for a page render (GET /en/,
// the web app through the site gateway) and an MCP tool call (tools/call over Streamable HTTP with the official SDK
// client), read from V8's precise coverage: every file with a function that ran between the request and its answer
// (the web app's routes are one bundle, build/index.js, and count once). How a refactor of the surfaces changes the
// path is read here rather than guessed. The invoke calls each made are listed too.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestService } from '../testing/service.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const own = (url: string) => url.startsWith('file://') && !url.includes('/node_modules/') && fileURLToPath(url).startsWith(root);
const ignored = new Set(['scripts/call-paths.ts', 'testing/service.ts']);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const service = await startTestService({}, { site: true });
const calls: string[] = [];
const invoke = service.layer.invoke.bind(service.layer);
service.layer.invoke = (op, raw, ctx, options) => {
  calls.push(op.name);
  return invoke(op, raw, ctx, options);
};

async function path(label: string, call: () => Promise<unknown>): Promise<void> {
  await call(); // the first call loads modules and fills caches; the second is the path every later call takes
  await session.post('Profiler.takePreciseCoverage'); // resets the counts
  calls.length = 0;
  await call();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = result
    .filter((script) => own(script.url) && script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
    .map((script) => relative(root, fileURLToPath(script.url)))
    .filter((file) => !ignored.has(file))
    .sort();
  console.log(`\n${label}: ${files.length} files; invoke called ${calls.length} times (${calls.join(', ')})`);
  for (const file of files) console.log(`  ${file}`);
}

try {
  await path('Page render GET / (a page the cache does not hold)', async () => {
    const res = await service.get(`/?miss=${Math.random()}`, { redirect: 'manual' });
    if (!res.ok) throw new Error(`GET / answered ${res.status}`);
    await res.text();
  });
  const client = new Client({ name: 'call-paths', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.url)));
  await path('MCP tools/call search_subject', () => client.callTool({ name: 'search_subject', arguments: { query: `evaluation ${Math.random()}` } }));
  await client.close();
} finally {
  await service.stop();
}
