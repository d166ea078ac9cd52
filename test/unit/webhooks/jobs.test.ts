// The queue mode: a delivery handed to the queue (its job id, WAIT for replicas within the deadline)
// and a job's outcome made its result (resolved, rejected with the handler's error, or moved to the
// delayed set without an attempt when the store failed). Jobs and queues are objects of BullMQ's
// shape; the real BullMQ runs in test/integration/webhooks (queue, store-outage, fresh-once).
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { FlashdutyError } from '../../../src/index.js';
import { Deadline, DeadlineExceededError } from '../../../src/webhooks/deadline.js';
import { addJob, endJob, type JobRun, runJob } from '../../../src/webhooks/jobs.js';
import { readDelivery } from '../../../src/webhooks/kinds.js';
import { Handlers } from '../../../src/webhooks/handlers.js';
import { Pipeline } from '../../../src/webhooks/pipeline.js';
import { MemoryStateStore, type WebhookJob } from '../../../src/webhooks/index.js';
import { leaveFakeClock } from '../../helpers.js';

const event = buildWebhookEvent('i_new');

describe('addJob', () => {
  it('adds the job with the id derived from the event, or none without dedup', async () => {
    const added: unknown[] = [];
    const queue = { add: async (...args: unknown[]) => void added.push(args) };
    const deadline = new Deadline(1_000);
    await addJob(queue, { name: 'i_new', data: event, eventId: 'e:1%' }, 0, deadline);
    await addJob(queue, { name: 'i_new', data: event, eventId: undefined }, 0, deadline);
    expect(added).toEqual([
      ['i_new', event, { jobId: 'fd-e%3A1%25' }],
      ['i_new', event, {}],
    ]);
    deadline.dispose();
  });

  it('waits for replicas on the queue connection, refuses too few, and a queue past the deadline', async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    const waits: unknown[] = [];
    let acked = 1;
    const client = { call: async (...args: unknown[]) => (waits.push(args), acked) };
    const queue = { add: async () => {}, client: Promise.resolve(client) };
    const deadline = new Deadline(1_000);
    await addJob(queue, { name: 'i_new', data: event, eventId: 'e1' }, 1, deadline);
    expect(waits).toEqual([['WAIT', 1, 995]]);
    acked = 0;
    await expect(addJob(queue, { name: 'i_new', data: event, eventId: 'e1' }, 1, deadline)).rejects.toThrow(
      /waitForReplicas: 0 of 1 replicas held the job/,
    );
    const stuck = { add: () => new Promise<never>(() => {}) };
    const adding = addJob(stuck, { name: 'i_new', data: event, eventId: 'e2' }, 0, deadline).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await adding).toBeInstanceOf(DeadlineExceededError);
    deadline.dispose();
  });
});

describe('runJob and endJob', () => {
  const pipeline = () =>
    new Pipeline({
      store: new MemoryStateStore(),
      handlers: new Handlers(false),
      dedup: true,
      dropStale: true,
      leaseMs: 60_000,
      maxClockSkewMs: 300_000,
      maxInFlight: 10,
    });
  const job = (data: unknown, more: Partial<WebhookJob> = {}): WebhookJob => ({ id: 'fd-1', data, ...more });

  it('fails a job that is not a delivery for good (UnrecoverableError), naming the path', async () => {
    const error = await runJob(job({ event_type: 'i_new' }), readDelivery, pipeline()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlashdutyError);
    expect(error).toMatchObject({
      name: 'UnrecoverableError',
      message: expect.stringMatching(/^job fd-1 is not a webhook delivery: event_id:/),
    });
  });

  it('resolves accepted, duplicate and stale with the outcome (kept by BullMQ as the return value)', async () => {
    const p = pipeline();
    const ran = await runJob(job(event), readDelivery, p);
    expect(ran).toMatchObject({ outcome: 'accepted', event });
    expect(await endJob(job(event), 'token', ran)).toEqual({ outcome: 'accepted' });
    expect(await endJob(job(event), 'token', await runJob(job(event, { id: 'fd-2' }), readDelivery, p))).toEqual({
      outcome: 'duplicate',
    });
  });

  it("rejects with the handler's own error, so that BullMQ retries the job", async () => {
    const run: JobRun = { outcome: 'rejected', error: new TypeError('bug'), event };
    await expect(endJob(job(event), 'token', run)).rejects.toThrow(new TypeError('bug'));
  });

  it('moves a job whose store failed to the delayed set without an attempt, waiting longer each time, up to 30 s', async () => {
    const moved: number[] = [];
    const run: JobRun = { outcome: 'unrecorded', error: new Error('OOM command not allowed'), event };
    for (const [attemptsStarted, wait] of [
      [1, 1_000],
      [2, 2_000],
      [4, 8_000],
      [9, 30_000],
    ] as const) {
      const delayed = job(event, {
        attemptsStarted,
        attemptsMade: 0,
        moveToDelayed: async (timestamp) => void moved.push(timestamp - Date.now()),
      });
      const error = await endJob(delayed, 'token', run).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'DelayedError', message: expect.stringContaining(`waits ${wait} ms`) });
      expect(moved.at(-1)).toBeGreaterThan(wait - 50);
    }
    // A job that cannot be moved (not BullMQ's, or no token) fails with the store's error instead.
    await expect(endJob(job(event), undefined, run)).rejects.toThrow('OOM command not allowed');
  });
});
