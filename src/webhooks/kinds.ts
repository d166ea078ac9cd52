// Which kind of delivery a body is, and the keys the receiver needs from it: the dedup key, the
// event's type and time, and the scope its staleness is judged in. The receiver's pipeline knows
// nothing of payload shapes beyond this seam: a new kind (or a custom-body template) is a new
// reader, not a new branch in the pipeline.

import type { Problem } from '../core/problem.js';
import { validKind } from './payload.js';
import { findProblem } from './payload-problems.js';
import { loader, withLoaded } from '../internal/lazy.js';
import { NOTHING } from '../internal/maybe.js';
import type { WebhookEvent } from './types.js';

/** What the receiver takes from a valid delivery. */
export interface DeliveryKeys {
  /** The dedup key: deliveries with the same one run the handlers once. */
  eventId: string;
  eventType: string;
  /** Milliseconds since the epoch. */
  eventTime: number;
  /**
   * Where staleness is judged: `incident:<id>` or `alert:<id>`; an older event than one already
   * accepted in the same scope is stale. `undefined`: no staleness check.
   */
  scope: string | undefined;
}

/** A body read as a delivery: its keys and the event handed to handlers, or the first problem. */
export type ReadResult<E = WebhookEvent> = { ok: true; event: E; keys: DeliveryKeys } | { ok: false; problem: Problem };

/** Reads a parsed body as a delivery. Pure and synchronous: it runs on every delivery. */
export type PayloadReader<E = WebhookEvent> = (body: unknown) => ReadResult<E>;

/** @internal What the receiver reads deliveries with: a reader's result, at once or once its code has loaded. */
export type DeliveryReader = (body: unknown) => ReadResult | Promise<ReadResult>;

/**
 * The default payload of every kind: incident events (the spec's "Events" section), custom actions
 * (`event_id` at the top or inside `incident`), alert events (`alert` in place of `incident`,
 * staleness per alert) and kinds added later (dedup on `event_id`, no staleness).
 */
export const readDefaultPayload: PayloadReader = (body) => readValid(body) ?? invalid(findProblem(body));

/** The explanations of invalid payloads. */
const loadProblems = /* @__PURE__ */ loader(() => import('./payload-problems.js'));

/**
 * @internal {@link readDefaultPayload} as the receiver runs it: what is wrong with an invalid body
 * is explained by code that loads with the first one (a valid delivery never needs it).
 */
export const readDelivery: DeliveryReader = (body) =>
  readValid(body) ?? withLoaded(loadProblems, (problems) => invalid(problems.findProblem(body)));

/** @internal Where refused JSON text stops being JSON, by code that loads with the first such body. */
export const malformedAt = (text: string): number | Promise<number> =>
  withLoaded(loadProblems, (problems) => problems.jsonErrorAt(text));

/** @internal Whether JSON text nests deeper than `limit`, by code that loads with the first body that may. */
export const nestsDeeper = (text: string, limit: number): boolean | Promise<boolean> =>
  withLoaded(loadProblems, (problems) => problems.nestedDeeper(text, limit));

/**
 * @internal A reader whose code loads apart: the load starts now, and deliveries that come before
 * it is done wait for it. A load that fails rejects the deliveries waiting on it (the receiver
 * answers them 503, so the sender retries) and is tried again by the next delivery.
 */
export function loadingReader(load: () => Promise<PayloadReader>): DeliveryReader {
  const loadReader = loader(load);
  loadReader().catch(NOTHING); // a failure now is met by the first delivery, which tries again
  return (body) => withLoaded(loadReader, (read) => read(body));
}

function invalid(problem: Problem | undefined): ReadResult {
  return { ok: false, problem: problem ?? { path: '', message: 'invalid payload' } };
}

/** A valid body's event and keys; `undefined` for an invalid one. */
function readValid(body: unknown): ReadResult | undefined {
  const kind = validKind(body);
  if (kind === undefined) return undefined;
  const raw = body as Record<string, unknown> & { event_type: string; event_time: number };
  let event = raw as unknown as WebhookEvent;
  let scope: string | undefined;
  if (kind === 'incident') {
    const incident = raw.incident as { incident_id: string; event_id?: string };
    scope = `incident:${incident.incident_id}`;
    // A custom action may carry its id inside `incident`: handlers always find it at the top.
    if (raw.event_id === undefined) event = { ...raw, event_id: incident.event_id } as WebhookEvent;
  } else if (kind === 'alert') {
    scope = `alert:${(raw.alert as { alert_id: string }).alert_id}`;
  }
  return {
    ok: true,
    event,
    keys: { eventId: event.event_id, eventType: raw.event_type, eventTime: raw.event_time, scope },
  };
}
