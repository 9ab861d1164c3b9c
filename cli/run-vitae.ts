// Test support for the CLI. `runVitaeInProcess` runs the program (`runCli`) in the test's own process with
// captured output, an explicit environment and stdin text: the default for command tests, since a process
// per case costs about half a second. `runVitae` runs the real `cli/vitae.js` bin (through its shebang, from
// a neutral working directory) with a clean environment, for what only a process proves: the shebang and
// tsx registration, exit statuses, stdin as a pipe, stdio for MCP, a real terminal.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Env } from './colour.ts';
import { runCli, type Output } from './program.ts';

export const VITAE_BIN = fileURLToPath(new URL('./vitae.js', import.meta.url));

export interface VitaeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface VitaeRunOptions {
  env?: Env;
  /** Text written to stdin (stdin is closed either way, so `-` never waits). */
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

export interface InProcessRunOptions {
  /** The whole environment the CLI sees, on top of `cleanEnv()`; the test runner's own never leaks in. */
  env?: Env;
  /** Text on stdin (ended either way, so `-` never waits). */
  input?: string;
  /** Make stdout and stderr terminals (default: pipes, like `runVitae`). */
  tty?: boolean;
  /** Terminal width, with `tty` (default 80, as `runCli` assumes). */
  columns?: number;
  /** A person at a terminal: stdin too is a terminal (its lines come from `input`), so questions are asked. */
  interactive?: boolean;
}

/**
 * The config and cache directories of the runs of this test process: empty ones of its own, so a token that
 * `vitae login` stored for the person running the tests never reaches a test (pass XDG_* to choose others).
 */
const isolatedHome = mkdtempSync(join(tmpdir(), 'vitae-cli-xdg-'));
process.on('exit', () => rmSync(isolatedHome, { recursive: true, force: true }));

/** Only what a user's shell would pass that matters here; no colour variables leak in from the test runner. */
export function cleanEnv(extra: Env = {}): NodeJS.ProcessEnv {
  const env: Env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: join(isolatedHome, 'config'),
    XDG_CACHE_HOME: join(isolatedHome, 'cache'),
  };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env as NodeJS.ProcessEnv;
}

export function runVitae(args: string[], options: VitaeRunOptions = {}): Promise<VitaeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(VITAE_BIN, args, { cwd: options.cwd ?? tmpdir(), env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Runs `vitae <args>` through `runCli`, the function the bin calls, and returns what the bin would have
 * exited with and printed. Relative file arguments resolve against the test's working directory, so pass
 * absolute paths (the bin's own working directory is a process test's job).
 */
export async function runVitaeInProcess(args: string[], options: InProcessRunOptions = {}): Promise<VitaeRun> {
  let stdout = '';
  let stderr = '';
  const tty = options.tty ?? options.interactive ?? false;
  const columns = tty ? (options.columns ?? 80) : undefined;
  const output = (append: (text: string) => void): Output => ({ write: (text: string) => (append(String(text)), true), isTTY: tty, columns });
  // Commander's `help` command exits with process.exitCode, which the test runner sets once any test has
  // failed; the bin starts with none, so neither does a run here (restored afterwards for the runner).
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  try {
    const code = await runCli(args, {
      env: cleanEnv(options.env),
      stdin: Object.assign(Readable.from(options.input ? [Buffer.from(options.input)] : []), { isTTY: options.interactive ?? false }),
      stdout: output((text) => (stdout += text)),
      stderr: output((text) => (stderr += text)),
    });
    return { code, stdout, stderr };
  } finally {
    process.exitCode = exitCode;
  }
}

/** A loopback port with nothing listening on it, for the network failure case. */
export async function unusedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
