// A Redis failover under a stream of deliveries, in queue mode: a primary with one replica and a
// Sentinel; receiver replicas and BullMQ workers in their own processes reach Redis through the
// Sentinel. The primary is killed (kill -9) mid-stream and the Sentinel promotes the replica; the old primary
// returns as a replica of the new one. Counted:
// events answered 200 and never handled. Without waitForReplicas that may be more than zero (Redis
// replicates asynchronously): printed, not asserted. With `waitForReplicas: 1`: zero, and no answer
// after the sender's deadline; what the sender gave up on meanwhile is replayed, as from the history.
import { afterEach, describe, expect, it } from 'vitest';
import { Cluster } from '../support/cluster.js';
import { plan } from '../support/plan.js';
import { count, describeCounts, drive, ownIncidents, replayGaveUp } from '../support/scenario.js';
import { figure, scale } from '../stress/scale.js';
import { sleep } from '../../helpers.js';

const SIZE = scale(240, 1_500);
/** How long the killed primary stays down (the Sentinel fails over after 1 s). */
const PRIMARY_DOWN_MS = 4_000;
let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

for (const waitForReplicas of [0, 1]) {
  describe(`failover with waitForReplicas: ${waitForReplicas}`, { timeout: 180_000 }, () => {
    it('the primary killed mid-stream, the replica promoted', async () => {
      cluster = await Cluster.start({
        mode: 'queue',
        replicas: 2,
        workers: 2,
        ackTimeoutMs: 1_500,
        handlers: { holdMs: 5 },
        failover: { waitForReplicas },
      });
      const current = cluster;
      const p = plan(SIZE, 20, `failover-${waitForReplicas}`);
      ownIncidents(p); // every event must be handled: none may turn stale behind a newer one
      const batches = p.batches.length;
      // The old primary comes back a few seconds later, and the Sentinel makes it a replica of the
      // new one (with one replica only, the promoted primary has none until then: waitForReplicas
      // refuses deliveries meanwhile, and the sender's retries and the replay bring them in after).
      // Down for PRIMARY_DOWN_MS of real time (the outage the stream goes through, by design), and
      // at least until the Sentinel promoted the replica, however long that takes on this machine.
      const failover = async () => {
        await current.redis.kill();
        await Promise.all([sleep(PRIMARY_DOWN_MS), current.failedOver()]);
        await current.redis.start();
      };
      await drive(current, p, [{ atBatch: Math.floor(batches / 3), act: failover }]);
      await replayGaveUp(current);
      await current.settle(120_000);
      const c = await count(current, p);
      figure(
        `failover, waitForReplicas ${waitForReplicas}`,
        `${describeCounts(c)}; ${c.lostAccepted} accepted and never handled`,
      );
      expect(c.lateAnswers).toBe(0);
      if (waitForReplicas > 0) {
        expect(c.lostAccepted).toBe(0);
        expect(c.lostAfterReplay).toBe(0);
      }
    });
  });
}
