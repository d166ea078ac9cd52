// The client's RateLimiter on a fake clock: its windows, the order of waiters, aborts. (Against the
// mock over HTTP, in test/integration/client/rate-limit.test.ts.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError } from '../../../src/index.js';
import { RateLimiter } from '../../../src/client/rate-limiter.js';
import { SharedRateLimiter } from '../../../src/client/shared-limiter.js';

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

  it('clears its timer when the last waiter is aborted: nothing holds the process open for a slot', async () => {
    vi.useFakeTimers();
    const limiter = new RateLimiter({ perSecond: 50, perMinute: 1 });
    (await limiter.acquire())();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal).catch((e: unknown) => e);
    expect(vi.getTimerCount()).toBe(1); // the next minute's slot
    controller.abort();
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('SharedRateLimiter, its waiter aborted while Redis answers', () => {
  it('does not sleep until the slot Redis named: the next call asks Redis at once', async () => {
    let asked = 0;
    // Redis answers "wait a minute" 30 ms after it is asked (real time: the script's SHA-1 is WebCrypto's).
    const run = () => (asked++, new Promise((resolve) => setTimeout(() => resolve(60_000), 30)));
    const shared = new SharedRateLimiter(
      { run, keyPrefix: 'x:', redisTimeoutMs: 1_000 },
      new RateLimiter(),
      {},
      () => {},
    );
    const first = new AbortController();
    const waiting = shared.acquire(first.signal).catch((e: unknown) => e);
    await vi.waitFor(() => expect(asked).toBe(1), { interval: 1 });
    first.abort(); // during the round trip
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
    await new Promise((resolve) => setTimeout(resolve, 60)); // Redis has answered
    const second = new AbortController();
    const next = shared.acquire(second.signal).catch((e: unknown) => e);
    await vi.waitFor(() => expect(asked).toBe(2), { timeout: 2_000, interval: 5 });
    second.abort();
    await next;
  });
});
