// A receiver meant to run as several replicas behind a load balancer: dedup and staleness live in
// Redis, so each event runs its handlers once across all of them.
// Run: REDIS_URL=redis://127.0.0.1:6379 HOOK_TOKEN=… PORT=3000 npx tsx examples/webhooks-redis-replicas.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RedisStateStore, WebhookReceiver } from 'flashduty-sdk/webhooks';
import { Redis } from 'ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
// The custom header's value set on the integration: required (a fallback here would be a secret anyone can read).
const HOOK_TOKEN = process.env.HOOK_TOKEN;
if (!HOOK_TOKEN) throw new Error('set HOOK_TOKEN to the value of the custom header set on the webhook integration');
const receiver = new WebhookReceiver({
  store: new RedisStateStore({ client: redis, keyPrefix: 'flashduty:webhooks:' }),
  secret: { header: 'x-flashduty-token', values: [HOOK_TOKEN] },
});
receiver.on('event', (event) => console.log(`[${process.pid}] event ${event.event_type} ${event.event_id}`));
receiver.on('duplicate', (event) => console.log(`[${process.pid}] duplicate ${event.event_id}`));

const middleware = receiver.nodeMiddleware();
const server = createServer((req, res) => middleware(req, res));
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/flashduty`);
});
process.on('SIGTERM', () => {
  server.close();
  void redis.quit();
});
