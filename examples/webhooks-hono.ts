// A webhook receiver on Hono (here served by @hono/node-server; the same app runs on Bun, Deno and Workers).
// Run: HOOK_TOKEN=… PORT=3000 npx tsx examples/webhooks-hono.ts
import { serve } from '@hono/node-server';
import { WebhookReceiver } from 'flashduty-sdk/webhooks';
import { Hono } from 'hono';

// The custom header's value set on the integration: required (a fallback here would be a secret anyone can read).
const HOOK_TOKEN = process.env.HOOK_TOKEN;
if (!HOOK_TOKEN) throw new Error('set HOOK_TOKEN to the value of the custom header set on the webhook integration');
const receiver = new WebhookReceiver({
  secret: { header: 'x-flashduty-token', values: [HOOK_TOKEN] },
});
receiver.on('event', (event) =>
  console.log(`event ${event.event_type} ${event.event_id} for ${event.incident?.num ?? event.alert?.alert_id}`),
);

const app = new Hono();
app.post('/hooks/flashduty', (c) => receiver.fetchHandler(c.req.raw));
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}/hooks/flashduty`);
});
