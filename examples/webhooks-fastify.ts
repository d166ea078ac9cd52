// A webhook receiver on Fastify, as a plugin on its own path.
// Run: HOOK_TOKEN=… PORT=3000 npx tsx examples/webhooks-fastify.ts
import Fastify from 'fastify';
import { fastifyWebhooks, WebhookReceiver } from 'flashduty-sdk/webhooks';

const receiver = new WebhookReceiver({
  secret: { header: 'x-flashduty-token', values: [process.env.HOOK_TOKEN ?? 'change-me'] },
});
receiver.on('event', (event) =>
  console.log(`event ${event.event_type} ${event.event_id} for ${event.incident?.num ?? event.alert?.alert_id}`),
);

const app = Fastify();
await app.register(fastifyWebhooks, { receiver, path: '/hooks/flashduty' });
const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${address}/hooks/flashduty`);
