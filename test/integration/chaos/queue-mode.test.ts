// Chaos against the durable handoff (a BullMQ queue): receiver replicas and workers in their own
// processes on a persistent Redis, deliveries by the sender's rules through a front door. Each
// fault below must lose no accepted event, handle none twice to success, and answer nothing after
// the sender's deadline; what the sender gave up on is counted, then replayed.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockService } from '../../../src/testing/index.js';
import { Cluster } from '../support/cluster.js';
import { plan } from '../support/plan.js';
import { count, describeCounts, drive, expectNothingLost, labelEvent } from '../support/scenario.js';
import { Sender } from '../support/sender.js';
import { figure, scale } from '../stress/scale.js';

const SIZE = scale(96, 1_000);
let cluster: Cluster;
beforeAll(async () => {
  cluster = await Cluster.start({
    mode: 'queue',
    replicas: 2,
    workers: 2,
    ackTimeoutMs: 1_500,
    handlers: { holdMs: 20 },
  });
}, 60_000);
afterAll(() => cluster?.close());
beforeEach(() => {
  cluster.sender = new Sender(cluster.frontDoor.url);
});

describe('queue mode under faults', { timeout: 120_000 }, () => {
  it('handlers that fail 1 to 3 times: BullMQ retries each to exactly one success, newer events of its incident handled meanwhile', async () => {
    // Ten events an incident, some reordered: an event whose retry comes after a newer one of its
    // incident was handled must still be handled (judged fresh once, fresh for its retries).
    const p = plan(SIZE, 20, 'fail-n');
    p.events.forEach((e, i) => labelEvent(e, 'chaos_fail', i % 4));
    await drive(cluster, p);
    const c = await count(cluster, p);
    figure('queue mode, handlers failing N times', describeCounts(c));
    expectNothingLost(c);
    expect(c.gaveUp).toBe(0);
    // Every event was handled once, or judged stale at once (older than a handled one) and never run.
    const { attempts, successes, stale } = await cluster.outcomes(p.events.map((e) => e.event_id));
    expect(c.handledOnce + stale.size).toBe(p.events.length);
    const ran = p.events.map((e, i) => [e.event_id, i] as const).filter(([id]) => successes.has(id));
    expect(ran.map(([id]) => attempts.get(id))).toEqual(ran.map(([, i]) => (i % 4) + 1));
    expect(ran.filter(([, i]) => i % 4 > 0).length).toBeGreaterThan(0);
  });

  it('kill -9 of a worker mid-handler: its jobs run again elsewhere, once', async () => {
    const p = plan(SIZE, 20, 'kill-worker'); // the killed handlers run again, however their incidents moved on
    p.events.forEach((e) => labelEvent(e, 'chaos_hold_ms', 300));
    const victim = cluster.workers[0];
    if (!victim) throw new Error('no worker');
    const kill = {
      atBatch: 1,
      async act() {
        // Frozen first, then checked: killed only while a handler is surely inside (on a busy
        // machine the handler seen a moment ago may have finished before a kill landed).
        for (let tries = 1; ; tries++) {
          await cluster.waitForHandlerIn(victim);
          victim.child.kill('SIGSTOP');
          if (Number(await cluster.ledger.get(`inside:${victim.pid}`)) > 0) break;
          victim.child.kill('SIGCONT');
          if (tries >= 50) throw new Error(`worker ${victim.pid}: no handler still inside once frozen, in 50 tries`);
        }
        await cluster.kill(victim);
        cluster.workers.splice(cluster.workers.indexOf(victim), 1);
        await cluster.startWorker();
      },
    };
    await drive(cluster, p, [kill]);
    const c = await count(cluster, p);
    figure('queue mode, a worker killed mid-handler', describeCounts(c));
    expectNothingLost(c);
    expect(victim.child.signalCode).toBe('SIGKILL');
    // The handlers it was inside ran again in another worker, and succeeded there once.
    const { attempts, successes } = await cluster.outcomes(p.events.map((e) => e.event_id));
    const rerun = [...attempts].filter(([id, n]) => n > 1 && successes.get(id) === 1);
    expect(rerun.length).toBeGreaterThan(0);
  });

  it('kill -9 of a replica before it answers: the sender retries on EOF at the other one', async () => {
    const p = plan(SIZE, 20, 'kill-replica');
    const kill = {
      atBatch: 2,
      // Redis frozen until a replica holds a delivery that came after (it cannot answer it), so
      // that it holds deliveries it has not answered yet when it dies.
      async act() {
        cluster.redis.freeze();
        const victim = await cluster.replicaHolding(cluster.frontDoor.opened);
        await cluster.kill(victim);
        cluster.replicas.splice(cluster.replicas.indexOf(victim), 1);
        cluster.redis.thaw();
        await cluster.startReplica();
      },
    };
    await drive(cluster, p, [kill]);
    const c = await count(cluster, p);
    figure('queue mode, a replica killed before answering', describeCounts(c));
    expectNothingLost(c);
    expect(c.retried).toBeGreaterThan(0);
  });

  it('Redis killed and restarted mid-stream (AOF, fsync always): every accepted event survives', async () => {
    const p = plan(SIZE, 20, 'restart-redis');
    const before = cluster.redis.pid;
    const restart = { atBatch: 2, act: () => cluster.redis.restart() };
    await drive(cluster, p, [restart]);
    expect(cluster.redis.pid).not.toBe(before);
    const c = await count(cluster, p);
    figure('queue mode, Redis restarted mid-stream', describeCounts(c));
    expectNothingLost(c);
  });

  it('Redis asleep past the deadline: no answer after it, the sender retries or gives up, replay recovers', async () => {
    const p = plan(SIZE, 20, 'sleep-redis');
    const nap = { atBatch: 2, act: () => cluster.redis.sleep(2) };
    await drive(cluster, p, [nap]);
    const c = await count(cluster, p);
    figure('queue mode, Redis asleep 2 s', describeCounts(c));
    expectNothingLost(c);
    expect(c.retried).toBeGreaterThan(0);
  });

  it("the mock service's own sender, a replica killed mid-stream: every event handled once", async () => {
    const service = createMockService({ seed: 21, incidents: 3, rateLimits: false });
    const integration = service.webhooks.create({ endpoint: cluster.frontDoor.url });
    const incidents = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        service.actions.create({ title: `chaos ${i}`, incident_severity: 'Warning' }),
      ),
    );
    for (const incident of incidents) {
      await service.actions.comment(incident.incident_id, 'looking', service.personId);
      await service.actions.ack(incident.incident_id, service.personId);
      await service.actions.comment(incident.incident_id, 'mitigated', service.personId);
    }
    // Deliveries go out one after another; kill a replica (Redis frozen, so it dies holding one) a third of the way in.
    await vi.waitFor(() => expect(service.webhooks.history(integration.id).length).toBeGreaterThanOrEqual(10), {
      timeout: 30_000,
      interval: 5,
    });
    cluster.redis.freeze();
    const victim = await cluster.replicaHolding(cluster.frontDoor.opened);
    await cluster.kill(victim);
    cluster.replicas.splice(cluster.replicas.indexOf(victim), 1);
    cluster.redis.thaw();
    await cluster.startReplica();
    await service.webhooks.idle();
    const history = service.webhooks.history(integration.id);
    const failed = history.filter((r) => r.status === 'failure');
    // What the sender gave up on is replayed from its history, as replayFromHistory does.
    for (const record of failed)
      expect((await cluster.sender.deliver(record.event_id, JSON.stringify(record.request.payload))).ok).toBe(true);
    await cluster.settle();
    const ids = [...new Set(history.map((r) => r.event_id))];
    const { successes, stale } = await cluster.outcomes(ids);
    const lost = ids.filter((id) => !successes.has(id) && !stale.has(id));
    const twice = ids.filter((id) => (successes.get(id) ?? 0) > 1);
    const retried = history.filter((r) => r.request_count > 1).length;
    const slowest = Math.max(...history.map((r) => r.duration_ms));
    figure(
      "queue mode, the mock service's sender, a replica killed",
      `${history.length} deliveries, ${retried} retried, ${failed.length} given up (replayed), ${successes.size} handled, ${stale.size} stale, ${lost.length} lost, ${twice.length} twice, slowest ${slowest} ms`,
    );
    expect(history).toHaveLength(incidents.length * 4);
    expect(retried + failed.length).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(twice).toEqual([]);
    expect(history.filter((r) => r.error?.includes('deadline'))).toEqual([]);
  });
});
