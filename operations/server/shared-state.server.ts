// The state several instances of the service share: with RATE_LIMIT_STORE=redis://… one Redis connection
// for the console sessions and the login throttle (the rate limits keep their own, rate-limit.server.ts).
// With `memory` there is none, and each of those keeps to this process (sessions in a file under DATA_DIR).
import { Redis } from 'ioredis';

export interface SharedState {
  /** The Redis client, when RATE_LIMIT_STORE is a redis:// URL. */
  redis: Redis | undefined;
  close(): Promise<void>;
}

export function connectSharedState(store: string): SharedState {
  if (store === 'memory') return { redis: undefined, close: async () => {} };
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
  return {
    redis,
    async close() {
      redis.disconnect();
    },
  };
}
