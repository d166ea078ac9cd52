// A state store that cannot answer does not use up a job's attempts: with a real BullMQ queue and a
// RedisStateStore on a second real redis-server, out of memory (maxmemory, noeviction) or stopped,
// the jobs wait in BullMQ's delayed set without an attempt counted, and run once the store answers.
// Before, a full store used up every attempt of the accepted jobs (6 of 10 ended in the failed set
// without their handler ever running). The outage is told to 'error' once, not once per job.
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { jobIdFor, RedisStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import { receive } from '../../helpers.js';
import { startRedis } from '../support/redis.js';

const queueRedis = await startRedis();
const storeRedis = await startRedis();
afterAll(async () => {
  await queueRedis.stop();
  await storeRedis.stop();
});
const connection = { host: '127.0.0.1', port: queueRedis.port, maxRetriesPerRequest: null };

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

let queueNumber = 0;
async function setup() {
  const name = `outage-${process.pid}-${++queueNumber}`;
  const queue = new Queue(name, {
    connection,
    defaultJobOptions: {
      attempts: 6,
      backoff: { type: 'fixed', delay: 100 },
      removeOnComplete: false,
      removeOnFail: false,
    },
  });
  closers.push(() => queue.obliterate({ force: true }).then(() => queue.close()));
  const storeClient = new Redis(storeRedis.url, { maxRetriesPerRequest: 2 });
  storeClient.on('error', () => {}); // the outage is the test
  closers.push(() => storeClient.quit());
  const receiver = new WebhookReceiver({
    queue,
    store: new RedisStateStore({ client: storeClient, keyPrefix: `${name}:` }),
    logger: false,
  });
  const handled: string[] = [];
  receiver.on('event', (event) => void handled.push(event.event_id));
  const errors: unknown[] = [];
  receiver.on('error', (error) => void errors.push(error));
  const events = Array.from({ length: 10 }, () => buildWebhookEvent('i_new'));
  for (const event of events)
    expect(await receive(receiver, event)).toMatchObject({ status: 200, outcome: 'accepted' });
  const startWorker = () => {
    const worker = new Worker(name, receiver.processor(), { connection, concurrency: 4 });
    worker.on('error', () => {});
    closers.push(() => worker.close());
  };
  return { queue, events, handled, errors, startWorker, storeClient };
}

/** Every job's attempts used (BullMQ's attemptsMade), by the event's id. */
async function attemptsUsed(queue: Queue, ids: string[]): Promise<number[]> {
  return Promise.all(ids.map(async (id) => (await queue.getJob(jobIdFor(id)))?.attemptsMade ?? -1));
}

describe('a job whose state store cannot answer', { timeout: 60_000 }, () => {
  it('out of memory (noeviction): waits without using an attempt, and runs once the store has room', async () => {
    const { queue, events, handled, errors, startWorker, storeClient } = await setup();
    await storeClient.config('SET', 'maxmemory-policy', 'noeviction');
    await storeClient.config('SET', 'maxmemory', '1');
    try {
      startWorker();
      // Every job has tried its claim and been put back to wait.
      await vi.waitFor(async () => expect(await queue.getDelayedCount()).toBe(10), { timeout: 15_000, interval: 50 });
      expect(handled).toEqual([]);
      expect(await queue.getFailedCount()).toBe(0);
      expect(
        await attemptsUsed(
          queue,
          events.map((e) => e.event_id),
        ),
      ).toEqual(events.map(() => 0));
      // Ten jobs refused by the store within seconds: one outage, told once.
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toMatch(/OOM command not allowed/);
    } finally {
      await storeClient.config('SET', 'maxmemory', '0');
    }
    await vi.waitFor(() => expect(handled.length).toBe(10), { timeout: 30_000, interval: 50 });
    expect(new Set(handled)).toEqual(new Set(events.map((e) => e.event_id)));
    expect(await queue.getFailedCount()).toBe(0);
    // One attempt each: the one that ran the handler (BullMQ counts a completed run as an attempt).
    expect(
      await attemptsUsed(
        queue,
        events.map((e) => e.event_id),
      ),
    ).toEqual(events.map(() => 1));
  });

  it('killed and started again: waits, then every job runs once, none in the failed set', async () => {
    const { queue, events, handled, startWorker } = await setup();
    await storeRedis.kill();
    try {
      startWorker();
      await vi.waitFor(async () => expect(await queue.getDelayedCount()).toBeGreaterThan(0), {
        timeout: 20_000,
        interval: 50,
      });
      expect(handled).toEqual([]);
    } finally {
      await storeRedis.start();
    }
    await vi.waitFor(() => expect(handled.length).toBe(10), { timeout: 45_000, interval: 50 });
    expect(new Set(handled)).toEqual(new Set(events.map((e) => e.event_id)));
    expect(await queue.getFailedCount()).toBe(0);
    expect(
      await attemptsUsed(
        queue,
        events.map((e) => e.event_id),
      ),
    ).toEqual(events.map(() => 1));
  });
});
