// A receiver replica for the chaos tests (test/support/cluster.ts): node:http + nodeMiddleware, its
// state in Redis. With `queue` set, deliveries go to that BullMQ queue (handlers run in workers);
// without, handlers run here and record their outcomes in the ledger. Config: JSON in CHAOS_CONFIG.
// Prints `LISTENING <url>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { RedisStateStore, WebhookReceiver } from '../../src/webhooks/index.js';
import { recordOutcomes } from '../support/ledger.js';
import type { ProcessConfig } from '../support/cluster.js';

const config = JSON.parse(process.env.CHAOS_CONFIG ?? '{}') as ProcessConfig;
const client = new Redis(config.redisPort, '127.0.0.1');
const queue = config.queue ? new Queue(config.queue, { connection: { host: '127.0.0.1', port: config.redisPort }, defaultJobOptions: config.jobOptions }) : undefined;
const receiver = new WebhookReceiver({
  store: new RedisStateStore({ client, keyPrefix: config.keyPrefix }),
  ...(queue ? { queue } : {}),
  ackTimeoutMs: config.ackTimeoutMs,
});
receiver.on('error', () => undefined); // counted by the sender's history and the ledger, not logged
if (!queue) recordOutcomes(receiver, new Redis(config.ledgerPort, '127.0.0.1'), config.handlers);
const middleware = receiver.nodeMiddleware();
const server = createServer((req, res) => middleware(req, res));
server.listen(0, '127.0.0.1', () => console.log(`LISTENING http://127.0.0.1:${(server.address() as AddressInfo).port}/`));
process.on('SIGTERM', () => {
  server.close();
  void Promise.allSettled([queue?.close(), client.quit()]).finally(() => process.exit(0));
});
