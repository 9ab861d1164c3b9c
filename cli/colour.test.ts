// Colour only on a terminal and never with NO_COLOR or --no-color: the real process on a pseudo-terminal
// (util-linux `script`) proves that it reads the terminal and the environment it is given; the program, run in
// process with a stdout that is a pipe or a terminal of 100 columns, covers the rest of the rules.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { englishOnlyContent } from '../testing/content-fixture.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { cleanEnv, runVitaeInProcess, VITAE_BIN } from './run-vitae.ts';
import { needTool } from '../testing/system-tools.ts';

const ESC = /\x1b\[/;
let service: TestService;
before(async () => {
  needTool('script');
  service = await startTestService({ CONTENT_DIR: englishOnlyContent() });
});
after(() => service.stop());

const vitae = (args: string[], env: Record<string, string> = {}) => runVitaeInProcess(args, { env: { SITE_URL: service.url, ...env } });
/** In process, with stdout and stderr a terminal of 100 columns. */
const onTerminalInProcess = async (args: string[], env: Record<string, string> = {}) => {
  const run = await runVitaeInProcess(args, { env: { SITE_URL: service.url, ...env }, tty: true, columns: 100 });
  assert.equal(run.code, 0, run.stderr);
  return run.stdout + run.stderr;
};

/** Runs the real vitae with stdout on a pseudo-terminal of 100 columns (async: the service answers in this process). */
function onTerminal(args: string[], env: Record<string, string> = {}): Promise<string> {
  const command = `stty cols 100 2>/dev/null; ${[VITAE_BIN, ...args].map((a) => `'${a}'`).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: cleanEnv({ SITE_URL: service.url, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))));
  });
}

describe('colour', () => {
  it('is off when piped', async () => {
    const run = await vitae(['lenses']);
    assert.doesNotMatch(run.stdout + run.stderr, ESC);
  });

  it('is on for a terminal, with tables fitted to its width and Markdown wrapped', async () => {
    const table = await onTerminal(['lenses']);
    assert.match(table, ESC);
    for (const line of table.split(/\r?\n/)) assert.ok(line.replace(/\x1b\[[0-9;]*m/g, '').length <= 100, line);
    const brief = await onTerminalInProcess(['brief']);
    assert.match(brief, ESC);
    for (const line of brief.split(/\r?\n/)) assert.ok(line.replace(/\x1b\[[0-9;]*m/g, '').length <= 100, line);
    assert.doesNotMatch(brief, /^## /m, 'headings are styled, not printed as ##');
  });

  it('is never on with NO_COLOR, even on a terminal', async () => {
    assert.doesNotMatch(await onTerminal(['lenses'], { NO_COLOR: '1' }), ESC);
    assert.doesNotMatch(await onTerminalInProcess(['brief'], { NO_COLOR: '1' }), ESC);
    assert.doesNotMatch(await onTerminalInProcess(['lenses', '--no-color']), ESC);
  });

  it('FORCE_COLOR turns it on for a pipe, and NO_COLOR or --no-color still wins', async () => {
    assert.match((await vitae(['lenses'], { FORCE_COLOR: '1' })).stdout, ESC);
    const noColor = await vitae(['lenses'], { FORCE_COLOR: '1', NO_COLOR: '1' });
    assert.doesNotMatch(noColor.stdout + noColor.stderr, ESC);
    const flag = await vitae(['lenses', '--no-color'], { FORCE_COLOR: '1' });
    assert.doesNotMatch(flag.stdout + flag.stderr, ESC);
    const error = await vitae(['get', 'no-such-entry'], { FORCE_COLOR: '1', NO_COLOR: '1' });
    assert.equal(error.code, 3);
    assert.doesNotMatch(error.stderr, ESC);
  });
});
