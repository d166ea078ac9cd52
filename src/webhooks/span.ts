// The receiver's spans, in one place: a delivery is a `flashduty.webhook.receive` span and a job of
// `processor()` a `flashduty.webhook.process` span, each the parent of the handlers' spans, with the
// same attributes (the outcome, the event, the reply's status; `error.type` when rejected). With no
// tracer provider registered, a delivery pays one property read; with one, OpenTelemetry's code
// (internal/otel-spans.ts) loads with the first span.
// A span keeps the event type as sent (a type the SDK does not know yet is worth seeing in a trace,
// where metrics say `_OTHER`), but no longer than an id may be: whatever the sender sends, a span
// holds at most MAX_ID_LENGTH characters of it (the event id is checked to that length already).

import { loadSpans, otelRegistry } from '../internal/otel.js';
import type { Attributes } from '../internal/otel-spans.js';
import { messageOf } from './handlers.js';
import { kindOf, MAX_ID_LENGTH } from './payload.js';
import { CustomBodyEvent, type WebhookEvent } from './types.js';

/** What became of a delivery or a job, as its span records it. */
export interface Traced {
  outcome: 'accepted' | 'duplicate' | 'stale' | 'rejected' | 'unrecorded';
  event?: WebhookEvent | undefined;
  /** The reply's status (deliveries; jobs have none). */
  status?: number;
  /** Why it was rejected, as the sender is told. */
  reason?: string | undefined;
  /** What failed on this side. */
  error?: unknown;
}

/**
 * `run()` inside a span named `name` when a tracer provider is registered, else just `run()`. The
 * span ends with what it resolved to, or with `failure(error)` when it throws (the error is thrown
 * on).
 */
export async function traced<T extends Traced>(
  name: string,
  run: () => Promise<T>,
  failure: (error: unknown) => Traced,
): Promise<T> {
  const otel = otelRegistry();
  if (!otel) return run();
  const span = (await loadSpans()).startSpan(otel, name);
  if (!span) return run();
  try {
    const result = await span.run(run);
    span.end(attributesOf(result), result.error === undefined ? result.reason : messageOf(result.error));
    return result;
  } catch (error) {
    span.end(attributesOf(failure(error)), messageOf(error));
    throw error;
  }
}

/**
 * The span's attributes; a rejected delivery's `error.type` is its status, as HTTP's semantic
 * conventions name a failed response, a rejected job's the class of what it threw.
 */
function attributesOf({ outcome, event, status, error }: Traced): Attributes {
  const errorType = status !== undefined ? String(status) : ((error as Error | undefined)?.name ?? 'Error');
  return {
    'flashduty.webhook.outcome': outcome,
    'flashduty.webhook.event_type': event && cut(event.event_type),
    'flashduty.webhook.event_id': event?.event_id,
    'flashduty.webhook.kind':
      event === undefined
        ? undefined
        : event instanceof CustomBodyEvent
          ? 'custom_body'
          : kindOf(event as object as Record<string, unknown>),
    'http.response.status_code': status,
    'error.type': outcome === 'rejected' || outcome === 'unrecorded' ? errorType : undefined,
  };
}

/**
 * `value`, or its first MAX_ID_LENGTH - 1 characters and `…` when it is longer (never half of a
 * surrogate pair).
 */
function cut(value: string): string {
  if (value.length <= MAX_ID_LENGTH) return value;
  const end = /[\uD800-\uDBFF]/.test(value.charAt(MAX_ID_LENGTH - 2)) ? MAX_ID_LENGTH - 2 : MAX_ID_LENGTH - 1;
  return `${value.slice(0, end)}…`;
}
