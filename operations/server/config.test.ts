// Configuration is parsed once; a bad value stops the start with one line naming the variable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from './config.server.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.PORT, 3000);
    assert.equal(config.PREVIEW_PORT, 3001);
    assert.equal(config.DATA_DIR, '.data');
    assert.equal(config.REPO_BACKEND, 'local');
    assert.equal(config.baseUrl, 'http://localhost:3000');
    assert.equal(config.devUrl, 'http://localhost:3001');
    assert.equal(config.CHAT_MODEL, 'gpt-4o-mini');
    assert.equal(config.TRANSCRIBE_MODEL, 'whisper-1');
    assert.equal(config.chatConfigured, false);
    assert.equal(config.TRUST_PROXY, false);
    assert.equal(config.RATE_LIMIT_STORE, 'memory');
    assert.equal(config.EMBEDDING_MIN_SIMILARITY, 0.6);
  });

  it('names the variable and the value in one line', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'abc' }, /^Invalid configuration: PORT .*"abc"/],
      [{ PORT: '70000' }, /PORT/],
      [{ BASE_URL: 'not a url' }, /BASE_URL must be an http\(s\) URL/],
      [{ BASE_URL: 'ftp://cv.example.com' }, /BASE_URL must be an http\(s\) URL/],
      [{ BASE_URL: 'https://cv.example.com/cv' }, /BASE_URL must be the site’s origin alone/],
      [{ BASE_URL: 'https://cv.example.com?x=1' }, /BASE_URL must be the site’s origin alone/],
      [{ DEV_URL: 'https://dev.example.com/#top' }, /DEV_URL must be the site’s origin alone/],
      [{ BASE_URL: 'https://user:pw@cv.example.com' }, /BASE_URL must be the site’s origin alone/],
      [{ REPO_BACKEND: 'svn' }, /REPO_BACKEND .*local.*github/],
      [{ REPO_BACKEND: 'github' }, /GITHUB_REPOSITORY is required/],
      [{ RATE_LIMIT_STORE: 'memcached://x' }, /RATE_LIMIT_STORE/],
      [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
      [{ EMBEDDING_MIN_SIMILARITY: '1.5' }, /EMBEDDING_MIN_SIMILARITY .*from 0 to 1/],
      [{ METRICS_TOKEN: 'short' }, /^Invalid configuration: METRICS_TOKEN must be at least 16 characters$/],
      [{ METRICS_TOKEN: 'sixteen characters or more' }, /^Invalid configuration: METRICS_TOKEN must not contain spaces$/],
    ];
    for (const [env, pattern] of cases) {
      assert.throws(
        () => loadConfig(env),
        (e: Error) => e instanceof ConfigError && pattern.test(e.message) && !e.message.includes('\n'),
        JSON.stringify(env),
      );
    }
  });

  it('never echoes a secret value', () => {
    assert.throws(
      () => loadConfig({ ADMIN_TOKEN: 'short-secret' }),
      (e: Error) => /ADMIN_TOKEN/.test(e.message) && !e.message.includes('short-secret'),
    );
    // The credentials in an address (Redis, GitHub Enterprise) either.
    const addresses: Array<[string, string]> = [
      ['RATE_LIMIT_STORE', 'redis//:redis-password@cache.internal:6379'],
      ['GITHUB_API_URL', 'not-a-scheme://bot:ghp_in-the-url@github.example'],
    ];
    for (const [name, value] of addresses) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (e: Error) => e.message.startsWith(`Invalid configuration: ${name}`) && !/redis-password|ghp_in-the-url/.test(e.message),
        name,
      );
    }
  });

  it('treats an empty variable as unset and knows when a model is configured', () => {
    assert.equal(loadConfig({ PORT: '' }).PORT, 3000);
    assert.equal(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).chatConfigured, true);
  });

  it('searches by generated questions whenever a model is configured, unless SEARCH_QUESTIONS is off', () => {
    const model = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' };
    assert.equal(loadConfig({}).searchQuestions, false);
    assert.equal(loadConfig(model).searchQuestions, true);
    assert.equal(loadConfig({ ...model, SEARCH_QUESTIONS: 'off' }).searchQuestions, false);
    assert.equal(loadConfig({ ...model, SEARCH_QUESTIONS: 'on' }).searchQuestions, true);
    assert.equal(loadConfig({ SEARCH_QUESTIONS: 'off' }).searchQuestions, false);
    assert.throws(() => loadConfig({ SEARCH_QUESTIONS: 'on' }), /^Error: Invalid configuration: SEARCH_QUESTIONS needs a model provider/);
    assert.throws(() => loadConfig({ ...model, SEARCH_QUESTIONS: 'maybe' }), /Invalid configuration: SEARCH_QUESTIONS/);
  });
});

describe('starting the server', () => {
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server.ts'], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });

  it('stops with one line naming a bad variable', () => {
    const run = start({ PORT: 'abc' });
    assert.equal(run.status, 1);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /PORT/);
  });

  it('stops with one line naming the variable when it cannot listen: a port in use, an address not of this machine', async () => {
    const taken = createServer();
    await new Promise<void>((ready) => taken.listen(0, '127.0.0.1', ready));
    const port = (taken.address() as AddressInfo).port;
    try {
      const dir = await mkdtemp(join(tmpdir(), 'vitae-listen-'));
      const busy = start({ DATA_DIR: join(dir, 'a'), PORT: '0', PREVIEW_PORT: String(port) });
      assert.equal(busy.status, 1);
      assert.equal(
        busy.stderr.trim(),
        `Cannot listen on 127.0.0.1:${port}: another process uses the port (EADDRINUSE). Stop it, or set PREVIEW_PORT to a free port.`,
      );
      const elsewhere = start({ DATA_DIR: join(dir, 'b'), PORT: '0', PREVIEW_PORT: '0', HOST: '192.0.2.1' });
      assert.equal(elsewhere.status, 1);
      assert.match(elsewhere.stderr.trim(), /^Cannot listen on 192\.0\.2\.1: 192\.0\.2\.1 is not an address of this machine \(EADDRNOTAVAIL\)\. Set HOST to /);
    } finally {
      taken.close();
    }
    assert.match(start({ PORT: '4000', PREVIEW_PORT: '4000' }).stderr.trim(), /^Invalid configuration: PREVIEW_PORT must differ from PORT/);
  });

  it('stops with one line naming DATA_DIR when it cannot be made or written, before anything is written', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'vitae-data-'));
    await writeFile(join(dir, 'file'), '');
    const made = start({ DATA_DIR: join(dir, 'file/data'), PORT: '0', PREVIEW_PORT: '0' });
    assert.equal(made.status, 1);
    assert.match(
      made.stderr.trim(),
      /^DATA_DIR \S+file\/data cannot be made \(ENOTDIR\): set DATA_DIR to a directory user \d+, which runs the service, can write\.$/,
    );
    // a directory an earlier start made as another user (root): as root, the check runs as the user "nobody"
    const data = join(dir, 'data');
    await mkdir(join(data, 'content.git'), { recursive: true });
    await chmod(dir, 0o755);
    await chmod(data, 0o777);
    await chmod(join(data, 'content.git'), 0o555);
    const asNobody = (args: string[]) =>
      spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...args], {
        env: { ...process.env, DATA_DIR: data, PORT: '0', PREVIEW_PORT: '0', HOME: dir },
        encoding: 'utf8',
        timeout: 60_000,
      });
    if (process.getuid?.() === 0 && asNobody(['-e', `require('fs').accessSync(${JSON.stringify(resolve('server.ts'))})`]).status !== 0) {
      // (root, and the checkout is not readable by other users: no one but root can start the server from it)
      t.diagnostic('not-writable case not run: the checkout cannot be read by the user "nobody"');
      return;
    }
    const run = process.getuid?.() === 0 ? asNobody(['--import', 'tsx', 'server.ts']) : start({ DATA_DIR: data, PORT: '0', PREVIEW_PORT: '0' });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr.trim(), /^DATA_DIR \S+data holds content\.git, which is not writable by user \d+, which runs the service: give it to that user/);
    assert.deepEqual(await readdir(data), ['content.git'], 'nothing was written');
  });

  it('stops on invalid content at first start, listing path:line: message, and creates no repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vitae-bad-'));
    await cp('content', join(dir, 'content'), { recursive: true });
    const file = join(dir, 'content/corpus/projects/concierge-copilot.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^tags: .*$/m, 'tags: [ai, cooking]'));
    const run = start({ CONTENT_DIR: join(dir, 'content'), DATA_DIR: join(dir, 'data'), PORT: '0', PREVIEW_PORT: '0' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /content\/corpus\/projects\/concierge-copilot\.md:\d+: tags\.1 must be one of/);
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync(join(dir, 'data/content.git/refs/heads/main')), false);
  });
});
