// A receiver of the fleet benchmark (bench/fleet.ts), in its own process: `sdk` is
// receiver.nodeMiddleware() with the BullMQ queue and a RedisStateStore (the durable handoff as the
// docs/webhooks.md sets it up); `bare` is node:http reading the body, JSON.parse and queue.add with the same
// job id before its 200. Args: kind, redis port, queue name. Prints `LISTENING <port>`.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { jobIdFor, RedisStateStore, WebhookReceiver } from '../../dist/webhooks/index.js';

const [kind = 'bare', port = '6379', name = 'fleet'] = process.argv.slice(2);
const queue = new Queue(name, { connection: { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null } });
let listener: RequestListener;
if (kind === 'sdk') {
  const receiver = new WebhookReceiver({
    queue,
    store: new RedisStateStore({ client: new Redis(Number(port), '127.0.0.1'), keyPrefix: `${name}:` }),
    logger: false,
  });
  const middleware = receiver.nodeMiddleware();
  listener = (req, res) => middleware(req, res);
} else {
  listener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString()) as { event_type: string; event_id: string };
      queue.add(event.event_type, event, { jobId: jobIdFor(event.event_id) }).then(
        () => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{"outcome":"accepted"}');
        },
        () => {
          res.writeHead(503);
          res.end();
        },
      );
    });
  };
}
const server = createServer(listener);
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
