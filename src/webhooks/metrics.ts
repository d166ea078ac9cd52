// The receiver's metrics, through `@opentelemetry/api`'s global meter provider (never imported):
//   flashduty.webhook.deliveries        counter: every delivery by its outcome (accepted, duplicate,
//                                       stale, rejected, unrecorded) and event type
//   flashduty.webhook.jobs              counter: every job of `processor()` by its outcome
//   flashduty.webhook.handler.duration  histogram, s: one event's handlers, `error.type` when they failed
//   flashduty.webhook.queue.wait        histogram, s: from the job's handoff (the answer) to its first start
// With no meter provider registered, each costs one property read and a branch.

import { instruments } from '../internal/otel.js';

/** Bucket bounds in seconds for handler runs and queue waits: 5 ms to 2 min. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

const receiverInstruments = /* @__PURE__ */ instruments((meter) => ({
  deliveries: meter.createCounter('flashduty.webhook.deliveries', {
    description: 'Webhook deliveries received, by outcome',
  }),
  jobs: meter.createCounter('flashduty.webhook.jobs', { description: 'Queued webhook events run, by outcome' }),
  handlerDuration: meter.createHistogram('flashduty.webhook.handler.duration', {
    unit: 's',
    description: "How long one event's handlers ran",
    advice: { explicitBucketBoundaries: SECONDS },
  }),
  queueWait: meter.createHistogram('flashduty.webhook.queue.wait', {
    unit: 's',
    description: 'From the answer to the start of the job that handles the event',
    advice: { explicitBucketBoundaries: SECONDS },
  }),
}));

/** Counts a delivery (`jobs`: a job of `processor()`) by its outcome. */
export function countOutcome(counter: 'deliveries' | 'jobs', outcome: string, eventType: string | undefined): void {
  receiverInstruments()?.[counter].add(1, {
    'flashduty.webhook.outcome': outcome,
    'flashduty.webhook.event_type': eventType,
  });
}

/** Starts timing an event's handlers; the returned function records the run (with its failure, if any). */
export function handlerTimer(eventType: string): ((error?: unknown) => void) | undefined {
  const instruments = receiverInstruments();
  if (!instruments) return undefined;
  const started = performance.now();
  return (error) =>
    instruments.handlerDuration.record((performance.now() - started) / 1000, {
      'flashduty.webhook.event_type': eventType,
      'error.type': error === undefined ? undefined : ((error as Error | null)?.name ?? 'Error'),
    });
}

/** Records how long a job waited in the queue before its first start. */
export function recordQueueWait(seconds: number, eventType: string | undefined): void {
  receiverInstruments()?.queueWait.record(Math.max(0, seconds), { 'flashduty.webhook.event_type': eventType });
}
