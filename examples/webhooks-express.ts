// A webhook receiver on Express. Configure the integration's endpoint as http(s)://<host>/hooks/flashduty
// with a custom header X-Flashduty-Token: <HOOK_TOKEN>.
// Run: HOOK_TOKEN=… PORT=3000 npx tsx examples/webhooks-express.ts
import express from 'express';
import { WebhookReceiver } from 'flashduty-sdk/webhooks';

// The custom header's value set on the integration: required (a fallback here would be a secret anyone can read).
const HOOK_TOKEN = process.env.HOOK_TOKEN;
if (!HOOK_TOKEN) throw new Error('set HOOK_TOKEN to the value of the custom header set on the webhook integration');
const receiver = new WebhookReceiver({
  secret: { header: 'x-flashduty-token', values: [HOOK_TOKEN] },
});
receiver.on('i_new', (event) => console.log(`new incident ${event.incident.num}: ${event.incident.title}`));
receiver.on('i_ack', (event) =>
  console.log(`${event.person?.person_name ?? 'someone'} acknowledged ${event.incident.num}`),
);
receiver.on('i_rslv', (event) => console.log(`${event.incident.num} closed`));
receiver.on('event', (event) => console.log(`event ${event.event_type} ${event.event_id}`));
receiver.on('error', (error, event) => console.error(`handler failed for ${event?.event_id}:`, error));

const app = express();
app.post('/hooks/flashduty', receiver.nodeMiddleware()); // with or without express.json() in front
const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  console.log(
    `listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}/hooks/flashduty`,
  );
});
