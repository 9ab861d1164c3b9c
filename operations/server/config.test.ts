// Configuration is parsed once; a bad value stops the start with one line naming the variable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      [{ BASE_URL: 'not a url' }, /BASE_URL/],
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
