// The login throttle: 5 failed sign-ins per client address per quarter of an hour, counted when an attempt
// starts (before its token is read), refunded for an attempt that turns out not to be a guess, cleared by a
// right token. In this process by default; in Redis when RATE_LIMIT_STORE points at one, so that several
// instances behind one address give an attacker one budget, not one per instance.
import type { Redis } from 'ioredis';

export const LOGIN_LIMIT = 5; // failed logins per IP…
export const LOGIN_WINDOW_MS = 15 * 60 * 1000; // …per quarter of an hour

export type Attempt = { allowed: true; refund(): Promise<void> } | { allowed: false; retryAfterMs: number };

export interface LoginThrottle {
  /** Counts one attempt from `ip`, unless its budget is spent (then it says how long to wait). */
  attempt(ip: string): Promise<Attempt>;
  /** The right token: every attempt of this address is forgotten. */
  clear(ip: string): Promise<void>;
}

export function createLoginThrottle(redis?: Redis): LoginThrottle {
  const memory = memoryThrottle();
  if (!redis) return memory;
  const shared = redisThrottle(redis);
  // Redis out of reach: this instance keeps throttling on its own rather than letting guesses through.
  return {
    attempt: (ip) => shared.attempt(ip).catch(() => memory.attempt(ip)),
    clear: (ip) => Promise.all([shared.clear(ip).catch(() => {}), memory.clear(ip)]).then(() => {}),
  };
}

function memoryThrottle(): LoginThrottle {
  const attempts = new Map<string, { count: number; resetAt: number }>();
  return {
    async attempt(ip) {
      const now = Date.now();
      let entry = attempts.get(ip);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + LOGIN_WINDOW_MS };
        attempts.set(ip, entry);
        if (attempts.size > 10_000) for (const [key, value] of attempts) if (value.resetAt <= now) attempts.delete(key);
      }
      if (entry.count >= LOGIN_LIMIT) return { allowed: false, retryAfterMs: entry.resetAt - now };
      entry.count++;
      const counted = entry;
      return {
        allowed: true,
        async refund() {
          counted.count = Math.max(0, counted.count - 1);
        },
      };
    },
    async clear(ip) {
      attempts.delete(ip);
    },
  };
}

// Check and count in one step on the server, so concurrent attempts on any instance never overspend.
// Returns {1, ms left in the window} when counted, {0, ms left} when the budget is spent.
const ATTEMPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, redis.call('PTTL', KEYS[1])} end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, redis.call('PTTL', KEYS[1])}`;
// A refund within the same window only (a key that expired meanwhile is not brought back without a TTL).
const REFUND = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

function redisThrottle(redis: Redis): LoginThrottle {
  const key = (ip: string) => `vitae:login:${ip}`;
  return {
    async attempt(ip) {
      const [counted, ttl] = (await redis.eval(ATTEMPT, 1, key(ip), LOGIN_LIMIT, LOGIN_WINDOW_MS)) as [number, number];
      if (!counted) return { allowed: false, retryAfterMs: ttl > 0 ? ttl : LOGIN_WINDOW_MS };
      return {
        allowed: true,
        refund: async () => {
          await redis.eval(REFUND, 1, key(ip)).catch(() => {});
        },
      };
    },
    async clear(ip) {
      await redis.del(key(ip));
    },
  };
}
