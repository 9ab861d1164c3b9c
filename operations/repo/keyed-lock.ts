// Serialises tasks per key: writers to one branch run one after another, in call order. The wait is
// bounded: past `maxWaiting` tasks queued on a key, or after `timeoutMs` in the queue, a task is refused
// with 503 and Retry-After before it has done anything, so a burst cannot pile up without end.
import { AppError } from '../contract/errors.ts';

export interface LockLimits {
  /** Tasks that may wait behind the running one, per key. */
  maxWaiting: number;
  /** How long a task may wait for its turn. */
  timeoutMs: number;
}

const DEFAULT_LIMITS: LockLimits = { maxWaiting: 200, timeoutMs: 30_000 };

export function createKeyedLock(limits: LockLimits = DEFAULT_LIMITS) {
  const tails = new Map<string, Promise<unknown>>();
  const waiting = new Map<string, number>();
  const busy = (key: string, why: string) =>
    new AppError('unavailable', `Too many changes are waiting for ${key} (${why}); nothing was written. Try again in a few seconds.`, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(limits.timeoutMs / 10_000))) },
    });

  return function withLock<T>(key: string, task: () => Promise<T>): Promise<T> {
    const queued = waiting.get(key) ?? 0;
    if (queued >= limits.maxWaiting) return Promise.reject(busy(key, `${queued} in the queue`));
    waiting.set(key, queued + 1);
    const previous = tails.get(key) ?? Promise.resolve();
    let expired = false;
    const timer = setTimeout(() => (expired = true), limits.timeoutMs);
    const turn = () => {
      clearTimeout(timer);
      waiting.set(key, (waiting.get(key) ?? 1) - 1);
      if (expired) throw busy(key, `waited ${Math.round(limits.timeoutMs / 1000)} s for its turn`);
      return task();
    };
    const run = previous.then(turn, turn);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) {
        tails.delete(key);
        waiting.delete(key);
      }
    });
    return run;
  };
}
