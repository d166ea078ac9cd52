// OpenTelemetry without depending on it (src/internal/otel.ts): the registry `@opentelemetry/api` 1.x
// keeps on the global object, read only when it holds a tracer provider; instruments made once per
// meter provider, and again for another one; nothing while none is registered.
import { afterEach, describe, expect, it } from 'vitest';
import { instruments, meterProvider, otelRegistry } from '../../../src/internal/otel.js';

const REGISTRY = Symbol.for('opentelemetry.js.api.1');
const registry = globalThis as { [REGISTRY]?: unknown };

afterEach(() => {
  delete registry[REGISTRY];
});

const provider = () => ({
  getMeter: () => ({ createCounter: () => ({ add: () => {} }), createHistogram: () => ({ record: () => {} }) }),
});

describe('the registry', () => {
  it('is read only where it holds a tracer provider', () => {
    expect(otelRegistry()).toBeUndefined();
    registry[REGISTRY] = { version: '1.9.0' };
    expect(otelRegistry()).toBeUndefined();
    registry[REGISTRY] = { trace: {} };
    expect(otelRegistry()).toEqual({ trace: {} });
    registry[REGISTRY] = null;
    expect([otelRegistry(), meterProvider()]).toEqual([undefined, undefined]);
  });
});

describe('instruments', () => {
  it('are made once per meter provider, and none while none is registered', () => {
    let made = 0;
    const get = instruments(() => ++made);
    expect(get()).toBeUndefined();
    const first = provider();
    registry[REGISTRY] = { metrics: first };
    expect([get(), get()]).toEqual([1, 1]);
    registry[REGISTRY] = { metrics: provider() };
    expect(get()).toBe(2);
  });
});
