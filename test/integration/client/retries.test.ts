import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ClientOptions,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  InternalError,
  RequestTooFrequentlyError,
  ServiceUnavailableError,
} from '../../../src/index.js';
import { closedPort, DAY, NOW, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 10, skills: [{ skill_id: 'skill_a' }, { skill_id: 'skill_b' }] });
afterEach(() => {
  h.service.faults.clear();
  vi.useRealTimers();
});
const window = { start_time: NOW - 7 * DAY, end_time: NOW };

/** Runs a call against a fresh count of wire requests; returns the attempts and the outcome. */
async function attempts(call: () => PromiseLike<unknown>): Promise<{ attempts: number; error: unknown; ms: number }> {
  const before = h.calls.length;
  const started = Date.now();
  let error: unknown;
  try {
    await call();
  } catch (e) {
    error = e;
  }
  return { attempts: h.calls.length - before, error, ms: Date.now() - started };
}

/** Real event-loop turns (not time): long enough for an attempt that was due to reach the fetch. */
async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * The waits between attempts on a fake clock, so no test sleeps: the client logs each wait (at
 * 'warn') just before it sleeps; the clock moves by the wait less 1 ms, when no new attempt may
 * have started (else `early` gets the wait), then by the last millisecond. Only setTimeout is
 * faked: HTTP on loopback stays real.
 */
function fakeWaits(options: ClientOptions = {}) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const waits: number[] = [];
  const early: number[] = [];
  const steps: Array<Promise<void>> = [];
  const warn = (message: string) => {
    const wait = Number(/ in (\d+) ms$/.exec(message)?.[1]);
    waits.push(wait);
    const sent = h.calls.length;
    steps.push(
      new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        await vi.advanceTimersByTimeAsync(wait - 1);
        await turns();
        if (h.calls.length !== sent) early.push(wait);
        await vi.advanceTimersByTimeAsync(1);
      }),
    );
  };
  const logger = { debug() {}, info() {}, warn, error() {} };
  const client = h.client({ maxRetries: 2, ...options, logger, logLevel: 'warn' });
  return {
    client,
    waits,
    /** Every wait was honoured to the millisecond (call after the call settled). */
    async honoured(): Promise<void> {
      await Promise.all(steps);
      expect(early).toEqual([]);
    },
  };
}

describe('retries of the list (a read)', () => {
  const client = h.client({ maxRetries: 2 });

  it.each([
    [500, InternalError],
    [503, ServiceUnavailableError],
    [429, RequestTooFrequentlyError],
  ])('retries %i until it gives up: 3 attempts with maxRetries 2', async (status, ErrorClass) => {
    h.service.faults.add({ status, times: 3, headers: { 'Retry-After': '0' } });
    const result = await attempts(() => client.listIncidents(window));
    expect(result.attempts).toBe(3);
    expect(result.error).toBeInstanceOf(ErrorClass);
  });

  it('succeeds when a retry does', async () => {
    h.service.faults.add({ status: 500, times: 1 });
    const clock = fakeWaits();
    const result = await attempts(() => clock.client.listIncidents(window));
    expect(result.error).toBeUndefined();
    expect(result.attempts).toBe(2);
    expect(clock.waits).toHaveLength(1);
    expect(clock.waits[0]).toBeGreaterThanOrEqual(375); // first backoff: 500 ms less at most 25% jitter
    expect(clock.waits[0]).toBeLessThanOrEqual(500);
    await clock.honoured();
  });

  it('backs off exponentially between attempts', async () => {
    h.service.faults.add({ status: 500, times: 3 });
    const clock = fakeWaits({ maxRetries: 3 });
    const result = await attempts(() => clock.client.listIncidents(window));
    expect(result.attempts).toBe(4);
    const [a = 0, b = 0, c = 0] = clock.waits;
    expect([a >= 375 && a <= 500, b >= 750 && b <= 1000, c >= 1500 && c <= 2000]).toEqual([true, true, true]);
    await clock.honoured();
  });

  it.each([400, 401, 403, 404])('does not retry %i', async (status) => {
    h.service.faults.add({ status, times: 3 });
    const result = await attempts(() => client.listIncidents(window));
    expect(result.attempts).toBe(1);
    expect(result.error).toBeInstanceOf(APIError);
  });

  it.each([502, 504])('retries %i from a proxy (an HTML page, no envelope)', async (status) => {
    h.service.faults.add({ status, body: '<h1>Bad Gateway</h1>', times: 3, headers: { 'Retry-After': '0' } });
    const result = await attempts(() => client.listIncidents(window));
    expect(result.attempts).toBe(3);
    expect(result.error).toMatchObject({ name: 'APIError', status });
  });

  it('retries a dropped connection and a timeout', async () => {
    h.service.faults.add({ drop: true, times: 3 });
    const clock = fakeWaits();
    const dropped = await attempts(() => clock.client.listIncidents(window, { maxRetries: 1 }));
    expect(dropped.attempts).toBe(2);
    expect(dropped.error).toBeInstanceOf(APIConnectionError);
    await clock.honoured();
    vi.useRealTimers(); // the mock's delay and the attempt's timeout run on the real clock

    h.service.faults.add({ delayMs: 400, times: 2 });
    const slow = await attempts(() => client.listIncidents(window, { maxRetries: 1, timeout: 100 }));
    expect(slow.attempts).toBe(2);
    expect(slow.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((slow.error as Error).message).toBe('Request timed out after 100 ms.');
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    h.service.faults.add({ code: 'RequestTooFrequently', headers: { 'Retry-After': '1' } });
    const clock = fakeWaits();
    const seconds = await attempts(() => clock.client.listIncidents(window));
    expect(seconds.error).toBeUndefined();
    expect(clock.waits).toEqual([1000]);

    const date = new Date(Date.now() + 2000).toUTCString();
    h.service.faults.add({ status: 503, headers: { 'Retry-After': date } });
    const dated = await attempts(() => clock.client.listIncidents(window));
    expect(dated.error).toBeUndefined();
    expect(dated.attempts).toBe(2);
    // An HTTP date has whole seconds: 1 to 2 s from now, less the time the answer took.
    expect(clock.waits[1]).toBeGreaterThan(900);
    expect(clock.waits[1]).toBeLessThanOrEqual(2000);
    await clock.honoured();
  });

  it('throws at once when Retry-After asks for more than 60 s', async () => {
    h.service.faults.add({ code: 'RequestTooFrequently', headers: { 'Retry-After': '120' } });
    const result = await attempts(() => client.listIncidents(window));
    expect(result.attempts).toBe(1);
    expect(result.ms).toBeLessThan(1000);
    expect((result.error as RequestTooFrequentlyError).retryAfterMs).toBe(120_000);
  });

  it('uses maxRetries 0 per call and per client', async () => {
    h.service.faults.add({ status: 500, times: 3 });
    expect((await attempts(() => client.listIncidents(window, { maxRetries: 0 }))).attempts).toBe(1);
    h.service.faults.clear();
    h.service.faults.add({ status: 500, times: 3 });
    expect((await attempts(() => h.client({ maxRetries: 0 }).listIncidents(window))).attempts).toBe(1);
  });
});

describe('retries of the mutations', () => {
  const client = h.client({ maxRetries: 2 });

  it.each([500, 503])('never retries %i: the first attempt may have taken effect', async (status) => {
    h.service.faults.add({ status, times: 3 });
    const result = await attempts(() => client.enableA2AAgent('a2a_demo'));
    expect(result.attempts).toBe(1);
  });

  it('never retries a dropped connection or a timeout', async () => {
    h.service.faults.add({ drop: true, times: 3 });
    const dropped = await attempts(() => client.deleteSkill('skill_a'));
    expect(dropped.attempts).toBe(1);
    expect(dropped.error).toBeInstanceOf(APIConnectionError);
    h.service.faults.clear();
    h.service.faults.add({ delayMs: 300, times: 3 });
    const slow = await attempts(() => client.deleteSkill('skill_a', { timeout: 100 }));
    expect(slow.attempts).toBe(1);
    expect(slow.error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('retries 429, honouring Retry-After', async () => {
    h.service.faults.add({ code: 'RequestTooFrequently', times: 2, headers: { 'Retry-After': '0.2' } });
    const clock = fakeWaits();
    const result = await attempts(() => clock.client.deleteSkill('skill_b'));
    expect(result.error).toBeUndefined();
    expect(result.attempts).toBe(3);
    expect(clock.waits).toEqual([200, 200]);
    await clock.honoured();
    expect(h.service.hasSkill('skill_b')).toBe(false);
  });

  it('retries a connection that was refused before anything was sent', async () => {
    const offline = fakeWaits({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const result = await attempts(() => offline.client.enableA2AAgent('a2a_demo'));
    expect(result.error).toBeInstanceOf(APIConnectionError);
    expect(result.attempts).toBe(3);
    await offline.honoured();
  });
});
