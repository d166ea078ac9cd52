// The receiver's metrics, through `@opentelemetry/api`'s global meter provider (never imported):
//   flashduty.webhook.deliveries        counter: every delivery by its outcome (accepted, duplicate,
//                                       stale, rejected, unrecorded) and event type
//   flashduty.webhook.handler.duration  histogram, s: one event's handlers, `error.type` when they failed
//   flashduty.webhook.jobs              counter: every job of `processor()` by its outcome (rejected:
//                                       a handler failed, or the job is no delivery) and event type
//   flashduty.webhook.queue.wait        histogram, s: from the handoff (the reply) to the job's first start
// Each instrument has a description and a unit, and every attribute a bounded set of values,
// whatever a sender sends: the event type is one the SDK knows, else `_OTHER`; the recording
// functions bound it, so that no caller can forget to. With no meter provider registered, a
// measurement costs one property read and a branch; with one, the instruments are made once per
// provider. A meter that throws costs the measurement, never the delivery or the job (otel.ts).

import { instruments } from '../internal/otel.js';
import { isServiceEventType } from './payload.js';

/** Bucket bounds in seconds for handler runs and queue waits: 5 ms to 2 min. */
const SECONDS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120];

/** `flashduty.webhook.event_type` of an event type the SDK does not know (as OpenTelemetry names such a value). */
const OTHER_EVENT_TYPE = '_OTHER';

/** The event type as metrics record it: one of the SDK's, `_OTHER`, or none (an invalid payload). */
function bounded(eventType: string | undefined): string | undefined {
  return eventType === undefined || isServiceEventType(eventType) ? eventType : OTHER_EVENT_TYPE;
}

/** The class of what a handler threw: its `name`, or `Error` for something that has none. */
const errorType = (error: unknown) => (error as Error | null)?.name ?? 'Error';

/** A duration histogram's options: in seconds, with the bounds above. */
const inSeconds = (description: string) => ({ unit: 's', description, advice: { explicitBucketBoundaries: SECONDS } });

const webhookInstruments = /* @__PURE__ */ instruments((meter) => ({
  deliveries: meter.createCounter('flashduty.webhook.deliveries', {
    unit: '{delivery}',
    description: 'Webhook deliveries received, by outcome and event type',
  }),
  handlerDuration: meter.createHistogram(
    'flashduty.webhook.handler.duration',
    inSeconds("Duration of one event's handlers, all of them"),
  ),
  // The queue mode's: an app without a queue makes them and never records with them.
  jobs: meter.createCounter('flashduty.webhook.jobs', {
    unit: '{job}',
    description: 'Jobs of receiver.processor(), by outcome and event type',
  }),
  queueWait: meter.createHistogram(
    'flashduty.webhook.queue.wait',
    inSeconds("Time from a delivery's handoff to the queue to its job's first start"),
  ),
}));

/** Counts a delivery by its outcome. */
export function countDelivery(outcome: string, eventType: string | undefined): void {
  webhookInstruments()?.deliveries.add(1, {
    'flashduty.webhook.outcome': outcome,
    'flashduty.webhook.event_type': bounded(eventType),
  });
}

/** Records a run of an event's handlers, with the class of what they threw when they failed. */
export function recordHandlerRun(seconds: number, eventType: string, failure?: { error: unknown }): void {
  webhookInstruments()?.handlerDuration.record(seconds, {
    'flashduty.webhook.event_type': bounded(eventType),
    'error.type': failure && errorType(failure.error),
  });
}

/** Counts a job of `processor()` by its outcome. */
export function countJob(outcome: string, eventType: string | undefined): void {
  webhookInstruments()?.jobs.add(1, {
    'flashduty.webhook.outcome': outcome,
    'flashduty.webhook.event_type': bounded(eventType),
  });
}

/** Records how long a job waited in the queue before its first start. */
export function recordQueueWait(seconds: number, eventType: string): void {
  webhookInstruments()?.queueWait.record(seconds, { 'flashduty.webhook.event_type': bounded(eventType) });
}

/** Starts timing an event's handlers; the returned function records the run, with what failed it if it failed. */
export function handlerTimer(eventType: string): ((failure?: { error: unknown }) => void) | undefined {
  if (!webhookInstruments()) return undefined;
  const started = performance.now();
  return (failure) => recordHandlerRun((performance.now() - started) / 1000, eventType, failure);
}
