// OpenTelemetry without depending on it. The SDK never imports `@opentelemetry/api` (an optional
// peer: workerd refuses a bundle with an import it cannot resolve, and the package must work
// without it); it reads the API's global registry, where `trace.setGlobalTracerProvider()` (and
// `NodeSDK`, `provider.register()`) put the provider, propagator and context manager. The registry's
// key holds the API's major version, so a registry of another major is never seen.
// Rules owned here: with no tracer provider registered, a call pays one property read and a branch
// (this file is all that loads up front); the span code loads on the first traced call.

import { lazy } from './lazy.js';

/** `Symbol.for('opentelemetry.js.api.' + major)` in `@opentelemetry/api` 1.x (src/internal/global-utils.ts). */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

/** The API's global registry as it may be: members are checked before use. */
export interface OtelRegistry {
  version?: unknown;
  trace?: unknown;
  context?: unknown;
  propagation?: unknown;
}

/** The registry, when an app registered a tracer provider through `@opentelemetry/api` 1.x. */
export function otelRegistry(): OtelRegistry | undefined {
  const api = (globalThis as { [REGISTRY]?: OtelRegistry | null })[REGISTRY];
  return api?.trace ? api : undefined;
}

/** The span code, loaded with the first traced call. */
export const loadSpans = lazy(() => import('./otel-spans.js'));
