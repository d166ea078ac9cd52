// Test files share their worker process (vitest.config.ts: `isolate: false`, which spares each file
// a fresh load of msw, BullMQ, Fastify and the SDK: a fifth of the suite's CPU time). The price is
// that whatever a file leaves changed in the process, the next file in that worker sees. This setup
// file runs before every test file: it notes the process's globals, and after the file's last test
// fails the file that left one changed, naming it. Spies, stubbed globals and stubbed env vars are
// undone after each test (below); a test that changes anything else puts it back itself
// (`process.off`, `trace.disable()`, Hono's `overrideGlobalObjects: false`, `leaveFakeClock()`, …).
import { afterAll, afterEach, vi } from 'vitest';

/** Globals a test could replace and another would trip over: fetch and its classes, clocks, timers. */
const GLOBALS = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'File',
  'AbortController',
  'AbortSignal',
  'URL',
  'Date',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'queueMicrotask',
  'performance',
  'crypto',
  'window',
  'document',
  'navigator',
] as const;
/** Clocks a test may spy on (vi.spyOn(Date, 'now')). */
const CLOCKS = [
  [Date, 'now'],
  [performance, 'now'],
  [Math, 'random'],
] as const;
/** Process events whose listeners a test may add to watch for failures. */
const EVENTS = ['unhandledRejection', 'uncaughtException', 'warning'] as const;
/** Where @opentelemetry/api keeps its global tracer provider, propagator and context manager. */
const OTEL = Symbol.for('opentelemetry.js.api.1');

function snapshot() {
  const scope = globalThis as Record<string | symbol, unknown>;
  return {
    globals: GLOBALS.map((name) => [name, scope[name]] as const),
    // Compared by identity, never called: a spy left on one is another function.
    clocks: CLOCKS.map(([owner, name]) => Reflect.get(owner, name) as unknown),
    env: JSON.stringify(process.env),
    listeners: EVENTS.map((event) => [event, process.listenerCount(event)] as const),
    otel: Object.keys((scope[OTEL] as object | undefined) ?? {})
      .filter((key) => key !== 'version')
      .sort()
      .join(','),
  };
}

// Undone after each test, not before the next (as vitest's restoreMocks, unstubGlobals and
// unstubEnvs would): a file's last test must not leave its spies and stubs for the check below.
// Registered first, this runs after the file's own afterEach hooks.
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

const before = snapshot();
afterAll(() => {
  const after = snapshot();
  const changed = [
    ...before.globals.filter(([, value], i) => after.globals[i]?.[1] !== value).map(([name]) => `globalThis.${name}`),
    ...(before.clocks.some((fn, i) => after.clocks[i] !== fn) ? ['Date.now, performance.now or Math.random'] : []),
    ...(before.env === after.env ? [] : ['process.env']),
    ...before.listeners
      .filter(([, count], i) => after.listeners[i]?.[1] !== count)
      .map(([event]) => `process '${event}' listeners`),
    ...(before.otel === after.otel ? [] : [`OpenTelemetry's globals (${after.otel || 'none'})`]),
    ...(vi.isFakeTimers() ? ['fake timers still on'] : []),
  ];
  if (changed.length > 0)
    throw new Error(
      `this file left ${changed.join(', ')} changed; the next test file in this worker would see it (test/worker-guard.ts)`,
    );
});
