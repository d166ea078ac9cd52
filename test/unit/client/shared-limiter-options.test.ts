// The shared limiter's options (`rateLimit.redis`, `keyPrefix`, `redisTimeoutMs`) are checked when the
// client is built, each refusal a ConfigError naming the option; a good client is not used before the
// first call. (The limiter itself, with a real redis-server: test/integration/client/shared-limiter.test.ts.)
import { describe, expect, it } from 'vitest';
import { ConfigError, Flashduty, type RateLimitOptions } from '../../../src/index.js';

const build = (rateLimit: RateLimitOptions) => () => new Flashduty({ appKey: 'k-1234', logLevel: 'off', rateLimit });
const ioredisShaped = { call: async () => 0 };
const nodeRedisShaped = { sendCommand: async () => 0 };

describe('rateLimit with redis', () => {
  it.each<[string, RateLimitOptions, RegExp]>([
    ['an empty object', { redis: {} as never }, /^rateLimit\.redis must be an ioredis or node-redis client$/],
    ['null', { redis: null as never }, /^rateLimit\.redis must be an ioredis or node-redis client$/],
    ['a URL string', { redis: 'redis://localhost' as never }, /^rateLimit\.redis must be an ioredis/],
    [
      'an empty keyPrefix',
      { redis: ioredisShaped, keyPrefix: '' },
      /^rateLimit\.keyPrefix: expected a non-empty string/,
    ],
    ['a keyPrefix not a string', { redis: ioredisShaped, keyPrefix: 7 as never }, /^rateLimit\.keyPrefix/],
    [
      'redisTimeoutMs 0',
      { redis: nodeRedisShaped, redisTimeoutMs: 0 },
      /^rateLimit\.redisTimeoutMs: expected a positive/,
    ],
    ['redisTimeoutMs NaN', { redis: nodeRedisShaped, redisTimeoutMs: Number.NaN }, /^rateLimit\.redisTimeoutMs/],
    ['perSecond 0 with redis', { redis: ioredisShaped, perSecond: 0 }, /rateLimit/],
  ])('refuses %s with a ConfigError', (_, options, message) => {
    expect(build(options)).toThrow(ConfigError);
    expect(build(options)).toThrow(message);
  });

  it('takes an ioredis- or node-redis-shaped client without sending anything until the first call', () => {
    let sent = 0;
    const count = async () => void sent++;
    expect(build({ redis: { call: count } })).not.toThrow();
    expect(build({ redis: { sendCommand: count }, keyPrefix: 'acct:', redisTimeoutMs: 50 })).not.toThrow();
    expect(sent).toBe(0);
  });
});
