// A Next.js (App Router) route handler at /api/flashduty: copy this file into your app.
// Set FLASHDUTY_HOOK_TOKEN in the environment and the same value as a custom header on the integration.
import { WebhookReceiver } from 'flashduty-sdk/webhooks';

const receiver = new WebhookReceiver({
  secret: { header: 'x-flashduty-token', values: [process.env.FLASHDUTY_HOOK_TOKEN ?? 'change-me'] },
});
receiver.on('i_new', async (event) => {
  console.log(`new incident ${event.incident.num}: ${event.incident.title}`);
});

export const POST = receiver.fetchHandler;
// State lives in this server instance; with several instances, give the receiver a RedisStateStore.
export const runtime = 'nodejs';
