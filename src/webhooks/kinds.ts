// Which kind of delivery a body is, and the keys the receiver needs from it: the dedup key, the
// event's type and time, and the scope its staleness is judged in. The receiver's pipeline knows
// nothing of payload shapes beyond this seam: a new kind (or a custom-body template) is a new
// reader, not a new branch in the pipeline.

import { checkPayload, type PayloadProblem } from './payload.js';
import type { WebhookEvent } from './types.js';

/** Longest `event_id` accepted (400 beyond): ids are opaque, the documented ones are 32 characters. */
export const MAX_EVENT_ID_LENGTH = 256;

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
export type ReadResult = { ok: true; event: WebhookEvent; keys: DeliveryKeys } | { ok: false; problem: PayloadProblem };

/** Reads a parsed body as a delivery. Pure and synchronous: it runs on every delivery. */
export type PayloadReader = (body: unknown) => ReadResult;

/** The default payload of the incident webhook (the spec's "Events" section). */
export const readDefaultPayload: PayloadReader = (body) => {
  const problem = checkPayload(body);
  if (problem) return { ok: false, problem };
  const event = body as WebhookEvent;
  if (event.event_id.length > MAX_EVENT_ID_LENGTH) {
    return { ok: false, problem: { path: 'event_id', message: `longer than ${MAX_EVENT_ID_LENGTH} characters` } };
  }
  return {
    ok: true,
    event,
    keys: {
      eventId: event.event_id,
      eventType: event.event_type,
      eventTime: event.event_time,
      scope: `incident:${event.incident.incident_id}`,
    },
  };
};
