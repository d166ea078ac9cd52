// A BullMQ worker for the chaos tests (test/integration/support/cluster.ts): `receiver.processor()` runs the
// staleness check and the recording handlers (support/ledger.ts) for the queue's jobs. Config:
// JSON in CHAOS_CONFIG. Prints `READY`.
import { type ConnectionOptions, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { RedisStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import { connectLedger, recordOutcomes } from '../support/ledger.js';
import { type ProcessConfig, redisOptions } from '../support/cluster.js';

const config = JSON.parse(process.env.CHAOS_CONFIG ?? '{}') as ProcessConfig;
if (!config.queue) throw new Error('chaos-worker: no queue in CHAOS_CONFIG');
const client = new Redis(redisOptions(config));
const receiver = new WebhookReceiver({
  store: new RedisStateStore({ client, keyPrefix: config.keyPrefix }),
  ackTimeoutMs: config.ackTimeoutMs,
});
receiver.on('error', () => undefined);
recordOutcomes(receiver, connectLedger(config.ledgerPort), config.handlers);
const worker = new Worker(config.queue, receiver.processor(), {
  connection: { ...redisOptions(config), maxRetriesPerRequest: null } as ConnectionOptions,
  concurrency: config.concurrency ?? 20,
  // A killed worker's jobs come back after its lock lapses; shorter than BullMQ's 30 s so tests
  // need not wait long, long enough that a busy machine does not take a live worker for dead.
  lockDuration: 5_000,
  stalledInterval: 2_000,
  maxStalledCount: 5,
});
worker.on('error', () => undefined); // Redis restarts and sleeps are part of the test
await worker.waitUntilReady();
console.log('READY');
process.on('SIGTERM', () => void Promise.allSettled([worker.close(), client.quit()]).finally(() => process.exit(0)));
