// Everything of ours that keeps state in Redis, on a real Redis Cluster (three primaries with a
// replica each): RedisStateStore and the shared limiter with ioredis' Cluster and node-redis'
// createCluster, their scripts by EVALSHA on whichever primary holds a key's slot (NOSCRIPT after a
// SCRIPT FLUSH handled there too), the limiter's two windows in one slot, and the BullMQ handoff
// with a hash-tagged prefix: every delivery handled once.
import { Queue, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../src/testing/index.js';
import { ConfigError } from '../../src/index.js';
import { RedisStateStore, WebhookReceiver } from '../../src/webhooks/index.js';
import { sleep, startMock } from '../helpers.js';
import { describeStateStore } from '../support/state-store-contract.js';
import { startRedisCluster } from './support/redis-cluster.js';

const cluster = await startRedisCluster();
afterAll(() => cluster.stop(), 30_000);

const ioredis = new Cluster(cluster.nodes, { redisOptions: { maxRetriesPerRequest: null } });
const nodeRedis = createCluster({
  rootNodes: cluster.nodes.map(({ host, port }) => ({ url: `redis://${host}:${port}` })),
});
await nodeRedis.connect();
afterAll(async () => {
  await ioredis.quit();
  await nodeRedis.quit();
});

/** The slot of a key, as the cluster computes it. */
const slotOf = async (key: string) =>
  Number((await cluster.cli(cluster.ports[0] as number, 'CLUSTER', 'KEYSLOT', key)).trim());

for (const [flavour, client] of Object.entries({ ioredis, 'node-redis': nodeRedis })) {
  describeStateStore(
    `RedisStateStore on a Cluster with ${flavour}, a hash-tagged prefix`,
    () => new RedisStateStore({ client, keyPrefix: `{rules-${flavour}}:` }),
  );
  describeStateStore(
    `RedisStateStore on a Cluster with ${flavour}, no hash tag`,
    () => new RedisStateStore({ client, keyPrefix: `rules:${flavour}:` }),
  );

  describe(`on a Redis Cluster with ${flavour}`, () => {
    it('RedisStateStore: events spread over the slots, and scripts lost by a SCRIPT FLUSH are sent again', async () => {
      const store = new RedisStateStore({ client, keyPrefix: `cluster:${flavour}:`, ttlMs: 60_000 });
      const claim = (eventId: string) => store.claim({ eventId, leaseMs: 10_000, eventTime: 1, now: Date.now() });
      const ids = Array.from({ length: 60 }, (_, i) => `evt-${i}`);
      const slots = new Set(await Promise.all(ids.map((id) => slotOf(`cluster:${flavour}:event:${id}`))));
      expect(slots.size).toBeGreaterThan(50); // spread over the primaries
      for (const id of ids) expect((await claim(id)).status).toBe('claimed');
      for (const id of ids) expect((await claim(id)).status).toBe('pending');
      await Promise.all(cluster.ports.map((port) => cluster.cli(port, 'SCRIPT', 'FLUSH')));
      const after = await Promise.all(ids.map((id) => claim(`${id}-after-flush`)));
      expect(after.every((c) => c.status === 'claimed')).toBe(true);
    });

    it('without a hash tag an event and its watermark lie in different slots (judged by scripts apart)', async () => {
      expect(await slotOf(`ca:${flavour}:event:a`)).not.toBe(await slotOf(`ca:${flavour}:incident:a`));
    });

    it('without a hash tag, a claim whose watermark cannot be judged is let go, not held for its lease', async () => {
      const keyPrefix = `apart-fails:${flavour}:`;
      const store = new RedisStateStore({ client, keyPrefix, ttlMs: 60_000 });
      await ioredis.hset(`${keyPrefix}incident:broken`, 'not', 'a watermark'); // its script fails: WRONGTYPE
      const request = { eventId: 'e1', leaseMs: 60_000, scope: 'incident:broken', eventTime: 1, now: Date.now() };
      await expect(store.claim(request)).rejects.toThrow(/WRONGTYPE/);
      await ioredis.del(`${keyPrefix}incident:broken`);
      // The sender's retry claims it at once (it was 'pending' for the 60 s lease).
      expect(await store.claim({ ...request, now: Date.now() })).toMatchObject({ status: 'claimed' });
    });

    it('the shared limiter keeps both windows in one slot and limits calls through the cluster', async () => {
      const h = await startMock({ incidents: 5 });
      const keyPrefix = `rl:${flavour}:`;
      const api = h.client({ rateLimit: { redis: client, keyPrefix, perSecond: 5 } });
      const now = Math.floor(Date.now() / 1000);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 12 }, () => api.listIncidents({ start_time: now - 86_400, end_time: now })),
      );
      // 12 calls at 5 per second, each holding its place until a second after it finished: past two seconds.
      expect(performance.now() - started).toBeGreaterThan(2_000);
      expect(await slotOf(`{${keyPrefix}}second`)).toBe(await slotOf(`{${keyPrefix}}minute`));
      expect(await ioredis.zcard(`{${keyPrefix}}minute`)).toBe(12);
    });
  });
}

describe('the BullMQ handoff on a Redis Cluster', () => {
  it('refuses a queue whose keys have no hash tag when the receiver is made (every delivery would fail CROSSSLOT)', async () => {
    for (const options of [{}, { prefix: 'flashduty' }, { prefix: 'a{}b{c}' }]) {
      const queue = new Queue('untagged', { connection: ioredis, ...options });
      try {
        expect(() => new WebhookReceiver({ queue })).toThrow(ConfigError);
        expect(() => new WebhookReceiver({ queue })).toThrow(
          /need a hash tag \(.* has none\): give the Queue and its Workers a prefix such as '\{flashduty\}'/,
        );
      } finally {
        await queue.close();
      }
    }
    for (const options of [{ prefix: '{flashduty}' }, { prefix: 'bull' }]) {
      const queue = new Queue(options.prefix === 'bull' ? '{tagged-name}' : 'tagged', {
        connection: ioredis,
        ...options,
      });
      try {
        expect(() => new WebhookReceiver({ queue })).not.toThrow();
      } finally {
        await queue.close();
      }
    }
  });

  it('with a hash-tagged prefix: every delivery one job, every job handled once, duplicates none', async () => {
    const connection = ioredis;
    const name = 'flashduty-webhooks';
    const prefix = '{flashduty}'; // BullMQ's keys of one queue in one slot (its scripts touch several)
    const queue = new Queue(name, { connection, prefix });
    const receiver = new WebhookReceiver({
      queue,
      store: new RedisStateStore({ client: connection, keyPrefix: 'hook:' }),
      logger: false,
    });
    const handled: string[] = [];
    receiver.on('event', (event) => void handled.push(event.event_id));
    const worker = new Worker(name, receiver.processor(), { connection, prefix, concurrency: 4 });
    try {
      const events = Array.from({ length: 40 }, () => buildWebhookEvent('i_new'));
      const first = await Promise.all(events.map((event) => receiver.receive(buildDelivery(event).receiveInput())));
      const again = await Promise.all(events.map((event) => receiver.receive(buildDelivery(event).receiveInput())));
      expect([...first, ...again].every((result) => result.status === 200)).toBe(true);
      await vi.waitFor(() => expect(handled).toHaveLength(events.length), { timeout: 20_000, interval: 50 });
      expect(handled.sort()).toEqual(events.map((event) => event.event_id).sort());
      // A job counts as completed once its handler returned and BullMQ moved it: a moment after the
      // last handler ran, so the count is waited for (and must come to exactly one per event).
      await vi.waitFor(async () => expect(await queue.getJobCountByTypes('completed')).toBe(events.length), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await worker.close();
      await queue.close();
    }
  });
});

describe('waitForReplicas on a Redis Cluster', () => {
  it('waits on the primary of the queue’s slot: its replica frozen, deliveries are not recorded', async () => {
    const connection = ioredis;
    const prefix = '{flashduty-wait}';
    const queue = new Queue('replicated', { connection, prefix });
    const receiverBy = (ackTimeoutMs: number) =>
      new WebhookReceiver({ queue, waitForReplicas: 1, ackTimeoutMs, logger: false });
    const receiver = receiverBy(400);
    const deliver = (to = receiver) =>
      to.fetchHandler(buildDelivery(buildWebhookEvent('i_new')).request('http://receiver.test/'));
    const { replica } = await cluster.shardOf(await slotOf(queue.toKey('id')));
    try {
      // The replica up: 200, within a deadline no loaded machine reaches (it is the order that counts).
      expect((await deliver(receiverBy(10_000))).status).toBe(200);
      cluster.freeze(replica);
      // Were WAIT sent to another primary (one with no writes of this connection), it would return at once.
      expect((await deliver()).status).toBe(503);
    } finally {
      cluster.thaw(replica);
      await queue.close();
    }
    await expect.poll(async () => (await deliver()).status, { timeout: 10_000 }).toBe(200);
  });
});

describe('faults of a Redis Cluster', () => {
  it('slots moving during a run (MOVED, ASK): every claim answered, each event claimed once', async () => {
    const store = new RedisStateStore({ client: ioredis, keyPrefix: 'moving:', ttlMs: 60_000 });
    const rows = (await cluster.cli(cluster.ports[0] as number, 'CLUSTER', 'NODES')).trim().split('\n');
    const primaries = rows.filter((row) => row.includes('master')).map((row) => row.split(' ')[0] as string);
    const [from, to] = primaries as [string, string];
    const reshard = cluster.cli(
      cluster.ports[0] as number,
      '--cluster',
      'reshard',
      `127.0.0.1:${cluster.ports[0]}`,
      '--cluster-from',
      from,
      '--cluster-to',
      to,
      '--cluster-slots',
      '1000',
      '--cluster-yes',
    );
    // Claims go on, batch after batch, for as long as the slots move. Their lease outlasts the test
    // however slow the machine (the reshard took over 10 s with two test runs side by side): a
    // second claim of an id must find it pending, never its lease lapsed.
    const LEASE_MS = 600_000;
    let moving = true;
    const done = reshard.finally(() => (moving = false));
    const ids: string[] = [];
    const claims: Array<{ status: string }> = [];
    while (moving || ids.length < 1_000) {
      const batch = Array.from({ length: 50 }, () => `moving-${ids.length + Math.random()}`);
      ids.push(...batch);
      claims.push(
        ...(await Promise.all(
          batch.map((id) => store.claim({ eventId: id, leaseMs: LEASE_MS, eventTime: 1, now: Date.now() })),
        )),
      );
    }
    await done;
    expect(claims.filter((claim) => claim.status !== 'claimed')).toEqual([]);
    const again = await Promise.all(
      ids.map((id) => store.claim({ eventId: id, leaseMs: LEASE_MS, eventTime: 1, now: Date.now() })),
    );
    expect(again.filter((claim) => claim.status !== 'pending')).toEqual([]);
    // The slots did move: the receiving primary now holds more than a third of the 16 384.
    const after = (await cluster.cli(cluster.ports[0] as number, 'CLUSTER', 'NODES')).trim().split('\n');
    const slotsOf = (id: string) =>
      (
        after
          .find((row) => row.startsWith(id))
          ?.split(' ')
          .slice(8) ?? []
      ).reduce((sum, range) => {
        const [a, b = a] = range.split('-').map(Number);
        return sum + ((b as number) - (a as number) + 1);
      }, 0);
    expect(slotsOf(to)).toBeGreaterThan(5_461 + 900);
  }, 120_000);

  it('a primary that stops answering past the node timeout (its replica promoted, CLUSTERDOWN meanwhile): deliveries not recorded, never late, then each handled once', async () => {
    const connection = new Cluster(cluster.nodes, {
      redisOptions: { maxRetriesPerRequest: 1 },
      clusterRetryStrategy: () => 100,
    });
    const store = new RedisStateStore({ client: connection, keyPrefix: 'down:', ttlMs: 60_000 });
    const ACK_MS = 500;
    const RETRY_MS = 100;
    // A claim can end up held by no one: the client sends it again once the cluster answers, after
    // the delivery gave up on it, and the release of that late claim fails in the same outage. The
    // event then waits out the lease before a retry takes it over (one run in five here took the
    // default 60 s, and still passed). A short lease keeps that wait short; handlers are instant.
    const receiver = new WebhookReceiver({ store, ackTimeoutMs: ACK_MS, leaseMs: 5_000, logger: false });
    const handled = new Map<string, number>();
    receiver.on('event', (event) => void handled.set(event.event_id, (handled.get(event.event_id) ?? 0) + 1));
    const events = Array.from({ length: 60 }, () => buildWebhookEvent('i_new'));
    const { primary, replica } = await cluster.shardOf(0);
    try {
      cluster.freeze(primary); // as down: its connections stay open, nothing answers
      let late = 0;
      let refused = 0;
      const deliverUntilAccepted = async (event: (typeof events)[number]) => {
        for (let attempt = 0; attempt < 200; attempt++) {
          const started = performance.now();
          const result = await receiver.receive(buildDelivery(event).receiveInput());
          if (performance.now() - started > ACK_MS * 5) late++;
          if (result.status === 200) return;
          refused++;
          await sleep(RETRY_MS); // real time by design: the sender retries a while later, not at once
        }
        throw new Error(`event ${event.event_id} never accepted`);
      };
      const running = Promise.all(events.map(deliverUntilAccepted));
      // Frozen until the failover: past cluster-node-timeout (2 s) its replica is promoted.
      await vi.waitFor(
        async () =>
          expect(await cluster.cli(replica, 'INFO', 'replication'), 'the replica promoted').toMatch(/role:master/),
        { timeout: 30_000, interval: 100 },
      );
      cluster.thaw(primary); // back, it rejoins as a replica of the promoted one
      await running;
      expect(late).toBe(0);
      expect(refused).toBeGreaterThan(0); // some deliveries hit the frozen primary's slots
      expect([...handled.values()].every((times) => times === 1)).toBe(true);
      expect(handled.size).toBe(events.length);
    } finally {
      cluster.thaw(primary);
      connection.disconnect();
    }
  }, 120_000);
});
