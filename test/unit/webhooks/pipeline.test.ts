// The pipeline: an event's fate from its claim to its settled claim, for a delivery (with its
// deadline) and a job (with its token). A MemoryStateStore, or one made to fail or wait; handlers
// recorded; the fake clock, so a deadline or a retry wait passes without real time.
import { runInNewContext } from 'node:vm';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { Deadline } from '../../../src/webhooks/deadline.js';
import { Handlers } from '../../../src/webhooks/handlers.js';
import type { DeliveryKeys } from '../../../src/webhooks/payload.js';
import { type Fate, Pipeline, type PipelineOptions } from '../../../src/webhooks/pipeline.js';
import { type ClaimRequest, MemoryStateStore, type StateStore } from '../../../src/webhooks/index.js';
import { leaveFakeClock } from '../../helpers.js';

function fakeClock(): void {
  vi.useFakeTimers();
  onTestFinished(leaveFakeClock);
}

/** A pipeline over `store` (a memory store by default), with what its listeners heard. */
function setup(options: Partial<PipelineOptions> = {}) {
  const handlers = new Handlers(false);
  const told: string[] = [];
  for (const name of ['duplicate', 'stale', 'error'] as const)
    handlers.on(name, (subject: unknown) =>
      told.push(
        `${name} ${name === 'error' ? (subject as Error).message : (subject as { event_id: string }).event_id}`,
      ),
    );
  const pipeline = new Pipeline({
    store: new MemoryStateStore(),
    handlers,
    dedup: true,
    dropStale: true,
    leaseMs: 60_000,
    maxClockSkewMs: 300_000,
    maxInFlight: 100,
    ...options,
  });
  return { pipeline, handlers, told };
}

function keysOf(event: ReturnType<typeof buildWebhookEvent>): DeliveryKeys {
  return {
    eventId: event.event_id,
    eventType: event.event_type,
    eventTime: event.event_time,
    scope: `incident:${event.incident.incident_id}`,
  };
}

/** Processes an event as a delivery, with a deadline of `ms`, advancing the fake clock if asked. */
async function deliver(pipeline: Pipeline, event: ReturnType<typeof buildWebhookEvent>, ms = 1_500): Promise<Fate> {
  const deadline = new Deadline(ms);
  try {
    return await pipeline.run(event, keysOf(event), { deadline });
  } finally {
    deadline.dispose();
  }
}

describe('Pipeline, for a delivery', () => {
  it('claims, runs the handlers, completes: a second delivery is a duplicate', async () => {
    const { pipeline, handlers, told } = setup();
    const seen: string[] = [];
    handlers.on('event', (event: unknown) => void seen.push((event as { event_id: string }).event_id));
    const event = buildWebhookEvent('i_new');
    expect(await deliver(pipeline, event)).toEqual({ outcome: 'accepted' });
    expect(await deliver(pipeline, event)).toEqual({ outcome: 'duplicate' });
    expect(seen).toEqual([event.event_id]);
    expect(told).toEqual([`duplicate ${event.event_id}`]);
  });

  it('a failed handler releases the claim (fresh for its retry, told superseded once the incident moved on)', async () => {
    const { pipeline, handlers, told } = setup();
    const contexts: boolean[] = [];
    let fail = true;
    handlers.on('event', (_event: unknown, context: unknown) => {
      contexts.push((context as { superseded: boolean }).superseded);
      if (fail) throw new Error('database blip');
    });
    const created = buildWebhookEvent('i_new', { event_time: Date.now() - 10_000 });
    expect(await deliver(pipeline, created)).toMatchObject({ outcome: 'failed', error: new Error('database blip') });
    fail = false;
    const acked = buildWebhookEvent('i_ack', { incident: created.incident, event_time: created.event_time + 300 });
    expect(await deliver(pipeline, acked)).toEqual({ outcome: 'accepted' });
    expect(await deliver(pipeline, created)).toEqual({ outcome: 'accepted' });
    expect(contexts).toEqual([false, false, true]);
    expect(told).toEqual(['error database blip']);
  });

  it('drops an event older than one accepted for its incident; equal times are kept', async () => {
    const { pipeline, told } = setup();
    const newer = buildWebhookEvent('i_ack');
    const older = buildWebhookEvent('i_new', { incident: newer.incident, event_time: newer.event_time - 1 });
    const equal = buildWebhookEvent('i_comm', { incident: newer.incident, event_time: newer.event_time });
    expect(await deliver(pipeline, newer)).toEqual({ outcome: 'accepted' });
    expect(await deliver(pipeline, older)).toEqual({ outcome: 'stale' });
    expect(await deliver(pipeline, older)).toEqual({ outcome: 'stale' }); // recorded as such
    expect(await deliver(pipeline, equal)).toEqual({ outcome: 'accepted' });
    expect(told).toEqual([`stale ${older.event_id}`, `stale ${older.event_id}`]);
  });

  it('does not judge an event dated beyond maxClockSkewMs, nor with dropStale: false', async () => {
    const { pipeline } = setup({ maxClockSkewMs: 1_000 });
    const future = buildWebhookEvent('i_ack', { event_time: Date.now() + 60_000 });
    expect(await deliver(pipeline, future)).toEqual({ outcome: 'accepted' });
    const now = buildWebhookEvent('i_ack', { incident: future.incident });
    expect(await deliver(pipeline, now)).toEqual({ outcome: 'accepted' });
    const keep = setup({ dropStale: false }).pipeline;
    const newer = buildWebhookEvent('i_ack');
    await deliver(keep, newer);
    const older = buildWebhookEvent('i_new', { incident: newer.incident, event_time: newer.event_time - 1 });
    expect(await deliver(keep, older)).toEqual({ outcome: 'accepted' });
  });

  it('without dedup judges every delivery and claims none', async () => {
    const { pipeline, handlers } = setup({ dedup: false });
    let runs = 0;
    handlers.on('event', () => void runs++);
    const event = buildWebhookEvent('i_ack');
    expect(await deliver(pipeline, event)).toEqual({ outcome: 'accepted' });
    expect(await deliver(pipeline, event)).toEqual({ outcome: 'accepted' });
    const older = buildWebhookEvent('i_new', { incident: event.incident, event_time: event.event_time - 1 });
    expect(await deliver(pipeline, older)).toEqual({ outcome: 'stale' });
    expect(runs).toBe(2);
  });

  it('a concurrent duplicate waits for the handlers here: their success makes it a duplicate, their failure hands it over', async () => {
    fakeClock();
    const { pipeline, handlers } = setup();
    let runs = 0;
    let fail = true;
    handlers.on('event', async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (fail) throw new Error('first run fails');
    });
    const event = buildWebhookEvent('i_new');
    const first = deliver(pipeline, event);
    const second = deliver(pipeline, event);
    await vi.advanceTimersByTimeAsync(100);
    fail = false;
    await vi.advanceTimersByTimeAsync(100);
    expect(await first).toMatchObject({ outcome: 'failed' });
    expect(await second).toEqual({ outcome: 'accepted' }); // it took over and ran them again
    expect(runs).toBe(2);
    const third = deliver(pipeline, buildWebhookEvent('i_new', { event_id: 'x1' }));
    const fourth = deliver(pipeline, buildWebhookEvent('i_new', { event_id: 'x1' }));
    await vi.advanceTimersByTimeAsync(100);
    expect(await Promise.all([third, fourth])).toEqual([{ outcome: 'accepted' }, { outcome: 'duplicate' }]);
  });

  it('a claim held by another process is looked at again until the deadline, then unrecorded: never a duplicate', async () => {
    fakeClock();
    const store = new MemoryStateStore();
    const event = buildWebhookEvent('i_new');
    store.claim({ eventId: event.event_id, leaseMs: 60_000, eventTime: 1, now: Date.now() }); // the other process
    const { pipeline } = setup({ store });
    const fate = deliver(pipeline, event, 200);
    await vi.advanceTimersByTimeAsync(200);
    expect(await fate).toMatchObject({
      outcome: 'unrecorded',
      error: { message: `event ${event.event_id} is held by another process` },
    });
  });

  it('a store that fails or answers after the deadline leaves the event unrecorded; a claim landing late is released', async () => {
    fakeClock();
    const memory = new MemoryStateStore();
    let mode: 'throw' | 'slow' = 'throw';
    const released: string[] = [];
    const store: StateStore = {
      claim: (request: ClaimRequest) => {
        if (mode === 'throw') throw new Error('store down');
        return new Promise((resolve) => setTimeout(() => resolve(memory.claim(request)), 500));
      },
      complete: (id, token) => memory.complete(id, token),
      release: (id, token) => {
        released.push(id);
        memory.release(id, token);
      },
      advance: (scope, time, now) => memory.advance(scope, time, now),
    };
    const { pipeline, told } = setup({ store });
    expect(await deliver(pipeline, buildWebhookEvent('i_new'))).toMatchObject({ outcome: 'unrecorded' });
    expect(told).toEqual(['error store down']);
    mode = 'slow';
    const event = buildWebhookEvent('i_new');
    const fate = deliver(pipeline, event, 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(await fate).toMatchObject({ outcome: 'unrecorded' });
    await vi.advanceTimersByTimeAsync(400);
    expect(released).toEqual([event.event_id]); // so that the sender's retry can take it
  });

  it('refuses past maxInFlight deliveries whose handlers still run here', async () => {
    fakeClock();
    const { pipeline, handlers } = setup({ maxInFlight: 1 });
    handlers.on('event', () => new Promise((resolve) => setTimeout(resolve, 5_000)));
    const first = deliver(pipeline, buildWebhookEvent('i_new'), 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(await first).toEqual({ outcome: 'accepted' }); // still running at the deadline
    expect(await deliver(pipeline, buildWebhookEvent('i_new'))).toMatchObject({
      outcome: 'unrecorded',
      error: { message: 'maxInFlight (1) deliveries in flight already' },
    });
    await vi.advanceTimersByTimeAsync(5_000);
  });

  it('settles a claim the store refused again in the background, until it takes it', async () => {
    fakeClock();
    const memory = new MemoryStateStore();
    let refusals = 3;
    const store: StateStore = {
      claim: (request) => memory.claim(request),
      complete: (id, token) => {
        if (refusals-- > 0) throw new Error('Redis restarting');
        memory.complete(id, token);
      },
      release: (id, token) => memory.release(id, token),
      advance: (scope, time, now) => memory.advance(scope, time, now),
    };
    const { pipeline, told } = setup({ store });
    const event = buildWebhookEvent('i_new');
    expect(await deliver(pipeline, event)).toEqual({ outcome: 'accepted' }); // answered at once
    expect(memory.claim({ eventId: event.event_id, leaseMs: 1, eventTime: 1, now: Date.now() }).status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1_000);
    // Three refusals within a second: an outage, told once (the next one told would say how many).
    expect(told).toEqual(['error Redis restarting']);
    expect(memory.claim({ eventId: event.event_id, leaseMs: 1, eventTime: 1, now: Date.now() })).toEqual({
      status: 'done',
    });
  });
});

describe('Pipeline, for a job (its token, no deadline)', () => {
  it("takes the job's own claim again on its next attempt, and completes it once the handlers succeed", async () => {
    const { pipeline, handlers } = setup();
    let fail = true;
    handlers.on('event', () => {
      if (fail) throw new Error('once');
    });
    const event = buildWebhookEvent('i_new');
    const run = { token: 'fd-job-1' };
    expect(await pipeline.run(event, keysOf(event), run)).toMatchObject({ outcome: 'failed' });
    fail = false;
    expect(await pipeline.run(event, keysOf(event), run)).toEqual({ outcome: 'accepted' });
    expect(await pipeline.run(event, keysOf(event), run)).toEqual({ outcome: 'duplicate' });
  });

  it('a claim held by another is unrecorded at once (the job waits and runs again)', async () => {
    const store = new MemoryStateStore();
    const event = buildWebhookEvent('i_new');
    store.claim({ eventId: event.event_id, leaseMs: 60_000, eventTime: 1, now: Date.now(), token: 'someone' });
    const { pipeline } = setup({ store });
    expect(await pipeline.run(event, keysOf(event), { token: 'fd-job' })).toMatchObject({ outcome: 'unrecorded' });
  });

  it('a completion the store keeps refusing is tried for about 30 s, then the job is unrecorded', async () => {
    fakeClock();
    const memory = new MemoryStateStore();
    const store: StateStore = {
      claim: (request) => memory.claim(request),
      complete: () => Promise.reject(new Error('out of memory')),
      release: (id, token) => memory.release(id, token),
      advance: (scope, time, now) => memory.advance(scope, time, now),
    };
    const { pipeline, told } = setup({ store });
    const event = buildWebhookEvent('i_new');
    let fate: Fate | undefined;
    void Promise.resolve(pipeline.run(event, keysOf(event), { token: 'fd-job' })).then((f) => (fate = f));
    await vi.advanceTimersByTimeAsync(31_000);
    expect(fate).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_000); // the waits add up to 31.95 s
    expect(fate).toMatchObject({ outcome: 'unrecorded', error: new Error('out of memory') });
    // The first refusal at once, the eleven retries' told together at the end of each 10 s: 7, 2 and 1
    // by 32 s (the last one is told at 40 s).
    expect(told).toEqual([
      'error out of memory',
      'error the state store failed 7 more times in the last 10 s (told once per 10 s); the latest: out of memory',
      'error the state store failed 2 more times in the last 10 s (told once per 10 s); the latest: out of memory',
      'error the state store failed 1 more times in the last 10 s (told once per 10 s); the latest: out of memory',
    ]);
  });

  it("a release the store refuses is not tried again (the job's next attempt holds the same token)", async () => {
    fakeClock();
    const memory = new MemoryStateStore();
    let releases = 0;
    const store: StateStore = {
      claim: (request) => memory.claim(request),
      complete: (id, token) => memory.complete(id, token),
      release: () => {
        releases++;
        throw new Error('store down');
      },
      advance: (scope, time, now) => memory.advance(scope, time, now),
    };
    const { pipeline, handlers } = setup({ store });
    handlers.on('event', () => {
      throw new Error('handler');
    });
    const event = buildWebhookEvent('i_new');
    expect(await pipeline.run(event, keysOf(event), { token: 'fd-job' })).toMatchObject({ outcome: 'failed' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(releases).toBe(1);
  });
});

describe("Pipeline, with a store of the user's making", () => {
  /** A promise of another library: a thenable, not `instanceof Promise`. */
  const foreign = <T>(value: T | Promise<T>): PromiseLike<T> => {
    const inner = Promise.resolve(value);
    return { then: (onFulfilled, onRejected) => inner.then(onFulfilled, onRejected) };
  };

  it.each([
    ['another library', foreign],
    ['another realm', <T>(value: T) => runInNewContext('Promise.resolve(value)', { value }) as Promise<T>],
  ])("waits for a store's answers made by %s, as for its own promises", async (_, wrap) => {
    const memory = new MemoryStateStore();
    const settled: string[] = [];
    const store = {
      claim: (request: ClaimRequest) => wrap(memory.claim(request)),
      complete: (id: string, token: string) =>
        wrap(undefined).then(() => {
          memory.complete(id, token);
          settled.push(`complete ${id}`);
        }),
      release: (id: string, token: string) => wrap(memory.release(id, token)),
      advance: (scope: string, time: number, now: number) => wrap(memory.advance(scope, time, now)),
    } as unknown as StateStore; // what a user's store built on such a library looks like at run time
    const { pipeline, handlers } = setup({ store });
    const seen: string[] = [];
    handlers.on('event', (event: unknown) => void seen.push((event as { event_id: string }).event_id));
    const event = buildWebhookEvent('i_new');
    expect(await deliver(pipeline, event)).toEqual({ outcome: 'accepted' });
    expect(settled).toEqual([`complete ${event.event_id}`]); // answered once the completion landed
    expect(await deliver(pipeline, event)).toEqual({ outcome: 'duplicate' });
    expect(seen).toEqual([event.event_id]);
  });

  it('takes a claim answered with nothing (an async claim without its return) for a failure of the store', async () => {
    const memory = new MemoryStateStore();
    const store: StateStore = {
      claim: async () => undefined as never,
      complete: (id, token) => memory.complete(id, token),
      release: (id, token) => memory.release(id, token),
      advance: (scope, time, now) => memory.advance(scope, time, now),
    };
    const { pipeline, told } = setup({ store });
    expect(await deliver(pipeline, buildWebhookEvent('i_new'))).toMatchObject({ outcome: 'unrecorded' });
    expect(told).toEqual(['error the state store answered a claim with nothing']);
  });

  it('takes a claim status no store may answer for a failure of the store, at once', async () => {
    const memory = new MemoryStateStore();
    let claims = 0;
    const store: StateStore = {
      claim: () => {
        claims++;
        return { status: 'reserved' } as unknown as ReturnType<StateStore['claim']>;
      },
      complete: (id, token) => memory.complete(id, token),
      release: (id, token) => memory.release(id, token),
      advance: (scope, time, now) => memory.advance(scope, time, now),
    };
    const { pipeline, told } = setup({ store });
    const event = buildWebhookEvent('i_new');
    expect(await deliver(pipeline, event)).toMatchObject({ outcome: 'unrecorded' });
    expect(claims).toBe(1);
    expect(told).toEqual(['error the state store answered a claim with status "reserved"']);
  });
});
