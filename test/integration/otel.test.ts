// OpenTelemetry through the real API and SDK: a provider registered with `@opentelemetry/api`
// (BasicTracerProvider, InMemorySpanExporter, the W3C propagator). A span per webhook delivery
// with its outcome; nothing at all when no provider is registered, and nothing thrown by a broken
// registry.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  context,
  type Context,
  type ContextManager,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
// The propagator of the SDK's own `@opentelemetry/core` (a dependency of sdk-trace-base, same release).
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../src/testing/index.js';
import { WebhookReceiver } from '../../src/webhooks/index.js';
import { NOW, rejection } from '../helpers.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/**
 * The context manager an app gets from `@opentelemetry/context-async-hooks` (not installed here),
 * to the letter of the API's interface: the active context follows async calls.
 */
class AsyncLocalStorageContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#storage.disable();
    return this;
  }
}

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
afterEach(() => exporter.reset());

/** The one finished span of this name. */
function only(name: string): ReadableSpan {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

describe('with no tracer provider registered', () => {
  it('records nothing; deliveries work', async () => {
    unregister();
    const receiver = new WebhookReceiver();
    const result = await receiver.receive(buildDelivery(buildWebhookEvent('i_new')).receiveInput());
    expect(result.outcome).toBe('accepted');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('webhook delivery spans', () => {
  beforeAll(register);

  const receive = (receiver: WebhookReceiver, payload: unknown, headers: Record<string, string> = {}) =>
    receiver.receive(buildDelivery(payload, { headers }).receiveInput());

  const deliveries = () =>
    exporter
      .getFinishedSpans()
      .filter((span) => span.name === 'flashduty.webhook.receive')
      .map((span) => ({ ...span.attributes, status: span.status.code }));

  it('one span per delivery with its outcome: accepted, duplicate, stale', async () => {
    const receiver = new WebhookReceiver();
    const first = buildWebhookEvent('i_new', { event_time: NOW });
    const older = buildWebhookEvent('i_ack', { event_time: NOW - 1000, incident: first.incident });
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
    await receive(receiver, buildWebhookEvent('i_new'), { 'x-token': 'wrong' });
    await receive(receiver, { event_type: 'i_new' }, { 'x-token': 'right' });
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
    expect(delivery.status).toEqual({ code: SpanStatusCode.ERROR, message: 'handler failed: database down' });
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
  const slot = globalThis as unknown as Record<symbol, unknown>;

  it.each([
    ['a provider without getTracer', { version: '1.9.1', trace: {} }],
    [
      'a provider that throws',
      {
        version: '1.9.1',
        trace: {
          getTracer: () => {
            throw new Error('broken');
          },
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
              setAttribute: () => {
                throw new Error('broken');
              },
              addEvent: () => {
                throw new Error('broken');
              },
              setStatus: () => {
                throw new Error('broken');
              },
              end: () => {
                throw new Error('broken');
              },
            }),
          }),
        },
        propagation: {
          inject: () => {
            throw new Error('broken');
          },
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
          with: () => {
            throw new Error('broken');
          },
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
          with: () => {
            throw new Error('broken');
          },
        },
      },
    ],
    ['another shape altogether', 42],
  ])('%s: deliveries work as without one', async (_, registry) => {
    unregister();
    const saved = slot[KEY];
    slot[KEY] = registry;
    try {
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
