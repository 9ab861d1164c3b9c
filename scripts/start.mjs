// `npm start`, `npm run build`, `npm run serve`, `npm run dev`: the web app built and the service started in
// production mode, whatever NODE_ENV the shell happens to carry.
//
//   node scripts/start.mjs                 build the web app if its sources changed since the last build, then serve
//   node scripts/start.mjs build           build the web app and the service now (needs the dev dependencies)
//   node scripts/start.mjs serve           serve the existing build; never builds (an `npm ci --omit=dev` install)
//   … --development                        the same in development mode (`npm run dev`): unminified, checked outputs,
//                                          and the service run from its TypeScript sources through tsx
//
// In production the service runs as one JavaScript module, build/server.mjs, bundled from server.ts by esbuild
// (packages left as imports of node_modules): compiling TypeScript at run time held about 50 MB and slowed the start.
//
// "Changed" is decided by a stamp written next to the build (build/.vitae-stamp.json): a hash of every file under
// app/, every local file the last build read (esbuild's metafiles that Remix leaves in build/, so operations/
// code the pages import counts and nothing else does), the build's configuration and the lock file, and the mode.
// Checking it reads about a hundred small files (under 10 ms here); a build takes 2–3 s.
//
// The server runs in this process (tsx registered here, as cli/vitae.js does), so signals reach it directly and
// its graceful shutdown is not raced by a wrapper. That is also why `npm start` and `npm run serve` give node
// `--max-semi-space-size=2` on their command line (package.json; the Dockerfile's CMD is the same): V8 reads the
// young generation's size when the process starts, before this file runs (docs/deploy.md has the figures).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const stampPath = join(root, 'build', '.vitae-stamp.json');
/** Build inputs besides app/ and the files the last build read. */
const configFiles = ['remix.config.js', 'tsconfig.json', 'package.json', 'package-lock.json'];

const args = process.argv.slice(2);
const command = args.find((a) => !a.startsWith('--')) ?? 'start';
const mode = args.includes('--development') ? 'development' : 'production';
if (!['start', 'build', 'serve'].includes(command)) {
  console.error(`Unknown command "${command}": use start (default), build or serve, with --development for development mode.`);
  process.exit(2);
}
if (process.env.NODE_ENV && process.env.NODE_ENV !== mode) {
  console.warn(
    `[vitae] NODE_ENV=${process.env.NODE_ENV} in the environment is ignored: ${mode} mode${mode === 'production' ? ' (npm run dev for development)' : ''}.`,
  );
}
process.env.NODE_ENV = mode;
/** What this script says goes to stderr when the service follows: its stdout is the service's log (JSON in production). */
const say = command === 'build' ? console.log : console.error;

function filesUnder(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** The local files the last build read, from the metafiles Remix writes into build/. */
function lastBuildInputs() {
  const inputs = [];
  for (const name of ['metafile.server.json', 'metafile.js.json', 'metafile.service.json']) {
    const file = join(root, 'build', name);
    if (!existsSync(file)) return undefined;
    for (const input of Object.keys(JSON.parse(readFileSync(file, 'utf8')).inputs ?? {})) {
      if (input.includes('node_modules')) continue; // covered by package-lock.json
      const path = join(root, input);
      if (existsSync(path) && statSync(path).isFile()) inputs.push(path); // virtual modules ("empty-module:…") are skipped
    }
  }
  return inputs;
}

/** The stamp of the sources as they are now, or undefined when there is no complete earlier build to compare with. */
function sourceStamp() {
  const inputs = lastBuildInputs();
  if (!inputs) return undefined;
  const files = [...new Set([...filesUnder(join(root, 'app')), ...inputs, ...configFiles.map((f) => join(root, f))])]
    .filter((f) => existsSync(f))
    .map((f) => relative(root, f).split(sep).join('/'))
    .sort();
  const hash = createHash('sha256').update(`mode ${mode}\n`);
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  return { mode, hash: hash.digest('hex'), files: files.length };
}

const serviceBundle = join(root, 'build', 'server.mjs');
const workerBundle = join(root, 'build', 'build-worker.mjs');

/** Whether build/ and public/build/ hold a complete build (the service, the web server bundle and the browser manifest it names). */
function buildComplete() {
  const version = join(root, 'build', 'version.txt');
  if (!existsSync(join(root, 'build', 'index.js')) || !existsSync(version)) return false;
  if (mode === 'production' && !(existsSync(serviceBundle) && existsSync(workerBundle))) return false;
  return existsSync(join(root, 'public', 'build', `manifest-${readFileSync(version, 'utf8').trim().toUpperCase()}.js`));
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampPath, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Why the web app must be rebuilt, or undefined when the last build is current. */
function staleReason() {
  if (!buildComplete()) return 'there is no complete build';
  const stamp = readStamp();
  if (!stamp) return 'the build has no stamp';
  if (stamp.mode !== mode) return `the build is in ${stamp.mode} mode`;
  const now = sourceStamp();
  if (!now || now.hash !== stamp.hash) return 'its sources changed';
  return undefined;
}

/** server.ts and everything it imports from this repository as one module; packages stay imports of node_modules. */
async function bundleService(require) {
  rmSync(serviceBundle, { force: true });
  rmSync(workerBundle, { force: true });
  const { build: esbuild } = require('esbuild'); // build tooling (a dev dependency), like the Remix compiler
  const result = await esbuild({
    // the service, and the worker thread that makes builds (loaded from beside it, operations/server/builder.server.ts)
    entryPoints: { server: join(root, 'server.ts'), 'build-worker': join(root, 'operations', 'corpus', 'build-worker.ts') },
    outdir: join(root, 'build'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(join(root, 'build', 'metafile.service.json'), JSON.stringify(result.metafile));
}

async function build() {
  const require = createRequire(join(root, 'package.json'));
  let cli;
  try {
    cli = join(require.resolve('@remix-run/dev/package.json'), '..', 'dist', 'cli.js');
  } catch {
    console.error(
      'The web app must be built, but @remix-run/dev (a dev dependency) is not installed.\n' +
        'Build where dev dependencies are installed (`npm ci && npm run build`), then copy build/ and public/build/, or run `npm ci`.',
    );
    process.exit(1);
  }
  rmSync(stampPath, { force: true }); // a build that fails half-way must not look current
  const started = Date.now();
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: command === 'build' ? 'inherit' : ['ignore', 2, 2], env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
  await bundleService(require);
  const stamp = sourceStamp();
  if (stamp) writeFileSync(stampPath, JSON.stringify(stamp, null, 2) + '\n');
  say(`[vitae] web app built in ${mode} mode in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (command === 'build') {
  await build();
} else {
  const reason = staleReason();
  if (command === 'start' && reason) {
    say(`[vitae] building the web app: ${reason}`);
    await build();
  } else if (command === 'serve' && reason) {
    if (!buildComplete()) {
      console.error('The web app is not built: run `npm run build` first (it needs the dev dependencies), or `npm start`.');
      process.exit(1);
    }
    console.warn(`[vitae] serving the existing web build although ${reason}; \`npm run build\` rebuilds it`);
  }
  // V8 lets the heap grow up to about 4× what survived the last full collection before collecting again, so
  // under load a 180 MB service swelled past 450 MB of mostly garbage. Growing by 50 % at a time keeps it within
  // 1.4× of its size at start after a minute of mixed reads (`npm run bench -- memory`), for more frequent major
  // collections: read throughput about 5 % lower than V8's policy (20 % gave 1.25× but cost 15–25 %).
  // HEAP_GROWING_PERCENT overrides it (0: V8's own policy).
  const growing = process.env.HEAP_GROWING_PERCENT ?? '50';
  if (!/^\d{1,3}$/.test(growing)) {
    console.error(`Invalid configuration: HEAP_GROWING_PERCENT must be a whole number of percent (got "${growing}")`);
    process.exit(1);
  }
  if (growing !== '0') (await import('node:v8')).setFlagsFromString(`--heap-growing-percent=${growing}`);
  // server.ts (or its bundle) starts the service when it is the program's entry point.
  let server = serviceBundle;
  if (mode === 'development') {
    const { register } = await import('tsx/esm/api');
    register({ tsconfig: join(root, 'tsconfig.json') });
    server = join(root, 'server.ts');
  }
  process.argv[1] = server;
  await import(pathToFileURL(server).href);
}
