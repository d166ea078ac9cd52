// OpenTelemetry without depending on it. The SDK never imports `@opentelemetry/api` (an optional
// peer: workerd refuses a bundle with an import it cannot resolve, and the package must work
// without it); it reads the API's global registry, where `trace.setGlobalTracerProvider()` (and
// `NodeSDK`, `provider.register()`) put the provider, propagator and context manager. The registry's
// key holds the API's major version, so a registry of another major is never seen.
// Rules owned here: with no tracer provider registered, a call pays one property read and a branch
// (this file is all that loads up front); the span code loads on the first traced call. Metrics
// likewise: with no meter provider registered (`metrics.setGlobalMeterProvider()`), recording a
// measurement is one property read and a branch; with one, its instruments are made once per
// provider. A meter that throws (making an instrument, or recording) costs the measurement, never
// the work measured: a call, a delivery, a job.

import { lazy } from './lazy.js';

/** `Symbol.for('opentelemetry.js.api.' + major)` in `@opentelemetry/api` 1.x (src/internal/global-utils.ts). */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

/** The API's global registry as it may be: members are checked before use. */
export interface OtelRegistry {
  version?: unknown;
  trace?: unknown;
  context?: unknown;
  propagation?: unknown;
  metrics?: MeterProviderLike;
}

/** The parts of `@opentelemetry/api`'s MeterProvider used here. */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike;
}
/** The parts of a Meter used here. */
export interface MeterLike {
  createCounter(name: string, options?: InstrumentOptions): { add(value: number, attributes?: Attributes): void };
  createHistogram(name: string, options?: InstrumentOptions): { record(value: number, attributes?: Attributes): void };
}
interface InstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}
/** Attributes of a measurement (those left `undefined` are dropped by the SDK). */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** The meter provider an app registered through `@opentelemetry/api` 1.x, if any. */
export function meterProvider(): MeterProviderLike | undefined {
  return (globalThis as { [REGISTRY]?: OtelRegistry | null })[REGISTRY]?.metrics;
}

/**
 * Instruments made by `make` from the registered meter provider's meter, once per provider; the
 * getter gives `undefined` while none is registered. They never throw: a meter of the app's that is
 * broken costs the measurement (or the instrument), never the call or the delivery it measures.
 */
export function instruments<T>(make: (meter: MeterLike) => T): () => T | undefined {
  let provider: MeterProviderLike | undefined;
  let made: T | undefined;
  return () => {
    const current = meterProvider();
    if (current !== provider) {
      provider = current;
      made = current ? make(quietMeter(current)) : undefined;
    }
    return made;
  };
}

/** The provider's meter, whose instruments (and their making) never throw. */
function quietMeter(provider: MeterProviderLike): MeterLike {
  const meter = quietly(() => provider.getMeter('flashduty-sdk'));
  return {
    createCounter(name, options) {
      const counter = quietly(() => meter?.createCounter(name, options));
      return { add: (value, attributes) => void quietly(() => counter?.add(value, attributes)) };
    },
    createHistogram(name, options) {
      const histogram = quietly(() => meter?.createHistogram(name, options));
      return { record: (value, attributes) => void quietly(() => histogram?.record(value, attributes)) };
    },
  };
}

/** `run()`'s result; `undefined` when it throws. */
function quietly<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}

/** The registry, when an app registered a tracer provider through `@opentelemetry/api` 1.x. */
export function otelRegistry(): OtelRegistry | undefined {
  const api = (globalThis as { [REGISTRY]?: OtelRegistry | null })[REGISTRY];
  return api?.trace ? api : undefined;
}

/** The span code, loaded with the first traced call. */
export const loadSpans = /* @__PURE__ */ lazy(() => import('./otel-spans.js'));
