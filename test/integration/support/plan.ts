// A stream of deliveries as the sender makes them under load, and the check that none was lost.
// Shared by the load stress test and the chaos tests.
import { expect } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import type { IncidentWebhookEventOf } from '../../../src/webhooks/index.js';
import { NOW } from '../../helpers.js';

export interface Plan {
  events: Array<IncidentWebhookEventOf<string>>;
  /** Batches of deliveries sent concurrently, in order; a delivery is an index into `events`. */
  batches: number[][];
  duplicates: number;
  reordered: number;
}

/**
 * `total` deliveries: unique events (10 per incident, in time order), 20% duplicates (half in the
 * same concurrent batch as the original, half later) and 10% of events swapped with the one before
 * (an older event arriving after a newer one). `label` tags every event's incident (labels.run),
 * so that runs sharing a Redis never share an incident.
 */
export function plan(total: number, batchSize = 40, label = 'load'): Plan {
  const unique = Math.round(total / 1.2);
  const perIncident = 10;
  const events: Array<IncidentWebhookEventOf<string>> = [];
  const base = NOW * 1000;
  const salt = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0');
  for (let i = 0; i < unique; i++) {
    const incident = Math.floor(i / perIncident);
    events.push(
      buildWebhookEvent(i % perIncident === 0 ? 'i_new' : 'i_comm', {
        event_time: base + (i % perIncident) * 1000,
        incident: { incident_id: `${salt}${incident.toString(16).padStart(18, '0')}`, labels: { run: label } },
      }),
    );
  }
  // Interleave incidents, keeping each incident's events in time order.
  const order: number[] = [];
  for (let step = 0; step < perIncident; step++) for (let i = step; i < unique; i += perIncident) order.push(i);
  let reordered = 0;
  for (let k = 1; k < order.length && reordered < unique * 0.1; k += 10) {
    const j = order.indexOf((order[k] as number) - 1);
    if (j >= 0 && (order[k] as number) % perIncident !== 0) {
      [order[j], order[k]] = [order[k] as number, order[j] as number];
      reordered++;
    }
  }
  const batches: number[][] = [];
  for (let k = 0; k < order.length; k += batchSize) batches.push(order.slice(k, k + batchSize));
  const duplicates = total - unique;
  for (let d = 0; d < duplicates; d++) {
    const b = (d * 7919) % batches.length;
    const batch = batches[b] as number[];
    const original = batch[d % batch.length] as number;
    if (d % 2 === 0)
      batch.push(original); // concurrent with the original
    else (batches[Math.min(batches.length - 1, b + 1 + (d % 5))] as number[]).push(original); // later
  }
  return { events, batches, duplicates, reordered };
}

/** Unique events that were neither handled nor dropped as stale. */
export function lostEvents(p: Plan, handled: Iterable<string>, stale: Iterable<string>): string[] {
  const handledSet = new Set(handled);
  const staleSet = new Set(stale);
  return p.events.filter((e) => !handledSet.has(e.event_id) && !staleSet.has(e.event_id)).map((e) => e.event_id);
}

/**
 * Stale drops that lost an event: it was not handled, and no newer event of its incident was.
 * (An event handled and then also reported stale, e.g. when its job ran again after its worker
 * died between the handler's success and the job's completion, is not lost: see staleAfterSuccess.)
 */
export function wronglyStale(p: Plan, handled: Iterable<string>, stale: Iterable<string>): string[] {
  const byId = new Map(p.events.map((e) => [e.event_id, e]));
  const handledSet = new Set(handled);
  const newestHandled = new Map<string, number>();
  for (const id of handledSet) {
    const e = byId.get(id);
    if (e)
      newestHandled.set(e.incident.incident_id, Math.max(newestHandled.get(e.incident.incident_id) ?? 0, e.event_time));
  }
  return [...new Set(stale)].filter((id) => {
    const e = byId.get(id);
    return !e || (!handledSet.has(id) && (newestHandled.get(e.incident.incident_id) ?? 0) <= e.event_time);
  });
}

/** Events reported stale although their handler had succeeded. */
export function staleAfterSuccess(handled: Iterable<string>, stale: Iterable<string>): string[] {
  const handledSet = new Set(handled);
  return [...new Set(stale)].filter((id) => handledSet.has(id));
}

/** Every unique event handled exactly once, or dropped as stale because a newer one of its incident was handled. */
export function verify(p: Plan, handled: string[], stale: string[]): void {
  expect(new Set(handled).size).toBe(handled.length); // exactly once
  expect(lostEvents(p, handled, stale)).toEqual([]);
  expect(wronglyStale(p, handled, stale)).toEqual([]);
  expect(staleAfterSuccess(handled, stale)).toEqual([]);
}
