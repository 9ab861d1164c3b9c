// Test and bench support: the real server (`node --import tsx server.ts`, or with `bundle` what production
// runs: `npm run serve`, the bundle build/server.mjs that `npm run build` makes) as a child process in its own process group over a
// given DATA_DIR, so it can be killed the hard way (SIGKILL to the whole group, git children included) and
// restarted over the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../', import.meta.url));

/** `npm run serve`'s arguments to node (its V8 flags included), from package.json: what production runs. */
function serveArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [node, ...args] = scripts.serve!.replace(/^exec\s+/, '').split(/\s+/);
  if (node !== 'node') throw new Error(`npm run serve is expected to run node, not ${node}`);
  return args;
}

export interface ServerProcess {
  url: string;
  devUrl: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGKILL to the process group: no shutdown code runs, git children die mid-flight too. */
  kill9(): Promise<void>;
  /** SIGTERM to the server (a graceful stop) and wait for its exit. */
  stop(): Promise<void>;
}

/**
 * `n` ports free at the time of asking, all different: each listener stays open until all are found, since a port
 * closed is the first the kernel hands out again (two calls one after the other can get the same one).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/** How many times a start is tried again when a port picked free was taken before the server could listen on it. */
const PORT_ATTEMPTS = 3;

export async function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
  options: { bundle?: boolean } = {},
): Promise<ServerProcess> {
  // A port found free is free only until another process listens on it (test files run in parallel, each
  // picking ports): a server that could not listen on one is started again on others, as nothing was served yet.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(dataDir, env, timeoutMs, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

class PortTaken extends Error {}

async function launch(dataDir: string, env: Record<string, string>, timeoutMs: number, { bundle = false }: { bundle?: boolean }): Promise<ServerProcess> {
  const [port, previewPort] = (await freePorts(2)) as [number, number];
  const child = spawn(process.execPath, bundle ? serveArgs() : ['--import', 'tsx', 'server.ts'], {
    cwd: projectRoot,
    // No model unless the caller asks for one: an API key in the developer's shell must not make tests call it.
    env: {
      ...process.env,
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      NODE_ENV: 'production',
      // Off unless the caller asks: its requests would take the replies a test scripted for its model.
      SEARCH_QUESTIONS: 'off',
      PORT: String(port),
      PREVIEW_PORT: String(previewPort),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const chunks: string[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push(d.toString()));
  child.stderr.on('data', (d: Buffer) => chunks.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let dead = false;
  void exited.then(() => (dead = true));

  const url = `http://127.0.0.1:${port}`;
  const announces = !['warn', 'error', 'fatal', 'silent'].includes(env.LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'info');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (dead) {
      const output = chunks.join('');
      throw new (/EADDRINUSE/.test(output) ? PortTaken : Error)(`the server exited during start:\n${output}`);
    }
    try {
      // Until this server says it listens, whatever answers on its port is another's (one that took the port it
      // was given): its own start record comes first, unless its logs are quieted.
      if ((!announces || chunks.join('').includes('"event":"start"')) && (await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      killGroup(child, 'SIGKILL');
      throw new Error(`the server did not answer /api/health within ${timeoutMs} ms:\n${chunks.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    devUrl: `http://127.0.0.1:${previewPort}`,
    child,
    output: () => chunks.join(''),
    async kill9() {
      killGroup(child, 'SIGKILL');
      await exited;
    },
    async stop() {
      // The server alone: its git children must be left to finish what it waits for during the drain.
      if (!dead) child.kill('SIGTERM');
      await exited;
      killGroup(child, 'SIGKILL'); // anything of the group still alive after the server exited
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal);
  }
}
