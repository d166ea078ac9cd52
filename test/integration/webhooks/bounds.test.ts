// What the receiver does when the world is slow or hostile: every answer leaves within the ack
// deadline, a delivery that cannot be recorded gets no false 200, and bad input cannot grow memory
// or poison state. Over real HTTP where the answer's form matters (a closed connection vs a 503).
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import {
  type Claim,
  type ClaimRequest,
  MemoryStateStore,
  type StateStore,
  WebhookReceiver,
} from '../../../src/webhooks/index.js';
import { receive, sleep } from '../../helpers.js';

/**
 * A state store of the user's making whose claims wait until the test lets them through: a Redis
 * too slow for the ack deadline, however fast or slow this machine is. `lateClaims` counts the
 * claims that answered after being held; `released` the ids released.
 */
function heldStore() {
  const inner = new MemoryStateStore();
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let held = true;
  const store = {
    lateClaims: 0,
    released: [] as string[],
    /** The held claims answer now, and later ones at once. */
    letThrough() {
      held = false;
      open();
    },
    claim: async (request: ClaimRequest): Promise<Claim> => {
      if (held) {
        await gate;
        store.lateClaims++;
      }
      return inner.claim(request);
    },
    complete: (id: string, token: string) => inner.complete(id, token),
    release: (id: string, token: string) => {
      inner.release(id, token);
      store.released.push(id);
    },
    advance: (scope: string, time: number, now: number) => inner.advance(scope, time, now),
  };
  return store;
}

/**
 * A state store whose claims answer at once (as a Redis that is up would, with a promise) and whose
 * completions and releases wait until the test lets them through. `settled` lists those that landed.
 */
function slowSettleStore() {
  const inner = new MemoryStateStore();
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const settled: string[] = [];
  return {
    settled,
    letThrough: () => open(),
    claim: async (request: ClaimRequest): Promise<Claim> => inner.claim(request),
    complete: async (id: string, token: string) => {
      await gate;
      inner.complete(id, token);
      settled.push(`complete ${id}`);
    },
    release: async (id: string, token: string) => {
      await gate;
      inner.release(id, token);
      settled.push(`release ${id}`);
    },
    advance: async (scope: string, time: number, now: number) => inner.advance(scope, time, now),
  };
}

function fail(): never {
  throw new Error('the handler failed');
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function serve(receiver: WebhookReceiver): Promise<string> {
  const middleware = receiver.nodeMiddleware();
  const server = createServer((req, res) => middleware(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** One POST over a fresh connection: the answer, or how the connection ended without one. */
function post(url: string, body: string | ((write: (chunk: string) => void, end: () => void) => void)) {
  return new Promise<{ status?: number; error?: string; ms: number }>((resolve) => {
    const started = Date.now();
    const req = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: Date.now() - started }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message, ms: Date.now() - started }),
    );
    if (typeof body === 'string') req.end(body);
    else
      body(
        (chunk) => req.write(chunk),
        () => req.end(),
      );
  });
}

describe('the ack deadline', () => {
  it('closes the connection without an answer when the store is too slow; the late claim is released for the retry', async () => {
    const store = heldStore();
    const receiver = new WebhookReceiver({ store, ackTimeoutMs: 200 });
    const handled: string[] = [];
    const errors: unknown[] = [];
    receiver.on('event', (event) => void handled.push(event.event_id));
    const lateClaimsAtError: number[] = [];
    receiver.on('error', (error) => {
      errors.push(error);
      lateClaimsAtError.push(store.lateClaims);
    });
    const url = await serve(receiver);
    const event = buildWebhookEvent('i_new');
    const first = await post(url, JSON.stringify(event));
    expect(first).toMatchObject({ error: 'ECONNRESET' }); // what the sender retries (EOF): no status line at all
    expect(errors).toHaveLength(1);
    expect(lateClaimsAtError).toEqual([0]); // given up at the deadline, before the store answered
    store.letThrough(); // the late claim lands now: the receiver releases it, for the retry
    await vi.waitFor(() => expect(store.released).toEqual([event.event_id]), { timeout: 10_000, interval: 10 });
    expect(store.lateClaims).toBe(1);
    expect(await post(url, JSON.stringify(event))).toMatchObject({ status: 200 });
    expect(handled).toEqual([event.event_id]);
  });

  it('answers 503 through fetchHandler when the store is too slow', async () => {
    const store = heldStore();
    const receiver = new WebhookReceiver({ store, ackTimeoutMs: 100 });
    const response = await receiver.fetchHandler(
      buildDelivery(buildWebhookEvent('i_new')).request('http://localhost/hook'),
    );
    expect(store.lateClaims).toBe(0); // answered before the store did (it is held until the end)
    expect(response.status).toBe(503);
    // The sender is told the outcome, never why (the store's own words stay on this side).
    expect(await response.json()).toEqual({ outcome: 'rejected', reason: 'not recorded' });
    store.letThrough();
  });

  it('cuts off a body that trickles in, at the deadline', async () => {
    const receiver = new WebhookReceiver({ ackTimeoutMs: 200 });
    const url = await serve(receiver);
    const body = JSON.stringify(buildWebhookEvent('i_new'));
    const result = await post(url, (write) => {
      let i = 0;
      const timer = setInterval(() => {
        if (i >= body.length) return clearInterval(timer);
        try {
          write(body.slice(i, i + 5));
        } catch {
          clearInterval(timer);
        }
        i += 5;
      }, 50);
    });
    expect(result.error).toBe('ECONNRESET');
    expect(result.ms).toBeLessThan(1000);
  });

  it.each([
    ['a synchronous handler succeeds', 'complete', () => {}],
    ['a synchronous handler throws', 'release', fail],
    ['an async handler succeeds', 'complete', async () => {}],
    ['an async handler rejects', 'release', async () => fail()],
  ] as const)(
    'answers by the deadline when %s and the store is slow to settle the claim; the settlement still lands',
    async (_, how, handler) => {
      const store = slowSettleStore();
      const receiver = new WebhookReceiver({ store, ackTimeoutMs: 200, logger: false });
      receiver.on('error', () => {});
      receiver.on('event', handler);
      const url = await serve(receiver);
      const event = buildWebhookEvent('i_new');
      const answer = await post(url, JSON.stringify(event));
      // What the handlers came to, told at the deadline: the store's settlement is bookkeeping.
      expect(answer).toMatchObject({ status: how === 'complete' ? 200 : 500 });
      expect(answer.ms).toBeLessThan(1000);
      expect(store.settled).toEqual([]); // answered before the store settled
      store.letThrough();
      await vi.waitFor(() => expect(store.settled).toEqual([`${how} ${event.event_id}`]), { timeout: 5000 });
    },
    10_000,
  );

  it('cuts off a body that trickles in through fetchHandler, at the deadline, and cancels its stream', async () => {
    const receiver = new WebhookReceiver({ ackTimeoutMs: 200, logger: false });
    const handled: unknown[] = [];
    receiver.on('event', (event) => void handled.push(event));
    receiver.on('error', () => {});
    const bytes = new TextEncoder().encode(JSON.stringify(buildWebhookEvent('i_new')));
    let sent = 0;
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setInterval(() => {
          if (sent >= bytes.length) {
            clearInterval(timer);
            return controller.close();
          }
          controller.enqueue(bytes.slice(sent, sent + 5));
          sent += 5;
        }, 50);
      },
      cancel() {
        cancelled = true;
        clearInterval(timer);
      },
    });
    try {
      const started = Date.now();
      const response = await receiver.fetchHandler(
        new Request('http://localhost/hook', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
          duplex: 'half',
        } as RequestInit),
      );
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ outcome: 'rejected', reason: 'not recorded' });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(sent).toBeLessThan(bytes.length);
      await vi.waitFor(() => expect(cancelled).toBe(true), { timeout: 2000 });
      expect(handled).toEqual([]);
    } finally {
      clearInterval(timer);
    }
  });

  it('never answers duplicate for a claim held by another process at the deadline (it may have died)', async () => {
    const shared = new MemoryStateStore(); // stands for Redis shared by two replicas
    const event = buildWebhookEvent('i_new');
    expect(shared.claim({ eventId: event.event_id, leaseMs: 60_000, eventTime: 1, now: Date.now() })).toMatchObject({
      status: 'claimed',
    }); // the replica that died
    const receiver = new WebhookReceiver({ store: shared, ackTimeoutMs: 150 });
    const result = await receive(receiver, event);
    expect(result).toMatchObject({
      status: 503,
      outcome: 'rejected',
      reason: 'not recorded',
      error: expect.objectContaining({ message: expect.stringMatching(/another process/) }),
    });
  });

  it('answers 200 duplicate while a delivery of the same event still runs in this process', async () => {
    const receiver = new WebhookReceiver({ ackTimeoutMs: 100 });
    // The handler runs until both deliveries are answered: still running, however slow the machine.
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    receiver.on('event', () => running);
    const event = buildWebhookEvent('i_new');
    const [first, second] = await Promise.all([receive(receiver, event), receive(receiver, event)]);
    finish();
    expect([first.outcome, second.outcome].sort()).toEqual(['accepted', 'duplicate']);
  });

  it('refuses new deliveries with 503 beyond maxInFlight handlers that never settle', async () => {
    const receiver = new WebhookReceiver({ ackTimeoutMs: 20, maxInFlight: 3 });
    receiver.on('event', () => new Promise(() => {}));
    const results = [];
    for (let i = 0; i < 5; i++) results.push((await receive(receiver, buildWebhookEvent('i_new'))).status);
    expect(results).toEqual([200, 200, 200, 503, 503]);
  });
});

describe('hostile input', () => {
  it('refuses event ids over 256 characters with 400', async () => {
    const receiver = new WebhookReceiver();
    expect(await receive(receiver, buildWebhookEvent('i_new', { event_id: 'x'.repeat(256) }))).toMatchObject({
      status: 200,
    });
    expect(await receive(receiver, buildWebhookEvent('i_new', { event_id: 'x'.repeat(257) }))).toMatchObject({
      status: 400,
      reason: 'invalid payload at event_id: longer than 256 characters',
    });
  });

  it('lets no event_time in the future poison a watermark: beyond maxClockSkewMs not judged, within it moved only to the present', async () => {
    const receiver = new WebhookReceiver({ maxClockSkewMs: 60_000 });
    const incident = { incident_id: 'abc' };
    const future = buildWebhookEvent('i_new', { event_time: Date.now() + 86_400_000, incident });
    expect(await receive(receiver, future)).toMatchObject({ outcome: 'accepted' });
    expect(await receive(receiver, buildWebhookEvent('i_ack', { incident }))).toMatchObject({ outcome: 'accepted' });
    // Within the skew the event is judged, but moves the watermark only to the present: the
    // incident's next events, dated now, are fresh; one dated before it is stale.
    const soon = buildWebhookEvent('i_comm', { event_time: Date.now() + 50_000, incident });
    expect(await receive(receiver, soon)).toMatchObject({ outcome: 'accepted' });
    for (let i = 0; i < 10; i++)
      expect(await receive(receiver, buildWebhookEvent('i_ack', { incident }))).toMatchObject({ outcome: 'accepted' });
    const before = buildWebhookEvent('i_ack', { event_time: Date.now() - 60_000, incident });
    expect(await receive(receiver, before)).toMatchObject({ outcome: 'stale' });
  });

  it('keeps the memory store within maxBytes under the longest ids', () => {
    const maxBytes = 1024 * 1024;
    const store = new MemoryStateStore({ maxBytes });
    let peak = 0;
    for (let i = 0; i < 20_000; i++) {
      const id = `${i}`.padEnd(256, 'x');
      const claim = store.claim({ eventId: id, leaseMs: 60_000, eventTime: i, now: Date.now() });
      if (claim.status === 'claimed') store.complete(id, claim.token);
      store.advance(`incident:${id}`, i, Date.now());
      peak = Math.max(peak, store.bytes);
    }
    expect(peak).toBeLessThanOrEqual(maxBytes);
    expect(peak).toBeGreaterThan(maxBytes / 4); // it does hold what it may
    // The newest ids are still known.
    expect(
      store.claim({ eventId: `${19_999}`.padEnd(256, 'x'), leaseMs: 60_000, eventTime: 1, now: Date.now() }),
    ).toEqual({
      status: 'done',
    });
  });

  it('refuses bad options of the new kind', () => {
    expect(() => new WebhookReceiver({ maxClockSkewMs: -1 })).toThrow(/maxClockSkewMs/);
    expect(() => new WebhookReceiver({ maxInFlight: 0 })).toThrow(/maxInFlight/);
    expect(() => new WebhookReceiver({ queue: {} as never })).toThrow(/queue: expected a BullMQ Queue/);
    expect(() => new MemoryStateStore({ maxBytes: 0 })).toThrow(/maxBytes/);
  });
});

describe('answers wait for what they promise', () => {
  // Each would pass unnoticed if an `await` on the store or the queue were dropped: the answer
  // would then leave before the write it stands for. So each write here takes real time (a timer,
  // as a Redis round trip does): an answer that did not wait for it would leave before it ends;
  // with the awaits in place the order holds however slow the machine.
  it('answers accepted only after the claim was completed', async () => {
    const log: string[] = [];
    const inner = new MemoryStateStore();
    const store: StateStore = {
      claim: async (request) => {
        await sleep(10);
        log.push('claimed');
        return inner.claim(request);
      },
      complete: async (id, token) => {
        await sleep(30);
        inner.complete(id, token);
        log.push('completed');
      },
      release: (id, token) => inner.release(id, token),
      advance: (scope, time, now) => inner.advance(scope, time, now),
    };
    const receiver = new WebhookReceiver({ store });
    receiver.on('event', () => void log.push('handled'));
    await receive(receiver, buildWebhookEvent('i_new'));
    log.push('answered');
    expect(log).toEqual(['claimed', 'handled', 'completed', 'answered']);
  });

  it('answers 500 only after the failed claim was released, so the redelivery can take it', async () => {
    const log: string[] = [];
    const inner = new MemoryStateStore();
    const store: StateStore = {
      claim: (request) => inner.claim(request),
      complete: (id, token) => inner.complete(id, token),
      release: async (id, token) => {
        await sleep(30);
        inner.release(id, token);
        log.push('released');
      },
      advance: (scope, time, now) => inner.advance(scope, time, now),
    };
    const receiver = new WebhookReceiver({ store });
    receiver.on('event', () => {
      throw new Error('nope');
    });
    receiver.on('error', () => {});
    expect(await receive(receiver, buildWebhookEvent('i_new'))).toMatchObject({ status: 500 });
    log.push('answered');
    expect(log).toEqual(['released', 'answered']);
  });

  it('answers accepted only after queue.add resolved', async () => {
    const log: string[] = [];
    const queue = {
      add: async (name: string, _data: unknown, options: { jobId?: string }) => {
        await sleep(30);
        log.push(`added ${name} ${options.jobId}`);
      },
    };
    const receiver = new WebhookReceiver({ queue });
    const event = buildWebhookEvent('i_ack', { event_id: 'e:1%' });
    expect(await receive(receiver, event)).toMatchObject({ status: 200, outcome: 'accepted' });
    log.push('answered');
    expect(log).toEqual(['added i_ack fd-e%3A1%25', 'answered']);
  });
});

describe('processor() when the store fails after the handlers succeeded', () => {
  it('keeps completing the claim until the store takes it, so a re-run is a duplicate, not a second run', async () => {
    const inner = new MemoryStateStore();
    let failures = 2;
    const store: StateStore = {
      claim: (request) => inner.claim(request),
      complete: (id, token) => {
        if (failures-- > 0) throw new Error('Redis is restarting');
        return inner.complete(id, token);
      },
      release: (id, token) => inner.release(id, token),
      advance: (scope, time, now) => inner.advance(scope, time, now),
    };
    const receiver = new WebhookReceiver({ store });
    const errors: string[] = [];
    const handled: string[] = [];
    const duplicates: string[] = [];
    receiver.on('error', (error) => void errors.push((error as Error).message));
    receiver.on('event', (event) => void handled.push(event.event_id));
    receiver.on('duplicate', (event) => void duplicates.push(event.event_id));
    const event = buildWebhookEvent('i_new');
    const job = { id: 'fd-1', data: event };
    await receiver.processor()(job);
    expect(errors).toEqual(['Redis is restarting']); // its retry's refusal, within 10 s, counted into the next told
    expect(failures).toBe(-1); // refused twice, taken the third time
    await receiver.processor()(job); // BullMQ runs it again (its worker died before acknowledging)
    expect(handled).toEqual([event.event_id]);
    expect(duplicates).toEqual([event.event_id]);
  });

  it('fails the job, releasing the claim, when a handler throws; the next attempt runs', async () => {
    const receiver = new WebhookReceiver();
    let attempts = 0;
    receiver.on('event', () => {
      if (++attempts === 1) throw new Error('first attempt fails');
    });
    receiver.on('error', () => {});
    const job = { id: 'fd-2', data: buildWebhookEvent('i_new') };
    await expect(receiver.processor()(job)).rejects.toThrow('first attempt fails');
    await receiver.processor()(job);
    expect(attempts).toBe(2);
  });
});
