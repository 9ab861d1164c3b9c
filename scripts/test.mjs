// `npm test`: the static checks (types, lint, format), every unit and integration test (node's test runner
// through tsx), then the browser tests and the Dockerfile's steps side by side. `node scripts/test.mjs <substring>…` runs only the node test files
// whose path contains one of them, without the static checks; `--node-only` runs every node test file and nothing
// else (CI runs it on each Node.js major but the image's, on which the whole suite runs).
// First it checks that the system tools the tests need are here (scripts/test-tools.txt), and names any missing.
// Test files run side by side (TEST_CONCURRENCY, default 3): each starts its own service on free loopback
// ports over its own temporary DATA_DIR, so they share nothing but the CPU. Three at once was the fastest on
// a 2-core machine (much of a file's time is waiting on git, child processes and timers); four was slower.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, pattern, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) find(full, pattern, out);
    else if (pattern.test(entry.name)) out.push(full);
  }
  return out;
}

const nodeOnly = process.argv.includes('--node-only');
const only = process.argv.slice(2).filter((a) => a !== '--node-only');

/** The system tools of scripts/test-tools.txt this machine lacks: a newcomer is told at once, not by a test's stack. */
function missingTools() {
  const lines = readFileSync('scripts/test-tools.txt', 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/));
  const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
  return lines.filter(([command]) => !has(command)).map(([command, pkg]) => ({ command, pkg }));
}
// The whole suite needs them all, the node tests all but the browser; a few chosen files say so themselves if they need one.
const missing = only.length ? [] : missingTools().filter(({ command }) => !nodeOnly || command !== 'chromium');
if (missing.length) {
  console.error(
    `✖ ${missing.map((m) => m.command).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed, and the tests need ${missing.length === 1 ? 'it' : 'them'}. ` +
      `Install with: bash scripts/install-test-tools.sh (Debian/Ubuntu packages: ${missing.map((m) => m.pkg).join(' ')})`,
  );
  process.exit(1);
}

/** Runs a command to its end, its output kept until then so parallel checks do not interleave. */
function check(label, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      const lines = output.split('\n').filter((l) => l.trim() && !l.includes('Unknown user config') && !l.includes('Unknown env config'));
      console.log(code === 0 ? `✔ ${label}` : `✖ ${label}\n${lines.join('\n')}`);
      resolve(code === 0);
    });
  });
}

// Tests of the site's pages start the service with the web app, so the web build comes first: always for the
// whole suite (it must be the build of this tree), for a chosen few only when there is none yet.
// The production build (`npm run build`: the web app and the service's bundle), which the browser tests then serve.
const web = () => check('production build (npm run build)', process.execPath, ['scripts/start.mjs', 'build']);
if ((only.length || nodeOnly) && !existsSync('build/index.js') && !(await web())) process.exit(1);
if (!only.length && !nodeOnly) {
  const results = await Promise.all([
    web(),
    check('types (tsc --noEmit)', 'npx', ['tsc', '--noEmit']),
    check('lint (eslint .)', 'npx', ['eslint', '.']),
    check('format (prettier --check .; fix with npm run format)', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']),
  ]);
  if (results.includes(false)) process.exit(1);
}
const files = ['operations', 'cli', 'app', 'bench', 'testing', 'eval']
  .flatMap((d) => find(d, /\.test\.tsx?$/))
  .filter((f) => !only.length || only.some((o) => f.includes(o)));
// Given no file, node's test runner would look for tests everywhere, node_modules included.
if (!files.length) {
  console.error(`✖ No node test file's path contains ${only.map((o) => `"${o}"`).join(' or ')}.`);
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const node = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
if (node.status !== 0) process.exit(node.status ?? 1);

if (only.length || nodeOnly) process.exit(0);
// The browser tests, and beside them the Dockerfile's steps on a fresh copy of HEAD (npm ci, build, prune,
// start: mostly disk and the npm cache, so it costs the browser tests little); its report comes after theirs.
const image = check('the Dockerfile’s steps (npm run test:image)', 'npm', ['run', '--silent', 'test:image']);
const e2e = await new Promise((resolve) =>
  spawn('npx', ['playwright', 'test'], { stdio: 'inherit', env: { ...process.env, VITAE_WEB_BUILT: '1' } }).on('close', resolve),
);
const imageOk = await image;
process.exit(e2e === 0 && imageOk ? 0 : 1);
