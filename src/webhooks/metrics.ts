// The receiver's metrics, through `@opentelemetry/api`'s global meter provider (never imported):
//   flashduty.webhook.deliveries        counter: every delivery by its outcome (accepted, duplicate,
//                                       stale, rejected, unrecorded) and event type
//   flashduty.webhook.handler.duration  histogram, s: one event's handlers, `error.type` when they failed
// (The queue mode's own, `flashduty.webhook.jobs` and `flashduty.webhook.queue.wait`, are recorded
// by jobs.ts.) The instruments, and what bounds their attributes, are in metric-instruments.ts.
// With no meter provider registered, a measurement costs one property read and a branch. With one,
// the instruments' code loads with the first measurement, which is recorded once it has loaded;
// every later one at once.

import { loader, withLoaded } from '../internal/lazy.js';
import { NOTHING } from '../internal/maybe.js';
import { meterProvider } from '../internal/otel.js';

/** @internal The instruments, loaded with the first measurement an app's meter provider takes. */
export const loadInstruments = /* @__PURE__ */ loader(() => import('./metric-instruments.js'));

/** Records with the instruments, at once when their code has loaded (a load that failed costs this measurement). */
function measure(record: (instruments: Awaited<ReturnType<typeof loadInstruments>>) => void): void {
  const done = withLoaded(loadInstruments, record);
  if (done instanceof Promise) done.catch(NOTHING);
}

/** Counts a delivery by its outcome. */
export function countDelivery(outcome: string, eventType: string | undefined): void {
  if (meterProvider()) measure((made) => made.countDelivery(outcome, eventType));
}

/** Starts timing an event's handlers; the returned function records the run (with its failure, if any). */
export function handlerTimer(eventType: string): ((error?: unknown) => void) | undefined {
  if (!meterProvider()) return undefined;
  const started = performance.now();
  return (error) => {
    const seconds = (performance.now() - started) / 1000;
    measure((made) => made.recordHandlerRun(seconds, eventType, error === undefined ? undefined : { error }));
  };
}
