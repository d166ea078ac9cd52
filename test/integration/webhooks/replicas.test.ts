// `waitForReplicas`: with a queue on a Redis primary that has a replica, a delivery is answered 200
// only once the replica holds its job too (Redis WAIT on the queue's own connection, within the ack
// deadline); with the replica frozen (its link up, nothing acknowledged), deliveries are not
// recorded: 503 from fetchHandler, never an answer after the deadline. Real redis-servers, a real
// BullMQ queue.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/index.js';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { jobIdFor, RedisStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import { startRedis } from '../support/redis.js';

const primary = await startRedis();
const replica = await startRedis({ replicaOf: primary.port });
afterAll(async () => {
  replica.thaw();
  await replica.stop();
  await primary.stop();
});
const connection = new Redis(primary.url, { maxRetriesPerRequest: null });
const onReplica = new Redis(replica.url);
const queue = new Queue('replicated', { connection });
afterAll(async () => {
  await queue.close();
  await connection.quit();
  onReplica.disconnect();
});

const ACK_MS = 400;
const receiverBy = (ackTimeoutMs: number) =>
  new WebhookReceiver({
    queue,
    waitForReplicas: 1,
    ackTimeoutMs,
    store: new RedisStateStore({ client: connection, keyPrefix: 'replicas:' }),
    logger: false,
  });
const receiver = receiverBy(ACK_MS);
const deliver = (event = buildWebhookEvent('i_new'), to = receiver) =>
  to.fetchHandler(buildDelivery(event).request('http://receiver.test/hooks'));

describe('waitForReplicas', () => {
  it('answers 200 only once the replica holds the job: it is there the moment the answer is', async () => {
    // What is checked is the order (the job on the replica before the answer), not the speed: the
    // deadline is one that a loaded machine does not reach (it did once with 400 ms).
    const patient = receiverBy(10_000);
    for (let i = 0; i < 20; i++) {
      const event = buildWebhookEvent('i_new');
      const response = await deliver(event, patient);
      expect(response.status).toBe(200);
      // No wait here: WAIT returned, so the replica applied the job's writes before the answer.
      expect(await onReplica.exists(`bull:replicated:${jobIdFor(event.event_id)}`)).toBe(1);
    }
  });

  it('with the replica frozen: not recorded (503), by the deadline, never later; 200 again once it is back', async () => {
    replica.freeze();
    try {
      const started = performance.now();
      const response = await deliver();
      const took = performance.now() - started;
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ outcome: 'rejected', reason: 'not recorded' });
      expect(took).toBeLessThan(ACK_MS * 5); // bounded by the deadline (a margin no load eats), not WAIT's own
      const errors: unknown[] = [];
      receiver.on('error', (error) => void errors.push(error));
      const result = await receiver.receive(buildDelivery(buildWebhookEvent('i_ack')).receiveInput());
      expect(result).toMatchObject({ status: 503, reason: 'not recorded' });
      expect(String((result.error as Error).message)).toMatch(
        /waitForReplicas: 0 of 1 replicas|did not finish within the ack deadline/,
      );
    } finally {
      replica.thaw();
    }
    await expect.poll(async () => (await deliver()).status, { timeout: 10_000 }).toBe(200);
  });

  it('refuses a bad value, and a receiver without a queue that has a connection', () => {
    for (const value of [-1, 1.5, '1'])
      expect(() => new WebhookReceiver({ queue, waitForReplicas: value as number })).toThrow(ConfigError);
    expect(() => new WebhookReceiver({ waitForReplicas: 1 })).toThrow(/needs a BullMQ Queue/);
    expect(() => new WebhookReceiver({ queue: { add: async () => undefined }, waitForReplicas: 1 })).toThrow(
      ConfigError,
    );
    expect(new WebhookReceiver({ queue: { add: async () => undefined }, waitForReplicas: 0 })).toBeInstanceOf(
      WebhookReceiver,
    );
  });
});
