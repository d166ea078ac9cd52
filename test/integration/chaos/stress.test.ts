// The stress scenario: deliveries with 20% duplicates and 10% reordered, handlers failing
// 30% of first attempts, one worker and one replica killed mid-run and Redis restarted once, all in
// queue mode through the front door by the sender's rules. 0 lost, 0 handled twice to success,
// every answer within the deadline. `npm test` runs it reduced; `npm run stress` in full (10,000).
import { afterAll, describe, expect, it } from 'vitest';
import { Cluster } from '../support/cluster.js';
import { percentOf } from '../support/ledger.js';
import { plan } from '../support/plan.js';
import { count, describeCounts, drive, expectNothingLost, type Fault } from '../support/scenario.js';
import { figure, scale } from '../stress/scale.js';

const TOTAL = scale(1_000, 10_000);
const FAIL_PERCENT = 30;
let cluster: Cluster | undefined;
afterAll(() => cluster?.close());

describe('stress: everything at once', () => {
  it(
    `${TOTAL} deliveries, a worker and a replica killed, Redis restarted: 0 lost, none twice but by the kill (at least once), no late answer`,
    { timeout: 600_000 },
    async () => {
      cluster = await Cluster.start({
        mode: 'queue',
        replicas: 2,
        workers: 2,
        ackTimeoutMs: 1_500,
        handlers: { failPercent: FAIL_PERCENT, holdMs: 20 },
      });
      const c0 = cluster;
      const p = plan(TOTAL, 40, 'stress');
      const at = (share: number) => Math.floor(p.batches.length * share);
      const killed: string[] = [];
      const faults: Fault[] = [
        {
          atBatch: at(0.25),
          async act() {
            const worker = c0.workers[0] as (typeof c0.workers)[number];
            await c0.waitForHandlerIn(worker);
            await c0.kill(worker);
            killed.push(`worker ${worker.pid} at ${Date.now()}`);
          },
        },
        {
          atBatch: at(0.5),
          async act() {
            // Redis frozen until a replica holds a delivery that came after (it cannot answer it),
            // so that the replica dies holding deliveries it has not answered.
            c0.redis.freeze();
            const replica = await c0.replicaHolding(c0.frontDoor.opened);
            await c0.kill(replica);
            c0.redis.thaw();
            killed.push(`replica ${replica.pid} at ${Date.now()}`);
          },
        },
        {
          atBatch: at(0.75),
          async act() {
            killed.push(`redis killed at ${Date.now()}`);
            await c0.redis.restart();
            killed.push(`redis back at ${Date.now()}`);
          },
        },
      ];
      const started = Date.now();
      await drive(cluster, p, faults);
      const sent = (Date.now() - started) / 1000;
      const c = await count(cluster, p);
      const { attempts, successes } = await cluster.outcomes(p.events.map((e) => e.event_id));
      const failedFirst = [...attempts.values()].filter((n) => n > 1).length;
      // The planned handler failures took effect: every event chosen to fail its first attempt and
      // handled in the end took a retry. (How many there are depends on which events turned stale,
      // which depends on timing, so the check is per event, not a share.)
      const plannedAndHandled = p.events.filter(
        (e) => percentOf(e.event_id) < FAIL_PERCENT && (successes.get(e.event_id) ?? 0) > 0,
      );
      figure(
        `stress, ${TOTAL} deliveries (${p.duplicates} duplicates, ${p.reordered} reordered)`,
        `sent in ${sent.toFixed(1)} s; killed: ${killed.join(', ')}; ${failedFirst} events whose first attempt failed (then retried)`,
      );
      figure('stress counts', describeCounts(c));
      expect(killed).toHaveLength(4);
      expectNothingLost(c);
      expect(c.accepted + c.gaveUp).toBeGreaterThanOrEqual(p.events.length);
      expect(plannedAndHandled.length).toBeGreaterThan(0);
      expect(plannedAndHandled.filter((e) => (attempts.get(e.event_id) ?? 0) < 2).map((e) => e.event_id)).toEqual([]);
    },
  );
});
