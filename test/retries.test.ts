import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  Flashduty,
  InternalError,
  RequestTooFrequentlyError,
  ServiceUnavailableError,
} from '../src/index.js';
import { closedPort, DAY, NOW, rejection, startMock } from './helpers.js';

const h = await startMock({ incidents: 10, skills: [{ skill_id: 'skill_a' }, { skill_id: 'skill_b' }] });
afterEach(() => h.service.faults.clear());
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
    const result = await attempts(() => client.listIncidents(window));
    expect(result.error).toBeUndefined();
    expect(result.attempts).toBe(2);
    expect(result.ms).toBeGreaterThanOrEqual(375); // first backoff: 500 ms less at most 25% jitter
  });

  it.each([400, 401, 403, 404, 502])('does not retry %i', async (status) => {
    // 502 comes as a proxy's HTML page; the others as the spec's envelopes.
    h.service.faults.add(status === 502 ? { status, body: '<h1>Bad Gateway</h1>', times: 3 } : { status, times: 3 });
    const result = await attempts(() => client.listIncidents(window));
    expect(result.attempts).toBe(1);
    expect(result.error).toBeInstanceOf(APIError);
  });

  it('retries a dropped connection and a timeout', async () => {
    h.service.faults.add({ drop: true, times: 3 });
    const dropped = await attempts(() => client.listIncidents(window, { maxRetries: 1 }));
    expect(dropped.attempts).toBe(2);
    expect(dropped.error).toBeInstanceOf(APIConnectionError);

    h.service.faults.add({ delayMs: 400, times: 2 });
    const slow = await attempts(() => client.listIncidents(window, { maxRetries: 1, timeout: 100 }));
    expect(slow.attempts).toBe(2);
    expect(slow.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((slow.error as Error).message).toBe('Request timed out after 100 ms.');
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    h.service.faults.add({ code: 'RequestTooFrequently', headers: { 'Retry-After': '1' } });
    const seconds = await attempts(() => client.listIncidents(window));
    expect(seconds.error).toBeUndefined();
    expect(seconds.ms).toBeGreaterThanOrEqual(990);

    const date = new Date(Date.now() + 2000).toUTCString();
    h.service.faults.add({ status: 503, headers: { 'Retry-After': date } });
    const dated = await attempts(() => client.listIncidents(window));
    expect(dated.error).toBeUndefined();
    expect(dated.attempts).toBe(2);
    expect(dated.ms).toBeGreaterThanOrEqual(900); // an HTTP date has whole seconds
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
    const result = await attempts(() => client.deleteSkill('skill_b'));
    expect(result.error).toBeUndefined();
    expect(result.attempts).toBe(3);
    expect(result.ms).toBeGreaterThanOrEqual(390);
    expect(h.service.hasSkill('skill_b')).toBe(false);
  });

  it('retries a connection that was refused before anything was sent', async () => {
    const port = await closedPort();
    let tries = 0;
    const counting: typeof fetch = (input, init) => {
      tries++;
      return fetch(input, init);
    };
    const offline = new Flashduty({ appKey: 'k-123456', baseUrl: `http://127.0.0.1:${port}`, fetch: counting, maxRetries: 2, logLevel: 'off' });
    const error = await rejection(offline.enableA2AAgent('a2a_demo'));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(tries).toBe(3);
  });
});
