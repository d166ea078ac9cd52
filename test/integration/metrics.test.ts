// Metrics through the real OpenTelemetry API and SDK: a MeterProvider registered with
// `@opentelemetry/api`, read on demand. The receiver counts deliveries by outcome (all five) and
// jobs, times handlers (with error.type when they fail) and the queue wait (a real BullMQ queue on
// a real redis-server); the client times every HTTP attempt against the mock on loopback, naming
// the operation by its path template and never the app key. Nothing is recorded without a provider.
import { metrics } from '@opentelemetry/api';
import { type DataPoint, type Histogram, MeterProvider } from '@opentelemetry/sdk-metrics';
import { Queue, Worker } from 'bullmq';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteNotFoundError } from '../../src/index.js';
import { buildWebhookEvent } from '../../src/testing/index.js';
import { WebhookReceiver } from '../../src/webhooks/index.js';
import { DAY, NOW, receive, rejection, startMock } from '../helpers.js';
import { startRedis } from './support/redis.js';
import { OnDemandMetricReader, pointsOf } from '../otel.js';
import { storeThatGoesDown } from './support/outage-store.js';

let reader: OnDemandMetricReader;
beforeEach(() => {
  reader = new OnDemandMetricReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});
afterEach(() => metrics.disable());

/** Every data point of an instrument, by name. */
const points = (name: string) => pointsOf(reader, name);
const count = (point: DataPoint<number | Histogram>) =>
  typeof point.value === 'number' ? point.value : point.value.count;

const redis = await startRedis();
afterAll(() => redis.stop());
const h = await startMock({ incidents: 5 });

describe('the receiver', () => {
  it('counts deliveries by outcome and event type: accepted, duplicate, stale, rejected, unrecorded', async () => {
    const { store, down } = storeThatGoesDown();
    const receiver = new WebhookReceiver({ store, logger: false });
    const incident = { incident_id: 'metrics-incident' };
    const ack = buildWebhookEvent('i_ack', { incident });
    await receive(receiver, ack);
    await receive(receiver, ack);
    await receive(receiver, buildWebhookEvent('i_new', { incident, event_time: ack.event_time - 1_000 }));
    await receive(receiver, { not: 'a delivery' });
    down.value = true;
    await receive(receiver, buildWebhookEvent('i_rslv'));
    const seen = (await points('flashduty.webhook.deliveries')).map((p) => [
      p.attributes['flashduty.webhook.outcome'],
      p.attributes['flashduty.webhook.event_type'],
      p.value,
    ]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['accepted', 'i_ack', 1],
        ['duplicate', 'i_ack', 1],
        ['stale', 'i_new', 1],
        ['rejected', undefined, 1],
        ['unrecorded', 'i_rslv', 1],
      ]),
    );
    expect(seen).toHaveLength(5);
  });

  it('times handlers, with error.type when they fail', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    receiver.on('i_ack', async () => new Promise((resolve) => setTimeout(resolve, 20)));
    receiver.on('i_rslv', () => {
      throw new TypeError('bug');
    });
    await receive(receiver, buildWebhookEvent('i_ack'));
    await receive(receiver, buildWebhookEvent('i_rslv'));
    const durations = await points('flashduty.webhook.handler.duration');
    const ok = durations.find((p) => p.attributes['flashduty.webhook.event_type'] === 'i_ack');
    const failed = durations.find((p) => p.attributes['flashduty.webhook.event_type'] === 'i_rslv');
    expect(ok && count(ok)).toBe(1);
    expect(ok?.attributes['error.type']).toBeUndefined();
    expect((ok?.value as Histogram).sum).toBeGreaterThanOrEqual(0.015);
    expect(failed?.attributes['error.type']).toBe('TypeError');
  });

  it('with a BullMQ queue: the wait from the answer to the job, and jobs by outcome', async () => {
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    const queue = new Queue(`metrics-${process.pid}`, { connection });
    const receiver = new WebhookReceiver({ queue, logger: false });
    const event = buildWebhookEvent('i_new');
    await receive(receiver, event);
    await new Promise((resolve) => setTimeout(resolve, 50)); // it waits in the queue a while
    const worker = new Worker(queue.name, receiver.processor(), { connection });
    try {
      await vi.waitFor(async () => expect(await points('flashduty.webhook.jobs')).toHaveLength(1), { interval: 20 });
      const [job] = await points('flashduty.webhook.jobs');
      expect(job?.attributes).toEqual({
        'flashduty.webhook.outcome': 'accepted',
        'flashduty.webhook.event_type': 'i_new',
      });
      const [wait] = await points('flashduty.webhook.queue.wait');
      expect(wait && count(wait)).toBe(1);
      expect((wait?.value as Histogram).sum).toBeGreaterThanOrEqual(0.04);
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});

describe('the client', () => {
  it('times every HTTP attempt, naming the operation by its path template, never the app key', async () => {
    const client = h.client();
    await client.listIncidents({ start_time: NOW - 7 * DAY, end_time: NOW });
    await rejection(client.request('/no/such/route' as never, {}));
    const trigger = h.service.automations.createTrigger();
    await client.automations.triggers.fire({ trigger_id: trigger.trigger_id }, { token: trigger.token });
    const durations = await points('http.client.request.duration');
    const list = durations.find((p) => p.attributes['flashduty.operation'] === '/incident/list');
    expect(list?.attributes).toEqual({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
      'flashduty.operation': '/incident/list',
    });
    // A path no operation matches: `_OTHER`, not the path.
    const missing = durations.find((p) => p.attributes['flashduty.operation'] === '_OTHER');
    expect(missing?.attributes).toMatchObject({
      'http.response.status_code': 404,
      'error.type': RouteNotFoundError.name,
    });
    const fired = durations.find(
      (p) => p.attributes['flashduty.operation'] === '/safari/automation/triggers/{trigger_id}/fire',
    );
    expect(fired?.attributes['http.response.status_code']).toBe(200);
    const recorded = JSON.stringify(durations);
    for (const unbounded of [h.service.appKey, trigger.token, trigger.trigger_id, '/no/such/route'])
      expect(recorded).not.toContain(unbounded);
  });

  it('records nothing once no provider is registered', async () => {
    metrics.disable();
    await h.client().listIncidents({ start_time: NOW - 7 * DAY, end_time: NOW });
    expect(await points('http.client.request.duration')).toEqual([]);
  });
});
