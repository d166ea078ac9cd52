import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, RequestTooFrequentlyError } from '../src/index.js';
import { RateLimiter } from '../src/client/rate-limiter.js';
import { DAY, NOW, startMock } from './helpers.js';

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

describe('RateLimiter windows', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the per-minute limit, counting from when each call finished', async () => {
    vi.useFakeTimers();
    const limiter = new RateLimiter({ perSecond: 50, perMinute: 3 });
    const releases = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    let fourth = false;
    void limiter.acquire().then(() => (fourth = true));
    await vi.advanceTimersByTimeAsync(5_000);
    releases.forEach((release) => release()); // finished at t = 5 s
    await vi.advanceTimersByTimeAsync(59_000);
    expect(fourth).toBe(false);
    await vi.advanceTimersByTimeAsync(1_001);
    expect(fourth).toBe(true);
  });

  it('serves waiters in order and lets an aborted waiter go without taking a slot', async () => {
    vi.useFakeTimers();
    const limiter = new RateLimiter({ perSecond: 1, perMinute: 100 });
    const first = await limiter.acquire();
    const controller = new AbortController();
    const order: string[] = [];
    const aborted = limiter.acquire(controller.signal).catch((e: unknown) => {
      order.push(e instanceof APIUserAbortError ? 'aborted' : 'other');
    });
    const second = limiter.acquire().then((release) => {
      order.push('second');
      return release;
    });
    controller.abort();
    await aborted;
    first();
    await vi.advanceTimersByTimeAsync(1_000);
    (await second)();
    expect(order).toEqual(['aborted', 'second']);
    expect(limiter.pending).toBe(0);
  });
});
