// The client's metric, through `@opentelemetry/api`'s global meter provider (never imported):
//   http.client.request.duration  histogram, s: every HTTP attempt (a retry is one more), with
//     http.request.method, http.response.status_code (when an answer came), server.address,
//     flashduty.operation (the path, never the query: the app key rides there) and error.type
//     (the class of what the attempt failed with).
// With no meter provider registered, an attempt pays one property read and a branch.

import { instruments } from '../internal/otel.js';

/** The bucket bounds OpenTelemetry's HTTP semantic conventions advise for request durations, in seconds. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const clientInstruments = /* @__PURE__ */ instruments((meter) => ({
  duration: meter.createHistogram('http.client.request.duration', {
    unit: 's',
    description: 'Duration of HTTP client requests',
    advice: { explicitBucketBoundaries: SECONDS },
  }),
}));

/**
 * Starts timing one attempt; the returned function records it with the answer's status, or the
 * error it failed with. `undefined` without a meter provider.
 */
export function attemptTimer(
  method: string,
  operation: string,
  baseUrl: string,
): ((status: number | undefined, error?: { name: string }) => void) | undefined {
  const made = clientInstruments();
  if (!made) return undefined;
  const started = performance.now();
  return (status, error) =>
    made.duration.record((performance.now() - started) / 1000, {
      'http.request.method': method,
      'http.response.status_code': status,
      'server.address': new URL(baseUrl).hostname,
      'flashduty.operation': `/${operation}`,
      'error.type': error?.name,
    });
}
