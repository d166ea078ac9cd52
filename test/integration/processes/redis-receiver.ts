// One receiver replica for the multi-process tests: a node:http server whose receiver shares its
// state through Redis. Prints its URL, then on SIGTERM prints the event ids it handled and dropped as stale.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { RedisStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';

const [redisUrl, flavour, keyPrefix = 'flashduty:webhooks:'] = process.argv.slice(2) as [
  string,
  'ioredis' | 'node-redis',
  string?,
];
const client = flavour === 'ioredis' ? new Redis(redisUrl) : await createClient({ url: redisUrl }).connect();
const receiver = new WebhookReceiver({ store: new RedisStateStore({ client, keyPrefix }) });
const handled: string[] = [];
const stale: string[] = [];
receiver.on('event', async (event) => {
  await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 10));
  handled.push(event.event_id);
});
receiver.on('stale', (event) => void stale.push(event.event_id));
const middleware = receiver.nodeMiddleware();
const server = createServer((req, res) => middleware(req, res));
server.listen(0, '127.0.0.1', () => {
  console.log(`LISTENING http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  const { rss, heapUsed } = process.memoryUsage();
  console.log(`HANDLED ${JSON.stringify(handled)}`);
  console.log(`STALE ${JSON.stringify(stale)}`);
  console.log(`MEMORY ${JSON.stringify({ rss, heapUsed })}`);
  server.close();
  void Promise.resolve(
    flavour === 'ioredis' ? (client as Redis).quit() : (client as { quit(): Promise<unknown> }).quit(),
  ).finally(() => process.exit(0));
});
