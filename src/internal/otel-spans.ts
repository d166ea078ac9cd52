// The spans, loaded only once an app registered a tracer provider (see otel.ts). The API's objects
// are used through the few members named below, each checked, and every call into them is guarded:
// a registry of an unexpected shape, or a tracer that throws, costs the trace, never the user's call.
// Rules owned here: a span is a child of the active one, and the active one while its work runs;
// client spans follow OpenTelemetry's HTTP semantic conventions, are named by the operation's path
// template and record a URL without its query string (the app key rides in it); nothing here throws
// into the caller.

import type { OtelRegistry } from './otel.js';
import { VERSION } from '../version.js';

interface Span {
  setAttribute(key: string, value: string | number): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): unknown;
}
interface Tracer {
  startSpan(name: string, options: { kind: number; attributes?: Attributes }, context?: Context): Span;
}
interface Context {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): Context;
  deleteValue(key: symbol): Context;
}
interface ContextManager {
  active(): Context;
  with<R>(context: Context, fn: () => R): R;
}
interface Propagator {
  inject(context: Context, carrier: Record<string, string>, setter: typeof SETTER): unknown;
}

/** Span attributes: what the SDK records. */
export type Attributes = Record<string, string | number | undefined>;

/** `trace.setSpan(ctx, span)` is `ctx.setValue(this key, span)`: the API creates its keys with `Symbol.for`. */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
/** SpanKind and SpanStatusCode of the API. */
const CLIENT = 2;
const INTERNAL = 0;
const ERROR = 2;
const SETTER = {
  set(carrier: Record<string, string>, key: string, value: string) {
    carrier[key] = value;
  },
};

/** A span in progress. */
export interface Traced {
  /** Runs `fn` with the span as the active one, so that spans started inside are its children. */
  run<R>(fn: () => R): R;
  addEvent(name: string, attributes: Attributes): void;
  /** Ends the span with these attributes; a failure (its message as the status) marks it as an error. */
  end(attributes: Attributes, failure?: string): void;
}

/** How an attempt of a call ended: the client's answer, or a `FlashdutyError`. */
type AttemptOutcome = { status?: unknown } | (Error & { status?: unknown });

/** The span of a client call. */
export interface ClientSpan {
  /** The headers that carry the span's context (`traceparent`) to the server. */
  headers: Record<string, string>;
  run: Traced['run'];
  /** Records a failed attempt that will be retried, as a `retry` event. */
  retry(outcome: AttemptOutcome, resends: number): void;
  /** Ends the span with the call's outcome: its final status, or its error (an ERROR span). */
  end(outcome: AttemptOutcome, resends: number): void;
}

/** The context used when the app registered no context manager (the API's ROOT_CONTEXT behaves so). */
class BareContext implements Context {
  constructor(readonly values = new Map<symbol, unknown>()) {}
  getValue(key: symbol): unknown {
    return this.values.get(key);
  }
  setValue(key: symbol, value: unknown): Context {
    return new BareContext(new Map(this.values).set(key, value));
  }
  deleteValue(key: symbol): Context {
    const values = new Map(this.values);
    values.delete(key);
    return new BareContext(values);
  }
}

const has = <K extends string>(value: unknown, ...names: K[]): value is Record<K, (...args: never[]) => unknown> =>
  typeof value === 'object' &&
  value !== null &&
  names.every((name) => typeof (value as Record<K, unknown>)[name] === 'function');

/** The tracer of the last provider seen: a provider registered anew gets a new one. */
let cached: { provider: unknown; tracer: Tracer } | undefined;

function tracerOf(provider: unknown): Tracer | undefined {
  if (cached && cached.provider === provider) return cached.tracer;
  if (!has(provider, 'getTracer')) return undefined;
  const tracer = (provider as { getTracer(name: string, version: string): unknown }).getTracer(
    'flashduty-sdk',
    VERSION,
  );
  if (!has(tracer, 'startSpan')) return undefined;
  cached = { provider, tracer: tracer as Tracer };
  return tracer as Tracer;
}

function start(
  api: OtelRegistry,
  name: string,
  kind: number,
  attributes: Attributes,
): (Traced & { context: Context }) | undefined {
  try {
    const tracer = tracerOf(api.trace);
    if (!tracer) return undefined;
    const manager = has(api.context, 'active', 'with') ? (api.context as ContextManager) : undefined;
    const parent = manager?.active();
    const span = tracer.startSpan(name, { kind, attributes: defined(attributes) }, parent);
    if (!has(span, 'setAttribute', 'addEvent', 'setStatus', 'end')) return undefined;
    const context = (has(parent, 'setValue') ? parent : new BareContext()).setValue(SPAN_KEY, span);
    return {
      context,
      run(fn) {
        if (!manager) return fn();
        let called = false;
        try {
          return manager.with(context, () => {
            called = true;
            return fn();
          });
        } catch (error) {
          if (called) throw error; // fn's own
          return fn(); // the context manager's: run without it
        }
      },
      addEvent(event, values) {
        guard(() => span.addEvent(event, defined(values)));
      },
      end(values, failure) {
        guard(() => {
          for (const [key, value] of Object.entries(defined(values))) span.setAttribute(key, value);
          if (failure !== undefined) span.setStatus({ code: ERROR, message: failure });
          span.end();
        });
      },
    };
  } catch {
    return undefined;
  }
}

/**
 * Starts the span of one API call, a child of the active span, and puts its context in `headers`
 * through the registered propagator. `undefined` when no span could start. The span is named by
 * the operation's path template (`POST /safari/automation/triggers/{trigger_id}/fire`), never by
 * the path sent (a name per id); a path no operation matches (no `template`) by its method alone,
 * as the HTTP semantic conventions say.
 */
export function startClientSpan(
  api: OtelRegistry,
  call: { method: string; path: string; template: string | undefined; baseUrl: string },
): ClientSpan | undefined {
  let url: URL;
  try {
    url = new URL(call.baseUrl);
  } catch {
    return undefined;
  }
  const { method, template } = call;
  const traced = start(api, template === undefined ? method : `${method} ${template}`, CLIENT, {
    'http.request.method': method,
    'server.address': url.hostname,
    'server.port': Number(url.port) || (url.protocol === 'http:' ? 80 : 443),
    // Base URL and path only: the query holds the app key (and, for GET, the parameters).
    'url.full': `${url.origin}${url.pathname.replace(/\/$/, '')}/${call.path}`,
    'url.template': template,
  });
  if (!traced) return undefined;
  const headers: Record<string, string> = {};
  const propagator = api.propagation;
  if (has(propagator, 'inject') && !fetchPropagatesItself()) {
    guard(() => (propagator as Propagator).inject(traced.context, headers, SETTER));
  }
  return {
    headers,
    run: (fn) => traced.run(fn),
    retry: (outcome, resends) => traced.addEvent('retry', callAttributes(outcome, resends)),
    end: (outcome, resends) =>
      traced.end(callAttributes(outcome, resends), outcome instanceof Error ? outcome.message : undefined),
  };
}

/**
 * A call's attributes after an attempt: the status of the answer (an error's, when it had one), the
 * retries before it (`http.request.resend_count`, as the conventions name it) and an error's class.
 * A span per call, not per attempt: a user sees the operation they called; its retries are events.
 */
function callAttributes(outcome: AttemptOutcome, resends: number): Attributes {
  return {
    'http.response.status_code': typeof outcome.status === 'number' ? outcome.status : undefined,
    'http.request.resend_count': resends || undefined,
    'error.type': outcome instanceof Error ? outcome.name : undefined,
  };
}

/** Starts an internal span (a webhook delivery), a child of the active span. */
export function startSpan(api: OtelRegistry, name: string): Traced | undefined {
  return start(api, name, INTERNAL, {});
}

/**
 * Whether something traces undici's requests (OpenTelemetry's undici instrumentation, which the Node
 * auto-instrumentations include; Sentry and Datadog do the same). Such a tracer opens an HTTP span
 * per fetch, a child of the call's span, and adds the trace context of that span to the request
 * itself: a `traceparent` of the SDK's own would go out beside it, and two `traceparent` headers
 * are an invalid trace context. It is seen through undici's diagnostics channel (Node only; where
 * the channel cannot be read, the SDK propagates).
 */
function fetchPropagatesItself(): boolean {
  try {
    const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const channels = node?.getBuiltinModule?.('node:diagnostics_channel') as
      { hasSubscribers?: (name: string) => boolean } | undefined;
    return channels?.hasSubscribers?.('undici:request:create') === true;
  } catch {
    return false;
  }
}

function guard(fn: () => unknown): void {
  try {
    fn();
  } catch {
    // A tracer that throws costs the trace only.
  }
}

function defined(attributes: Attributes): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}
