// A webhook receiver on Fastify, as a plugin on its own path.
// Run: HOOK_TOKEN=… PORT=3000 npx tsx examples/webhooks-fastify.ts
import Fastify from 'fastify';
import { fastifyWebhooks, WebhookReceiver } from 'flashduty-sdk/webhooks';

// The custom header's value set on the integration: required (a fallback here would be a secret anyone can read).
const HOOK_TOKEN = process.env.HOOK_TOKEN;
if (!HOOK_TOKEN) throw new Error('set HOOK_TOKEN to the value of the custom header set on the webhook integration');
const receiver = new WebhookReceiver({
  secret: { header: 'x-flashduty-token', values: [HOOK_TOKEN] },
});
receiver.on('event', (event) =>
  console.log(`event ${event.event_type} ${event.event_id} for ${event.incident?.num ?? event.alert?.alert_id}`),
);

const app = Fastify();
await app.register(fastifyWebhooks, { receiver, path: '/hooks/flashduty' });
const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${address}/hooks/flashduty`);
