// A Next.js (App Router) route handler at /api/flashduty: copy this file into your app.
// Set FLASHDUTY_HOOK_TOKEN in the environment and the same value as a custom header on the integration.
import { WebhookReceiver } from 'flashduty-sdk/webhooks';

// Made with the first request, not when the module loads: `next build` loads route modules where
// the secret is rightly absent. Without it the route refuses to run (a fallback would be a secret
// anyone can read here).
let receiver: WebhookReceiver | undefined;
function receiverOf(): WebhookReceiver {
  if (receiver) return receiver;
  const token = process.env.FLASHDUTY_HOOK_TOKEN;
  if (!token)
    throw new Error('set FLASHDUTY_HOOK_TOKEN to the value of the custom header set on the webhook integration');
  receiver = new WebhookReceiver({ secret: { header: 'x-flashduty-token', values: [token] } });
  receiver.on('i_new', async (event) => {
    console.log(`new incident ${event.incident.num}: ${event.incident.title}`);
  });
  return receiver;
}

export const POST = (request: Request): Promise<Response> => receiverOf().fetchHandler(request);
// State lives in this server instance; with several instances, give the receiver a RedisStateStore.
export const runtime = 'nodejs';
