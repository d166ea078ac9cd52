// One chaos run: a plan of deliveries sent through a cluster's front door by the sender, faults
// injected at chosen points, the sender's failed deliveries replayed once the faults are over (as
// replayFromHistory would), and the counts every chaos test asserts on.
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { buildDelivery } from '../../../src/testing/index.js';
import { jobIdFor } from '../../../src/webhooks/index.js';
import type { Cluster } from './cluster.js';
import { describeTwice, firstSuccessPid } from './ledger.js';
import { lostEvents, type Plan, staleAfterSuccess, wronglyStale } from './plan.js';

/** A fault to inject when the sender reaches batch `atBatch`; the run goes on while it acts. */
export interface Fault {
  atBatch: number;
  act(): Promise<void>;
}

/** The counts of a run. */
export interface Counts {
  deliveries: number;
  /** Unique events with at least one delivery answered 200. */
  accepted: number;
  /** Unique events whose handler succeeded exactly once / more than once. */
  handledOnce: number;
  handledTwice: number;
  /** For each event handled twice for no process's death: which processes succeeded when (must be none). */
  twice: string[];
  /**
   * Events handled twice because the process of their first success was killed before it recorded
   * the completion (at-least-once: the re-run cannot know the handler's effects happened).
   */
  twiceAfterKill: string[];
  /** Accepted events that were neither handled nor dropped as stale. */
  lostAccepted: number;
  /** Events dropped as stale, and of those, ones with no newer event handled (must be 0). */
  stale: number;
  wronglyStale: number;
  /**
   * Events whose handler ran (an event judged fresh) and never succeeded, after the replay: an
   * accepted event dropped as stale on its retry counts here, not as stale (must be 0).
   */
  ranNeverSucceeded: string[];
  /** Events handled to success and then also reported stale (a re-run job after its worker died; not a loss). */
  staleAfterSuccess: string[];
  /** Deliveries the sender gave up on (recovered by replay from the history). */
  gaveUp: number;
  /** Retries the sender made (after EOF). */
  retried: number;
  /** Attempts that got no answer by the sender's deadline, and answers that came after it. */
  deadlineHits: number;
  lateAnswers: number;
  /** For each deadline hit: when the connection ended after all (ms after the request; -1: not within 5 s). */
  lateEnds: number[];
  maxAnswerMs: number;
  /** After the replay: events neither handled nor rightly stale. */
  lostAfterReplay: number;
  /** What the ledger, BullMQ, the store and the sender saw of each lost or wrongly stale event. */
  explained: string[];
  /** Jobs left in BullMQ's failed set. */
  failedJobs: number;
}

/** Sends the plan's batches in order (each batch at once), injecting faults as it goes. */
export async function drive(cluster: Cluster, p: Plan, faults: Fault[] = []): Promise<void> {
  const running: Array<Promise<void>> = [];
  for (const [index, batch] of p.batches.entries()) {
    for (const fault of faults) if (fault.atBatch === index) running.push(fault.act());
    await Promise.all(
      batch.map((i) => {
        const event = p.events[i];
        if (!event) throw new Error(`no event ${i}`);
        return cluster.sender.deliver(event.event_id, buildDelivery(event).body);
      }),
    );
  }
  await Promise.all(running);
}

/** Replays every delivery the sender gave up on, as replayFromHistory would, until none is left (at most 3 rounds). */
export async function replayGaveUp(cluster: Cluster): Promise<number> {
  const replayed = new Set<string>();
  for (let round = 0; round < 3; round++) {
    const failed = cluster.sender.deliveries.filter((d) => !d.ok && !replayed.has(d.eventId));
    if (failed.length === 0) break;
    for (const d of failed) {
      const again = await cluster.sender.deliver(d.eventId, d.body);
      if (again.ok) replayed.add(d.eventId);
    }
  }
  return replayed.size;
}

/** Settles the cluster, counts what happened, replays what the sender gave up on, settles and counts again. */
export async function count(cluster: Cluster, p: Plan): Promise<Counts> {
  await cluster.settle();
  await cluster.sender.settled();
  const ids = p.events.map((e) => e.event_id);
  const summary = cluster.sender.summary();
  const acceptedIds = new Set(cluster.sender.deliveries.filter((d) => d.ok).map((d) => d.eventId));
  const before = await cluster.outcomes(ids);
  const handledBefore = [...before.successes.keys()];
  const lostAccepted = lostEvents(p, handledBefore, before.stale).filter((id) => acceptedIds.has(id)).length;
  const replayed = await replayGaveUp(cluster);
  const failedJobs = replayed > 0 ? await cluster.settle() : await cluster.failedJobs();
  await cluster.sender.settled();
  const after = await cluster.outcomes(ids);
  const handled = [...after.successes.keys()];
  const successes = [...after.successes.values()];
  const final = cluster.sender.summary();
  const suspects = [...new Set([...lostEvents(p, handled, after.stale), ...wronglyStale(p, handled, after.stale)])];
  const explained = await Promise.all(suspects.slice(0, 10).map((id) => explain(cluster, p, id)));
  const twiceIds = [...after.successes].filter(([, n]) => n > 1).map(([id]) => id);
  const killedFirst = new Set<string>();
  for (const id of twiceIds) if (cluster.killed.has(await firstSuccessPid(cluster.ledger, id))) killedFirst.add(id);
  const twice = await Promise.all(
    twiceIds.filter((id) => !killedFirst.has(id)).map((id) => describeTwice(cluster.ledger, id)),
  );
  const twiceAfterKill = await Promise.all([...killedFirst].map((id) => describeTwice(cluster.ledger, id)));
  return {
    deliveries: summary.deliveries,
    accepted: acceptedIds.size,
    handledOnce: successes.filter((n) => n === 1).length,
    handledTwice: successes.filter((n) => n > 1).length,
    twice,
    twiceAfterKill,
    lostAccepted,
    stale: after.stale.size,
    wronglyStale: wronglyStale(p, handled, after.stale).length,
    ranNeverSucceeded: [...after.attempts.keys()].filter((id) => !after.successes.has(id)),
    staleAfterSuccess: staleAfterSuccess(handled, after.stale),
    gaveUp: summary.gaveUp.length,
    retried: summary.retried,
    deadlineHits: final.deadlineHits,
    lateAnswers: final.lateAnswers,
    lateEnds: final.lateEnds,
    maxAnswerMs: final.maxAnswerMs,
    lostAfterReplay: lostEvents(p, handled, after.stale).length,
    explained,
    failedJobs,
  };
}

/** The counts as one line for the test output. */
export const describeCounts = (c: Counts): string =>
  `${c.deliveries} deliveries, ${c.accepted} events accepted, ${c.handledOnce} handled once, ${c.handledTwice} twice (${c.twiceAfterKill.length} after their worker was killed), ` +
  `${c.lostAccepted} accepted and lost, ${c.stale} stale (${c.wronglyStale} wrongly, ${c.staleAfterSuccess.length} after their success), ${c.retried} retried after EOF, ` +
  `${c.gaveUp} given up by the sender (replayed), ${c.lostAfterReplay} lost after replay, ${c.deadlineHits} deadline hits, ` +
  `${c.lateAnswers} late answers, slowest answer ${c.maxAnswerMs} ms, ${c.failedJobs} failed jobs` +
  (c.twice.length ? `; handled twice: ${c.twice.join('; ')}` : '') +
  (c.twiceAfterKill.length
    ? `; handled again after the worker of their first success was killed: ${c.twiceAfterKill.join('; ')}`
    : '') +
  (c.explained.length ? `; lost or wrongly stale: ${c.explained.join(' | ')}` : '') +
  (c.lateEnds.length ? `; deadline hits ended at ${c.lateEnds.join(', ')} ms` : '');

/** Sets `labels[name]` on an event's incident (the handlers read chaos_fail and chaos_hold_ms there). */
export function labelEvent(
  event: { incident: { labels?: Record<string, string> } },
  name: string,
  value: number,
): void {
  event.incident.labels = { ...event.incident.labels, [name]: String(value) };
}

/** Gives every event an incident of its own: for tests that need every event handled, none rightly stale. */
export function ownIncidents(p: Plan): void {
  for (const e of p.events) e.incident.incident_id = e.event_id.slice(0, 24);
}

/** What every queue-mode run must show, whatever the fault. */
export function expectNothingLost(c: Counts): void {
  expect(c.twice).toEqual([]);
  expect(c.explained).toEqual([]);
  // Only a kill -9 in the instant between a handler's success and the claim's completion may run
  // a handler twice (delivery to handlers is at least once; docs/webhooks.md).
  expect(c.handledTwice).toBe(c.twiceAfterKill.length);
  expect(c.lostAccepted).toBe(0);
  expect(c.lostAfterReplay).toBe(0);
  expect(c.wronglyStale).toBe(0);
  expect(c.ranNeverSucceeded).toEqual([]);
  expect(c.deadlineHits).toBe(0);
  expect(c.lateAnswers).toBe(0);
  expect(c.failedJobs).toBe(0);
}

/** Everything known about one event, to find out how it was lost. */
async function explain(cluster: Cluster, p: Plan, id: string): Promise<string> {
  const event = p.events.find((e) => e.event_id === id);
  const ledger = await Promise.all(
    ['attempts', 'successes', 'stale', 'duplicate', 'failures'].map(
      async (k) => `${k}=${await cluster.ledger.hget(k, id)}`,
    ),
  );
  const job = cluster.queue ? await cluster.queue.getJob(jobIdFor(id)) : undefined;
  const jobState = job
    ? `job ${await job.getState()} attemptsMade=${job.attemptsMade} stalled=${job.stalledCounter} failedReason=${job.failedReason} processedOn=${job.processedOn} finishedOn=${job.finishedOn}`
    : 'no job';
  const client = new Redis(cluster.redis.port, '127.0.0.1');
  const stored = await client.get(`${cluster.config.keyPrefix}event:${id}`);
  await client.quit();
  const sent = cluster.sender.deliveries
    .filter((d) => d.eventId === id)
    .map((d) =>
      d.attempts
        .map(
          (a) => `${a.outcome.kind}${a.outcome.kind === 'answer' ? a.outcome.status : ''}@${Math.round(a.latencyMs)}ms`,
        )
        .join('+'),
    );
  const incident = event?.incident.incident_id;
  const siblings = p.events
    .filter((e) => e.incident.incident_id === incident)
    .map((e) => `${e.event_id.slice(0, 8)}@${e.event_time % 100000}`);
  return `${id} (time ${event ? event.event_time % 100000 : '?'}, incident ${incident} with ${siblings.join(' ')}): ${ledger.join(' ')}; ${jobState}; store=${stored}; sent ${sent.join(', ')}`;
}
