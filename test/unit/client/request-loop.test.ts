// The request loop (src/client/request-loop.ts), against answers in memory (no socket) and on the
// fake clock: a read is retried on what a retry cannot make worse, a mutation only where its first
// attempt provably had no effect; Retry-After is waited for up to 60 s, beyond that the error is
// thrown at once; an attempt that outlasts its timeout, a caller's abort and a fetch that gives
// Response.error() are the SDK's own errors; one credential per call, never shown.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalError,
  ResourceNotFoundError,
  RequestTooFrequentlyError,
} from '../../../src/index.js';
import { leaveFakeClock, rejection } from '../../helpers.js';
import { failure, memoryClient, ok, type Handler } from '../../support/responder.js';

const ID = '69da451ef77b1b51f40e83ee';
const read = { incident_id: ID };
const write = { incident_ids: [ID] };

// The request loop and the tables load with a client's first call, on the real clock: loaded once
// here, every test's call then runs on the fake clock alone.
beforeAll(async () => {
  await memoryClient(() => ok({})).client.incidents.info(read);
});
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(leaveFakeClock);

/** Answers from `answers` in turn (the last one again once they run out). */
function inTurn(...answers: Array<() => Response | Promise<Response>>): Handler {
  return (_, n) => (answers[Math.min(n, answers.length - 1)] as () => Response)();
}

/** `promise` settled after the fake clock ran `ms` ahead. */
async function after<T>(ms: number, promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  await vi.advanceTimersByTimeAsync(ms);
  return promise;
}

const refused = Object.assign(new TypeError('fetch failed'), {
  cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
});
const reset = Object.assign(new TypeError('fetch failed'), {
  cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
});

describe('retries', () => {
  it('retries a read on 500, 502, 503, 504 and 429, after a backoff of up to 0.5 s, 1 s, 2 s, …', async () => {
    const { client, sent } = memoryClient(
      inTurn(
        () => failure('InternalError', 500),
        () => new Response('<html>bad gateway</html>', { status: 502 }),
        () => failure('ServiceUnavailable', 503),
        () => new Response('gateway timeout', { status: 504 }),
        () => failure('RequestTooFrequently', 429),
        () => ok({ incident_id: ID }),
      ),
      { maxRetries: 5 },
    );
    const pending = client.incidents.info(read);
    await vi.advanceTimersByTimeAsync(370); // the first backoff is 375 to 500 ms
    expect(sent).toHaveLength(1);
    expect(await after(60_000, pending)).toEqual({ incident_id: ID });
    expect(sent).toHaveLength(6);
  });

  it('gives up after maxRetries with the last error', async () => {
    const { client, sent } = memoryClient(() => failure('InternalError', 500), { maxRetries: 1 });
    expect(await after(10_000, rejection(client.incidents.info(read)))).toBeInstanceOf(InternalError);
    expect(sent).toHaveLength(2);
    const once = memoryClient(() => failure('InternalError', 500));
    expect(await after(10_000, rejection(once.client.incidents.info(read, { maxRetries: 0 })))).toBeInstanceOf(
      InternalError,
    );
    expect(once.sent).toHaveLength(1);
  });

  it('retries a mutation only on 429 and on a connection refused before anything was sent', async () => {
    const server = memoryClient(() => failure('InternalError', 500));
    expect(await after(10_000, rejection(server.client.incidents.ack(write)))).toBeInstanceOf(InternalError);
    expect(server.sent).toHaveLength(1);
    const lost = memoryClient(() => Promise.reject(reset));
    expect(await after(10_000, rejection(lost.client.incidents.ack(write)))).toBeInstanceOf(APIConnectionError);
    expect(lost.sent).toHaveLength(1);
    const busy = memoryClient(
      inTurn(
        () => failure('RequestTooFrequently', 429),
        () => ok({}),
      ),
    );
    await after(10_000, busy.client.incidents.ack(write));
    expect(busy.sent).toHaveLength(2);
    const unsent = memoryClient(
      inTurn(
        () => Promise.reject(refused),
        () => ok({}),
      ),
    );
    await after(10_000, unsent.client.incidents.ack(write));
    expect(unsent.sent).toHaveLength(2);
  });

  it('never retries an answer a retry would not change', async () => {
    const { client, sent } = memoryClient(() => failure('ResourceNotFound', 400));
    expect(await after(10_000, rejection(client.incidents.info(read)))).toBeInstanceOf(ResourceNotFoundError);
    expect(sent).toHaveLength(1);
  });

  it('waits as long as Retry-After says, and not at all past 60 s', async () => {
    const { client, sent } = memoryClient(
      inTurn(
        () => failure('RequestTooFrequently', 429, { 'Retry-After': '7' }),
        () => ok({}),
      ),
    );
    const pending = client.incidents.ack(write);
    await vi.advanceTimersByTimeAsync(6_999);
    expect(sent).toHaveLength(1);
    await after(1, pending);
    expect(sent).toHaveLength(2);
    const patient = memoryClient(() => failure('RequestTooFrequently', 429, { 'Retry-After': '61' }));
    const error = await rejection(patient.client.incidents.ack(write));
    expect(error).toBeInstanceOf(RequestTooFrequentlyError);
    expect((error as RequestTooFrequentlyError).retryAfterMs).toBe(61_000);
    expect(patient.sent).toHaveLength(1);
  });

  it('goes on as if logged when the logger throws: a mutation sent once, a read answered, a retry its own error', async () => {
    const down = () => {
      throw new Error('log sink down');
    };
    const logger = { debug: down, info: down, warn: down, error: down };
    const writes = memoryClient(() => ok({}), { logger, logLevel: 'debug' });
    await writes.client.incidents.ack(write);
    expect(writes.sent).toHaveLength(1);
    const reads = memoryClient(
      inTurn(
        () => failure('ServiceUnavailable', 503),
        () => ok({ incident_id: ID }),
      ),
      { logger, logLevel: 'debug' },
    );
    expect(await after(10_000, reads.client.incidents.info(read))).toMatchObject({ incident_id: ID });
    expect(reads.sent).toHaveLength(2);
    const failing = memoryClient(() => failure('ResourceNotFound', 404), { logger, logLevel: 'debug' });
    expect(await rejection(failing.client.incidents.info(read))).toBeInstanceOf(ResourceNotFoundError);
  });

  it('logs each retry as a warning, with what failed', async () => {
    const lines: string[] = [];
    const logger = { warn: (line: string) => lines.push(line), error: () => {}, info: () => {}, debug: () => {} };
    const { client } = memoryClient(
      inTurn(
        () => failure('ServiceUnavailable', 503),
        () => ok({}),
      ),
      { logger, logLevel: 'warn' },
    );
    await after(10_000, client.incidents.info(read));
    expect(lines).toEqual([
      expect.stringMatching(
        /^\[flashduty\] incident\/info: ServiceUnavailableError \(HTTP 503 ServiceUnavailable\); retry 1\/2 in \d+ ms$/,
      ),
    ]);
  });
});

describe('an attempt', () => {
  it('that outlasts its timeout is an APIConnectionTimeoutError, retried as a read', async () => {
    const { client, sent } = memoryClient((sent, n) => (n === 0 ? new Promise<Response>(() => {}) : ok({})), {
      timeout: 1_000,
    });
    await after(5_000, client.incidents.info(read));
    expect(sent).toHaveLength(2);
    const slow = memoryClient(() => new Promise<Response>(() => {}), { timeout: 1_000, maxRetries: 0 });
    const error = await after(1_001, rejection(slow.client.incidents.ack(write)));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe('Request timed out after 1000 ms.');
  });

  it('aborted by the caller, even while waiting to retry, is an APIUserAbortError', async () => {
    const controller = new AbortController();
    const { client } = memoryClient(() => failure('ServiceUnavailable', 503));
    const pending = rejection(client.incidents.info(read, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(APIUserAbortError);
  });

  it('answered with Response.error() failed to connect, no HTTP status 0', async () => {
    const { client } = memoryClient(() => Response.error(), { maxRetries: 0 });
    expect(await rejection(client.incidents.info(read))).toBeInstanceOf(APIConnectionError);
  });
});

describe('credentials', () => {
  it('sends the app key in the query and shows it as ***, or an access token as a bearer header', async () => {
    const keyed = memoryClient(() => failure('ResourceNotFound', 400));
    const error = (await rejection(keyed.client.incidents.info(read))) as ResourceNotFoundError;
    expect(keyed.sent[0]?.url.searchParams.get('app_key')).toBe('test-app-key');
    expect(error.url).toBe('https://api.test/incident/info?app_key=***');
    expect(JSON.stringify(error)).not.toContain('test-app-key');
    const bearer = memoryClient(() => ok({}), { appKey: undefined, accessToken: 'access-1' });
    await bearer.client.incidents.info(read);
    expect(bearer.sent[0]?.url.search).toBe('');
    expect(bearer.sent[0]?.headers.get('authorization')).toBe('Bearer access-1');
  });

  it('sends JSON with its content type, the caller’s headers beside the client’s', async () => {
    const { client, sent } = memoryClient(() => ok({}), { headers: { 'X-Team': 'a' } });
    await client.incidents.info(read, { headers: { 'X-Call': 'b' } });
    const headers = sent[0]?.headers;
    expect([headers?.get('content-type'), headers?.get('x-team'), headers?.get('x-call')]).toEqual([
      'application/json',
      'a',
      'b',
    ]);
  });
});
