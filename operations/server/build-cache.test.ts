// The answer caches are bounded by bytes as well as entries, and a REST answer's key is made of the fields its
// operation declares only: parameters a stranger makes up neither make new keys nor pin memory until the next build.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BuildCache } from './build-cache.server.ts';
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
