// Shared test setup: the mock service over real HTTP on loopback, a fetch that records what went on
// the wire (the client's public `fetch` option, delegating to the real fetch), and the one way a
// test hands a delivery to a receiver or waits a while.
import { createServer as createHttpServer, type RequestListener, type Server as HttpServer } from 'node:http';
import { createServer } from 'node:net';
import fc from 'fast-check';
import { afterAll, vi } from 'vitest';
import { Flashduty, type ClientOptions } from '../src/index.js';
import {
  createMockService,
  type MockService,
  type MockServiceOptions,
  type RunningServer,
} from '../src/testing/index.js';
import { buildDelivery } from '../src/testing/index.js';
import type { ReceiveResult, WebhookReceiver } from '../src/webhooks/index.js';

export interface WireCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

export interface Harness {
  service: MockService;
  server: RunningServer;
  /** Every request the client sent, in order. */
  calls: WireCall[];
  client(options?: ClientOptions): Flashduty;
}

export const DAY = 86_400;
/** A fixed clock for the mock: 2026-11-01T00:00:00Z. */
export const NOW_MS = Date.UTC(2026, 10, 1);
export const NOW = NOW_MS / 1000;

export async function startMock(options: MockServiceOptions = {}): Promise<Harness> {
  const service = createMockService({ now: NOW_MS, ...options });
  const server = await service.listen();
  afterAll(() => server.close());
  const calls: WireCall[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const text = await request.clone().text();
    calls.push({
      url: request.url,
      method: request.method,
      headers: request.headers,
      // JSON, as every body but an upload's (multipart/form-data: kept as its text).
      body: text && /json/i.test(request.headers.get('content-type') ?? '') ? JSON.parse(text) : text || undefined,
    });
    return fetch(request);
  };
  return {
    service,
    server,
    calls,
    client: (options = {}) =>
      new Flashduty({
        appKey: service.appKey,
        baseUrl: server.url,
        fetch: recordingFetch,
        logLevel: 'off',
        ...options,
      }),
  };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** A loopback port with nothing listening on it (fetch refuses some well-known ports outright). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A node:http stand-in for the service on loopback (to misbehave in ways the mock does not), closed after the file. */
export function standIn(handler: RequestListener): Promise<{ url: string; port: number }> {
  return listenOnLoopback(createHttpServer(handler));
}

/** `server` listening on a free loopback port until the test file ends (its open connections closed then too). */
export async function listenOnLoopback(server: HttpServer): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, port };
}

/** `payload` delivered as the service sends it (JSON, its content type, any `headers`) to `receiver.receive()`. */
export function receive(
  receiver: WebhookReceiver,
  payload: unknown,
  options?: Parameters<typeof buildDelivery>[1],
): Promise<ReceiveResult> {
  return receiver.receive(buildDelivery(payload, options).receiveInput());
}

/**
 * Resolves after `ms`. In unit tests on vitest's fake clock (advance it); in integration tests only
 * where real time must pass (a lease or a TTL lapsing), never to wait for something that happens.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Back to the real clock after a test on vitest's fake one, running the fake timers still pending
 * first. The receiver's deadlines share one timer per 10 ms of the clock (src/webhooks/deadline.ts);
 * a fake timer dropped unrun would leave its slot behind for a later file in the same worker, whose
 * deadlines in that slot would then never pass.
 */
export async function leaveFakeClock(): Promise<void> {
  await vi.runOnlyPendingTimersAsync();
  vi.useRealTimers();
}

/** Any value a payload's field may hold, well formed or not (fast-check): the edges a payload check must tell apart. */
export const anyFieldValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(''),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constant(2 ** 60),
  fc.constant('y'.repeat(300)),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
