// Runs git against the bare content repository. Every failure becomes `repo_error` 502 with git's own words.
import { spawn } from 'node:child_process';
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

export function createGit(gitDir: string) {
  const baseEnv = {
    ...process.env,
    GIT_DIR: gitDir,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: process.env.GIT_AUTHOR_NAME ?? 'Vitae',
    GIT_AUTHOR_EMAIL: process.env.GIT_AUTHOR_EMAIL ?? 'vitae@localhost',
    GIT_COMMITTER_NAME: process.env.GIT_COMMITTER_NAME ?? 'Vitae',
    GIT_COMMITTER_EMAIL: process.env.GIT_COMMITTER_EMAIL ?? 'vitae@localhost',
  };

  function run(args: string[], options: GitOptions = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, { env: { ...baseEnv, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', (error) => reject(new AppError('repo_error', `git could not be started: ${error.message}. Is git installed?`)));
      child.on('close', (code) => {
        const exit = code ?? -1;
        if (exit === 0 || options.okCodes?.includes(exit)) resolve({ stdout: Buffer.concat(out), code: exit });
        else {
          // git's own `fatal:`/`error:` line says what went wrong; the advice after it does not.
          const lines = Buffer.concat(err).toString('utf8').trim().split('\n').filter(Boolean);
          const reasons = lines.filter((line) => /^(fatal|error):/.test(line));
          const detail = (reasons.length ? reasons.slice(0, 2) : lines.slice(-3)).join(' ');
          reject(new AppError('repo_error', `git ${args[0]} failed (exit ${exit})${detail ? `: ${detail}` : ''}`));
        }
      });
      child.stdin.on('error', () => {}); // git may exit before reading all of its input; its exit code tells
      child.stdin.end(options.input ?? '');
    });
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
