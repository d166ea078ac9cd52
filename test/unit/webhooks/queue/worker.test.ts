// The queue mode's second side (src/webhooks/queue/worker.ts): a job read again as a delivery and
// run through the pipeline, its fate made the job's result (resolved, rejected with the handler's
// error, or moved to the delayed set without an attempt when the store failed). Jobs are objects of
// BullMQ's shape; the real BullMQ runs in test/integration/webhooks (queue, store-outage, fresh-once).
import { metrics } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildWebhookEvent } from '../../../../src/testing/index.js';
import { FlashdutyError } from '../../../../src/index.js';
import { Handlers } from '../../../../src/webhooks/handlers.js';
import { MemoryStateStore, readDefaultPayload, type WebhookJob } from '../../../../src/webhooks/index.js';
import { Pipeline } from '../../../../src/webhooks/pipeline.js';
import { processJob } from '../../../../src/webhooks/queue/worker.js';
import { OnDemandMetricReader } from '../../../otel.js';

const event = buildWebhookEvent('i_new');

describe('processJob', () => {
  const pipeline = (store = new MemoryStateStore(), handlers = new Handlers(false)) =>
    new Pipeline({
      store,
      handlers,
      dedup: true,
      dropStale: true,
      leaseMs: 60_000,
      maxClockSkewMs: 300_000,
      maxInFlight: 10,
    });
  const job = (data: unknown, more: Partial<WebhookJob> = {}): WebhookJob => ({ id: 'fd-1', data, ...more });

  it('fails a job that is not a delivery for good (UnrecoverableError), naming the path', async () => {
    const error = await processJob(job({ event_type: 'i_new' }), 'token', readDefaultPayload, pipeline()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FlashdutyError);
    expect(error).toMatchObject({
      name: 'UnrecoverableError',
      message: expect.stringMatching(/^job fd-1 is not a webhook delivery: event_id:/),
    });
  });

  it('counts a job that is not a delivery, as rejected', async () => {
    const reader = new OnDemandMetricReader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    onTestFinished(() => metrics.disable());
    await processJob(job({ not: 'a delivery' }), 'token', readDefaultPayload, pipeline()).catch(() => {});
    const { resourceMetrics } = await reader.collect();
    const jobs = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === 'flashduty.webhook.jobs');
    expect(jobs?.dataPoints.map((point) => [point.attributes['flashduty.webhook.outcome'], point.value])).toEqual([
      ['rejected', 1],
    ]);
  });

  it('resolves accepted, duplicate and stale with the outcome (kept by BullMQ as the return value)', async () => {
    const p = pipeline();
    expect(await processJob(job(event), 'token', readDefaultPayload, p)).toEqual({ outcome: 'accepted' });
    expect(await processJob(job(event, { id: 'fd-2' }), 'token', readDefaultPayload, p)).toEqual({
      outcome: 'duplicate',
    });
    const older = buildWebhookEvent('i_ack', { incident: event.incident, event_time: event.event_time - 1 });
    expect(await processJob(job(older, { id: 'fd-3' }), 'token', readDefaultPayload, p)).toEqual({ outcome: 'stale' });
  });

  it('runs the handlers of a job retried after a failed attempt, even once the store forgot its verdict', async () => {
    const handlers = new Handlers(false);
    const seen: string[] = [];
    handlers.on('event', (e: unknown) => void seen.push((e as { event_id: string }).event_id));
    const p = pipeline(new MemoryStateStore(), handlers);
    expect(await processJob(job(event), 'token', readDefaultPayload, p)).toEqual({ outcome: 'accepted' });
    // An older event of the incident whose first attempt failed a day ago: the store holds nothing of it.
    const older = buildWebhookEvent('i_ack', { incident: event.incident, event_time: event.event_time - 1 });
    const moveToDelayed = async () => {}; // BullMQ's: a wait for the store used no attempt
    const retried = job(older, { id: 'fd-retried', attemptsMade: 1, attemptsStarted: 2, moveToDelayed });
    expect(await processJob(retried, 'token', readDefaultPayload, p)).toEqual({ outcome: 'accepted' });
    expect(seen).toEqual([event.event_id, older.event_id]);
    // A queue whose waits for the store use attempts: an attempt made says nothing of a verdict.
    const elsewhere = buildWebhookEvent('i_ack', { incident: event.incident, event_time: event.event_time - 2 });
    const unmoved = job(elsewhere, { id: 'fd-unmoved', attemptsMade: 1, attemptsStarted: 2 });
    expect(await processJob(unmoved, 'token', readDefaultPayload, p)).toEqual({ outcome: 'stale' });
  });

  it("rejects with the handler's own error, so that BullMQ retries the job", async () => {
    const handlers = new Handlers(false);
    handlers.on('event', () => {
      throw new TypeError('bug');
    });
    await expect(processJob(job(event), 'token', readDefaultPayload, pipeline(undefined, handlers))).rejects.toThrow(
      new TypeError('bug'),
    );
  });

  it('moves a job whose store failed to the delayed set without an attempt, waiting longer each time, up to 30 s', async () => {
    const store = new MemoryStateStore();
    store.claim = (() => Promise.reject(new Error('OOM command not allowed'))) as never;
    const p = pipeline(store);
    const moved: number[] = [];
    for (const [attemptsStarted, wait] of [
      [1, 1_000],
      [2, 2_000],
      [4, 8_000],
      [9, 30_000],
    ] as const) {
      const delayed = job(event, {
        attemptsStarted,
        attemptsMade: 0,
        moveToDelayed: async (timestamp) => void moved.push(timestamp - Date.now()),
      });
      const error = await processJob(delayed, 'token', readDefaultPayload, p).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'DelayedError', message: expect.stringContaining(`waits ${wait} ms`) });
      expect(moved.at(-1)).toBeGreaterThan(wait - 50);
    }
    // A job that cannot be moved (not BullMQ's, or no token) fails with the store's error instead.
    await expect(processJob(job(event), undefined, readDefaultPayload, p)).rejects.toThrow('OOM command not allowed');
  });
});
