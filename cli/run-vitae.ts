// Test support: runs the real `cli/vitae.js` bin (through its shebang, from a neutral working directory)
// with a clean environment, and collects its exit code and output.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Env } from './colour.ts';

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

/** Only what a user's shell would pass that matters here; no colour variables leak in from the test runner. */
export function cleanEnv(extra: Env = {}): NodeJS.ProcessEnv {
  const env: Env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, LANG: 'C.UTF-8' };
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
