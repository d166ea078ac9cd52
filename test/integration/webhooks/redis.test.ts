// RedisStateStore against a real redis-server, with both client libraries, and two receiver
// processes sharing one Redis.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { RedisStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import { sleep } from '../../helpers.js';
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
  describe(`RedisStateStore with ${flavour}`, () => {
    const store = new RedisStateStore({ client, keyPrefix: `test:${flavour}:`, ttlMs: 60_000 });

    it('claims once, reports pending and done, and releases only for the holder', async () => {
      const first = await store.claim('e1', 10_000);
      expect(first.status).toBe('claimed');
      expect((await store.claim('e1', 10_000)).status).toBe('pending');
      if (first.status !== 'claimed') return;
      await store.release('e1', 'not-the-token');
      expect((await store.claim('e1', 10_000)).status).toBe('pending');
      await store.release('e1', first.token);
      const second = await store.claim('e1', 10_000);
      expect(second.status).toBe('claimed');
      if (second.status === 'claimed') await store.complete('e1', second.token);
      expect((await store.claim('e1', 10_000)).status).toBe('done');
    });

    it('lets a lapsed lease be taken over, and the old holder can no longer complete it', async () => {
      const LEASE_MS = 50;
      const old = await store.claim('e2', LEASE_MS);
      // Real time must pass: the lease lapses in Redis's own clock. Counted from the claim's answer,
      // so it has lapsed after this however slow the machine.
      await sleep(LEASE_MS + 30);
      const fresh = await store.claim('e2', 10_000);
      expect(fresh.status).toBe('claimed');
      if (old.status === 'claimed') await store.complete('e2', old.token);
      expect((await store.claim('e2', 10_000)).status).toBe('pending');
    });

    it('sends each script by its SHA-1, and its body again only after Redis lost it (SCRIPT FLUSH)', async () => {
      const calls = async () => {
        const stats = String(await ioredis.call('INFO', 'commandstats'));
        const count = (name: string) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
        return { evalsha: count('evalsha'), eval: count('eval') };
      };
      await store.advance('scope:warm', 1); // every script of the store known to Redis, or learnt now
      await store.claim('warm', 1_000);
      const before = await calls();
      for (let i = 0; i < 20; i++) await store.claim(`sha-${i}`, 1_000);
      const after = await calls();
      expect(after.evalsha - before.evalsha).toBe(20);
      expect(after.eval - before.eval).toBe(0);
      await ioredis.call('SCRIPT', 'FLUSH'); // as after a restart or a failover
      expect((await store.claim('after-flush', 1_000)).status).toBe('claimed');
      expect((await store.claim('after-flush', 1_000)).status).toBe('pending');
      const flushed = await calls();
      expect(flushed.eval - after.eval).toBe(1); // NOSCRIPT once, then the body once
      expect(flushed.evalsha - after.evalsha).toBe(2);
    });

    it('gives exactly one claim to 50 concurrent callers', async () => {
      const claims = await Promise.all(Array.from({ length: 50 }, () => store.claim('e3', 10_000)));
      expect(claims.filter((c) => c.status === 'claimed')).toHaveLength(1);
    });

    it('keeps the per-incident watermark: older is stale, equal is not', async () => {
      expect(await store.advance('inc-1', 2_000)).toBe(true);
      expect(await store.advance('inc-1', 1_000)).toBe(false);
      expect(await store.advance('inc-1', 2_000)).toBe(true);
      expect(await store.advance('inc-1', 1_700_000_000_123)).toBe(true);
      expect(await store.advance('inc-1', 1_700_000_000_122)).toBe(false);
      expect(await store.advance('inc-2', 1)).toBe(true);
    });

    it('claimAndAdvance: the claim and, only when claimed, the watermark, in one script', async () => {
      const stats = async () =>
        Number(/cmdstat_evalsha:calls=(\d+)/.exec(String(await ioredis.call('INFO', 'commandstats')))?.[1] ?? 0);
      await store.claimAndAdvance('warm-ca', 1_000, undefined, 'inc-ca-warm', 1); // the script known to Redis
      const before = await stats();
      const first = await store.claimAndAdvance('ca-1', 10_000, 'token-1', 'inc-ca', 2_000);
      expect(first).toEqual({ claim: { status: 'claimed', token: 'token-1' }, fresh: true });
      expect(await stats()).toBe(before + 1); // one round trip, one script
      // Held: pending, and the watermark does not move (an older time would still be fresh below).
      expect(await store.claimAndAdvance('ca-1', 10_000, 'token-2', 'inc-ca', 5_000)).toEqual({
        claim: { status: 'pending' },
        fresh: false,
      });
      // The holder's own token takes it again (a job run again after its worker died).
      expect((await store.claimAndAdvance('ca-1', 10_000, 'token-1', 'inc-ca', 2_000)).claim.status).toBe('claimed');
      await store.complete('ca-1', 'token-1');
      expect(await store.claimAndAdvance('ca-1', 10_000, 'token-3', 'inc-ca', 9_000)).toEqual({
        claim: { status: 'done' },
        fresh: false,
      });
      // Claimed but older than the scope's watermark: stale.
      expect(await store.claimAndAdvance('ca-2', 10_000, 'token-4', 'inc-ca', 1_999)).toEqual({
        claim: { status: 'claimed', token: 'token-4' },
        fresh: false,
      });
      expect(await store.advance('inc-ca', 2_000)).toBe(true); // the pending and done ones moved nothing
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
