// The image, built without a container registry: the Dockerfile's own steps run on a fresh copy of the
// committed repository (HEAD, less what .dockerignore leaves out), in the order `docker build` runs them —
// COPY and RUN of the build stage (install, build, prune to production dependencies) — then the final stage's
// ENV and CMD start the result over a fresh DATA_DIR on a free port, and its HEALTHCHECK and a page must answer.
// The steps are read from the Dockerfile itself, so this cannot drift from it. The final stage's RUN steps set
// up the operating system (apt-get, the data directory); they are checked to be only that, and the machine
// running the test provides git instead.
//
// Slow (a full `npm ci`): `npm run test:image`, which .ci/run runs after `npm test`. The npm cache is reused
// (prefer-offline), so only the npm registry is needed, and only for packages the cache lacks.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePorts } from './server-process.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

/** An environment for a child process (the project's types make NODE_ENV required in NodeJS.ProcessEnv). */
type Env = Record<string, string | undefined>;

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name?: string;
  instructions: Instruction[];
}

/** The Dockerfile as stages of instructions (comments dropped, continuation lines joined). */
function parseDockerfile(text: string): Stage[] {
  const lines = text.split('\n').filter((line) => !/^\s*#/.test(line));
  const logical: string[] = [];
  let current = '';
  for (const line of lines) {
    if (/\\\s*$/.test(line)) current += line.replace(/\\\s*$/, ' ');
    else {
      current += line;
      if (current.trim()) logical.push(current.trim().replace(/\s+/g, ' '));
      current = '';
    }
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    if (op!.toUpperCase() === 'FROM') stages.push({ name: / AS (\S+)$/i.exec(args!)?.[1], instructions: [] });
    else if (stages.length) stages.at(-1)!.instructions.push({ op: op!.toUpperCase(), args: args! });
  }
  return stages;
}

/** ENV in both forms: `ENV A=1 B="two words"` and `ENV A 1`. */
function parseEnv(args: string): Record<string, string> {
  if (!/^\S+=/.test(args)) {
    const [name, ...rest] = args.split(' ');
    return { [name!]: rest.join(' ') };
  }
  return Object.fromEntries([...args.matchAll(/(\w+)=("([^"]*)"|\S*)/g)].map((m) => [m[1]!, m[3] ?? m[2]!]));
}

/** .dockerignore patterns as one predicate over paths relative to the context (no `!` exceptions used here). */
function dockerignore(text: string): (path: string) => boolean {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  assert.ok(!patterns.some((p) => p.startsWith('!')), 'this test does not apply "!" exceptions of .dockerignore');
  const regexes = patterns.map((pattern) => {
    const body = pattern
      .replace(/^\/+|\/+$/g, '')
      .split('/')
      .map((part) =>
        part === '**'
          ? '(?:.*)'
          : part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
      )
      .join('/')
      .replace(/\(\?:\.\*\)\//g, '(?:.*/)?');
    return new RegExp(`^${body}(?:/.*)?$`);
  });
  return (path) => regexes.some((r) => r.test(path));
}

function run(command: string, cwd: string, env: Env): void {
  const started = Date.now();
  const result = spawnSync('sh', ['-c', command], { cwd, env: env as NodeJS.ProcessEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(result.status, 0, `RUN ${command} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  console.log(`# RUN ${command} — ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const work = mkdtempSync(join(tmpdir(), 'vitae-image-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('the Dockerfile builds and starts: install, build, prune, then CMD answers /api/health and a page', { timeout: 600_000 }, async () => {
  const stages = parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  assert.equal(stages.length, 2, 'a build stage and the final image');
  const [buildStage, final] = stages as [Stage, Stage];
  assert.ok(buildStage.name, 'the build stage is named (the final stage copies from it)');

  // The build context: HEAD as committed, less what .dockerignore excludes.
  const context = join(work, 'context');
  mkdirSync(context);
  const archive = spawnSync('sh', ['-c', `git -C '${root}' archive HEAD | tar -x -C '${context}'`], { encoding: 'utf8' });
  assert.equal(archive.status, 0, archive.stderr);
  const ignored = dockerignore(readFileSync(join(context, '.dockerignore'), 'utf8'));
  const prune = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (ignored(relative(context, full))) rmSync(full, { recursive: true, force: true });
      else if (entry.isDirectory()) prune(full);
    }
  };
  prune(context);

  // The build stage, step by step. Its WORKDIR is a fresh directory; COPY takes from the context.
  const app = join(work, 'app');
  mkdirSync(app);
  const buildEnv: Env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    npm_config_prefer_offline: 'true', // reuse the npm cache: the registry only for what it lacks
    npm_config_update_notifier: 'false',
  };
  const steps: string[] = [];
  for (const { op, args } of buildStage.instructions) {
    if (op === 'WORKDIR') assert.equal(args, '/app', 'the build stage works in /app');
    else if (op === 'ENV') Object.assign(buildEnv, parseEnv(args));
    else if (op === 'COPY') {
      const parts = args.split(' ');
      assert.ok(!parts.some((p) => p.startsWith('--')), `COPY ${args}: flags are not expected in the build stage`);
      const dest = join(app, parts.at(-1)!);
      for (const source of parts.slice(0, -1)) {
        const from = join(context, source);
        if (source === '.') cpSync(context, dest, { recursive: true });
        else cpSync(from, parts.at(-1)!.endsWith('/') ? join(dest, source) : dest, { recursive: true });
      }
      steps.push(`COPY ${args}`);
    } else if (op === 'RUN') {
      run(args, app, buildEnv);
      steps.push(`RUN ${args}`);
    } else assert.ok(['ARG'].includes(op), `${op} in the build stage is not handled by this test`);
  }
  assert.ok(
    steps.findIndex((s) => /npm ci/.test(s)) < steps.findIndex((s) => /npm run build/.test(s)) &&
      steps.findIndex((s) => /npm run build/.test(s)) < steps.findIndex((s) => /npm prune --omit=dev/.test(s)),
    `install, then build, then prune to production dependencies:\n${steps.join('\n')}`,
  );
  assert.ok(!existsSync(join(app, 'node_modules', '@remix-run', 'dev')), 'the pruned install has no dev tooling');
  const fonts = spawnSync('du', ['-sm', join(app, 'node_modules', '@fontsource'), join(app, 'node_modules')], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n');
  console.log(`# in the image: ${fonts.map((line) => line.replace(/\t.*node_modules/, ' MB node_modules')).join(', ')}`);

  // The final stage: its environment and command, over the build stage's /app.
  const env: Record<string, string> = {};
  let cmd: string[] | undefined;
  let entrypoint: string[] | undefined;
  let healthcheck: string[] | undefined;
  for (const { op, args } of final.instructions) {
    if (op === 'ENV') Object.assign(env, parseEnv(args));
    else if (op === 'CMD') cmd = JSON.parse(args) as string[];
    else if (op === 'ENTRYPOINT') entrypoint = JSON.parse(args) as string[];
    else if (op === 'HEALTHCHECK') healthcheck = JSON.parse(args.replace(/^.*?\bCMD /, '')) as string[];
    else if (op === 'COPY') assert.equal(args, `--from=${buildStage.name} /app /app`, 'the image holds the build stage’s /app');
    else if (op === 'RUN') {
      for (const part of args.split('&&').map((s) => s.trim()))
        assert.match(part, /^(apt-get|rm -rf \/var\/lib\/apt\/lists|mkdir -p \/data|chown node:node \/data)\b/, `RUN ${args}: only system set-up`);
    }
  }
  assert.ok(cmd && healthcheck, 'CMD and HEALTHCHECK in exec form');
  assert.deepEqual(entrypoint, ['/usr/bin/tini', '--'], 'tini as PID 1; the command itself is CMD');
  assert.equal(env.NODE_ENV, 'production');
  assert.equal(env.HOST, '0.0.0.0');

  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  const [port, previewPort] = await freePorts(2);
  const runtimeEnv: Env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...env,
    HOST: '127.0.0.1', // the image listens on every interface; the test keeps to loopback
    PORT: String(port),
    PREVIEW_PORT: String(previewPort),
    DATA_DIR: dataDir,
  };
  const resolve = (argv: string[]) => (argv[0] === 'node' ? [process.execPath, ...argv.slice(1)] : argv);
  const [program, ...argv] = resolve(cmd);
  const child = spawn(program!, argv, { cwd: app, env: runtimeEnv as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    const base = `http://127.0.0.1:${runtimeEnv.PORT}`;
    const started = Date.now();
    for (;;) {
      assert.equal(child.exitCode, null, `CMD exited during start:\n${output}`);
      const ok = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      assert.ok(Date.now() - started < 90_000, `no /api/health 200 within 90 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`# CMD answered /api/health after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.doesNotMatch(output, /serving the existing web build although/, 'the image’s web build is current (its stamp matches after the prune)');

    const page = await fetch(`${base}/`);
    assert.equal(page.status, 200, 'the prebuilt web app serves the home page');
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);

    // The fonts the cards draw with are in the image (the build stage keeps only their regular and bold WOFF files).
    for (const locale of ['en', 'ja', 'zh', 'zh-hant']) {
      const card = await fetch(`${base}/og/${locale}/entry/concierge-copilot.png`);
      assert.equal(card.status, 200, `the ${locale} card of an entry: ${await card.clone().text()}`);
      assert.equal(card.headers.get('content-type'), 'image/png');
      assert.ok((await card.arrayBuffer()).byteLength > 10_000, `the ${locale} card is drawn`);
    }

    const [hcProgram, ...hcArgs] = resolve(healthcheck);
    const probe = spawnSync(hcProgram!, hcArgs, { cwd: app, env: runtimeEnv as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 10_000 });
    assert.equal(probe.status, 0, `HEALTHCHECK failed:\n${probe.stdout}${probe.stderr}`);
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    const stopped = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
    if (stopped === 'timeout') process.kill(-child.pid!, 'SIGKILL');
  }
});
