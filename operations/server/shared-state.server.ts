// The state several instances of the service share: with RATE_LIMIT_STORE=redis://… one Redis connection
// for the console sessions and the credentials' failure budgets (the rate limits keep their own, rate-limit.server.ts).
// With `memory` there is none, and each of those keeps to this process (sessions in a file under DATA_DIR).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppError } from '../contract/errors.ts';

export interface SharedState {
  /** The Redis client, when RATE_LIMIT_STORE is a redis:// URL. */
  redis: Redis | undefined;
  /** Connections opened for subscriptions (closed with the state). */
  subscribers: Redis[];
  close(): Promise<void>;
}

const EVENTS = 'vitae:events';

export function connectSharedState(store: string): SharedState {
  if (store === 'memory') return { redis: undefined, subscribers: [], close: async () => {} };
  // One retry per command, reconnects at most a second apart, and a command that gets no answer in two
  // seconds fails: a Redis that is down answers an error quickly, which the session store and the throttle
  // turn into a refusal, never into a hang.
  const redis = new Redis(store, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    commandTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  redis.on('error', () => {}); // each command reports its own failure
  const subscribers: Redis[] = [];
  return {
    redis,
    subscribers,
    async close() {
      for (const subscriber of subscribers) subscriber.disconnect();
      redis.disconnect();
    },
  };
}

/**
 * An event handler that also reaches every other instance: handled here at once, and published on Redis for
 * the others (each skips what it published itself). Without Redis, this instance alone hears it.
 */
export function shareEvents<E>(shared: SharedState, handle: (event: E) => void): (event: E) => void {
  if (!shared.redis) return handle;
  const self = randomBytes(8).toString('hex');
  const subscriber = shared.redis.duplicate();
  subscriber.on('error', () => {});
  shared.subscribers.push(subscriber);
  void subscriber.subscribe(EVENTS).catch(() => {});
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      const { from, event } = JSON.parse(message) as { from: string; event: E };
      if (from !== self) handle(event);
    } catch {
      // not one of ours
    }
  });
  return (event) => {
    handle(event);
    void shared.redis!.publish(EVENTS, JSON.stringify({ from: self, event })).catch(() => {});
  };
}

/**
 * Runs Redis work for a store named `store` ("the account store"…): a Redis that cannot be reached is a 503 saying
 * which store and why, never a silent pass; each store's refusal is worded the same way.
 */
export function refusingWhenUnreachable(store: string): <T>(work: () => Promise<T>) => Promise<T> {
  return async (work) => {
    try {
      return await work();
    } catch (error) {
      throw new AppError('unavailable', `${store} (Redis) cannot be reached: ${(error as Error).message}`);
    }
  };
}
