// Which limiter a client gets (src/client/limiters.ts): none with `rateLimit: false`, the in-process
// one by default, the shared one with `rateLimit.redis`, whose code loads only with the first call
// (it then falls back to the in-process limiter when Redis fails: its own tests).
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../../src/client/limiters.js';
import { RateLimiter } from '../../../src/client/rate-limiter.js';

const log = () => {};

describe('createLimiter', () => {
  it('makes none, the in-process one, or the shared one that sends nothing until asked', () => {
    expect(createLimiter(false, log)).toBeUndefined();
    expect(createLimiter({ perSecond: 5 }, log)).toBeInstanceOf(RateLimiter);
    let sent = 0;
    const shared = createLimiter({ redis: { call: async () => void sent++ } }, log);
    expect(shared).not.toBeInstanceOf(RateLimiter);
    expect(typeof shared?.acquire).toBe('function');
    expect(sent).toBe(0);
  });
});
