// A Next.js (App Router) route handler at /api/flashduty: copy this file into your app.
// Set FLASHDUTY_HOOK_TOKEN in the environment and the same value as a custom header on the integration.
import { WebhookReceiver } from 'flashduty-sdk/webhooks';

// The custom header's value set on the integration: required (a fallback here would be a secret anyone can read).
const FLASHDUTY_HOOK_TOKEN = process.env.FLASHDUTY_HOOK_TOKEN;
if (!FLASHDUTY_HOOK_TOKEN)
  throw new Error('set FLASHDUTY_HOOK_TOKEN to the value of the custom header set on the webhook integration');
const receiver = new WebhookReceiver({
  secret: { header: 'x-flashduty-token', values: [FLASHDUTY_HOOK_TOKEN] },
});
receiver.on('i_new', async (event) => {
  console.log(`new incident ${event.incident.num}: ${event.incident.title}`);
});

export const POST = receiver.fetchHandler;
// State lives in this server instance; with several instances, give the receiver a RedisStateStore.
export const runtime = 'nodejs';
