// The client's metric, through `@opentelemetry/api`'s global meter provider (never imported):
//   http.client.request.duration  histogram, s: every HTTP attempt (a retry is one more), with
//     http.request.method, http.response.status_code (when an answer came), server.address,
//     flashduty.operation and error.type (the class of what the attempt failed with).
// Every attribute has a bounded set of values, so that a backend can hold the series: the operation
// is its path template (operation-template.ts), `_OTHER` for a path no operation matches, and never
// the query (the app key rides there).
// With no meter provider registered, an attempt pays one property read and a branch; a meter that
// throws costs the measurement, never the call.

import { instruments } from '../internal/otel.js';
import { operationTemplate } from './operation-template.js';

/** The bucket bounds OpenTelemetry's HTTP semantic conventions advise for request durations, in seconds. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** `flashduty.operation` of a call to a path no operation of the manifest matches. */
const OTHER_OPERATION = '_OTHER';

const clientInstruments = /* @__PURE__ */ instruments((meter) => ({
  duration: meter.createHistogram('http.client.request.duration', {
    unit: 's',
    description: 'Duration of HTTP client requests',
    advice: { explicitBucketBoundaries: SECONDS },
  }),
}));

/**
 * Starts timing one attempt of a call to `path` (without its leading `/`); the returned function
 * records it with the answer's status, or the error it failed with. `undefined` without a meter provider.
 */
export function attemptTimer(
  method: string,
  path: string,
  baseUrl: string,
): ((status: number | undefined, error?: { name: string }) => void) | undefined {
  const made = clientInstruments();
  if (!made) return undefined;
  const started = performance.now();
  return (status, error) => {
    const seconds = (performance.now() - started) / 1000;
    const record = (template: string | undefined) =>
      made.duration.record(seconds, {
        'http.request.method': method,
        'http.response.status_code': status,
        'server.address': new URL(baseUrl).hostname,
        'flashduty.operation': template ?? OTHER_OPERATION,
        'error.type': error?.name,
      });
    const template = operationTemplate(path);
    if (template instanceof Promise) template.then(record, () => {});
    else record(template);
  };
}
