// Which limiter a client's request loop gets: none (`rateLimit: false`), the in-process one (the
// default), or the shared one (`rateLimit.redis`: windows in Redis, shared by a fleet). The options
// were checked when the client was built (checkRateLimit); the shared limiter's code loads on the
// first call, so that clients without Redis (most of them) do not carry it.

import { lazy } from '../internal/lazy.js';
import type { LogFn } from '../internal/logger.js';
import { redisRunner } from '../internal/redis.js';
import { type Limiter, RateLimiter, type RateLimitOptions } from './rate-limiter.js';

const loadShared = lazy(() => import('./shared-limiter.js'));

/** @internal The limiter for a client's `rateLimit` option; `log` reports the shared limiter's fallbacks. */
export function createLimiter(options: RateLimitOptions | false, log: LogFn): Limiter | undefined {
  if (options === false) return undefined;
  const local = new RateLimiter(options);
  if (options.redis === undefined) return local;
  const shared = {
    run: redisRunner(options.redis, 'rateLimit.redis'),
    keyPrefix: options.keyPrefix ?? 'flashduty:ratelimit:',
    redisTimeoutMs: options.redisTimeoutMs ?? 500,
  };
  let limiter: Promise<Limiter> | undefined;
  return {
    acquire(signal, leaseMs) {
      limiter ??= loadShared().then(({ SharedRateLimiter }) => new SharedRateLimiter(shared, local, options, log));
      return limiter.then((ready) => ready.acquire(signal, leaseMs));
    },
  };
}
