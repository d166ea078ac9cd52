import { describe, expect, expectTypeOf, it, onTestFinished, vi } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import {
  MemoryStateStore,
  type StateStore,
  type WebhookEvent,
  type WebhookEventOf,
  WebhookReceiver,
} from '../../../src/webhooks/index.js';
import example from '../../fixtures/incident-webhook.example.json' with { type: 'json' };
import { leaveFakeClock, receive, sleep } from '../../helpers.js';
/** The test runs on vitest's fake clock (deadlines, handlers' waits, the stores' Date.now): no real time passes. */
function fakeClock(): void {
  vi.useFakeTimers();
  onTestFinished(leaveFakeClock);
}
/** Advances the fake clock by `ms`, then resolves with what `running` resolves to. */
async function after<T>(ms: number, running: Promise<T>): Promise<T> {
  await vi.advanceTimersByTimeAsync(ms);
  return running;
}

describe('WebhookReceiver.receive', () => {
  it('accepts the documented example and types it by event_type', async () => {
    const receiver = new WebhookReceiver();
    const seen: Array<WebhookEventOf<'i_new'>> = [];
    const all: WebhookEvent[] = [];
    receiver.on('i_new', (event) => void seen.push(event));
    receiver.on('event', (event) => void all.push(event));
    const result = await receive(receiver, example);
    expect(result).toMatchObject({ status: 200, outcome: 'accepted' });
    expect(seen).toHaveLength(1);
    expect(all).toHaveLength(1);
    expect(seen[0]?.incident.responder_ids).toEqual([1552048792504]); // extra fields kept
    expect(seen[0]?.incident.assigned_to?.escalate_rule_name).toBe('Default Escalation');
  });

  it('accepts a body a framework already parsed, without a content type', async () => {
    const receiver = new WebhookReceiver();
    expect(await receiver.receive({ body: structuredClone(example), headers: {} })).toMatchObject({
      status: 200,
      outcome: 'accepted',
    });
  });

  it('runs handlers once for sequential and concurrent duplicates', async () => {
    const receiver = new WebhookReceiver();
    let runs = 0;
    const duplicates: string[] = [];
    receiver.on('event', async () => {
      runs++;
      await sleep(50);
    });
    receiver.on('duplicate', (event) => void duplicates.push(event.event_id));
    const event = buildWebhookEvent('i_ack');
    fakeClock();
    const concurrent = await after(50, Promise.all(Array.from({ length: 5 }, () => receive(receiver, event))));
    expect(concurrent.map((r) => r.outcome).sort()).toEqual([
      'accepted',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(concurrent.every((r) => r.status === 200)).toBe(true);
    expect(await receive(receiver, event)).toMatchObject({ status: 200, outcome: 'duplicate' });
    expect(runs).toBe(1);
    expect(duplicates).toHaveLength(5);
  });

  it('reports what an informational listener throws or rejects with on "error", and still answers', async () => {
    const receiver = new WebhookReceiver();
    const errors: string[] = [];
    receiver.on('error', (error) => void errors.push((error as Error).message));
    receiver.on('error', async () => {
      throw new Error('dropped, never an unhandled rejection');
    });
    receiver.on('duplicate', () => {
      throw new Error('thrown');
    });
    receiver.on('duplicate', async () => {
      throw new Error('rejected');
    });
    const event = buildWebhookEvent('i_ack');
    await receive(receiver, event);
    expect(await receive(receiver, event)).toMatchObject({ status: 200, outcome: 'duplicate' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual(['thrown', 'rejected']);
  });

  it('drops older events of an incident as stale, keeps equal times and other incidents', async () => {
    const receiver = new WebhookReceiver();
    const handled: string[] = [];
    receiver.on('event', (event) => void handled.push(event.event_type));
    const incident = { incident_id: '64b1352e376e32c85c56e25b' };
    const t = 1_700_000_000_000;
    expect((await receive(receiver, buildWebhookEvent('i_ack', { event_time: t + 10, incident }))).outcome).toBe(
      'accepted',
    );
    expect(await receive(receiver, buildWebhookEvent('i_new', { event_time: t, incident }))).toMatchObject({
      status: 200,
      outcome: 'stale',
    });
    expect((await receive(receiver, buildWebhookEvent('i_comm', { event_time: t + 10, incident }))).outcome).toBe(
      'accepted',
    );
    expect((await receive(receiver, buildWebhookEvent('i_new', { event_time: t }))).outcome).toBe('accepted');
    expect(handled).toEqual(['i_ack', 'i_comm', 'i_new']);
    const keepAll = new WebhookReceiver({ dropStale: false });
    await receive(keepAll, buildWebhookEvent('i_ack', { event_time: t + 10, incident }));
    expect((await receive(keepAll, buildWebhookEvent('i_new', { event_time: t, incident }))).outcome).toBe('accepted');
  });

  it('handles a custom action that arrives after a newer event of its incident: a command, never stale', async () => {
    const receiver = new WebhookReceiver();
    const handled: string[] = [];
    receiver.on('event', (event) => void handled.push(event.event_type));
    const incident = buildWebhookEvent('i_new').incident;
    const t = Date.now() - 10_000;
    await receive(receiver, buildWebhookEvent('i_ack', { event_time: t, incident }));
    const pressed = await receive(receiver, buildWebhookEvent('i_custom', { event_time: t - 500, incident }));
    expect(pressed).toMatchObject({ status: 200, outcome: 'accepted' });
    expect(handled).toEqual(['i_ack', 'i_custom']);
  });

  it('accepts unknown event types and emits them on "event"', async () => {
    const receiver = new WebhookReceiver();
    const got: string[] = [];
    receiver.on('event', (event) => void got.push(event.event_type));
    expect((await receive(receiver, buildWebhookEvent('i_future_thing'))).status).toBe(200);
    expect(got).toEqual(['i_future_thing']);
  });

  it.each([
    ['malformed JSON', '{"event_id":', {}, 400, /malformed JSON/],
    ['empty body', '', {}, 400, /empty body/],
    ['a JSON array', '[]', {}, 400, /expected a JSON object/],
    ['wrong content type', JSON.stringify(example), { contentType: 'text/plain' }, 415, /text\/plain/],
    ['no content type', JSON.stringify(example), { contentType: null }, 415, /no Content-Type/],
  ] as const)('refuses %s', async (_name, body, options, status, reason) => {
    const receiver = new WebhookReceiver();
    const invalid: number[] = [];
    receiver.on('invalid', (info) => void invalid.push(info.status));
    receiver.on('event', () => {
      throw new Error('a handler ran for an invalid delivery');
    });
    const result = await receive(receiver, body, options);
    expect(result).toMatchObject({ status, outcome: 'rejected' });
    expect(result.reason).toMatch(reason);
    expect(invalid).toEqual([status]);
  });

  it.each([
    ['event_id', { event_id: '' }, 'event_id'],
    ['event_time in seconds as a fraction', { event_time: 1.5 }, 'event_time'],
    ['event_time as a string', { event_time: '1700000000000' }, 'event_time'],
    ['incident', { incident: null }, 'incident'],
    ['incident.start_time', { incident: { start_time: '1' } }, 'incident.start_time'],
    ['incident.detail_url', { incident: { detail_url: undefined } }, 'incident.detail_url'],
  ])('refuses a payload with a bad %s, naming the path', async (_name, change, path) => {
    const payload = { ...buildWebhookEvent('i_new'), ...change } as Record<string, unknown>;
    if ('incident' in change && change.incident)
      payload.incident = { ...buildWebhookEvent('i_new').incident, ...change.incident };
    const result = await receive(new WebhookReceiver(), payload);
    expect(result.status).toBe(400);
    expect(result.reason).toContain(`at ${path}:`);
  });

  it('names a content type cut short, and takes the first of one sent twice, as node:http keeps it', async () => {
    const receiver = new WebhookReceiver();
    const long = await receive(receiver, example, { contentType: `text/${'a'.repeat(3000)}; x=${'b'.repeat(3000)}` });
    expect(long).toMatchObject({ status: 415, reason: `content type text/${'a'.repeat(95)}… is not JSON` });
    expect(
      (await receive(receiver, buildWebhookEvent('i_new'), { contentType: 'application/json, application/json' }))
        .status,
    ).toBe(200);
    expect((await receive(receiver, example, { contentType: 'text/plain, application/json' })).status).toBe(415);
  });

  it('refuses a body a framework parsed from another content type (415) or over maxBodyBytes by its Content-Length (413)', async () => {
    const receiver = new WebhookReceiver({ maxBodyBytes: 4096 });
    const parsed = (headers: Record<string, string>) => receiver.receive({ body: buildWebhookEvent('i_new'), headers });
    expect(await parsed({ 'content-type': 'application/x-www-form-urlencoded' })).toMatchObject({
      status: 415,
      reason: 'content type application/x-www-form-urlencoded is not JSON',
    });
    expect(await parsed({ 'content-type': 'application/json', 'content-length': '5000' })).toMatchObject({
      status: 413,
    });
    expect((await parsed({ 'content-type': 'application/json', 'content-length': '1400' })).status).toBe(200);
    expect((await parsed({})).status).toBe(200); // an object handed to receive(): no headers to judge
  });

  it('refuses a body over maxBodyBytes with 413', async () => {
    const receiver = new WebhookReceiver({ maxBodyBytes: 4096 });
    const big = buildWebhookEvent('i_comm', { incident: { description: 'x'.repeat(5000) } });
    expect(await receive(receiver, big)).toMatchObject({ status: 413, outcome: 'rejected' });
    expect((await receive(receiver, buildWebhookEvent('i_comm'))).status).toBe(200);
  });

  it('checks the secret header first, in constant time, with several values for rotation', async () => {
    const receiver = new WebhookReceiver({
      secret: { header: 'X-Flashduty-Token', values: ['current', 'previous'] },
      maxBodyBytes: 10,
    });
    const event = buildWebhookEvent('i_new');
    expect((await receive(receiver, event)).status).toBe(401); // none
    expect((await receive(receiver, event, { headers: { 'x-flashduty-token': 'wrong' } })).status).toBe(401);
    expect((await receive(receiver, event, { headers: { 'x-flashduty-token': 'current!' } })).status).toBe(401);
    expect((await receive(receiver, 'x'.repeat(100), { contentType: 'text/plain' })).status).toBe(401); // before 415/413
    const ok = new WebhookReceiver({ secret: { header: 'x-flashduty-token', values: ['current', 'previous'] } });
    expect((await receive(ok, event, { headers: { 'X-Flashduty-Token': 'previous' } })).status).toBe(200);
    expect(
      (await receive(ok, buildWebhookEvent('i_new'), { headers: { 'x-flashduty-token': 'current' } })).status,
    ).toBe(200);
  });

  it('answers by ackTimeoutMs while a slow handler still runs, and reports its later failure', async () => {
    fakeClock();
    const receiver = new WebhookReceiver({ ackTimeoutMs: 100 });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    let handlerDone = false;
    const slowFailing = async () => {
      await sleep(300);
      handlerDone = true;
      throw new Error('late failure');
    };
    receiver.on('event', slowFailing);
    const event = buildWebhookEvent('i_ack');
    expect(await after(100, receive(receiver, event))).toMatchObject({ status: 200, outcome: 'accepted' });
    // Answered at the deadline, before the handler finished.
    expect(handlerDone).toBe(false);
    // A redelivery while it still runs waits, then answers duplicate at its own deadline.
    expect((await after(100, receive(receiver, event))).outcome).toBe('duplicate');
    await vi.advanceTimersByTimeAsync(300);
    expect(errors).toHaveLength(1);
    // The failure released the claim: the next delivery runs the handlers again.
    let reran = false;
    receiver.off('event', slowFailing);
    const second = new Promise<void>((resolve) => receiver.on('i_ack', () => void ((reran = true), resolve())));
    await receive(receiver, event);
    await second;
    expect(reran).toBe(true);
  });

  it('answers 500 when a handler fails in time, and processes the redelivery', async () => {
    const receiver = new WebhookReceiver();
    let calls = 0;
    receiver.on('i_new', () => {
      calls++;
      if (calls === 1) throw new Error('database down');
    });
    const event = buildWebhookEvent('i_new');
    const first = await receive(receiver, event);
    expect(first).toMatchObject({ status: 500, outcome: 'rejected' });
    expect(first.reason).toBe('handler failed'); // the sender is told the outcome only
    expect((first.error as Error).message).toBe('database down');
    expect(await receive(receiver, event)).toMatchObject({ status: 200, outcome: 'accepted' });
    expect(await receive(receiver, event)).toMatchObject({ status: 200, outcome: 'duplicate' });
    expect(calls).toBe(2);
  });

  it('lets a concurrent duplicate take over when the first delivery fails', async () => {
    const receiver = new WebhookReceiver();
    let calls = 0;
    receiver.on('event', async () => {
      calls++;
      await sleep(50);
      if (calls === 1) throw new Error('first attempt fails');
    });
    const event = buildWebhookEvent('i_assign');
    fakeClock();
    const [a, b] = await after(200, Promise.all([receive(receiver, event), receive(receiver, event)]));
    expect([a.status, b.status].sort()).toEqual([200, 500]);
    expect(calls).toBe(2);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('store unreachable');
      },
    ],
    ['rejects', () => Promise.reject(new Error('store unreachable'))],
  ])('never throws, and asks for a redelivery (503), when the store %s', async (_, claim) => {
    const memory = new MemoryStateStore();
    const broken: StateStore = {
      claim,
      complete: (id, token) => memory.complete(id, token),
      release: (id, token) => memory.release(id, token),
      advance: (incident, time, now) => memory.advance(incident, time, now),
    };
    const receiver = new WebhookReceiver({ store: broken });
    const errors: unknown[] = [];
    receiver.on('error', (e) => void errors.push(e));
    expect(await receive(receiver, buildWebhookEvent('i_new'))).toMatchObject({
      status: 503,
      outcome: 'rejected',
      reason: 'not recorded',
      error: expect.objectContaining({ message: 'store unreachable' }),
    });
    expect(errors).toHaveLength(1);
  });

  /**
   * The memory store, but `release` and `complete` reject their first calls, as many as `failures`
   * says. The code that tries a settlement again loads with the first failure (a dynamic import,
   * which takes real time the fake clock does not wait for): loaded here first.
   */
  async function flakySettling(failures: { release?: number; complete?: number }) {
    await import('../../../src/webhooks/settle-again.js');
    const memory = new MemoryStateStore();
    const calls = { release: 0, complete: 0 };
    const flaky =
      (how: 'release' | 'complete') =>
      (id: string, token: string): Promise<void> =>
        ++calls[how] <= (failures[how] ?? 0)
          ? Promise.reject(new Error(`${how} lost`))
          : Promise.resolve(memory[how](id, token));
    const store: StateStore = {
      claim: (request) => memory.claim(request),
      complete: flaky('complete'),
      release: flaky('release'),
      advance: (incident, time, now) => memory.advance(incident, time, now),
    };
    return { store, calls };
  }

  it("tries a delivery's failed release again: the sender's retry is handled, not refused for the lease", async () => {
    fakeClock();
    const { store, calls } = await flakySettling({ release: 2 });
    const receiver = new WebhookReceiver({ store, ackTimeoutMs: 2_000 });
    const errors: string[] = [];
    receiver.on('error', (error) => void errors.push((error as Error).message));
    let runs = 0;
    receiver.on('i_new', () => {
      if (++runs === 1) throw new Error('database down');
    });
    const event = buildWebhookEvent('i_new');
    expect(await receive(receiver, event)).toMatchObject({ status: 500 });
    // The release failed, and its first retry too (50, then 100 ms later); the one after lands.
    expect(await after(3_000, receive(receiver, event))).toMatchObject({ status: 200, outcome: 'accepted' });
    expect(runs).toBe(2);
    expect(calls.release).toBe(3);
    // The handler's failure, and the store's first refusal: its retry's refusal, within 10 s, is counted, not told.
    expect(errors).toEqual(['database down', 'release lost']);
  });

  it("tries a delivery's failed completion again: a redelivery is a duplicate, its handlers not run twice", async () => {
    fakeClock();
    const { store, calls } = await flakySettling({ complete: 1 });
    const receiver = new WebhookReceiver({ store, ackTimeoutMs: 2_000, logger: false });
    let runs = 0;
    receiver.on('i_new', () => void runs++);
    receiver.on('error', () => undefined);
    const event = buildWebhookEvent('i_new');
    expect(await receive(receiver, event)).toMatchObject({ status: 200, outcome: 'accepted' });
    expect(await after(3_000, receive(receiver, event))).toMatchObject({ status: 200, outcome: 'duplicate' });
    expect(runs).toBe(1);
    expect(calls.complete).toBe(2);
  });

  it("never tries a job's release again in the background: the job's next attempt holds the same token", async () => {
    fakeClock();
    const { store, calls } = await flakySettling({ release: 1 });
    const jobs: Array<{ data: unknown; opts: { jobId?: string } }> = [];
    const queue = { add: async (_: string, data: unknown, opts: { jobId?: string }) => void jobs.push({ data, opts }) };
    const receiver = new WebhookReceiver({ store, queue, logger: false });
    receiver.on('error', () => undefined);
    let runs = 0;
    receiver.on('i_new', () => {
      if (++runs === 1) throw new Error('database down');
    });
    expect((await receive(receiver, buildWebhookEvent('i_new'))).outcome).toBe('accepted');
    const job = { id: jobs[0]!.opts.jobId, data: jobs[0]!.data };
    await expect(receiver.processor()(job)).rejects.toThrow('database down');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.release).toBe(1); // its one failed release, not retried
    await receiver.processor()(job); // BullMQ's next attempt: the same token takes the claim again
    expect(runs).toBe(2);
  });

  it('refuses bad options', () => {
    expect(() => new WebhookReceiver({ ackTimeoutMs: 0 })).toThrow(/ackTimeoutMs/);
    expect(() => new WebhookReceiver({ secret: { header: '', values: ['x'] } })).toThrow(/secret.header/);
    expect(() => new WebhookReceiver({ secret: { header: 'x-token', values: [] } })).toThrow(/secret.values/);
  });
});

describe('types', () => {
  it('types handlers by event type and keeps the union open', () => {
    const receiver = new WebhookReceiver();
    receiver.on('i_ack', (event) => {
      expectTypeOf(event.event_type).toEqualTypeOf<'i_ack'>();
      expectTypeOf(event.incident.incident_id).toBeString();
    });
    // @ts-expect-error a type this SDK does not know is not a handler name: it comes to 'event'
    receiver.on('i_not_yet_known', () => {});
    receiver.on('event', (event) => {
      expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    });
    receiver.on('invalid', (info) => expectTypeOf(info.status).toBeNumber());
    expect(receiver).toBeInstanceOf(WebhookReceiver);
  });
});

describe('nothing told to the sender beyond the outcome', () => {
  const secretLike = 'connect ECONNREFUSED 10.0.3.4:5432 (user=billing)';

  it('a failing handler: the answer says "handler failed"; the error goes to \'error\' and the logger', async () => {
    const lines: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (line: string) => void lines.push(line) };
    const receiver = new WebhookReceiver({ logger });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    receiver.on('i_new', () => {
      throw new Error(secretLike);
    });
    const delivery = buildDelivery(buildWebhookEvent('i_new'));
    const response = await receiver.fetchHandler(
      new Request('http://receiver.test/hooks', { method: 'POST', headers: delivery.headers, body: delivery.body }),
    );
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('{"outcome":"rejected","reason":"handler failed"}');
    expect((errors[0] as Error).message).toBe(secretLike);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(secretLike);
  });

  it('a failing store: the answer says "not recorded" (503); the error goes to \'error\'; `logger: false` logs nothing', async () => {
    const store = new MemoryStateStore();
    store.claim = (() => Promise.reject(new Error(secretLike))) as never;
    const receiver = new WebhookReceiver({ store, logger: false });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const delivery = buildDelivery(buildWebhookEvent('i_ack'));
    const response = await receiver.fetchHandler(
      new Request('http://receiver.test/hooks', { method: 'POST', headers: delivery.headers, body: delivery.body }),
    );
    expect(response.status).toBe(503);
    const body = await response.text();
    expect(body).toBe('{"outcome":"rejected","reason":"not recorded"}');
    expect(body).not.toContain('ECONNREFUSED');
    expect((errors[0] as Error).message).toBe(secretLike);
  });
});
