// A worker of the fleet benchmark (bench/fleet.ts), in its own process: `sdk` runs
// `receiver.processor()` (dedup claim, staleness, the handler) with a RedisStateStore; `bare` is a
// BullMQ Worker running the same handler alone. The handler: JSON of the event, nothing else.
// Args: kind, redis port, queue name. Prints READY.
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { RedisStateStore, WebhookReceiver } from '../../dist/webhooks/index.js';

const [kind = 'bare', port = '6379', name = 'fleet'] = process.argv.slice(2);
const connection = { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null };
const handle = (event: unknown) => void JSON.stringify(event);
const processor =
  kind === 'sdk'
    ? (() => {
        const receiver = new WebhookReceiver({
          store: new RedisStateStore({ client: new Redis(Number(port), '127.0.0.1'), keyPrefix: `${name}:` }),
          logger: false,
        });
        receiver.on('event', handle);
        return receiver.processor();
      })()
    : async (job: { data: unknown }) => handle(job.data);
const worker = new Worker(name, processor, { connection, concurrency: 50 });
await worker.waitUntilReady();
console.log('READY');
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
