// RedisStateStore against a real redis-server, with both client libraries, and two receiver
// processes sharing one Redis.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { RedisStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import { describeStateStore } from '../../support/state-store-contract.js';
import { startRedis } from '../support/redis.js';
import { type Replica, startReplica, stopReplica } from '../support/replicas.js';

const redis = await startRedis();
afterAll(() => redis.stop());

const ioredis = new Redis(redis.url);
const nodeRedis = await createClient({ url: redis.url }).connect();
afterAll(async () => {
  await ioredis.quit();
  await nodeRedis.quit();
});

const clients = { ioredis, 'node-redis': nodeRedis } as const;

for (const [flavour, client] of Object.entries(clients)) {
  describeStateStore(
    `RedisStateStore with ${flavour}`,
    () => new RedisStateStore({ client, keyPrefix: `test:${flavour}:rules:` }),
  );

  describe(`RedisStateStore with ${flavour}`, () => {
    const store = new RedisStateStore({ client, keyPrefix: `test:${flavour}:`, ttlMs: 60_000 });

    it('sends each script by its SHA-1, and its body again only after Redis lost it (SCRIPT FLUSH)', async () => {
      const calls = async () => {
        const stats = String(await ioredis.call('INFO', 'commandstats'));
        const count = (name: string) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
        return { evalsha: count('evalsha'), eval: count('eval') };
      };
      const claim = (eventId: string) => store.claim({ eventId, leaseMs: 1_000, eventTime: 1, now: Date.now() });
      await claim('warm'); // every script used below known to Redis, or learnt now
      const before = await calls();
      for (let i = 0; i < 20; i++) await claim(`sha-${i}`);
      const after = await calls();
      expect(after.evalsha - before.evalsha).toBe(20);
      expect(after.eval - before.eval).toBe(0);
      await ioredis.call('SCRIPT', 'FLUSH'); // as after a restart or a failover
      expect((await claim('after-flush')).status).toBe('claimed');
      expect((await claim('after-flush')).status).toBe('pending');
      const flushed = await calls();
      expect(flushed.eval - after.eval).toBe(1); // NOSCRIPT once, then the body once
      expect(flushed.evalsha - after.evalsha).toBe(2);
    });

    it('claims and judges in one script, one round trip, where the watermark shares the slot', async () => {
      const evalsha = async () =>
        Number(/cmdstat_evalsha:calls=(\d+)/.exec(String(await ioredis.call('INFO', 'commandstats')))?.[1] ?? 0);
      const claim = (eventId: string) =>
        store.claim({ eventId, leaseMs: 1_000, scope: 'incident:one-trip', eventTime: Date.now(), now: Date.now() });
      await claim('warm-one-trip'); // the script known to Redis
      const before = await evalsha();
      expect((await claim('one-trip')).status).toBe('claimed');
      expect(await evalsha()).toBe(before + 1);
    });

    it('drives a receiver: duplicates and stale events across two receivers in one process', async () => {
      const shared = new RedisStateStore({ client, keyPrefix: `test:${flavour}:rx:` });
      const a = new WebhookReceiver({ store: shared });
      const b = new WebhookReceiver({ store: shared });
      let runs = 0;
      for (const r of [a, b]) r.on('event', async () => void runs++);
      const event = buildWebhookEvent('i_ack');
      const results = await Promise.all([a, b, a, b].map((r) => r.receive(buildDelivery(event).receiveInput())));
      expect(results.map((r) => r.outcome).sort()).toEqual(['accepted', 'duplicate', 'duplicate', 'duplicate']);
      expect(runs).toBe(1);
      const older = buildWebhookEvent('i_new', {
        event_time: event.event_time - 1,
        incident: { incident_id: event.incident.incident_id },
      });
      expect((await b.receive(buildDelivery(older).receiveInput())).outcome).toBe('stale');
    });
  });
}

it('refuses a client that is neither ioredis nor node-redis', () => {
  expect(() => new RedisStateStore({ client: {} as never })).toThrow(/ioredis or node-redis/);
});

describe('two receiver processes sharing one Redis', () => {
  it('run each event once, with duplicates sent to both at once', { timeout: 60_000 }, async () => {
    const procs = await Promise.all([startReplica(redis.url, 'ioredis'), startReplica(redis.url, 'node-redis')]);
    try {
      const events = Array.from({ length: 150 }, (_, i) => buildWebhookEvent(i % 2 ? 'i_ack' : 'i_comm'));
      const sends: Array<Promise<number>> = [];
      for (const event of events) {
        const delivery = buildDelivery(event);
        // Each event goes to both replicas at once, and a third time to one of them.
        for (const proc of [...procs, procs[events.indexOf(event) % 2] as Replica]) {
          sends.push(fetch(proc.url, delivery.init()).then((r) => r.status));
        }
      }
      const statuses = await Promise.all(sends);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const handled = (await Promise.all(procs.map(stopReplica))).flatMap((r) => r.handled);
      expect(handled.length).toBe(events.length);
      expect(new Set(handled).size).toBe(events.length);
      expect(procs.every((p) => p.child.exitCode === 0 || p.child.exitCode === null)).toBe(true);
    } finally {
      for (const p of procs) p.child.kill();
    }
  });
});
