// When Redis cannot take a delivery in time, what each adapter gives the sender, from replicas in
// their own processes: node:http and Fastify close the connection without an answer (EOF, which
// the sender retries), fetchHandler answers 503 (an HTTP error: never retried, so the delivery is
// in the sender's failed history for a replay). No adapter answers after the deadline, and
// nothing is handled twice once the replay is done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { Cluster } from '../support/cluster.js';
import { replayGaveUp } from '../support/scenario.js';
import { Sender } from '../support/sender.js';
import { figure } from '../stress/scale.js';

const PER_ADAPTER = 8;
const ADAPTERS = ['node', 'fastify', 'fetch'] as const;
let cluster: Cluster;
beforeAll(async () => {
  cluster = await Cluster.start({ mode: 'queue', replicas: 0, workers: 1, ackTimeoutMs: 1_000 });
  for (const adapter of ADAPTERS) await cluster.startReplica(adapter);
}, 60_000);
afterAll(() => cluster?.close());

describe('Redis frozen past the deadline, per adapter', { timeout: 60_000 }, () => {
  it('node and Fastify close without an answer, fetchHandler answers 503; replay loses nothing', async () => {
    const runs = ADAPTERS.map((adapter, i) => ({
      adapter,
      sender: new Sender(cluster.replicas[i]?.url as string),
      events: Array.from({ length: PER_ADAPTER }, () => buildWebhookEvent('i_new')),
    }));
    // Frozen until every delivery is over, first attempt and retry alike.
    cluster.redis.freeze();
    try {
      await Promise.all(runs.flatMap((r) => r.events.map((e) => r.sender.deliver(e.event_id, buildDelivery(e).body))));
    } finally {
      cluster.redis.thaw();
    }
    const summaries = runs.map((r) => ({ adapter: r.adapter, ...r.sender.summary() }));
    for (const s of summaries)
      figure(
        `Redis frozen, ${s.adapter} adapter`,
        `${s.deliveries} deliveries: ${s.eof} attempts closed without an answer, ${s.non200} answered with an error, ${s.retried} retried, ${s.gaveUp.length} given up, ${s.deadlineHits} deadline hits (connections ended at ${s.lateEnds.join(' ') || '-'} ms), ${s.lateAnswers} late answers`,
      );
    for (const s of summaries) {
      expect(s.gaveUp).toHaveLength(PER_ADAPTER);
      expect(s.deadlineHits).toBe(0);
      expect(s.lateAnswers).toBe(0);
      if (s.adapter === 'fetch') {
        expect([s.non200, s.retried, s.eof]).toEqual([PER_ADAPTER, 0, 0]);
      } else {
        expect([s.non200, s.retried, s.eof]).toEqual([0, PER_ADAPTER, 2 * PER_ADAPTER]);
      }
    }
    // The history replayed, every event is handled exactly once (a job added late, after the
    // answer was given up on, and the replay of the same event are one job).
    for (const r of runs) {
      cluster.sender = r.sender;
      expect(await replayGaveUp(cluster)).toBe(PER_ADAPTER);
    }
    await cluster.settle();
    const ids = runs.flatMap((r) => r.events.map((e) => e.event_id));
    const { successes } = await cluster.outcomes(ids);
    expect(ids.map((id) => successes.get(id))).toEqual(ids.map(() => 1));
  });
});
