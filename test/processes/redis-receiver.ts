// One receiver replica for the multi-process test: a node:http server whose receiver shares its
// state through Redis. Prints its URL, then on SIGTERM prints the event ids its handlers ran.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { RedisStateStore, WebhookReceiver } from '../../src/webhooks/index.js';

const [redisUrl, flavour] = process.argv.slice(2) as [string, 'ioredis' | 'node-redis'];
const client = flavour === 'ioredis' ? new Redis(redisUrl) : await createClient({ url: redisUrl }).connect();
const receiver = new WebhookReceiver({ store: new RedisStateStore({ client }) });
const handled: string[] = [];
receiver.on('event', async (event) => {
  await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  handled.push(event.event_id);
});
const middleware = receiver.nodeMiddleware();
const server = createServer((req, res) => middleware(req, res));
server.listen(0, '127.0.0.1', () => {
  console.log(`LISTENING http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  console.log(`HANDLED ${JSON.stringify(handled)}`);
  server.close();
  void Promise.resolve(flavour === 'ioredis' ? (client as Redis).quit() : (client as { quit(): Promise<unknown> }).quit()).finally(() => process.exit(0));
});
