// The chaos tests' ledger: handlers in replicas and workers record what they did in a Redis of its
// own (never paused, killed or restarted), keyed by event id, and tests read the counts from it.
// Handlers fail on purpose, deterministically: an event whose incident has `labels.chaos_fail = N`
// fails its first N attempts; with `failPercent`, a share of the other events (chosen by a hash of
// the id) fails its first attempt. `labels.chaos_hold_ms` (or `holdMs`) keeps a handler busy, so a
// test can kill its process mid-handler: `inside:<pid>` counts the handlers inside a process.
import { Redis } from 'ioredis';
import type { WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';

/** What handlers record, per event id. */
export const LEDGER = {
  attempts: 'attempts',
  successes: 'successes',
  stale: 'stale',
  duplicate: 'duplicate',
  failures: 'failures',
  who: 'who',
} as const;

export interface HandlerPlan {
  /** Share of events (0..100) whose first attempt fails, chosen by a hash of the event id. */
  failPercent?: number;
  /** Longest time a handler takes (a random share of it), when the event does not say. */
  holdMs?: number;
}

/** A stable pseudo-random number 0..99 from an id (FNV-1a). */
export function percentOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return hash % 100;
}

const label = (event: WebhookEvent, name: string): number => {
  const value = (event.incident as { labels?: Record<string, unknown> } | undefined)?.labels?.[name];
  return value === undefined ? Number.NaN : Number(value);
};

/** How many of its first attempts an event's handler fails. */
export function plannedFailures(event: WebhookEvent, plan: HandlerPlan): number {
  const labelled = label(event, 'chaos_fail');
  if (!Number.isNaN(labelled)) return labelled;
  return percentOf(event.event_id) < (plan.failPercent ?? 0) ? 1 : 0;
}

/** The name of a process's connection to the ledger (see `connectLedger`). */
export const ledgerConnectionName = (pid: number): string => `ledger-${pid}`;

/**
 * A replica's or worker's connection to the ledger, named after its pid: once the ledger no longer
 * lists it (CLIENT LIST), everything the process sent has been applied (Cluster.ledgerDropped).
 */
export function connectLedger(port: number): Redis {
  const ledger = new Redis(port, '127.0.0.1', { connectionName: ledgerConnectionName(process.pid) });
  // A scenario that restarts Redis drops this connection too: ioredis reconnects and sends what it
  // queued meanwhile, so nothing is lost; without a listener it only printed each failed connect.
  ledger.on('error', () => {});
  return ledger;
}

/** Registers the recording handlers on a receiver (in whatever process runs them). */
export function recordOutcomes(receiver: WebhookReceiver, ledger: Redis, plan: HandlerPlan): void {
  const inside = `inside:${process.pid}`;
  receiver.on('event', async (event) => {
    const id = event.event_id;
    const attempt = await ledger.hincrby(LEDGER.attempts, id, 1);
    if (attempt <= plannedFailures(event, plan)) {
      await ledger.hincrby(LEDGER.failures, id, 1);
      throw new Error(`planned failure ${attempt} of ${id}`);
    }
    const labelled = label(event, 'chaos_hold_ms');
    const hold = Number.isNaN(labelled) ? Math.random() * (plan.holdMs ?? 0) : labelled;
    if (hold > 0) {
      await ledger.incr(inside);
      await new Promise((resolve) => setTimeout(resolve, hold));
      await ledger.decr(inside);
    }
    // The last thing the handler does, in one round trip: the success, and which process had it
    // when (to tell how an event came to be handled twice).
    await ledger.eval(
      "local n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1); redis.call('HSET', KEYS[2], ARGV[1] .. '#' .. n, ARGV[2]); return n",
      2,
      LEDGER.successes,
      LEDGER.who,
      id,
      `pid ${process.pid} at ${Date.now()}`,
    );
  });
  receiver.on('stale', (event) => void ledger.hincrby(LEDGER.stale, event.event_id, 1));
  receiver.on('duplicate', (event) => void ledger.hincrby(LEDGER.duplicate, event.event_id, 1));
}

/** Per event id, the counts the handlers recorded. */
export interface Outcomes {
  attempts: Map<string, number>;
  successes: Map<string, number>;
  stale: Set<string>;
}

/** The pid of the process that had an event's first success. */
export async function firstSuccessPid(ledger: Redis, id: string): Promise<number> {
  return Number(/pid (\d+)/.exec((await ledger.hget(LEDGER.who, `${id}#1`)) ?? '')?.[1]);
}

/** For an event handled more than once: which process succeeded when, and how many attempts it had. */
export async function describeTwice(ledger: Redis, id: string): Promise<string> {
  const n = Number(await ledger.hget(LEDGER.successes, id));
  const who = n > 0 ? await ledger.hmget(LEDGER.who, ...Array.from({ length: n }, (_, i) => `${id}#${i + 1}`)) : [];
  return `${id}: ${await ledger.hget(LEDGER.attempts, id)} attempts, successes by ${who.join(', ')}`;
}

/** Reads the ledger for these event ids. */
export async function readOutcomes(ledger: Redis, ids: string[]): Promise<Outcomes> {
  const read = async (key: string) => {
    const out = new Map<string, number>();
    for (let k = 0; k < ids.length; k += 5000) {
      const chunk = ids.slice(k, k + 5000);
      const values = chunk.length ? await ledger.hmget(key, ...chunk) : [];
      values.forEach((v, i) => v !== null && out.set(chunk[i] as string, Number(v)));
    }
    return out;
  };
  return {
    attempts: await read(LEDGER.attempts),
    successes: await read(LEDGER.successes),
    stale: new Set((await read(LEDGER.stale)).keys()),
  };
}
