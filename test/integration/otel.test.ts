// OpenTelemetry through the real API and SDK: a provider registered with `@opentelemetry/api`
// (BasicTracerProvider, InMemorySpanExporter, the W3C propagator) and calls against the mock on
// loopback. A span per call (HTTP semantic conventions, never the query, so never the app key),
// `traceparent` on the wire, retries and failures; a span per webhook delivery with its outcome;
// nothing at all when no provider is registered, and nothing thrown by a broken registry.
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
// The propagator of `@opentelemetry/core` (a devDependency, the release sdk-trace-base depends on).
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIUserAbortError, Flashduty, ResourceNotFoundError } from '../../src/index.js';
import { buildDelivery, buildWebhookEvent } from '../../src/testing/index.js';
import { WebhookReceiver } from '../../src/webhooks/index.js';
import { closedPort, DAY, NOW, NOW_MS, rejection, standIn, startMock } from '../helpers.js';
import { receive } from '../helpers.js';
import { AsyncLocalStorageContextManager, inMemoryTracing } from '../otel.js';

const h = await startMock({ incidents: 5, skills: [{ skill_id: 'skill_a' }] });
const window = { start_time: NOW - 7 * DAY, end_time: NOW };
const { exporter, provider } = inMemoryTracing();

/**
 * The context manager an app gets from `@opentelemetry/context-async-hooks` (not installed here),
 * to the letter of the API's interface: the active context follows async calls.
 */

function register(): void {
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
}
function unregister(): void {
  trace.disable();
  propagation.disable();
  context.disable();
}
afterAll(unregister);
afterEach(() => {
  h.service.faults.clear();
  exporter.reset();
});

/** The one finished span of this name. */
function only(name: string): ReadableSpan {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

/** The `traceparent` of the wire calls made after `before`. */
const traceparents = (before: number) => h.calls.slice(before).map((call) => call.headers.get('traceparent'));

describe('with no tracer provider registered', () => {
  it('records nothing and sends no traceparent; calls and deliveries work', async () => {
    unregister();
    const before = h.calls.length;
    await h.client().listIncidents(window);
    const receiver = new WebhookReceiver();
    const result = await receiver.receive(buildDelivery(buildWebhookEvent('i_new')).receiveInput());
    expect(result.outcome).toBe('accepted');
    expect(traceparents(before)).toEqual([null]);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('client spans', () => {
  beforeAll(register);

  it('a CLIENT span per call, named by method and path, with the HTTP attributes and no query', async () => {
    const before = h.calls.length;
    await h.client().listIncidents(window);
    const span = only('POST /incident/list');
    const { port, hostname } = new URL(h.server.url);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': hostname,
      'server.port': Number(port),
      'url.full': `${h.server.url}/incident/list`,
      'url.template': '/incident/list',
      'http.response.status_code': 200,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.instrumentationScope.name).toBe('flashduty-sdk');
    // The server had the span's context.
    const { traceId, spanId } = span.spanContext();
    expect(traceparents(before)).toEqual([`00-${traceId}-${spanId}-01`]);
  });

  it('is a child of the active span', async () => {
    const tracer = trace.getTracer('app');
    await tracer.startActiveSpan('handle request', async (parent) => {
      await h.client().listIncidents(window);
      parent.end();
    });
    const parent = only('handle request');
    const child = only('POST /incident/list');
    expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
  });

  it('spans started while the call runs (fetch instrumentation, hooks) are its children', async () => {
    const tracer = trace.getTracer('app');
    const fetchSpy: typeof fetch = (input, init) => {
      tracer.startSpan('inner fetch').end();
      return fetch(input, init);
    };
    await h.client({ fetch: fetchSpy }).listIncidents(window);
    expect(only('inner fetch').parentSpanContext?.spanId).toBe(only('POST /incident/list').spanContext().spanId);
  });

  it("with OpenTelemetry's undici instrumentation, one traceparent on the wire: its HTTP span's, a child of the call's", async () => {
    // The wire as the server reads it: the instrumentation adds its header below fetch, where a
    // recording fetch would not see it.
    const received: string[][] = [];
    const server = await standIn((req, res) => {
      const raw = req.rawHeaders;
      received.push(raw.filter((_, i) => i % 2 === 1 && raw[i - 1]?.toLowerCase() === 'traceparent'));
      req.resume().on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ request_id: 'r', data: { items: [], total: 0, has_next_page: false } }));
      });
    });
    const undici = new UndiciInstrumentation();
    undici.setTracerProvider(provider);
    undici.enable();
    try {
      await new Flashduty({ appKey: 'k-1234', baseUrl: server.url, logLevel: 'off' }).listIncidents(window);
    } finally {
      undici.disable();
    }
    const call = only('POST /incident/list');
    const http = exporter.getFinishedSpans().find((span) => span.instrumentationScope.name.includes('undici'));
    expect(http?.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    const { traceId, spanId } = (http as ReadableSpan).spanContext();
    // Not two (the SDK's and the instrumentation's): two traceparent headers are an invalid trace context.
    expect(received).toEqual([[`00-${traceId}-${spanId}-01`]]);
  });

  it('never records the app key, nor the query of a GET operation', async () => {
    const before = h.calls.length;
    await h.client().request('/status-page/subscriber/list', { page_id: 1, p: 1, limit: 5 });
    await h.client().listIncidents(window);
    expect(h.calls[before]?.method).toBe('GET');
    expect(h.calls[before]?.url).toContain(`app_key=${h.service.appKey}&page_id=1`);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['GET /status-page/subscriber/list', 'POST /incident/list']);
    const recorded = JSON.stringify(spans.map((s) => [s.name, s.attributes, s.events, s.status]));
    expect(recorded).not.toContain(h.service.appKey);
    expect(recorded).not.toContain('app_key');
    expect(recorded).not.toContain('?');
  });

  it('a path no operation matches: a span named by its method alone, with no url.template', async () => {
    await rejection(h.client().request('/no/such/route/42' as never, {}));
    const span = only('POST');
    expect(span.attributes).not.toHaveProperty('url.template');
    expect(span.attributes['url.full']).toBe(`${h.server.url}/no/such/route/42`);
  });

  it('never records an access token, nor an operation’s own token', async () => {
    const trigger = h.service.automations.createTrigger();
    const byToken = h.client({ appKey: undefined, accessToken: h.service.accessToken });
    await byToken.listIncidents(window);
    await byToken.automations.triggers.fire({ trigger_id: trigger.trigger_id }, { token: trigger.token });
    await rejection(
      byToken.automations.triggers.fire({ trigger_id: trigger.trigger_id }, { token: 'sat_refused_token' }),
    );
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'POST /incident/list',
      'POST /safari/automation/triggers/{trigger_id}/fire',
      'POST /safari/automation/triggers/{trigger_id}/fire',
    ]);
    const recorded = JSON.stringify(spans.map((s) => [s.name, s.attributes, s.events, s.status]));
    for (const secret of [h.service.accessToken, trigger.token, 'sat_refused_token'])
      expect(recorded).not.toContain(secret);
    expect(spans[2]?.attributes['error.type']).toBe('UnauthorizedError');
  });

  it('one span for a call that was retried: resend count, a retry event per failed attempt, one traceparent', async () => {
    h.service.faults.add({ status: 503, times: 2, headers: { 'Retry-After': '0' } });
    const before = h.calls.length;
    await h.client().listIncidents(window);
    const span = only('POST /incident/list');
    expect(span.attributes['http.response.status_code']).toBe(200);
    expect(span.attributes['http.request.resend_count']).toBe(2);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['retry', { 'http.response.status_code': 503, 'error.type': 'ServiceUnavailableError' }],
      [
        'retry',
        { 'http.response.status_code': 503, 'error.type': 'ServiceUnavailableError', 'http.request.resend_count': 1 },
      ],
    ]);
    const { traceId, spanId } = span.spanContext();
    expect(traceparents(before)).toEqual(Array(3).fill(`00-${traceId}-${spanId}-01`));
  });

  it('a failed call: an ERROR span with the error class as error.type', async () => {
    const error = await rejection(h.client().deleteSkill('skill_missing'));
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    const span = only('POST /safari/skill/delete');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(span.attributes['error.type']).toBe('ResourceNotFoundError');
    expect(span.attributes['http.response.status_code']).toBe((error as ResourceNotFoundError).status);
  });

  it('retries spent: the last error, with the resends', async () => {
    h.service.faults.add({ status: 503, times: 3, headers: { 'Retry-After': '0' } });
    await rejection(h.client({ maxRetries: 1 }).listIncidents(window));
    const span = only('POST /incident/list');
    expect(span.attributes).toMatchObject({
      'error.type': 'ServiceUnavailableError',
      'http.response.status_code': 503,
      'http.request.resend_count': 1,
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a connection error: no status code, the error class', async () => {
    const port = await closedPort();
    const client = h.client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    await rejection(client.listIncidents(window));
    const span = only('POST /incident/list');
    expect(span.attributes['error.type']).toBe('APIConnectionError');
    expect(span.attributes['http.response.status_code']).toBeUndefined();
    expect(span.attributes['server.port']).toBe(port);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a call aborted while it waits to retry ends its span', async () => {
    h.service.faults.add({ status: 503, times: 1, headers: { 'Retry-After': '30' } });
    const controller = new AbortController();
    // The client logs the retry just before it starts to wait: abort then.
    const quiet = () => {};
    const logger = { debug: quiet, info: quiet, error: quiet, warn: () => controller.abort() };
    const call = h.client({ logLevel: 'warn', logger }).listIncidents(window, { signal: controller.signal });
    expect(await rejection(call)).toBeInstanceOf(APIUserAbortError);
    const span = only('POST /incident/list');
    expect(span.attributes['error.type']).toBe('APIUserAbortError');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('webhook delivery spans', () => {
  beforeAll(register);

  const deliveries = () =>
    exporter
      .getFinishedSpans()
      .filter((span) => span.name === 'flashduty.webhook.receive')
      .map((span) => ({ ...span.attributes, status: span.status.code }));

  it('one span per delivery with its outcome: accepted, duplicate, stale', async () => {
    const receiver = new WebhookReceiver();
    const first = buildWebhookEvent('i_new', { event_time: NOW_MS });
    const older = buildWebhookEvent('i_ack', { event_time: NOW_MS - 1000, incident: first.incident });
    await receive(receiver, first);
    await receive(receiver, first);
    await receive(receiver, older);
    const ids = { event_type: 'i_new', event_id: first.event_id };
    const common = {
      'flashduty.webhook.kind': 'incident',
      'http.response.status_code': 200,
      status: SpanStatusCode.UNSET,
    };
    expect(deliveries()).toEqual([
      { ...common, 'flashduty.webhook.outcome': 'accepted', ...prefixed(ids) },
      { ...common, 'flashduty.webhook.outcome': 'duplicate', ...prefixed(ids) },
      {
        ...common,
        'flashduty.webhook.outcome': 'stale',
        ...prefixed({ event_type: 'i_ack', event_id: older.event_id }),
      },
    ]);
  });

  it('a rejected delivery: a bad secret (401) or payload (400), an ERROR span with the status as error.type', async () => {
    const receiver = new WebhookReceiver({ secret: { header: 'x-token', values: ['right'] } });
    await receive(receiver, buildWebhookEvent('i_new'), { headers: { 'x-token': 'wrong' } });
    await receive(receiver, { event_type: 'i_new' }, { headers: { 'x-token': 'right' } });
    expect(deliveries()).toEqual([
      {
        'flashduty.webhook.outcome': 'rejected',
        'http.response.status_code': 401,
        'error.type': '401',
        status: SpanStatusCode.ERROR,
      },
      {
        'flashduty.webhook.outcome': 'rejected',
        'http.response.status_code': 400,
        'error.type': '400',
        status: SpanStatusCode.ERROR,
      },
    ]);
    expect(exporter.getFinishedSpans()[0]?.status.message).toBe('missing or wrong x-token header');
  });

  it("handlers' spans are children of the delivery's; a handler that fails makes it an ERROR (500)", async () => {
    const tracer = trace.getTracer('app');
    const receiver = new WebhookReceiver().on('i_new', async () => {
      await tracer.startActiveSpan('handler', async (span) => {
        span.end();
        throw new Error('database down');
      });
    });
    receiver.on('error', () => {});
    const event = buildWebhookEvent('i_new');
    await receive(receiver, event);
    const delivery = only('flashduty.webhook.receive');
    expect(only('handler').parentSpanContext?.spanId).toBe(delivery.spanContext().spanId);
    expect(delivery.attributes).toMatchObject({
      'flashduty.webhook.outcome': 'rejected',
      'flashduty.webhook.event_id': event.event_id,
      'http.response.status_code': 500,
      'error.type': '500',
    });
    expect(delivery.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Error: database down' });
  });

  it("over HTTP too: a body read from the socket, handlers' spans children of the delivery's", async () => {
    const tracer = trace.getTracer('app');
    const receiver = new WebhookReceiver().on('i_new', () => tracer.startActiveSpan('handler', (span) => span.end()));
    const { url } = await standIn(receiver.nodeMiddleware());
    const response = await fetch(url, buildDelivery(buildWebhookEvent('i_new')).init());
    expect(response.status).toBe(200);
    expect(only('handler').parentSpanContext?.spanId).toBe(only('flashduty.webhook.receive').spanContext().spanId);
  });

  it('keeps an event type the SDK does not know as sent, cut to 256 characters however long it is', async () => {
    const receiver = new WebhookReceiver();
    const long = `i_${'x'.repeat(65_536)}`;
    await receive(receiver, { ...buildWebhookEvent('i_new'), event_type: 'i_added_later' });
    await receive(receiver, { ...buildWebhookEvent('i_new'), event_type: long });
    // A pair of surrogates where the cut falls is left out whole, never halved.
    const emoji = `i_${'x'.repeat(252)}${'🔥'.repeat(10)}`;
    await receive(receiver, { ...buildWebhookEvent('i_new'), event_type: emoji });
    const types = exporter.getFinishedSpans().map((span) => span.attributes['flashduty.webhook.event_type']);
    expect(types).toEqual(['i_added_later', `${long.slice(0, 255)}…`, `${emoji.slice(0, 254)}…`]);
    expect(exporter.getFinishedSpans().map((span) => span.attributes['flashduty.webhook.outcome'])).toEqual([
      'accepted',
      'accepted',
      'accepted',
    ]);
  });

  it('names the kind of an alert delivery', async () => {
    const receiver = new WebhookReceiver();
    const alert = await import('../fixtures/alert-webhook.example.json', { with: { type: 'json' } });
    await receive(receiver, alert.default);
    expect(only('flashduty.webhook.receive').attributes['flashduty.webhook.kind']).toBe('alert');
  });

  it("a span per job of the queue's processor: accepted, duplicate, and a failed job", async () => {
    const receiver = new WebhookReceiver();
    const process = receiver.processor();
    const event = buildWebhookEvent('i_new');
    await process({ id: 'job-1', data: event });
    await process({ id: 'job-2', data: event });
    expect(await rejection(process({ id: 'job-3', data: { not: 'a delivery' } }))).toMatchObject({
      name: 'UnrecoverableError',
    });
    const jobs = exporter.getFinishedSpans().filter((span) => span.name === 'flashduty.webhook.process');
    expect(jobs.map((span) => [span.attributes['flashduty.webhook.outcome'], span.status.code])).toEqual([
      ['accepted', SpanStatusCode.UNSET],
      ['duplicate', SpanStatusCode.UNSET],
      ['rejected', SpanStatusCode.ERROR],
    ]);
    expect(jobs[0]?.attributes['flashduty.webhook.event_id']).toBe(event.event_id);
    expect(jobs[2]?.attributes['error.type']).toBe('UnrecoverableError');
  });
});

describe('a registry the SDK cannot use', () => {
  const KEY = Symbol.for('opentelemetry.js.api.1');
  const broken = (): never => {
    throw new Error('broken');
  };
  const slot = globalThis as unknown as Record<symbol, unknown>;

  it.each([
    ['a provider without getTracer', { version: '1.9.1', trace: {} }],
    [
      'a provider that throws',
      {
        version: '1.9.1',
        trace: {
          getTracer: broken,
        },
      },
    ],
    [
      'a tracer whose spans throw',
      {
        version: '1.9.1',
        trace: {
          getTracer: () => ({
            startSpan: () => ({
              setAttribute: broken,
              addEvent: broken,
              setStatus: broken,
              end: broken,
            }),
          }),
        },
        propagation: {
          inject: broken,
        },
      },
    ],
    [
      'a context manager that throws',
      {
        version: '1.9.1',
        trace: provider,
        context: {
          active: () => ROOT_CONTEXT,
          with: broken,
        },
      },
    ],
    [
      'a context manager without a context',
      {
        version: '1.9.1',
        trace: provider,
        context: {
          active: () => undefined,
          with: broken,
        },
      },
    ],
    ['another shape altogether', 42],
  ])('%s: calls and deliveries work as without one', async (_, registry) => {
    unregister();
    const saved = slot[KEY];
    slot[KEY] = registry;
    try {
      await h.client().listIncidents(window);
      const result = await new WebhookReceiver().receive(buildDelivery(buildWebhookEvent('i_new')).receiveInput());
      expect(result.outcome).toBe('accepted');
    } finally {
      slot[KEY] = saved;
    }
  });
});

function prefixed(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [`flashduty.webhook.${key}`, value]));
}
