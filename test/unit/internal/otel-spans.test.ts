// The SDK's spans (src/internal/otel-spans.ts) through the real OpenTelemetry API and SDK: a
// BasicTracerProvider with an InMemorySpanExporter registered with `trace.setGlobalTracerProvider`,
// and, where a test needs them, the W3C propagator and a context manager. Rules checked:
// - a client call is one CLIENT span named by its method and path, with HTTP's semantic conventions
//   (method, server address and port, the URL without its query, the path template), its status
//   code and resend count when it ends, its retries as `retry` events;
// - a failed call ends an ERROR span with the error's message and its class as `error.type`;
// - the recorded URL never holds the query (the app key rides in it), and no request body byte is
//   recorded: checked with the real client against the mock service served by MSW in process;
// - the span's context goes out in `traceparent` through the registered propagator, unless
//   something traces undici's requests itself (then none: two would be an invalid trace context);
// - a span is a child of the active span, and the active span while its work runs;
// - an internal span (a webhook delivery) has no attributes until it ends, undefined ones dropped;
// - a provider registered anew gets a tracer of its own;
// - nothing thrown into the caller: no span where the base URL or the registry cannot be used, a
//   context manager that throws costs only the context, the work's own error comes out once.
import diagnostics from 'node:diagnostics_channel';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Flashduty, ResourceNotFoundError, ServiceUnavailableError } from '../../../src/index.js';
import { otelRegistry, type OtelRegistry } from '../../../src/internal/otel.js';
import { startClientSpan, startSpan } from '../../../src/internal/otel-spans.js';
import { createMockService } from '../../../src/testing/index.js';
import { rejection } from '../../helpers.js';
import { AsyncLocalStorageContextManager, inMemoryTracing } from '../../otel.js';

const { exporter, provider } = inMemoryTracing();

beforeEach(() => {
  trace.setGlobalTracerProvider(provider);
});
afterEach(() => {
  trace.disable();
  propagation.disable();
  context.disable();
  exporter.reset();
});

/** The registry as the SDK reads it, with the provider registered. */
function registry(): OtelRegistry {
  const api = otelRegistry();
  expect(api).toBeDefined();
  return api as OtelRegistry;
}

/** The finished spans. */
const finished = (): ReadableSpan[] => exporter.getFinishedSpans();

/** The one finished span of this name. */
function only(name: string): ReadableSpan {
  const spans = finished().filter((span) => span.name === name);
  expect(spans, name).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

/** An error as the client throws it: its class's name, a status where the service answered. */
function apiError(name: string, message: string, status?: number): Error & { status?: number } {
  const error: Error & { status?: number } = new Error(message);
  error.name = name;
  if (status !== undefined) error.status = status;
  return error;
}

const call = {
  method: 'POST',
  path: 'incident/list',
  template: '/incident/list',
  baseUrl: 'https://api.flashcat.cloud',
};

describe('startClientSpan', () => {
  it('starts a CLIENT span named by method and path, with the HTTP attributes', () => {
    const span = startClientSpan(registry(), call);
    expect(span).toBeDefined();
    span?.end({ status: 200 }, 0);
    const recorded = only('POST /incident/list');
    expect(recorded.kind).toBe(SpanKind.CLIENT);
    expect(recorded.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': 'api.flashcat.cloud',
      'server.port': 443,
      'url.full': 'https://api.flashcat.cloud/incident/list',
      'url.template': '/incident/list',
      'http.response.status_code': 200,
    });
    expect(recorded.status.code).toBe(SpanStatusCode.UNSET);
    expect(recorded.events).toEqual([]);
    expect(recorded.instrumentationScope.name).toBe('flashduty-sdk');
  });

  it.each([
    ['http://mock.internal', 'mock.internal', 80, 'http://mock.internal/incident/list'],
    ['http://127.0.0.1:8080/api/', '127.0.0.1', 8080, 'http://127.0.0.1:8080/api/incident/list'],
    ['https://api.example.com:8443/v1', 'api.example.com', 8443, 'https://api.example.com:8443/v1/incident/list'],
  ])('records the server and the URL of base URL %s', (baseUrl, address, port, url) => {
    startClientSpan(registry(), { ...call, baseUrl })?.end({ status: 200 }, 0);
    expect(only('POST /incident/list').attributes).toMatchObject({
      'server.address': address,
      'server.port': port,
      'url.full': url,
    });
  });

  it('never records a query: not the app key, not a fragment', () => {
    const baseUrl = 'https://api.flashcat.cloud/?app_key=fdk_secret_key#frag';
    const list = { method: 'GET', path: 'status-page/subscriber/list', template: '/status-page/subscriber/list' };
    startClientSpan(registry(), { ...list, baseUrl })?.end({}, 0);
    const recorded = only('GET /status-page/subscriber/list');
    expect(recorded.attributes['url.full']).toBe('https://api.flashcat.cloud/status-page/subscriber/list');
    expect(JSON.stringify(recorded.attributes)).not.toMatch(/app_key|fdk_secret_key|frag|\?/);
  });

  it('ends a failed call as an ERROR span: its message, its class as error.type, its status and resends', () => {
    const error = apiError('ResourceNotFoundError', 'skill not found', 404);
    startClientSpan(registry(), call)?.end(error, 2);
    const recorded = only('POST /incident/list');
    expect(recorded.status).toEqual({ code: SpanStatusCode.ERROR, message: 'skill not found' });
    expect(recorded.attributes).toMatchObject({
      'error.type': 'ResourceNotFoundError',
      'http.response.status_code': 404,
      'http.request.resend_count': 2,
    });
  });

  it('ends a call that got no answer without a status code', () => {
    startClientSpan(registry(), call)?.end(apiError('APIConnectionError', 'connection refused'), 0);
    const { attributes, status } = only('POST /incident/list');
    expect(attributes['error.type']).toBe('APIConnectionError');
    expect(attributes).not.toHaveProperty('http.response.status_code');
    expect(attributes).not.toHaveProperty('http.request.resend_count');
    expect(status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records each retried attempt as a retry event, the span ending once', () => {
    const span = startClientSpan(registry(), call);
    span?.retry(apiError('ServiceUnavailableError', 'busy', 503), 0);
    span?.retry(apiError('APIConnectionError', 'reset'), 1);
    expect(finished()).toEqual([]);
    span?.end({ status: 200 }, 2);
    const recorded = only('POST /incident/list');
    expect(recorded.events.map((event) => [event.name, event.attributes])).toEqual([
      ['retry', { 'http.response.status_code': 503, 'error.type': 'ServiceUnavailableError' }],
      ['retry', { 'error.type': 'APIConnectionError', 'http.request.resend_count': 1 }],
    ]);
    expect(recorded.attributes['http.request.resend_count']).toBe(2);
    expect(recorded.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("puts the span's context in traceparent through the registered propagator, none without one", () => {
    const without = startClientSpan(registry(), call);
    without?.end({ status: 200 }, 0);
    expect(without?.headers).toEqual({});
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const span = startClientSpan(registry(), call);
    span?.end({ status: 200 }, 0);
    const [, second] = finished() as [ReadableSpan, ReadableSpan];
    const { traceId, spanId } = second.spanContext();
    expect(span?.headers).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
  });

  it("leaves traceparent to whatever traces undici's requests", () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const onCreate = () => {};
    diagnostics.subscribe('undici:request:create', onCreate);
    try {
      expect(startClientSpan(registry(), call)?.headers).toEqual({});
    } finally {
      diagnostics.unsubscribe('undici:request:create', onCreate);
    }
    expect(startClientSpan(registry(), call)?.headers).toHaveProperty('traceparent');
  });

  it('is named by the path template, and records it, never the path sent with its parameters', () => {
    const fire = {
      method: 'POST',
      path: 'safari/automation/triggers/trg_1/fire',
      template: '/safari/automation/triggers/{trigger_id}/fire',
      baseUrl: 'https://api.flashcat.cloud',
    };
    startClientSpan(registry(), fire)?.end({ status: 200 }, 0);
    const recorded = only('POST /safari/automation/triggers/{trigger_id}/fire');
    expect(recorded.attributes['url.template']).toBe('/safari/automation/triggers/{trigger_id}/fire');
    // The URL of this one call is the span's own, as the conventions have it.
    expect(recorded.attributes['url.full']).toBe('https://api.flashcat.cloud/safari/automation/triggers/trg_1/fire');
  });

  it('a path no operation matches: named by the method alone, with no url.template', () => {
    startClientSpan(registry(), { ...call, path: 'beta/thing/42', template: undefined })?.end({ status: 200 }, 0);
    const recorded = only('POST');
    expect(recorded.attributes).not.toHaveProperty('url.template');
    expect(recorded.attributes['url.full']).toBe('https://api.flashcat.cloud/beta/thing/42');
  });

  it('starts no span for a base URL it cannot read', () => {
    expect(startClientSpan(registry(), { ...call, baseUrl: 'not a url' })).toBeUndefined();
    expect(finished()).toEqual([]);
  });
});

describe('startSpan', () => {
  it('starts an INTERNAL span with no attributes until it ends; undefined ones are dropped', () => {
    const span = startSpan(registry(), 'flashduty.webhook.receive');
    span?.addEvent('checked', { 'flashduty.step': 'secret', skipped: undefined });
    span?.end({ 'flashduty.webhook.outcome': 'accepted', 'http.response.status_code': 200, gone: undefined });
    const recorded = only('flashduty.webhook.receive');
    expect(recorded.kind).toBe(SpanKind.INTERNAL);
    expect(recorded.attributes).toEqual({ 'flashduty.webhook.outcome': 'accepted', 'http.response.status_code': 200 });
    expect(recorded.events.map((event) => [event.name, event.attributes])).toEqual([
      ['checked', { 'flashduty.step': 'secret' }],
    ]);
    expect(recorded.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('ends as an ERROR span with the failure as its message', () => {
    startSpan(registry(), 'work')?.end({ 'error.type': '500' }, 'Error: database down');
    expect(only('work').status).toEqual({ code: SpanStatusCode.ERROR, message: 'Error: database down' });
    // A failure without a message is a failure still.
    startSpan(registry(), 'quiet failure')?.end({}, '');
    expect(only('quiet failure').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a provider registered anew gets a tracer of its own', () => {
    startSpan(registry(), 'first')?.end({});
    trace.disable();
    const other = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(other)] }));
    startSpan(registry(), 'second')?.end({});
    expect(finished().map((span) => span.name)).toEqual(['first']);
    expect(other.getFinishedSpans().map((span) => span.name)).toEqual(['second']);
  });
});

describe('nesting', () => {
  beforeEach(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  });

  it('a span is a child of the active span, and the active one while its work runs (async too)', async () => {
    const app = trace.getTracer('app');
    await app.startActiveSpan('handle request', async (parent) => {
      const client = startClientSpan(registry(), call);
      await client?.run(async () => {
        await Promise.resolve();
        const delivery = startSpan(registry(), 'flashduty.webhook.receive');
        await delivery?.run(async () => {
          await Promise.resolve();
          app.startSpan('handler').end();
        });
        delivery?.end({});
      });
      client?.end({ status: 200 }, 0);
      parent.end();
    });
    const parent = only('handle request');
    const client = only('POST /incident/list');
    const delivery = only('flashduty.webhook.receive');
    expect(client.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(delivery.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(only('handler').parentSpanContext?.spanId).toBe(delivery.spanContext().spanId);
    expect(new Set(finished().map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('outside run(), the span is not the active one', () => {
    const span = startSpan(registry(), 'outer');
    trace.getTracer('app').startSpan('sibling').end();
    span?.end({});
    expect(only('sibling').parentSpanContext).toBeUndefined();
  });

  it('spans of work run without a context manager are roots, the work still done', () => {
    context.disable();
    const span = startSpan(registry(), 'outer');
    expect(span?.run(() => (trace.getTracer('app').startSpan('inner').end(), 42))).toBe(42);
    span?.end({});
    expect(only('inner').parentSpanContext).toBeUndefined();
  });

  it("a context manager that throws costs the context, not the work; the work's own error comes out once", () => {
    class Throwing extends AsyncLocalStorageContextManager {
      override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(): ReturnType<F> {
        throw new Error('context manager broken');
      }
    }
    context.disable();
    context.setGlobalContextManager(new Throwing());
    let runs = 0;
    const span = startSpan(registry(), 'outer');
    expect(span?.run(() => ++runs)).toBe(1);
    context.disable();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager());
    const own = new Error('the work failed');
    const traced = startSpan(registry(), 'failing');
    expect(() =>
      traced?.run(() => {
        runs++;
        throw own;
      }),
    ).toThrow(own);
    expect(runs).toBe(2);
  });
});

describe('a registry the spans cannot use', () => {
  const broken = (): never => {
    throw new Error('broken');
  };

  it.each([
    ['no tracer provider', {}],
    ['a provider without getTracer', { trace: {} }],
    ['a provider that throws', { trace: { getTracer: broken } }],
    ['a tracer without startSpan', { trace: { getTracer: () => ({}) } }],
    ['spans without end', { trace: { getTracer: () => ({ startSpan: () => ({ setAttribute: () => {} }) }) } }],
  ])('%s: no span, nothing thrown', (_, api) => {
    expect(startSpan(api, 'x')).toBeUndefined();
    expect(startClientSpan(api, call)).toBeUndefined();
  });

  it('a tracer whose spans and propagator throw: the span is used as usual, nothing thrown', () => {
    const span = { setAttribute: broken, addEvent: broken, setStatus: broken, end: broken };
    const api = { trace: { getTracer: () => ({ startSpan: () => span }) }, propagation: { inject: broken } };
    const client = startClientSpan(api, call);
    expect(client?.headers).toEqual({});
    expect(() => client?.retry(apiError('ServiceUnavailableError', 'busy', 503), 0)).not.toThrow();
    expect(() => client?.end(apiError('ServiceUnavailableError', 'busy', 503), 1)).not.toThrow();
    expect(client?.run(() => 'done')).toBe('done');
  });
});

describe('with the real client against the mock (MSW, in process)', () => {
  const service = createMockService({ seed: 9, incidents: 3, now: Date.UTC(2026, 10, 1), rateLimits: false });
  const server = setupServer(...service.handlers);
  const traceparents: Array<string | null> = [];
  server.events.on('request:start', ({ request }) => void traceparents.push(request.headers.get('traceparent')));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  afterEach(() => {
    traceparents.length = 0;
    service.faults.clear();
  });
  beforeEach(() => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  });
  const client = (options = {}) =>
    new Flashduty({ appKey: service.appKey, baseUrl: 'https://api.flashcat.cloud', logLevel: 'off', ...options });

  it('records neither the app key nor a byte of the body, nor the query of a GET', async () => {
    const marker = 'body-marker-6f1d';
    await client().incidents.create({ title: marker, incident_severity: 'Warning', description: marker });
    await client().request('/status-page/subscriber/list', { page_id: 1, p: 1, limit: 5 });
    const spans = finished();
    expect(spans.map((span) => span.name)).toEqual(['POST /incident/create', 'GET /status-page/subscriber/list']);
    const recorded = JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events, span.status]));
    for (const secret of [service.appKey, 'app_key', marker, 'page_id', '?']) expect(recorded).not.toContain(secret);
    // The server had each span's context.
    expect(traceparents).toEqual(
      spans.map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`),
    );
  });

  it("is a child of the app's active span; a failed call is an ERROR span", async () => {
    const error = await trace.getTracer('app').startActiveSpan('handle request', async (parent) => {
      try {
        return await rejection(client().deleteSkill('skill_missing'));
      } finally {
        parent.end();
      }
    });
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    const span = only('POST /safari/skill/delete');
    expect(span.parentSpanContext?.spanId).toBe(only('handle request').spanContext().spanId);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(span.attributes).toMatchObject({
      'error.type': 'ResourceNotFoundError',
      'http.response.status_code': (error as ResourceNotFoundError).status,
    });
  });

  it('one span for a call retried, its failed attempt a retry event', async () => {
    service.faults.add({ status: 503, times: 1, headers: { 'Retry-After': '0' } });
    await client().listIncidents({ start_time: 1_790_000_000 - 86_400, end_time: 1_790_000_000 });
    const span = only('POST /incident/list');
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 1 });
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['retry', { 'http.response.status_code': 503, 'error.type': ServiceUnavailableError.name }],
    ]);
    expect(traceparents).toHaveLength(2);
    expect(new Set(traceparents).size).toBe(1);
  });
});
