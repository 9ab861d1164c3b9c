// The failure budget of every credential the service checks — the admin bearer token (REST admin API, the CLI,
// /mcp/admin), the /metrics token, console session cookies and the sign-in form: at most 10 failed checks in
// any quarter of an hour per client address (IPv6 by its /64) and per credential, whichever surface they came
// through. A check is counted when it starts, before the secret is compared, and is refused (nothing compared)
// once either budget is spent, so many requests at once buy no extra guesses; a success gives its count back.
//
// Each budget is a sliding log of the last quarter hour's checks (at most 10 entries), not a counter reset
// every 15 minutes: 10 at the end of one window and 10 at the start of the next would be 20 in a few seconds.
// In this process by default; in Redis when RATE_LIMIT_STORE points at one, so that several instances give one
// budget, not one each. Credentials are keyed by an HMAC of the secret: neither Redis nor memory holds a token.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { addressGroup } from './address-group.server.ts';
import { countThrottled } from './metrics.server.ts';

export const CREDENTIAL_FAILURES = 10; // failed checks per address and per credential…
export const CREDENTIAL_WINDOW_MS = 15 * 60 * 1000; // …in any quarter of an hour

/** Where a credential was presented: the label of `vitae_throttled_total` when a check is refused. */
export type CredentialKind = 'bearer' | 'session' | 'login' | 'metrics' | 'webhook';

export type Attempt =
  | {
      allowed: true;
      /**
       * Gives the check back: a success, or an attempt that turned out not to be a guess. `'address'` gives back
       * only the address's (a credential of ours that has ended: the browser holding it is not guessing).
       */
      refund(only?: 'address'): Promise<void>;
    }
  | { allowed: false; retryAfterMs: number };

export type Verdict = { outcome: 'accepted' } | { outcome: 'rejected' } | { outcome: 'throttled'; retryAfterSeconds: number };

export interface CredentialThrottle {
  /**
   * Counts one check by `kind` on the budget of `address` (a client IP, grouped here) and of `secret` (a token,
   * a cookie's session id), as many of the two as are given, both or neither; refused when one of them is spent.
   */
  attempt(kind: CredentialKind, keys: { address?: string; secret?: string }): Promise<Attempt>;
  /** Compares `secret` with `accepts` under both budgets: only when they have room, and a success is refunded. */
  check(kind: CredentialKind, address: string, secret: string, accepts: (secret: string) => boolean | Promise<boolean>): Promise<Verdict>;
}

export interface CredentialThrottleOptions {
  /** With RATE_LIMIT_STORE=redis://…, the shared connection (shared-state.server.ts). */
  redis?: Redis;
  /** Keys the HMAC that names a credential; the same on every instance that shares the Redis (SESSION_SECRET). */
  secret?: string;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
  limit?: number;
  windowMs?: number;
}

export function createCredentialThrottle({
  redis,
  secret = randomBytes(32).toString('hex'),
  now = Date.now,
  limit = CREDENTIAL_FAILURES,
  windowMs = CREDENTIAL_WINDOW_MS,
}: CredentialThrottleOptions = {}): CredentialThrottle {
  const memory = memoryLogs(limit, windowMs);
  const shared = redis && redisLogs(redis, limit, windowMs);
  const keysOf = ({ address, secret: presented }: { address?: string; secret?: string }) => [
    ...(address === undefined ? [] : [`address:${addressGroup(address)}`]),
    ...(presented === undefined ? [] : [`credential:${createHmac('sha256', secret).update(presented).digest('base64url')}`]),
  ];

  async function attempt(kind: CredentialKind, keys: { address?: string; secret?: string }): Promise<Attempt> {
    const list = keysOf(keys);
    const at = now();
    // Redis out of reach: this instance keeps counting on its own rather than letting guesses through.
    const reservation = await (shared ? shared.reserve(list, at).catch(() => memory.reserve(list, at)) : memory.reserve(list, at));
    if (!reservation.reserved) {
      countThrottled(kind);
      return { allowed: false, retryAfterMs: reservation.retryAfterMs };
    }
    return {
      allowed: true,
      refund: (only) => reservation.release(only === 'address' ? list.filter((key) => key.startsWith('address:')) : list),
    };
  }

  return {
    attempt,
    async check(kind, address, presented, accepts) {
      const counted = await attempt(kind, { address, secret: presented });
      if (!counted.allowed) return { outcome: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil(counted.retryAfterMs / 1000)) };
      if (!(await accepts(presented))) return { outcome: 'rejected' };
      await counted.refund();
      return { outcome: 'accepted' };
    },
  };
}

interface Reservation {
  reserved: true;
  /**
   * Takes this check out of the logs of `keys`. Awaited before the answer goes out, so that a client's next request
   * (to any instance) finds it refunded; a refund that fails leaves the check counted, as a failure would be.
   */
  release(keys: string[]): Promise<void>;
}
type Refusal = { reserved: false; retryAfterMs: number };

interface Logs {
  /** Adds one entry at `at` to the log of every key when each has room, else to none. */
  reserve(keys: string[], at: number): Promise<Reservation | Refusal>;
}

/**
 * The logs in this process. Bounded: past 100,000 keys the expired ones go, then the oldest down to 90,000 (a
 * log holds at most `limit` numbers), so that addresses without end cannot fill the memory.
 */
function memoryLogs(limit: number, windowMs: number): Logs {
  const logs = new Map<string, number[]>();
  const MAX_KEYS = 100_000;
  const live = (key: string, at: number) => {
    const log = logs.get(key)?.filter((t) => t > at - windowMs) ?? [];
    if (log.length) logs.set(key, log);
    else logs.delete(key);
    return log;
  };
  return {
    async reserve(keys, at) {
      for (const key of keys) {
        const log = live(key, at);
        if (log.length >= limit) return { reserved: false, retryAfterMs: Math.max(1, log[0]! + windowMs - at) };
      }
      for (const key of keys) logs.set(key, [...live(key, at), at]);
      if (logs.size > MAX_KEYS) {
        for (const key of logs.keys()) live(key, at);
        for (const key of logs.keys()) if (logs.size > MAX_KEYS * 0.9) logs.delete(key);
      }
      return {
        reserved: true,
        async release(released) {
          for (const key of released) {
            const log = logs.get(key);
            const index = log?.indexOf(at) ?? -1;
            if (index !== -1) log!.splice(index, 1);
            if (log && !log.length) logs.delete(key);
          }
        },
      };
    },
  };
}

// Checks every log and adds to all of them in one step on the server, so concurrent checks on any instance
// never overspend. A log is a sorted set of entries scored by time; it expires with its newest entry.
// Returns {1, 0} when added, {0, ms until the oldest entry of the spent log leaves the window} when not.
const RESERVE = `
local at, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', at - window)
  if redis.call('ZCARD', key) >= limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return {0, math.max(1, tonumber(oldest[2]) + window - at)}
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, at, ARGV[4])
  redis.call('PEXPIRE', key, window)
end
return {1, 0}`;

function redisLogs(redis: Redis, limit: number, windowMs: number): Logs {
  const name = (key: string) => `vitae:credentials:${key}`;
  return {
    async reserve(keys, at) {
      if (!keys.length) return { reserved: true, release: async () => {} };
      const entry = randomUUID();
      const [added, retryAfterMs] = (await redis.eval(RESERVE, keys.length, ...keys.map(name), at, windowMs, limit, entry)) as [number, number];
      if (!added) return { reserved: false, retryAfterMs };
      return {
        reserved: true,
        async release(released) {
          if (!released.length) return;
          const batch = redis.multi();
          for (const key of released) batch.zrem(name(key), entry);
          await batch.exec().catch(() => {});
        },
      };
    },
  };
}
