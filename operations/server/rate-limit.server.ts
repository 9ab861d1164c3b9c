// Per-client-address budgets with rate-limiter-flexible (an IPv6 client by its /64, address-group.server.ts): in
// memory by default, or in Redis (RATE_LIMIT_STORE=redis://…) so several instances share one budget. If Redis is
// unreachable the in-memory insurance limiter keeps limiting rather than letting everything through.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { rateLimited } from '../contract/errors.ts';
import type { RateLimitSpec } from '../contract/define.ts';
import { addressGroup } from './address-group.server.ts';
import { countThrottled } from './metrics.server.ts';

export interface Budget {
  headers: Record<string, string>;
}

export interface RateLimits {
  /**
   * Spends one point of `spec` for `ip` (its /64 for IPv6) and, for a signed-in caller, for their `account` too (an
   * editor's budget follows them from address to address); throws 429 `rate_limited` (with headers) when either is used up.
   */
  consume(spec: RateLimitSpec, ip: string, account?: string): Promise<Budget>;
  close(): Promise<void>;
}

export function createRateLimits(store: string): RateLimits {
  const redis = store === 'memory' ? undefined : new Redis(store, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
  redis?.on('error', () => {}); // reported through the insurance limiter taking over, not as crashes
  const limiters = new Map<string, RateLimiterAbstract>();

  function limiterFor(spec: RateLimitSpec): RateLimiterAbstract {
    let limiter = limiters.get(spec.bucket);
    if (!limiter) {
      const options = { points: spec.points, duration: spec.windowSeconds, keyPrefix: `vitae:${spec.bucket}` };
      limiter = redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      limiters.set(spec.bucket, limiter);
    }
    return limiter;
  }

  const headersOf = (spec: RateLimitSpec, res: RateLimiterRes) => ({
    'RateLimit-Policy': `${spec.points};w=${spec.windowSeconds}`,
    RateLimit: `limit=${spec.points}, remaining=${Math.max(0, res.remainingPoints)}, reset=${Math.ceil(res.msBeforeNext / 1000)}`,
  });

  return {
    async consume(spec, ip, account) {
      try {
        const limiter = limiterFor(spec);
        const spent = await Promise.all([limiter.consume(addressGroup(ip)), ...(account === undefined ? [] : [limiter.consume(`account:${account}`)])]);
        // The headers of the budget nearer its end: the one that will refuse first.
        return {
          headers: headersOf(
            spec,
            spent.reduce((a, b) => (b.remainingPoints < a.remainingPoints ? b : a)),
          ),
        };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        countThrottled(spec.bucket);
        const retry = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        const per = account === undefined ? 'client' : 'account and per client address';
        throw rateLimited(
          `Too many requests: ${spec.points} per ${spec.windowSeconds} seconds per ${per}. Try again in ${retry} seconds.`,
          retry,
          headersOf(spec, error),
        );
      }
    },
    async close() {
      redis?.disconnect();
    },
  };
}
