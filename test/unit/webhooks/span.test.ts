// The receiver's spans (src/webhooks/span.ts) through the real OpenTelemetry API and SDK: a
// BasicTracerProvider with an InMemorySpanExporter registered with `trace.setGlobalTracerProvider`,
// and an AsyncLocalStorage context manager where nesting is checked. Rules checked:
// - `traced` runs the work in one INTERNAL span of the name given and resolves what it resolved;
// - the span records the outcome, the event's type, id and kind (incident, alert, custom_body,
//   other) and the reply's status; an accepted, duplicate or stale delivery is no error;
// - a rejected delivery is an ERROR span whose error.type is its status (the reason as the message),
//   a failure on this side one whose error.type is the error's class (its message as the message);
// - work that throws ends the span with what `failure` makes of the error, and the error goes on;
// - spans started by the work are its children, and the span is a child of the active one;
// - no span at all where the registry has no tracer provider;
// - through a real WebhookReceiver: the secret and the body's bytes are never recorded.
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { traced, type Traced } from '../../../src/webhooks/span.js';
import { CustomBodyEvent, type WebhookEvent } from '../../../src/webhooks/types.js';
import { WebhookReceiver } from '../../../src/webhooks/index.js';
import alertExample from '../../fixtures/alert-webhook.example.json' with { type: 'json' };
import { rejection } from '../../helpers.js';
import { AsyncLocalStorageContextManager, inMemoryTracing } from '../../otel.js';

const { exporter, provider } = inMemoryTracing();

beforeEach(() => {
  trace.setGlobalTracerProvider(provider);
});
afterEach(() => {
  trace.disable();
  context.disable();
  exporter.reset();
});

const RECEIVE = 'flashduty.webhook.receive';

/** The one finished span of this name. */
function only(name: string): ReadableSpan {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(spans, name).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

/** What `failure` would be asked: never, in the tests where the work resolves. */
const unused = (): Traced => {
  throw new Error('failure() called for work that resolved');
};

/** `traced` around work that resolves `result`; the span it recorded. */
async function spanOf(result: Traced): Promise<ReadableSpan> {
  expect(await traced(RECEIVE, () => Promise.resolve(result), unused)).toBe(result);
  return only(RECEIVE);
}

describe('traced', () => {
  it('an accepted delivery: an INTERNAL span with its outcome, event, kind and status, no error', async () => {
    const event = buildWebhookEvent('i_new') as WebhookEvent;
    const span = await spanOf({ outcome: 'accepted', event, status: 200 });
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'flashduty.webhook.outcome': 'accepted',
      'flashduty.webhook.event_type': 'i_new',
      'flashduty.webhook.event_id': event.event_id,
      'flashduty.webhook.kind': 'incident',
      'http.response.status_code': 200,
    });
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(span.instrumentationScope.name).toBe('flashduty-sdk');
  });

  it.each(['duplicate', 'stale'] as const)('a %s delivery is no error', async (outcome) => {
    const event = buildWebhookEvent('i_ack') as WebhookEvent;
    const span = await spanOf({ outcome, event, status: 200 });
    expect(span.attributes['flashduty.webhook.outcome']).toBe(outcome);
    expect(span.attributes).not.toHaveProperty('error.type');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it.each([
    ['an alert', alertExample as unknown as WebhookEvent, 'alert'],
    [
      'a custom body',
      new CustomBodyEvent({ event_id: 'e-custom', event_time: 1, event_type: 'i_new' }, { anything: 1 }),
      'custom_body',
    ],
    ['an event of no known kind', { event_id: 'e-other', event_time: 1, event_type: 'x_new' }, 'other'],
  ])('names the kind of %s', async (_, event, kind) => {
    const span = await spanOf({ outcome: 'accepted', event, status: 200 });
    expect(span.attributes['flashduty.webhook.kind']).toBe(kind);
    expect(span.attributes['flashduty.webhook.event_id']).toBe(event.event_id);
  });

  it('a job (no answer, so no status): no status code', async () => {
    const event = buildWebhookEvent('i_new') as WebhookEvent;
    const span = await spanOf({ outcome: 'accepted', event });
    expect(span.attributes).not.toHaveProperty('http.response.status_code');
    expect(span.attributes).not.toHaveProperty('error.type');
  });

  it('a rejected delivery: an ERROR span, its status as error.type, its reason as the message, no event', async () => {
    const span = await spanOf({ outcome: 'rejected', status: 401, reason: 'missing or wrong x-token header' });
    expect(span.attributes).toEqual({
      'flashduty.webhook.outcome': 'rejected',
      'http.response.status_code': 401,
      'error.type': '401',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'missing or wrong x-token header' });
  });

  it('a failure on this side: the error as the message, its status (or its class) as error.type', async () => {
    const event = buildWebhookEvent('i_new') as WebhookEvent;
    const error = new TypeError('database down');
    const handler = await spanOf({ outcome: 'rejected', event, status: 500, reason: 'handler failed', error });
    expect(handler.attributes['error.type']).toBe('500');
    expect(handler.status).toEqual({ code: SpanStatusCode.ERROR, message: 'TypeError: database down' });
    exporter.reset();
    const job = await spanOf({ outcome: 'unrecorded', event, error });
    expect(job.attributes).toMatchObject({ 'flashduty.webhook.outcome': 'unrecorded', 'error.type': 'TypeError' });
    expect(job.status).toEqual({ code: SpanStatusCode.ERROR, message: 'TypeError: database down' });
    exporter.reset();
    const thrown = await spanOf({ outcome: 'rejected', error: 'a string thrown' });
    expect(thrown.attributes['error.type']).toBe('Error');
    expect(thrown.status).toEqual({ code: SpanStatusCode.ERROR, message: 'a string thrown' });
  });

  it('work that throws: the span ends with what failure() makes of the error, which goes on', async () => {
    const error = new RangeError('store unreachable');
    const asked: unknown[] = [];
    const failure = (thrown: unknown): Traced => (asked.push(thrown), { outcome: 'rejected', error: thrown });
    const thrown = await rejection(traced('flashduty.webhook.process', () => Promise.reject(error), failure));
    expect(thrown).toBe(error);
    expect(asked).toEqual([error]);
    const span = only('flashduty.webhook.process');
    expect(span.attributes).toEqual({ 'flashduty.webhook.outcome': 'rejected', 'error.type': 'RangeError' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'RangeError: store unreachable' });
  });

  it('runs the work once, without a span, where no tracer provider is registered', async () => {
    let runs = 0;
    const result: Traced = { outcome: 'accepted', status: 200 };
    const run = () => (runs++, Promise.resolve(result));
    trace.disable();
    expect(await traced(RECEIVE, run, unused)).toBe(result);
    expect(runs).toBe(1);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('nesting', () => {
  beforeEach(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  });

  it("the work's spans are the delivery span's children, and it the active span's child", async () => {
    const app = trace.getTracer('app');
    await app.startActiveSpan('handle request', async (parent) => {
      await traced(
        RECEIVE,
        async () => {
          await Promise.resolve();
          app.startSpan('handler').end();
          return { outcome: 'accepted', status: 200 };
        },
        unused,
      );
      parent.end();
    });
    const delivery = only(RECEIVE);
    expect(delivery.parentSpanContext?.spanId).toBe(only('handle request').spanContext().spanId);
    expect(only('handler').parentSpanContext?.spanId).toBe(delivery.spanContext().spanId);
  });

  it('a span started after the work ended is not its child', async () => {
    await traced(RECEIVE, () => Promise.resolve<Traced>({ outcome: 'accepted', status: 200 }), unused);
    trace.getTracer('app').startSpan('after').end();
    expect(only('after').parentSpanContext).toBeUndefined();
  });
});

describe('through a WebhookReceiver', () => {
  const SECRET = 'hunter2-secret-value';
  const BODY_MARKER = 'body-bytes-3c7e';

  /** Everything the spans recorded, as one text. */
  const recorded = () =>
    JSON.stringify(
      exporter.getFinishedSpans().map((span) => [span.name, span.attributes, span.events, span.status, span.links]),
    );

  it('records neither the secret nor a byte of the body, accepted or refused', async () => {
    const receiver = new WebhookReceiver({ secret: { header: 'x-token', values: [SECRET] }, logger: false });
    const event = buildWebhookEvent('i_new');
    const payload = {
      ...event,
      incident: { ...event.incident, title: BODY_MARKER, description: BODY_MARKER, labels: { k: BODY_MARKER } },
    };
    const right = buildDelivery(payload, { headers: { 'x-token': SECRET } }).receiveInput();
    const wrong = buildDelivery(payload, { headers: { 'x-token': `${SECRET}-old` } }).receiveInput();
    expect((await receiver.receive(right)).outcome).toBe('accepted');
    expect((await receiver.receive(wrong)).status).toBe(401);
    expect((await receiver.receive({ body: `{"broken": "${BODY_MARKER}`, headers: right.headers })).status).toBe(400);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => [span.name, span.attributes['flashduty.webhook.outcome'], span.status.code])).toEqual([
      [RECEIVE, 'accepted', SpanStatusCode.UNSET],
      [RECEIVE, 'rejected', SpanStatusCode.ERROR],
      [RECEIVE, 'rejected', SpanStatusCode.ERROR],
    ]);
    expect(spans[0]?.attributes['flashduty.webhook.event_id']).toBe(event.event_id);
    expect(recorded()).not.toContain(SECRET);
    expect(recorded()).not.toContain(BODY_MARKER);
  });

  it("a job of the receiver's processor is a flashduty.webhook.process span", async () => {
    const receiver = new WebhookReceiver({ logger: false });
    const event = buildWebhookEvent('i_new');
    await receiver.processor()({
      id: 'job-1',
      data: { ...event, incident: { ...event.incident, title: BODY_MARKER } },
    });
    const span = only('flashduty.webhook.process');
    expect(span.attributes).toEqual({
      'flashduty.webhook.outcome': 'accepted',
      'flashduty.webhook.event_type': 'i_new',
      'flashduty.webhook.event_id': event.event_id,
      'flashduty.webhook.kind': 'incident',
    });
    expect(recorded()).not.toContain(BODY_MARKER);
  });
});
