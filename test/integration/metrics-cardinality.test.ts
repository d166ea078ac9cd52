// Metrics a backend can hold, whatever senders and ids come: the number of attribute sets (series)
// each instrument makes, through the real OpenTelemetry SDK. 1 000 hostile deliveries (each a
// random event type, one of them 64 KiB long) and one of each type the SDK knows, to a real receiver
// and to a real BullMQ queue on a real redis-server with a real Worker: at most one set per known
// type and one for `_OTHER` in every webhook instrument, and no value longer than a known type.
// 1 000 trigger fires with distinct ids against the mock on loopback: one set, one span name and
// one url.template for the operation. Each count is printed, for docs/observability.md.
import { randomBytes } from 'node:crypto';
import { metrics, trace } from '@opentelemetry/api';
import { type DataPoint, type Histogram, MeterProvider } from '@opentelemetry/sdk-metrics';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWebhookEvent } from '../../src/testing/index.js';
import { ALERT_EVENT_TYPES, INCIDENT_EVENT_TYPES, WebhookReceiver } from '../../src/webhooks/index.js';
import { receive, startMock } from '../helpers.js';
import { inMemoryTracing, OnDemandMetricReader, pointsOf } from '../otel.js';
import { startRedis } from './support/redis.js';

const KNOWN = [...INCIDENT_EVENT_TYPES, ...ALERT_EVENT_TYPES];
const { default: alert } = await import('../fixtures/alert-webhook.example.json', { with: { type: 'json' } });
const HOSTILE = 1_000;
const FIRES = 1_000;
const TEMPLATE = '/safari/automation/triggers/{trigger_id}/fire';

const reader = new OnDemandMetricReader();
const { exporter, provider } = inMemoryTracing();
beforeAll(() => {
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  metrics.disable();
  trace.disable();
});

const redis = await startRedis();
afterAll(() => redis.stop());
const h = await startMock({ rateLimits: false });

/** Every data point of an instrument. */
const points = (name: string) => pointsOf(reader, name);
const total = (all: Array<DataPoint<number | Histogram>>) =>
  all.reduce((sum, point) => sum + (typeof point.value === 'number' ? point.value : point.value.count), 0);

/** A random event type, as a sender that means harm (or a typo) sends; one of them 64 KiB long. */
const hostileType = (i: number) => (i === 0 ? `i_${'x'.repeat(64 * 1024)}` : `i_${randomBytes(6).toString('hex')}`);
const id = () => randomBytes(12).toString('hex');
/** An event of a type the SDK knows: an incident's, or an alert's (the documented example, with ids of its own). */
const knownEvent = (type: string) =>
  type.startsWith('a_')
    ? { ...alert, event_type: type, event_id: id(), alert: { ...alert.alert, alert_id: id() } }
    : buildWebhookEvent(type as (typeof INCIDENT_EVENT_TYPES)[number]);
/** The deliveries: the hostile ones, then one of each type the SDK knows. */
const deliveries = () => [
  ...Array.from({ length: HOSTILE }, (_, i) => ({ ...buildWebhookEvent('i_new'), event_type: hostileType(i) })),
  ...KNOWN.map(knownEvent),
];

/** The attribute sets of an instrument, checked to be bounded, and how many. */
async function attributeSets(name: string, expected: number): Promise<number> {
  const all = await points(name);
  const types = all.map((point) => String(point.attributes['flashduty.webhook.event_type']));
  console.log(`${name}: ${all.length} attribute sets after ${total(all)} measurements`);
  expect(Math.max(...types.map((type) => type.length)), name).toBeLessThanOrEqual(12); // `i_r_severity`
  expect(new Set(types).size, name).toBe(all.length); // one outcome each: all accepted
  expect(total(all), name).toBe(expected);
  return all.length;
}

describe('webhook metrics', () => {
  it(`after ${HOSTILE} hostile deliveries: one attribute set per known event type, and _OTHER`, async () => {
    const receiver = new WebhookReceiver({ logger: false }).on('event', () => {});
    for (const event of deliveries()) expect((await receive(receiver, event)).outcome).toBe('accepted');
    const sent = HOSTILE + KNOWN.length;
    await vi.waitFor(async () => expect(total(await points('flashduty.webhook.deliveries'))).toBe(sent));
    for (const name of ['flashduty.webhook.deliveries', 'flashduty.webhook.handler.duration'])
      expect(await attributeSets(name, sent), name).toBe(KNOWN.length + 1);
  });

  it(`in queue mode, with BullMQ: the same for jobs and the queue wait`, async () => {
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    const queue = new Queue(`cardinality-${process.pid}`, { connection });
    const receiver = new WebhookReceiver({ queue, logger: false }).on('event', () => {});
    const worker = new Worker(queue.name, receiver.processor(), { connection, concurrency: 20 });
    try {
      for (const event of deliveries()) expect((await receive(receiver, event)).outcome).toBe('accepted');
      const sent = HOSTILE + KNOWN.length;
      await vi.waitFor(async () => expect(total(await points('flashduty.webhook.jobs'))).toBe(sent), {
        timeout: 60_000,
        interval: 100,
      });
      for (const name of ['flashduty.webhook.jobs', 'flashduty.webhook.queue.wait'])
        expect(await attributeSets(name, sent), name).toBe(KNOWN.length + 1);
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});

describe('client metrics and spans', () => {
  it(`after ${FIRES} trigger fires with distinct ids: one attribute set, one span name, one url.template`, async () => {
    const client = h.client({ rateLimit: false });
    const triggers = Array.from({ length: FIRES }, () => h.service.automations.createTrigger());
    expect(new Set(triggers.map(({ trigger_id }) => trigger_id)).size).toBe(FIRES);
    exporter.reset();
    for (let i = 0; i < FIRES; i += 20)
      await Promise.all(
        triggers
          .slice(i, i + 20)
          .map(({ trigger_id, token }) => client.automations.triggers.fire({ trigger_id }, { token })),
      );
    await vi.waitFor(async () => expect(total(await points('http.client.request.duration'))).toBe(FIRES));
    const sets = await points('http.client.request.duration');
    const spans = exporter.getFinishedSpans();
    const names = new Set(spans.map((span) => span.name));
    const templates = new Set(spans.map((span) => span.attributes['url.template']));
    console.log(
      `http.client.request.duration: ${sets.length} attribute sets; spans: ${names.size} names, ${templates.size} url.template values; after ${FIRES} fires`,
    );
    expect(sets.map((point) => point.attributes['flashduty.operation'])).toEqual([TEMPLATE]);
    expect(spans).toHaveLength(FIRES);
    expect([...names]).toEqual([`POST ${TEMPLATE}`]);
    expect([...templates]).toEqual([TEMPLATE]);
  });
});
