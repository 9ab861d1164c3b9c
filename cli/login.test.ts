// `vitae login` / `vitae logout` through the real `vitae` process against a real service: the token is checked
// before it is stored, stored per site URL in a file only its owner can read, used when SITE_ADMIN_TOKEN is
// unset, and removed by logout. HOME and the XDG directories point at a temporary folder.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../testing/service.ts';
import { cleanEnv, runVitae, runVitaeInProcess, VITAE_BIN } from './run-vitae.ts';
import { needTool } from '../testing/system-tools.ts';

const TOKEN = 'cli-login-token-0123456789abcdef';
let service: TestService;
let home: string;
before(async () => {
  needTool('script');
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
  home = await mkdtemp(join(tmpdir(), 'vitae-login-'));
});
after(async () => {
  await service.stop();
  await rm(home, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
  SITE_URL: service.url,
  ...extra,
});
const file = () => join(home, 'config', 'vitae', 'credentials.json');
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('vitae login and logout', () => {
  it('refuses a wrong token, and stores nothing', async () => {
    const run = await runVitae(['login', '--token-stdin'], { env: env(), input: 'not-the-token\n' });
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /refused this token; nothing was stored/);
    assert.equal(await exists(file()), false);
  });

  it('without a terminal and without --token-stdin: exit 2 naming --token-stdin', async () => {
    const run = await runVitae(['login'], { env: env() });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--token-stdin/);
  });

  it('--token-stdin checks the token, stores it for the site in a 0600 file in a 0700 folder, and admin commands use it', async () => {
    const run = await runVitae(['login', '--token-stdin'], { env: env(), input: `${TOKEN}\n` });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`Logged in to ${service.url}`));
    assert.ok(!run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN), 'the token is never printed');
    assert.equal((await stat(file())).mode & 0o777, 0o600);
    assert.equal((await stat(join(home, 'config', 'vitae'))).mode & 0o777, 0o700);
    const stored = JSON.parse(await readFile(file(), 'utf8'));
    assert.equal(stored.tokens[service.url].token, TOKEN);

    const ls = await runVitae(['admin', 'ls', 'content/skills'], { env: env() });
    assert.equal(ls.code, 0, ls.stderr);
    assert.match(ls.stdout, /content\/skills\//);
  });

  it('keeps one token per site: another URL has none', async () => {
    const run = await runVitae(['admin', 'ls', '--url', service.devUrl], { env: env() });
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /run `vitae login` for/);
  });

  it('SITE_ADMIN_TOKEN wins over the stored token, and the message says which token was refused', async () => {
    const run = await runVitaeInProcess(['admin', 'ls'], { env: env({ SITE_ADMIN_TOKEN: 'wrong-token' }) });
    assert.equal(run.code, 4);
    assert.match(run.stderr, /refused the admin token in SITE_ADMIN_TOKEN/);
  });

  it('asks for the token on a terminal without echoing it', async () => {
    const run = await runVitaeInProcess(['login'], { env: env(), interactive: true, input: `${TOKEN}\n` });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`Admin token for ${service.url}: `));
    assert.ok(!run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN), 'the token is not echoed');
  });

  it('on a real terminal (a pseudo-terminal): the typed token is not echoed, and is stored', async () => {
    await runVitae(['logout'], { env: env() });
    const output = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn('script', ['-qec', `'${VITAE_BIN}' login`, '/dev/null'], { env: cleanEnv(env()), stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let typed = false;
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        // Type the token once the prompt is there (raw mode is on by then), as a person would.
        if (!typed && out.includes('Admin token for')) {
          typed = true;
          child.stdin.write(`${TOKEN}\r`);
        }
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    assert.equal(output.code, 0, output.out);
    assert.match(output.out, /Logged in to/);
    assert.ok(!output.out.includes(TOKEN), `the token was echoed: ${output.out}`);
    assert.equal(JSON.parse(await readFile(file(), 'utf8')).tokens[service.url].token, TOKEN);
  });

  it('logout removes the token; admin commands then ask for a login; a second logout says there was none', async () => {
    const run = await runVitae(['logout'], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`Logged out of ${service.url}`));
    assert.equal(await exists(file()), false, 'no token is left, so no file');
    const ls = await runVitae(['admin', 'ls'], { env: env() });
    assert.equal(ls.code, 4);
    assert.match(ls.stderr, /vitae login/);
    const again = await runVitae(['logout'], { env: env() });
    assert.equal(again.code, 0);
    assert.match(again.stderr, /No token was stored/);
  });
});
