// The per-branch write queue: call order kept, and a bounded wait that refuses (503, Retry-After) before
// the refused task has run at all.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../contract/errors.ts';
import { createKeyedLock } from './keyed-lock.ts';

const deferred = () => {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
};
const isBusy = (e: unknown) => e instanceof AppError && e.code === 'unavailable' && e.status === 503 && Number(e.headers?.['Retry-After']) > 0;

describe('keyed lock', () => {
  it('runs one key’s tasks one at a time in call order, other keys alongside', async () => {
    const lock = createKeyedLock({ maxWaiting: 10, timeoutMs: 5_000 });
    const order: string[] = [];
    const gate = deferred();
    const first = lock('main', async () => {
      await gate.promise;
      order.push('main 1');
    });
    const second = lock('main', async () => void order.push('main 2'));
    await lock('dev', async () => void order.push('dev 1'));
    gate.release();
    await Promise.all([first, second]);
    assert.deepEqual(order, ['dev 1', 'main 1', 'main 2']);
  });

  it('refuses a task past the queue bound with 503 without running it; the queue drains and accepts again', async () => {
    const lock = createKeyedLock({ maxWaiting: 2, timeoutMs: 5_000 });
    const gate = deferred();
    const ran: number[] = [];
    const running = lock('main', () => gate.promise);
    await new Promise((r) => setImmediate(r)); // it has started: two may wait behind it
    const queued = [1, 2].map((n) => lock('main', async () => void ran.push(n)));
    await assert.rejects(
      lock('main', async () => void ran.push(3)),
      isBusy,
    );
    gate.release();
    await Promise.all([running, ...queued]);
    assert.deepEqual(ran, [1, 2]);
    await lock('main', async () => void ran.push(4));
    assert.deepEqual(ran, [1, 2, 4]);
  });

  it('refuses a task that waited longer than the timeout, without running it', async () => {
    const lock = createKeyedLock({ maxWaiting: 10, timeoutMs: 50 });
    const gate = deferred();
    let ran = false;
    const running = lock('main', () => gate.promise);
    const late = lock('main', async () => void (ran = true));
    await new Promise((r) => setTimeout(r, 120));
    gate.release();
    await running;
    await assert.rejects(late, isBusy);
    assert.equal(ran, false);
  });
});
