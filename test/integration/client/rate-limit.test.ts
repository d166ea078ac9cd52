// The client's limiter against the mock's limits over HTTP. (The RateLimiter's windows on a fake
// clock: test/unit/client/rate-limiter.test.ts.)
import { describe, expect, it } from 'vitest';
import { RequestTooFrequentlyError } from '../../../src/index.js';
import { DAY, NOW, startMock } from '../../helpers.js';

const window = { start_time: NOW - DAY, end_time: NOW, limit: 1 };

describe('client-side limiter against the mock that enforces 50/s', () => {
  it('a burst of 200 list calls draws no 429 and is spread over about 4 s', async () => {
    const h = await startMock({ incidents: 5 });
    const client = h.client({ maxRetries: 0 });
    const started = Date.now();
    const results = await Promise.allSettled(Array.from({ length: 200 }, () => client.listIncidents(window)));
    const elapsed = Date.now() - started;
    const limited = results.filter((r) => r.status === 'rejected' && r.reason instanceof RequestTooFrequentlyError);
    expect(limited).toHaveLength(0);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(3000); // 4 windows of 50: at least 3 full seconds of waiting
  });

  it('holds a slot until a second after the call finished, so slow answers cannot crowd one server second', async () => {
    const h = await startMock({ incidents: 5 });
    const client = h.client({ maxRetries: 0 });
    h.service.faults.add({ delayMs: 700, times: 50 }); // the first 50 arrive at once and answer late
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => client.listIncidents(window)));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(0);
  });

  it('without the limiter a burst is refused by the mock (the check above can fail)', async () => {
    // 80 calls over a minute's budget of 60: refused however slowly this machine sends them (the
    // per-second limit alone would need 51 of them to arrive within a second).
    const h = await startMock({ incidents: 5, rateLimits: { perSecond: 50, perMinute: 60 } });
    const client = h.client({ maxRetries: 0, rateLimit: false });
    const results = await Promise.allSettled(Array.from({ length: 80 }, () => client.listIncidents(window)));
    const limited = results.filter((r) => r.status === 'rejected' && r.reason instanceof RequestTooFrequentlyError);
    expect(limited.length).toBeGreaterThanOrEqual(20);
  });
});
