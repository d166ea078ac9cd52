// The receiver's metrics (src/webhooks/metrics.ts) through the real OpenTelemetry API and SDK: with
// no meter provider registered, nothing is made or recorded (handlerTimer gives no timer); with one,
// flashduty.webhook.deliveries counts deliveries by
// outcome and event type, flashduty.webhook.handler.duration times handlers in seconds, with
// error.type when they failed, and the queue mode's jobs and waits are recorded likewise. Every
// instrument has a description and a unit; an event type the SDK does not know is `_OTHER`,
// whatever its length. The provider is read on each call: one registered later is used, one
// disabled is dropped.
import { metrics } from '@opentelemetry/api';
import {
  DataPointType,
  type DataPoint,
  type Histogram,
  type MetricData,
  MeterProvider,
} from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countDelivery, countJob, handlerTimer, recordQueueWait } from '../../../src/webhooks/metrics.js';
import { ALERT_EVENT_TYPES, INCIDENT_EVENT_TYPES } from '../../../src/webhooks/index.js';
import { OnDemandMetricReader } from '../../otel.js';

/** A MeterProvider registered globally, read through its reader. */
function register() {
  const reader = new OnDemandMetricReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return reader;
}
afterEach(() => {
  metrics.disable();
  vi.restoreAllMocks();
});

/** Every metric the reader holds, by name. */
async function collected(reader: OnDemandMetricReader): Promise<Map<string, MetricData>> {
  const { resourceMetrics, errors } = await reader.collect();
  expect(errors).toEqual([]);
  return new Map(
    resourceMetrics.scopeMetrics.flatMap((scope) => {
      expect(scope.scope.name).toBe('flashduty-sdk');
      return scope.metrics.map((metric) => [metric.descriptor.name, metric] as const);
    }),
  );
}
async function points(reader: OnDemandMetricReader, name: string) {
  return ((await collected(reader)).get(name)?.dataPoints ?? []) as Array<DataPoint<number | Histogram>>;
}

/** The bucket bounds of the duration histograms, in seconds: 5 ms to 2 min. */
const SECONDS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120];

describe('with no meter provider registered', () => {
  it('countDelivery records nothing and handlerTimer gives no timer', () => {
    expect(countDelivery('accepted', 'i_new')).toBeUndefined();
    expect(handlerTimer('i_new')).toBeUndefined();
  });
});

describe('with one', () => {
  it('a provider registered later is used, and one disabled is no longer', async () => {
    countDelivery('accepted', 'i_new'); // before any provider: lost
    const reader = register();
    countDelivery('accepted', 'i_new');
    expect((await points(reader, 'flashduty.webhook.deliveries')).map((p) => p.value)).toEqual([1]);
    metrics.disable();
    countDelivery('accepted', 'i_new');
    expect(handlerTimer('i_new')).toBeUndefined();
    expect((await points(reader, 'flashduty.webhook.deliveries')).map((p) => p.value)).toEqual([1]);
  });

  it('every instrument has a description and a unit', async () => {
    const reader = register();
    countDelivery('accepted', 'i_new');
    handlerTimer('i_new')?.();
    countJob('accepted', 'i_new');
    recordQueueWait(0.1, 'i_new');
    const descriptors = [...(await collected(reader)).values()].map(({ descriptor }) => descriptor);
    expect(descriptors.map(({ name, unit }) => [name, unit])).toEqual([
      ['flashduty.webhook.deliveries', '{delivery}'],
      ['flashduty.webhook.handler.duration', 's'],
      ['flashduty.webhook.jobs', '{job}'],
      ['flashduty.webhook.queue.wait', 's'],
    ]);
    for (const { name, description } of descriptors) expect(description, name).toMatch(/^[A-Z].{15,}/);
  });
});

describe('a meter that throws', () => {
  it('costs the measurement, never the delivery or the job', async () => {
    const broken = () => {
      throw new Error('meter broke');
    };
    const meter = { createCounter: () => ({ add: broken }), createHistogram: () => ({ record: broken }) };
    metrics.setGlobalMeterProvider({ getMeter: () => meter } as unknown as MeterProvider);
    expect(() => countDelivery('accepted', 'i_new')).not.toThrow();
    expect(() => handlerTimer('i_new')?.({ error: new Error('handler') })).not.toThrow();
    expect(() => countJob('accepted', 'i_new')).not.toThrow();
    expect(() => recordQueueWait(1, 'i_new')).not.toThrow();
    metrics.disable();
    metrics.setGlobalMeterProvider({ getMeter: broken });
    expect(() => countDelivery('accepted', 'i_new')).not.toThrow();
    expect(() => countJob('accepted', 'i_new')).not.toThrow();
  });
});

describe('flashduty.webhook.deliveries', () => {
  it('counts each delivery by its outcome and event type', async () => {
    const reader = register();
    countDelivery('accepted', 'i_ack');
    countDelivery('accepted', 'i_ack');
    countDelivery('duplicate', 'i_ack');
    countDelivery('stale', 'i_new');
    countDelivery('unrecorded', 'i_rslv');
    countDelivery('rejected', undefined); // not a valid payload: no event type
    const metric = (await collected(reader)).get('flashduty.webhook.deliveries');
    expect(metric).toMatchObject({ dataPointType: DataPointType.SUM, isMonotonic: true });
    const seen = (metric?.dataPoints ?? []).map((p) => [p.attributes, p.value]);
    expect(seen).toHaveLength(5);
    expect(seen).toEqual(
      expect.arrayContaining([
        [{ 'flashduty.webhook.outcome': 'accepted', 'flashduty.webhook.event_type': 'i_ack' }, 2],
        [{ 'flashduty.webhook.outcome': 'duplicate', 'flashduty.webhook.event_type': 'i_ack' }, 1],
        [{ 'flashduty.webhook.outcome': 'stale', 'flashduty.webhook.event_type': 'i_new' }, 1],
        [{ 'flashduty.webhook.outcome': 'unrecorded', 'flashduty.webhook.event_type': 'i_rslv' }, 1],
        [{ 'flashduty.webhook.outcome': 'rejected' }, 1],
      ]),
    );
  });
});

describe('event types: the SDK’s own, else _OTHER', () => {
  const known = [...INCIDENT_EVENT_TYPES, ...ALERT_EVENT_TYPES];
  const unknown = ['i_added_later', 'I_NEW', 'a_new ', '__proto__', 'constructor', 'x'.repeat(65_536)];

  it('every instrument keeps each known type and records any other as _OTHER', async () => {
    const reader = register();
    for (const type of [...known, ...unknown]) {
      countDelivery('accepted', type);
      handlerTimer(type)?.();
      countJob('accepted', type);
      recordQueueWait(0.01, type);
    }
    const instruments = [
      'flashduty.webhook.deliveries',
      'flashduty.webhook.handler.duration',
      'flashduty.webhook.jobs',
      'flashduty.webhook.queue.wait',
    ];
    for (const name of instruments) {
      const seen = (await points(reader, name)).map((p) => p.attributes['flashduty.webhook.event_type']);
      expect([...seen].sort(), name).toEqual([...known, '_OTHER'].sort());
      const other = (await points(reader, name)).find((p) => p.attributes['flashduty.webhook.event_type'] === '_OTHER');
      expect(other && (typeof other.value === 'number' ? other.value : other.value.count), name).toBe(unknown.length);
    }
  });
});

describe('flashduty.webhook.handler.duration', () => {
  /** A clock the test moves: performance.now() in ms. */
  function clock() {
    const time = { now: 1_000 };
    vi.spyOn(performance, 'now').mockImplementation(() => time.now);
    return time;
  }

  it('records the run in seconds, with no error.type when the handlers succeeded', async () => {
    const reader = register();
    const time = clock();
    const done = handlerTimer('i_ack');
    expect(done).toBeTypeOf('function');
    time.now += 250;
    done?.();
    const metric = (await collected(reader)).get('flashduty.webhook.handler.duration');
    expect(metric).toMatchObject({ dataPointType: DataPointType.HISTOGRAM, descriptor: { unit: 's' } });
    expect(metric?.dataPoints).toHaveLength(1);
    const [point] = (metric?.dataPoints ?? []) as Array<DataPoint<Histogram>>;
    expect(point?.attributes).toEqual({ 'flashduty.webhook.event_type': 'i_ack' });
    expect(point?.value).toMatchObject({ count: 1, sum: 0.25 });
    expect(point?.value.buckets.boundaries).toEqual(SECONDS);
  });

  it("records error.type when they failed: the error's name, or Error for a thrown non-error", async () => {
    const reader = register();
    const time = clock();
    const runs: Array<[string, unknown]> = [
      ['i_new', new TypeError('bug')],
      ['i_ack', Object.assign(new Error('down'), { name: 'StoreUnavailable' })],
      ['i_rslv', null],
      ['i_snooze', 'a string'],
      ['i_wake', undefined], // a rejection with nothing is still a failure
    ];
    for (const [type, error] of runs) {
      const done = handlerTimer(type);
      time.now += 100;
      done?.({ error });
    }
    const seen = (await points(reader, 'flashduty.webhook.handler.duration')).map((p) => [
      p.attributes['flashduty.webhook.event_type'],
      p.attributes['error.type'],
      (p.value as Histogram).sum,
    ]);
    expect(seen).toHaveLength(5);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['i_new', 'TypeError', 0.1],
        ['i_ack', 'StoreUnavailable', 0.1],
        ['i_rslv', 'Error', 0.1],
        ['i_wake', 'Error', 0.1],
        ['i_snooze', 'Error', 0.1],
      ]),
    );
  });
});
