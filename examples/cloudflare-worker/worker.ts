// A Cloudflare Worker that receives Flashduty webhooks (wrangler deploy with this as `main`).
// Secret binding HOOK_TOKEN: the value of the integration's X-Flashduty-Token header.
import { WebhookReceiver } from 'flashduty-sdk/webhooks';

interface Env {
  HOOK_TOKEN: string;
}

let receiver: WebhookReceiver | undefined;

function receiverFor(env: Env): WebhookReceiver {
  // One receiver per isolate: its memory store deduplicates within the isolate. For dedup across
  // isolates, implement StateStore over Durable Objects or KV.
  receiver ??= new WebhookReceiver({ secret: { header: 'x-flashduty-token', values: [env.HOOK_TOKEN] } }).on(
    'event',
    (event) => {
      console.log(`event ${event.event_type} ${event.event_id} for ${event.incident?.num ?? event.alert?.alert_id}`);
    },
  );
  return receiver;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== '/hooks/flashduty') return new Response('not found', { status: 404 });
    return receiverFor(env).fetchHandler(request);
  },
};
