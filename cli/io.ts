// Where the CLI reads and writes: the process's streams and environment, or a test's.
import type { Env } from './colour.ts';

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIO {
  env: Env;
  stdin: NodeJS.ReadableStream;
  stdout: Output;
  stderr: Output;
  fetch?: typeof fetch;
}

export const processIO = (): CliIO => ({ env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
