// The durable handoff with real BullMQ queues and workers on a real redis-server: 200 only once
// the queue holds the event, one job per event across replicas, handlers in the worker, failures
// retried by BullMQ and kept in its failed set, and no answer at all while Redis cannot take it.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { jobIdFor, RedisStateStore, type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { closedPort } from '../../helpers.js';
import { startRedis } from '../support/redis.js';
import { receive } from '../../helpers.js';

const redis = await startRedis();
afterAll(() => redis.stop());
const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
const client = new Redis(redis.url);
afterAll(() => client.quit());

let queueNumber = 0;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** A fresh queue (its own name), a receiver on it, and helpers to run workers. */
function setup(options: { attempts?: number; store?: RedisStateStore } = {}) {
  const name = `webhooks-${process.pid}-${++queueNumber}`;
  const queue = new Queue(name, {
    connection,
    defaultJobOptions: {
      attempts: options.attempts ?? 3,
      backoff: { type: 'fixed', delay: 50 },
      removeOnComplete: { age: 3600 },
    },
  });
  closers.push(() => queue.obliterate({ force: true }).then(() => queue.close()));
  const store = options.store ?? new RedisStateStore({ client, keyPrefix: `${name}:` });
  const receiver = new WebhookReceiver({ store, queue });
  const events = new QueueEvents(name, { connection });
  closers.push(() => events.close());
  const startWorker = (processorReceiver = receiver) => {
    const worker = new Worker(name, processorReceiver.processor(), { connection, concurrency: 4 });
    closers.push(() => worker.close());
    return worker;
  };
  return { name, queue, store, receiver, events, startWorker };
}

function waitFor(events: QueueEvents, kind: 'completed' | 'failed', jobId: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (args: { jobId: string }) => {
      if (args.jobId !== jobId) return;
      events.off(kind, listener);
      resolve();
    };
    events.on(kind, listener);
  });
}

describe('WebhookReceiver with a BullMQ queue', () => {
  it('answers 200 once the job is stored, and runs the handlers in the worker', async () => {
    const { queue, receiver, events, startWorker } = setup();
    await events.waitUntilReady();
    const handled: WebhookEvent[] = [];
    receiver.on('i_ack', (event) => void handled.push(event));
    const event = buildWebhookEvent('i_ack');
    const jobId = jobIdFor(event.event_id);
    const result = await receive(receiver, event);
    expect(result).toMatchObject({ status: 200, outcome: 'accepted' });
    const job = await queue.getJob(jobId);
    expect(job?.name).toBe('i_ack');
    expect(job?.data).toEqual(event);
    expect(handled).toHaveLength(0); // nothing runs before a worker takes it
    const done = waitFor(events, 'completed', jobId);
    startWorker();
    await done;
    expect(handled.map((e) => e.event_id)).toEqual([event.event_id]);
  });

  it('makes one job of one event delivered to several replicas at once, and handles it once', async () => {
    const { queue, store, events, startWorker } = setup();
    const replicas = [0, 1, 2].map(() => new WebhookReceiver({ store, queue }));
    const worker = new WebhookReceiver({ store, queue });
    let runs = 0;
    worker.on('event', () => void runs++);
    const event = buildWebhookEvent('i_new', { event_id: 'a:b%c' }); // characters BullMQ refuses in ids
    const results = await Promise.all(replicas.flatMap((r) => [receive(r, event), receive(r, event)]));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await queue.getJobCounts('wait')).toMatchObject({ wait: 1 });
    const done = waitFor(events, 'completed', jobIdFor(event.event_id));
    startWorker(worker);
    await done;
    expect(runs).toBe(1);
    // Delivered again after it ran (and even after BullMQ forgot the job): a duplicate, not a second run.
    await queue.clean(0, 100, 'completed');
    const duplicates: string[] = [];
    worker.on('duplicate', (e) => void duplicates.push(e.event_id));
    const again = waitFor(events, 'completed', jobIdFor(event.event_id));
    expect(await receive(replicas[0] as WebhookReceiver, event)).toMatchObject({ status: 200 });
    await again;
    expect(runs).toBe(1);
    expect(duplicates).toEqual([event.event_id]);
  });

  it('retries a failing handler by the job options, and keeps what never succeeds in the failed set', async () => {
    const { queue, receiver, events, startWorker } = setup({ attempts: 3 });
    const attempts = new Map<string, number>();
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    receiver.on('event', (event) => {
      const n = (attempts.get(event.event_id) ?? 0) + 1;
      attempts.set(event.event_id, n);
      if (event.event_type === 'i_comm' && n < 3) throw new Error(`flaky ${n}`);
      if (event.event_type === 'i_rslv') throw new Error('always');
    });
    const flaky = buildWebhookEvent('i_comm');
    const broken = buildWebhookEvent('i_rslv');
    const flakyDone = waitFor(events, 'completed', jobIdFor(flaky.event_id));
    const brokenFailed = new Promise<void>((resolve) => {
      events.on('failed', ({ jobId }) => {
        if (jobId !== jobIdFor(broken.event_id)) return;
        void queue
          .getJob(jobId)
          .then((job) => job?.getState())
          .then((state) => state === 'failed' && resolve());
      });
    });
    await events.waitUntilReady();
    await receive(receiver, flaky);
    await receive(receiver, broken);
    startWorker();
    await flakyDone;
    await brokenFailed;
    expect(attempts.get(flaky.event_id)).toBe(3);
    expect(attempts.get(broken.event_id)).toBe(3);
    const failed = await queue.getFailed();
    expect(failed.map((job: Job) => job.id)).toEqual([jobIdFor(broken.event_id)]);
    expect(failed[0]?.failedReason).toBe('always');
    expect(errors).toHaveLength(5); // 2 flaky + 3 broken
  });

  it('drops stale events in the worker, by the incident watermark', async () => {
    const { receiver, events, startWorker } = setup();
    const stale: string[] = [];
    const handled: string[] = [];
    receiver.on('stale', (e) => void stale.push(e.event_id));
    receiver.on('event', (e) => void handled.push(e.event_id));
    const incident = { incident_id: 'inc-stale' };
    const newer = buildWebhookEvent('i_ack', { incident, event_time: Date.now() });
    const older = buildWebhookEvent('i_new', { incident, event_time: Date.now() - 60_000 });
    await events.waitUntilReady();
    const second = waitFor(events, 'completed', jobIdFor(older.event_id));
    await receive(receiver, newer);
    await receive(receiver, older);
    const worker = startWorker();
    worker.concurrency = 1;
    await second;
    expect(handled).toEqual([newer.event_id]);
    expect(stale).toEqual([older.event_id]);
  });

  it('fails a job that is not a delivery for good (no retries)', async () => {
    const { queue, events, startWorker } = setup({ attempts: 5 });
    await events.waitUntilReady();
    await queue.add('junk', { hello: 'world' }, { jobId: 'fd-junk' });
    const failed = waitFor(events, 'failed', 'fd-junk');
    startWorker();
    await failed;
    const job = await queue.getJob('fd-junk');
    expect(job?.attemptsMade).toBe(1);
    expect(job?.failedReason).toMatch(/is not a webhook delivery: event_id/);
  });
});

/** A BullMQ queue whose Redis is never there (a closed port): its adds wait in its connection. */
async function unreachableQueue(name: string): Promise<Queue> {
  const port = await closedPort();
  const unreachable = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, retryStrategy: () => 50 });
  unreachable.on('error', () => {});
  const queue = new Queue(name, { connection: unreachable });
  queue.on('error', () => {});
  closers.push(async () => {
    unreachable.disconnect(); // then the queue closes at once, though it never reached Redis
    await queue.close();
  });
  return queue;
}

describe('WebhookReceiver with a queue it cannot reach', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('closes the connection without an answer by the deadline (node), answers 503 (fetch)', async () => {
    const queue = await unreachableQueue('unreachable');
    const receiver = new WebhookReceiver({ queue, ackTimeoutMs: 300 });
    const middleware = receiver.nodeMiddleware();
    const server = createServer((req, res) => middleware(req, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const started = Date.now();
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest(
        url,
        { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json' } },
        (res) => resolve(`answered ${res.statusCode}`),
      );
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end(JSON.stringify(buildWebhookEvent('i_new')));
    });
    expect(outcome).toBe('ECONNRESET');
    // The queue never answers, so only the deadline (300 ms) can end this; 10× is a margin no machine's load eats.
    expect(Date.now() - started).toBeLessThan(3000);
    const response = await receiver.fetchHandler(
      buildDelivery(buildWebhookEvent('i_new')).request('http://localhost/hook'),
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ outcome: 'rejected', reason: 'not recorded' });
  });

  it('holds at most maxInFlight adds while Redis is away (BullMQ keeps each until it is back): the rest are refused at once', async () => {
    const queue = await unreachableQueue('unreachable-bounded');
    const added: string[] = [];
    const add = queue.add.bind(queue);
    const counted = Object.assign(queue, {
      add: (...args: Parameters<typeof add>) => (added.push(args[0]), add(...args)),
    });
    const receiver = new WebhookReceiver({ queue: counted, ackTimeoutMs: 100, maxInFlight: 3, logger: false });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await receive(receiver, buildWebhookEvent('i_new')));
    expect(results.map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503]);
    expect(added).toHaveLength(3); // the other three never reached BullMQ's offline queue
    expect(String((results[5]?.error as Error).message)).toBe('maxInFlight (3) deliveries wait for the queue already');
    expect(errors.length).toBeGreaterThan(0); // the outage, told (once per 10 s)
  });
});
