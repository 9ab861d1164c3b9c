// Runs git against the bare content repository. Every failure becomes `repo_error` 502 with git's own words.
//
// git is started by a small helper process (one per service process), not by the service itself: starting a
// process from Node forks the caller, and the fork's synchronous part grows with the caller's memory — about
// 2 ms from a 45 MB process, 30 ms from a 450 MB one, 75 ms from 1.6 GB, measured here — during which no
// request is answered. The helper is a bare Node process that only spawns git and passes bytes back over
// IPC, so the service's event loop never waits on a fork. Should the helper be unavailable, git is spawned
// directly, as before.
import { spawn, type ChildProcess } from 'node:child_process';
import { AppError } from '../contract/errors.ts';

export interface GitOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 for `merge-base --is-ancestor`). */
  okCodes?: number[];
}

export interface GitResult {
  stdout: Buffer;
  code: number;
}

interface Outcome {
  code: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Set when git could not be started at all. */
  error?: string;
}

/** What runs in the helper: spawn git per message, answer with its exit code and output; stay until the service leaves. */
const SPAWNER = `
const { spawn } = require('node:child_process');
let running = 0, leaving = false;
const done = () => { if (leaving && running === 0) process.exit(0); };
// Signals are the service's to handle: it drains, and its git commands must finish meanwhile.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
process.on('disconnect', () => { leaving = true; done(); });
process.on('message', ({ id, args, env, input }) => {
  running++;
  let answered = false;
  const answer = (outcome) => { if (answered) return; answered = true; running--; if (process.connected) process.send({ id, ...outcome }); done(); };
  const child = spawn('git', args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const out = [], err = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => err.push(c));
  child.on('error', (e) => answer({ code: -1, stdout: new Uint8Array(), stderr: new Uint8Array(), error: e.message }));
  child.on('close', (code) => answer({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  child.stdin.on('error', () => {});
  child.stdin.end(input == null ? '' : Buffer.from(input));
});
`;

let spawner: { child: ChildProcess; pending: Map<number, (outcome: Outcome) => void> } | undefined;
let nextId = 0;

function startSpawner() {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // the helper needs no loader, inspector or preload of the service's
  const child = spawn(process.execPath, ['--max-old-space-size=64', '-e', SPAWNER], {
    env,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const pending = new Map<number, (outcome: Outcome) => void>();
  const current = { child, pending };
  const gone = (why: string) => {
    if (spawner === current) spawner = undefined;
    for (const resolve of pending.values()) resolve({ code: -1, stdout: new Uint8Array(), stderr: new Uint8Array(), error: why });
    pending.clear();
  };
  child.on('message', (message: Outcome & { id: number }) => {
    pending.get(message.id)?.(message);
    pending.delete(message.id);
    if (pending.size === 0) unref(child);
  });
  child.on('error', (error) => gone(`the git helper failed: ${error.message}`));
  child.on('exit', (code, signal) => gone(`the git helper stopped (${signal ?? `exit ${code}`})`));
  unref(child);
  return current;
}

/** An idle helper does not keep the service's process alive; a busy one does, until its answers are in. */
function unref(child: ChildProcess) {
  child.unref();
  (child as unknown as { channel?: { unref(): void } }).channel?.unref();
}

function viaSpawner(args: string[], env: Record<string, string>, input: string | Buffer | undefined): Promise<Outcome> | undefined {
  spawner ??= startSpawner();
  const { child, pending } = spawner;
  if (!child.connected) return undefined;
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    if (pending.size === 1) {
      child.ref();
      (child as unknown as { channel?: { ref(): void } }).channel?.ref();
    }
    child.send({ id, args, env, input }, (error) => {
      if (!error) return;
      pending.delete(id);
      resolve({ code: -1, stdout: new Uint8Array(), stderr: new Uint8Array(), error: `the git helper is unreachable: ${error.message}` });
    });
  });
}

function direct(args: string[], env: Record<string, string>, input: string | Buffer | undefined): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let answered = false;
    const answer = (outcome: Outcome) => {
      if (!answered) resolve(outcome);
      answered = true;
    };
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => answer({ code: -1, stdout: new Uint8Array(), stderr: new Uint8Array(), error: error.message }));
    child.on('close', (code) => answer({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
    child.stdin.on('error', () => {}); // git may exit before reading all of its input; its exit code tells
    child.stdin.end(input ?? '');
  });
}

/** The helper's process id while it runs (for tests and diagnostics). */
export function gitHelperPid(): number | undefined {
  return spawner?.child.pid;
}

const asBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** Told of each git process: its subcommand, how long it took, and whether it succeeded (the service's /metrics). */
export type GitObserver = (command: string, seconds: number, ok: boolean) => void;

export function createGit(gitDir: string, onCommand?: GitObserver) {
  // Only what differs from the service's own environment travels with each command.
  const baseEnv: Record<string, string> = {
    GIT_DIR: gitDir,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: process.env.GIT_AUTHOR_NAME ?? 'Vitae',
    GIT_AUTHOR_EMAIL: process.env.GIT_AUTHOR_EMAIL ?? 'vitae@localhost',
    GIT_COMMITTER_NAME: process.env.GIT_COMMITTER_NAME ?? 'Vitae',
    GIT_COMMITTER_EMAIL: process.env.GIT_COMMITTER_EMAIL ?? 'vitae@localhost',
  };

  async function run(args: string[], options: GitOptions = {}): Promise<GitResult> {
    const env = { ...baseEnv, ...options.env };
    const started = performance.now();
    let outcome = await (viaSpawner(args, env, options.input) ?? direct(args, env, options.input));
    // The helper died under this command (it is restarted on the next one): run it here rather than fail.
    if (outcome.error?.startsWith('the git helper')) outcome = await direct(args, env, options.input);
    onCommand?.(
      args[0] ?? '',
      (performance.now() - started) / 1000,
      !outcome.error && (outcome.code === 0 || Boolean(options.okCodes?.includes(outcome.code))),
    );
    if (outcome.error) throw new AppError('repo_error', `git could not be started: ${outcome.error}. Is git installed?`);
    if (outcome.code === 0 || options.okCodes?.includes(outcome.code)) return { stdout: asBuffer(outcome.stdout), code: outcome.code };
    // git's own `fatal:`/`error:` line says what went wrong; the advice after it does not.
    const lines = asBuffer(outcome.stderr).toString('utf8').trim().split('\n').filter(Boolean);
    const reasons = lines.filter((line) => /^(fatal|error):/.test(line));
    const detail = (reasons.length ? reasons.slice(0, 2) : lines.slice(-3)).join(' ');
    throw new AppError('repo_error', `git ${args[0]} failed (exit ${outcome.code})${detail ? `: ${detail}` : ''}`);
  }

  return {
    gitDir,
    run,
    async text(args: string[], options?: GitOptions): Promise<string> {
      return (await run(args, options)).stdout.toString('utf8').trim();
    },
  };
}

export type Git = ReturnType<typeof createGit>;
