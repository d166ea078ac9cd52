// A BullMQ worker for bench/stalled-job.ts: `receiver.processor()` with a handler that notes when
// it starts (RPUSH to `starts`) and then holds the job until the process is killed.
// Args: <redis port> <queue name> <worker options as JSON>. Prints READY.
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { RedisStateStore, WebhookReceiver } from '../../dist/webhooks/index.js';

const [port, queueName, options] = process.argv.slice(2) as [string, string, string];
const connection = { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null };
const client = new Redis(connection);
const receiver = new WebhookReceiver({
  store: new RedisStateStore({ client, keyPrefix: `${queueName}:` }),
  logger: false,
});
receiver.on('event', async (event) => {
  await client.rpush('starts', `${process.pid} ${event.event_id} ${Date.now()}`);
  await new Promise(() => {}); // held until this process is killed
});
const worker = new Worker(queueName, receiver.processor(), { connection, ...(JSON.parse(options) as object) });
await worker.waitUntilReady();
console.log('READY');
