// A receiver that never loses an accepted event: replicas answer 200 only once the event is a job
// in BullMQ, and workers run the handlers with retries; what never succeeds waits in BullMQ's
// failed set. Run as many replicas and workers as you like, against one Redis:
//   REDIS_URL=redis://127.0.0.1:6379 HOOK_TOKEN=… ROLE=receiver PORT=3000 npx tsx examples/webhooks-bullmq.ts
//   REDIS_URL=redis://127.0.0.1:6379 ROLE=worker npx tsx examples/webhooks-bullmq.ts
// (ROLE=both runs one of each in one process.) Production: Redis with `appendonly yes` and
// `maxmemory-policy noeviction`; a dashboard such as bull-board on the queue.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, Worker } from 'bullmq';
import { RedisStateStore, WebhookReceiver } from 'flashduty-sdk/webhooks';
import { Redis } from 'ioredis';

const role = process.env.ROLE ?? 'both';
const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const queue = new Queue('flashduty-webhooks', {
  connection,
  defaultJobOptions: {
    attempts: 8, // with the backoff below: retries over about two minutes (1 + 2 + … + 64 s)
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 24 * 3600 }, // finished jobs dedup redeliveries for as long as the store remembers ids
    removeOnFail: false, // the dead letters stay, to inspect and retry
  },
});

// The custom header's value set on the integration: required (a fallback here would be a secret anyone can read).
const HOOK_TOKEN = process.env.HOOK_TOKEN;
if (!HOOK_TOKEN) throw new Error('set HOOK_TOKEN to the value of the custom header set on the webhook integration');
const receiver = new WebhookReceiver({
  queue,
  store: new RedisStateStore({ client: connection, keyPrefix: 'flashduty:webhooks:' }),
  secret: { header: 'x-flashduty-token', values: [HOOK_TOKEN] },
});
// Handlers run in the workers. Throw to have BullMQ retry the event later.
receiver.on('i_new', async (event) => {
  console.log(`[${process.pid}] handled ${event.event_type} ${event.event_id}: ${event.incident.title}`);
});
receiver.on('event', (event) => {
  if (event.event_type !== 'i_new') console.log(`[${process.pid}] handled ${event.event_type} ${event.event_id}`);
});
receiver.on('duplicate', (event) => console.log(`[${process.pid}] duplicate ${event.event_id}`));
receiver.on('error', (error, event) =>
  console.error(`[${process.pid}] failed ${event?.event_id}: ${(error as Error).message}`),
);

const closing: Array<() => Promise<unknown>> = [];
if (role === 'worker' || role === 'both') {
  const worker = new Worker('flashduty-webhooks', receiver.processor(), { connection, concurrency: 16 });
  // BullMQ's worker emits 'error' each time its loop fails: while Redis refuses writes (full, or a
  // replica still read-only after a failover) that is thousands a second. Told once per 10 s here,
  // as the receiver tells its own store and queue failures.
  let toldAt = 0;
  let untold = 0;
  worker.on('error', (error) => {
    if (Date.now() - toldAt < 10_000) return void untold++;
    console.error(`[${process.pid}] worker: ${error.message}${untold ? ` (and ${untold} more since)` : ''}`);
    toldAt = Date.now();
    untold = 0;
  });
  closing.push(() => worker.close());
  console.log(`[${process.pid}] worker ready`);
}
if (role === 'receiver' || role === 'both') {
  const middleware = receiver.nodeMiddleware();
  const server = createServer((req, res) => middleware(req, res));
  server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
    console.log(
      `[${process.pid}] listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/flashduty`,
    );
  });
  closing.push(() => new Promise((resolve) => server.close(resolve)));
}
async function shutdown(): Promise<void> {
  for (const close of closing) await close();
  await queue.close();
  connection.disconnect();
}
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    shutdown().catch((error: unknown) => {
      console.error(`[${process.pid}] shutdown failed:`, error);
      process.exitCode = 1;
    });
  });
