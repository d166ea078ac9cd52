// The receiver's metrics, through `@opentelemetry/api`'s global meter provider (never imported):
//   flashduty.webhook.deliveries        counter: every delivery by its outcome (accepted, duplicate,
//                                       stale, rejected, unrecorded) and event type
//   flashduty.webhook.handler.duration  histogram, s: one event's handlers, `error.type` when they failed
//   flashduty.webhook.jobs              counter: every job of `processor()` by its outcome (rejected:
//                                       a handler failed) and event type
//   flashduty.webhook.queue.wait        histogram, s: from the handoff (the reply) to the job's first start
// With no meter provider registered, each costs one property read and a branch; with one, the
// instruments are made once per provider and every measurement is recorded at once.

import { instruments } from '../internal/otel.js';

/** @internal Bucket bounds in seconds for handler runs and queue waits: 5 ms to 2 min. */
const SECONDS = { explicitBucketBoundaries: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120] };

const receiverInstruments = /* @__PURE__ */ instruments((meter) => ({
  deliveries: meter.createCounter('flashduty.webhook.deliveries'),
  handlerDuration: meter.createHistogram('flashduty.webhook.handler.duration', { unit: 's', advice: SECONDS }),
  jobs: meter.createCounter('flashduty.webhook.jobs'),
  queueWait: meter.createHistogram('flashduty.webhook.queue.wait', { unit: 's', advice: SECONDS }),
}));

/** Counts a delivery by its outcome. */
export function countDelivery(outcome: string, eventType: string | undefined): void {
  receiverInstruments()?.deliveries.add(1, {
    'flashduty.webhook.outcome': outcome,
    'flashduty.webhook.event_type': eventType,
  });
}

/** Counts a job of `processor()` by its outcome. */
export function countJob(outcome: string, eventType: string | undefined): void {
  receiverInstruments()?.jobs.add(1, {
    'flashduty.webhook.outcome': outcome,
    'flashduty.webhook.event_type': eventType,
  });
}

/** Records how long a job waited in the queue before its first start, in seconds. */
export function recordQueueWait(seconds: number, eventType: string): void {
  receiverInstruments()?.queueWait.record(seconds, { 'flashduty.webhook.event_type': eventType });
}

/** Starts timing an event's handlers; the returned function records the run (with its failure, if any). */
export function handlerTimer(eventType: string): ((error?: unknown) => void) | undefined {
  const made = receiverInstruments();
  if (!made) return undefined;
  const started = performance.now();
  return (error) =>
    made.handlerDuration.record((performance.now() - started) / 1000, {
      'flashduty.webhook.event_type': eventType,
      'error.type': error === undefined ? undefined : ((error as Error | null)?.name ?? 'Error'),
    });
}
