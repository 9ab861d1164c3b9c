// Events shared between instances through Redis (shareEvents): GitHub's webhook reaches one instance, which
// handles it and passes it on; every other instance handles it once, and the one that published does not
// handle its own message a second time. Without Redis the handler is the instance's own, unchanged.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connectSharedState, shareEvents, type SharedState } from './shared-state.server.ts';
import { startRedis, type TestRedis } from '../../testing/redis-server.ts';

let redis: TestRedis;
before(async () => {
  redis = await startRedis();
});
after(() => redis.stop());

/** Resolves once the subscriber connection is subscribed (the channel has that many subscribers). */
async function subscribed(state: SharedState, count: number) {
  for (;;) {
    const [, n] = (await state.redis!.pubsub('NUMSUB', 'vitae:events')) as [string, number];
    if (Number(n) >= count) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('shareEvents', () => {
  it('hands an event to this instance at once and to every other instance once', async () => {
    const a = connectSharedState(redis.url);
    const b = connectSharedState(redis.url);
    const c = connectSharedState(redis.url);
    try {
      const seen: Record<string, string[]> = { a: [], b: [], c: [] };
      let arrivals = 0;
      let waiting: { count: number; resolve: () => void } | undefined;
      const arrived = (count: number) => new Promise<void>((resolve) => (arrivals >= count ? resolve() : (waiting = { count, resolve })));
      const handler = (name: string) => (event: { n: string }) => {
        seen[name]!.push(event.n);
        arrivals++;
        if (waiting && arrivals >= waiting.count) waiting.resolve();
      };
      const fromA = shareEvents(a, handler('a'));
      const fromB = shareEvents(b, handler('b'));
      shareEvents(c, handler('c'));
      await subscribed(a, 3);
      fromA({ n: 'push main' });
      assert.deepEqual(seen.a, ['push main'], 'handled where it arrived, before Redis');
      await arrived(3);
      // A second event, from B: Redis keeps the order of one channel, so a copy of the first that A had taken
      // back from Redis would show before it.
      fromB({ n: 'run completed' });
      await arrived(6);
      assert.deepEqual(seen, { a: ['push main', 'run completed'], b: ['push main', 'run completed'], c: ['push main', 'run completed'] });
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('is the plain handler without Redis', () => {
    const memory = connectSharedState('memory');
    const handle = () => {};
    assert.equal(shareEvents(memory, handle), handle);
  });
});
