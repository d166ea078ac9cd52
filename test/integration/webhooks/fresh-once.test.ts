// Fresh once, fresh for its retries: an event judged fresh when first claimed is never dropped as
// stale later, whatever newer event of its incident was handled meanwhile. Over real HTTP with the
// memory and the Redis store (a 500, then the replay), and with a real BullMQ queue and worker (a
// handler that fails once, BullMQ's retry after the incident's next event was handled). Each
// handler run is told whether it was superseded. Before the verdict was kept with the claim, all
// of these events were dropped as stale: the 500 replayed answered `200 stale`, the BullMQ retry
// "completed" without running a handler.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import {
  type HandlerContext,
  MemoryStateStore,
  RedisStateStore,
  type StateStore,
  type WebhookEvent,
  WebhookReceiver,
} from '../../../src/webhooks/index.js';
import { startRedis } from '../support/redis.js';

const redis = await startRedis();
afterAll(() => redis.stop());
const client = new Redis(redis.url);
afterAll(() => client.quit());
const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** An incident's `i_new` and its `i_ack` 300 ms later. */
function pairs(count: number, tag: string) {
  const t = Date.now() - 60_000;
  return Array.from({ length: count }, (_, i) => {
    const incident = { incident_id: `${tag}-${String(i).padStart(4, '0')}` };
    return {
      created: buildWebhookEvent('i_new', { event_time: t + i, incident }),
      acked: buildWebhookEvent('i_ack', { event_time: t + i + 300, incident }),
    };
  });
}

/** A receiver served over real HTTP on loopback; `post` sends one body as the sender does. */
async function serve(receiver: WebhookReceiver): Promise<{ post: (event: WebhookEvent) => Promise<number> }> {
  const server: Server = createServer(receiver.nodeMiddleware());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    post: async (event) => {
      const { body, headers } = buildDelivery(event);
      return (await fetch(url, { method: 'POST', body, headers })).status;
    },
  };
}

const stores: Record<string, () => StateStore> = {
  memory: () => new MemoryStateStore(),
  redis: () => new RedisStateStore({ client, keyPrefix: `fresh-once:${Date.now()}:` }),
};

describe.each(Object.keys(stores))('without a queue (%s store), over HTTP', (name) => {
  it('a 500 replayed after the incident moved on is handled, told it was superseded (20 of 20)', async () => {
    const receiver = new WebhookReceiver({ store: (stores[name] as () => StateStore)(), logger: false });
    receiver.on('error', () => {});
    const failing = new Set<string>();
    const runs: Array<{ id: string; superseded: boolean }> = [];
    receiver.on('event', (event, context: HandlerContext) => {
      if (failing.delete(event.event_id)) throw new Error('database blip');
      runs.push({ id: event.event_id, superseded: context.superseded });
    });
    const { post } = await serve(receiver);
    const events = pairs(20, `direct-${name}`);
    for (const { created, acked } of events) {
      failing.add(created.event_id);
      expect(await post(created)).toBe(500);
      expect(await post(acked)).toBe(200);
    }
    // The replay of the failed deliveries, as replayFromHistory sends them.
    for (const { created } of events) expect(await post(created)).toBe(200);
    const handled = new Map(runs.map((run) => [run.id, run.superseded]));
    expect(events.filter(({ created }) => handled.get(created.event_id) === true)).toHaveLength(20);
    expect(events.filter(({ acked }) => handled.get(acked.event_id) === false)).toHaveLength(20);
    // And a third delivery of a handled event is a duplicate, as before.
    const first = events[0]?.created as WebhookEvent;
    expect(await post(first)).toBe(200);
    expect(runs.filter((run) => run.id === first.event_id)).toHaveLength(1);
  });
});

describe('with a BullMQ queue', () => {
  it('a job whose handler failed once runs again after the incident moved on (40 of 40), nothing in the failed set', async () => {
    const name = `fresh-once-${process.pid}-${Date.now()}`;
    const queue = new Queue(name, {
      connection,
      defaultJobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 400 }, removeOnComplete: { age: 3600 } },
    });
    closers.push(() => queue.obliterate({ force: true }).then(() => queue.close()));
    const receiver = new WebhookReceiver({
      store: new RedisStateStore({ client, keyPrefix: `${name}:` }),
      queue,
      logger: false,
    });
    receiver.on('error', () => {});
    const stale: string[] = [];
    receiver.on('stale', (event) => void stale.push(event.event_id));
    const failing = new Set<string>();
    const order: string[] = [];
    const superseded = new Map<string, boolean>();
    receiver.on('event', (event, context) => {
      if (failing.delete(event.event_id)) throw new Error('database blip');
      order.push(event.event_id);
      superseded.set(event.event_id, context.superseded);
    });
    const events = pairs(40, 'queued');
    const { post } = await serve(receiver);
    for (const { created } of events) {
      failing.add(created.event_id);
      expect(await post(created)).toBe(200);
    }
    for (const { acked } of events) expect(await post(acked)).toBe(200);
    const queueEvents = new QueueEvents(name, { connection });
    closers.push(() => queueEvents.close());
    const worker = new Worker(name, receiver.processor(), { connection, concurrency: 8 });
    closers.push(() => worker.close());
    const wanted = events.flatMap(({ created, acked }) => [created.event_id, acked.event_id]);
    await vi.waitFor(() => expect(wanted.filter((id) => !superseded.has(id))).toEqual([]), {
      timeout: 30_000,
      interval: 20,
    });
    expect(stale).toEqual([]);
    expect(await queue.getFailedCount()).toBe(0);
    // Each i_new ran after its failure; superseded exactly when its incident's i_ack ran first.
    for (const { created, acked } of events) {
      const ackFirst = order.indexOf(acked.event_id) < order.indexOf(created.event_id);
      expect(superseded.get(created.event_id), created.event_id).toBe(ackFirst);
    }
    expect(events.filter(({ created }) => superseded.get(created.event_id)).length).toBeGreaterThan(0);
  });
});
