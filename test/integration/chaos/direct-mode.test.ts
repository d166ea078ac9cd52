// What the mode without a queue loses, measured: handlers run in the receiving process, so a crash
// after the answer loses what was still running, and a handler failure answers 500, which the
// sender never retries (only replay from the history recovers it). The queue mode's tests
// (queue-mode.test.ts) show the same faults losing nothing there.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Cluster } from '../support/cluster.js';
import { plan } from '../support/plan.js';
import { drive, labelEvent, ownIncidents, replayGaveUp } from '../support/scenario.js';
import { Sender } from '../support/sender.js';
import { figure } from '../stress/scale.js';

const EVENTS = 20;
let cluster: Cluster;
beforeAll(async () => {
  cluster = await Cluster.start({ mode: 'direct', replicas: 1, ackTimeoutMs: 1_000 });
}, 60_000);
afterAll(() => cluster?.close());
beforeEach(() => {
  cluster.sender = new Sender(cluster.frontDoor.url);
});

/** `EVENTS` deliveries, one per incident (no staleness in the way), none duplicated. */
function events(label: string, name: string, value: number) {
  const p = plan(EVENTS * 1.2, EVENTS, label);
  p.batches = [p.events.map((_, i) => i)];
  ownIncidents(p);
  p.events.forEach((e) => labelEvent(e, name, value));
  return p;
}

/** The same, ten events an incident sent in time order one after another, the first of each failing once. */
function sharedIncidents(label: string) {
  const p = plan(EVENTS * 1.2, EVENTS, label);
  p.batches = [...p.events.keys()]
    .sort((a, b) => (p.events[a]?.event_time ?? 0) - (p.events[b]?.event_time ?? 0))
    .map((i) => [i]);
  p.events.forEach((e) => e.event_type === 'i_new' && labelEvent(e, 'chaos_fail', 1));
  return p;
}

describe('without a queue', { timeout: 60_000 }, () => {
  it('a handler that fails answers 500; the sender never retries it; only a replay recovers the event', async () => {
    const p = events('direct-fail', 'chaos_fail', 1);
    await drive(cluster, p);
    const summary = cluster.sender.summary();
    figure(
      'no queue, handlers failing once',
      `${EVENTS} deliveries: ${summary.non200} answered with an error, ${summary.retried} retried by the sender, ${summary.gaveUp.length} given up`,
    );
    expect(summary.non200).toBe(EVENTS);
    expect(summary.retried).toBe(0);
    expect(summary.gaveUp).toHaveLength(EVENTS);
    expect(await replayGaveUp(cluster)).toBe(EVENTS);
    await cluster.settle();
    const { successes } = await cluster.outcomes(p.events.map((e) => e.event_id));
    expect([...successes.values()]).toEqual(p.events.map(() => 1));
  });

  it('a 500 replayed after its incident moved on is handled, not dropped as stale', async () => {
    const p = sharedIncidents('direct-moved-on');
    await drive(cluster, p);
    const summary = cluster.sender.summary();
    const failing = p.events.filter((e) => e.event_type === 'i_new');
    expect(summary.non200).toBe(failing.length); // the first event of each incident, answered 500
    expect(await replayGaveUp(cluster)).toBe(failing.length);
    await cluster.settle();
    const { successes, stale } = await cluster.outcomes(p.events.map((e) => e.event_id));
    figure(
      'no queue, a 500 replayed after newer events of its incident were handled',
      `${failing.length} replayed, ${failing.filter((e) => successes.get(e.event_id) === 1).length} handled, ${stale.size} stale`,
    );
    expect([...successes.values()]).toEqual(p.events.map(() => 1));
    expect(stale.size).toBe(0);
  });

  it('a crash after the answer loses every event whose handler still ran: measured', async () => {
    // Handlers take 3 s; the receiver answers 200 at its 1 s deadline; then the replica dies. Once
    // the ledger has dropped its connection, nothing the replica recorded is still on the way: no
    // handler of it can succeed after that, so the counts are final (no need to sit out the 3 s).
    const p = events('direct-crash', 'chaos_hold_ms', 3_000);
    await drive(cluster, p);
    const summary = cluster.sender.summary();
    const victim = cluster.replicas[0];
    if (!victim) throw new Error('no replica');
    expect(await cluster.ledgerConnected(victim)).toBe(true); // so that its drop below says something
    await cluster.kill(victim);
    await cluster.ledgerDropped(victim);
    const { attempts, successes } = await cluster.outcomes(p.events.map((e) => e.event_id));
    const lost = p.events.filter((e) => !successes.has(e.event_id)).length;
    figure(
      'no queue, a crash after the answer',
      `${summary.ok} of ${EVENTS} deliveries answered 200, ${attempts.size} handlers started, ${lost} events lost (the sender counts them delivered; not in its failed history)`,
    );
    expect(summary.ok).toBe(EVENTS);
    expect(attempts.size).toBe(EVENTS);
    expect(lost).toBe(EVENTS);
    expect(summary.maxAnswerMs).toBeLessThan(2_000);
  });
});
