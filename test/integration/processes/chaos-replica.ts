// A receiver replica for the chaos tests (test/integration/support/cluster.ts): node:http + nodeMiddleware (or,
// by `adapter`, Fastify + fastifyWebhooks, or @hono/node-server + fetchHandler), its state in Redis. With `queue` set, deliveries go to that BullMQ queue (handlers run in workers);
// without, handlers run here and record their outcomes in the ledger. Config: JSON in CHAOS_CONFIG.
// Prints `LISTENING <url>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type ConnectionOptions, Queue } from 'bullmq';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { fastifyWebhooks, RedisStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import { connectLedger, recordOutcomes } from '../support/ledger.js';
import { type ProcessConfig, redisOptions } from '../support/cluster.js';

const config = JSON.parse(process.env.CHAOS_CONFIG ?? '{}') as ProcessConfig;
const client = new Redis(redisOptions(config));
const queue = config.queue
  ? new Queue(config.queue, {
      connection: redisOptions(config) as ConnectionOptions,
      defaultJobOptions: config.jobOptions,
    })
  : undefined;
const receiver = new WebhookReceiver({
  store: new RedisStateStore({ client, keyPrefix: config.keyPrefix }),
  ...(queue ? { queue, waitForReplicas: config.waitForReplicas ?? 0 } : {}),
  ackTimeoutMs: config.ackTimeoutMs,
  logger: false,
});
receiver.on('error', () => undefined); // counted by the sender's history and the ledger, not logged
if (!queue) recordOutcomes(receiver, connectLedger(config.ledgerPort), config.handlers);
const listening = (port: number) => console.log(`LISTENING http://127.0.0.1:${port}/`);
let close: () => unknown;
if (config.adapter === 'fastify') {
  const app = Fastify();
  await app.register(fastifyWebhooks, { receiver, path: '/' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  listening((app.server.address() as AddressInfo).port);
  close = () => app.close();
} else if (config.adapter === 'fetch') {
  const server = serve({ fetch: receiver.fetchHandler, port: 0, hostname: '127.0.0.1' }, (info) =>
    listening(info.port),
  );
  close = () => server.close();
} else {
  const middleware = receiver.nodeMiddleware();
  const server = createServer((req, res) => middleware(req, res));
  server.listen(0, '127.0.0.1', () => listening((server.address() as AddressInfo).port));
  close = () => server.close();
}
process.on('SIGTERM', () => {
  close();
  void Promise.allSettled([queue?.close(), client.quit()]).finally(() => process.exit(0));
});
