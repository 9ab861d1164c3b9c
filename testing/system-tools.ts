// Test support: a system tool a test needs (scripts/test-tools.txt lists them), or one line saying what to install.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const listed = new Map(
  readFileSync(new URL('../scripts/test-tools.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/))
    .map(([command, pkg, ...why]) => [command!, { pkg: pkg!, why: why.join(' ') }]),
);

/** Throws, in one line, when `command` is not on this machine: its name, what it is for and how to install it. */
export function needTool(command: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0) return;
  const tool = listed.get(command);
  const error = new Error(
    `${command} is not installed${tool ? ` (${tool.why})` : ''}: install it with bash scripts/install-test-tools.sh` +
      `${tool ? ` (Debian/Ubuntu package ${tool.pkg})` : ''}.`,
  );
  error.stack = error.message; // one line in the test report, not a stack
  throw error;
}
