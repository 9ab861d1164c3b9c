// The answer caches are bounded by bytes as well as entries, and a REST answer's key is made of the fields its
// operation declares only: parameters a stranger makes up neither make new keys nor pin memory until the next build.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineOperation } from '../contract/define.ts';
import type { Branch } from '../contract/shared.ts';
import { BuildCache, type ServedBuilds } from './build-cache.server.ts';
import { anonymous, implement } from './implement.server.ts';
import { startTestService, type TestService } from '../../testing/service.ts';

describe('BuildCache', () => {
  it('counts keys and values, and drops a build’s values once they would pass MAX_BYTES', () => {
    const cache = new BuildCache<Buffer>();
    const value = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 31; i++) cache.set('b1', `key-${i}`, value, ['b1']);
    assert.ok(cache.bytesOf('b1') > 31 * 1024 * 1024);
    assert.ok(cache.get('b1', 'key-0'));
    cache.set('b1', 'key-31', value, ['b1']); // 32 MB and a little: over
    assert.equal(cache.get('b1', 'key-0'), undefined);
    assert.ok(cache.get('b1', 'key-31'));
    assert.ok(cache.bytesOf('b1') <= BuildCache.MAX_BYTES);
  });

  it('never keeps a value larger than the bound, and counts a long key', () => {
    const cache = new BuildCache<Buffer>();
    cache.set('b1', 'huge', Buffer.alloc(BuildCache.MAX_BYTES + 1), ['b1']);
    assert.equal(cache.get('b1', 'huge'), undefined);
    cache.set('b1', 'k'.repeat(10_000), Buffer.alloc(0), ['b1']);
    assert.equal(cache.bytesOf('b1'), 20_000);
  });

  it('drops the builds no longer live when a new build’s value is kept', () => {
    const cache = new BuildCache<Buffer>();
    cache.set('old', 'k', Buffer.from('x'), ['old']);
    cache.set('new', 'k', Buffer.from('y'), ['new']);
    assert.equal(cache.get('old', 'k'), undefined);
    assert.equal(cache.bytesOf('old'), 0);
  });
});

describe('the per-build memo: one rule for keeping an answer, for invoke and for a surface', () => {
  const echo = defineOperation({
    name: 'echo',
    summary: 'Says what it is told',
    rest: { method: 'GET', path: '/echo' },
    input: z.object({ word: z.string() }),
    output: z.object({ word: z.string() }),
    auth: 'public',
    errors: [],
    pure: true,
  });

  /** A layer whose served build and search failures the test moves, and whose handler runs `during` while it works. */
  function memoOver() {
    const state = { served: 'b1', failures: 0, runs: 0, during: () => {} };
    const builds: ServedBuilds = {
      id: () => state.served,
      live: () => [state.served],
      served: () => ({ id: state.served, committedAt: new Date(0).toISOString(), site: { name: 'Test', subject: { name: 'Test', headline: 'Test' } } }),
      keepable: () => {
        const failures = state.failures;
        return () => state.failures === failures;
      },
    };
    const layer = implement(
      [echo] as const,
      { echo: async ({ word }) => (state.runs++, await Promise.resolve(), state.during(), { word }) },
      { rateLimits: { consume: async () => ({ headers: {} }) }, builds, checkOutputs: true, logError: () => {} },
    );
    const ctx = { branch: 'main' as Branch, ip: '127.0.0.1', principal: anonymous };
    return {
      state,
      /** Invoke's path: the answer, and whether it was kept (the same call answers without running again). */
      async invoke() {
        const answer = await layer.invoke(echo, { word: 'hi' }, ctx);
        state.during = () => {};
        const runs = state.runs;
        if (state.served !== 'b1') state.served = 'b1'; // looked up under the build it was made from
        await layer.invoke(echo, { word: 'hi' }, ctx);
        return { build: answer.build, kept: state.runs === runs };
      },
      /** A surface's path: keeper before the work, the value kept after it; whether it is found under that build. */
      surface() {
        const keep = layer.memo.keeper('main');
        state.during();
        state.during = () => {};
        keep('answer', 'bytes', 5);
        state.served = 'b1'; // looked up under the build it was made from
        return { kept: layer.memo.get<string>('main', 'answer') === 'bytes' };
      },
    };
  }

  it('keeps an answer made from the build still served, on both paths', async () => {
    const memo = memoOver();
    assert.deepEqual(await memo.invoke(), { build: 'b1', kept: true });
    assert.deepEqual(memoOver().surface(), { kept: true });
  });

  it('refuses, on both paths, an answer made from a build that is no longer served when it is done', async () => {
    const memo = memoOver();
    memo.state.during = () => (memo.state.served = 'b2');
    assert.deepEqual(await memo.invoke(), { build: undefined, kept: false }, 'neither kept nor given a validator');
    const surface = memoOver();
    surface.state.during = () => (surface.state.served = 'b2');
    assert.deepEqual(surface.surface(), { kept: false });
  });

  it('refuses, on both paths, an answer made while the build’s hybrid search fell back to BM25 alone', async () => {
    const memo = memoOver();
    memo.state.during = () => memo.state.failures++;
    assert.deepEqual(await memo.invoke(), { build: undefined, kept: false });
    const surface = memoOver();
    surface.state.during = () => surface.state.failures++;
    assert.deepEqual(surface.surface(), { kept: false });
  });
});

describe('the REST answer cache over HTTP', () => {
  const METRICS_TOKEN = 'build-cache-metrics-token-0123';
  let service: TestService;
  before(async () => {
    service = await startTestService({ METRICS_TOKEN });
  });
  after(() => service.stop());

  const restHits = async () => {
    const text = await (await service.get('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    return Number(/^vitae_cache_hits_total\{cache="rest"\} (\d+)/m.exec(text)?.[1] ?? NaN);
  };

  it('answers a request with parameters the operation does not declare from the same kept answer', async () => {
    const plain = await service.get('/api/v1/entries?kind=project');
    assert.equal(plain.status, 200);
    const expected = await plain.text();
    const before = await restHits();
    for (let i = 0; i < 50; i++) {
      const res = await service.get(`/api/v1/entries?kind=project&junk${i}=${'x'.repeat(12 * 1024)}`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), expected);
    }
    assert.equal((await restHits()) - before, 50, 'each one a hit on the one kept answer');
    // A declared parameter still makes its own answer.
    assert.notEqual(await (await service.get('/api/v1/entries?kind=experience')).text(), expected);
  });
});
