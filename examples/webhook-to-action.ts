// From a webhook to an action: when a Critical incident is created (i_new), comment on it and
// acknowledge it through the client. The handler runs after dedup, so a redelivered i_new does not
// comment twice; the two writes are mutations, never sent twice by the client's retries.
// Configure the integration's endpoint as http(s)://<host>/hooks/flashduty with a custom header
// X-Flashduty-Token: <HOOK_TOKEN>.
// Run: FLASHDUTY_APP_KEY=… HOOK_TOKEN=… PORT=3000 npx tsx examples/webhook-to-action.ts
import { createServer } from 'node:http';
import { Flashduty } from 'flashduty-sdk';
import { WebhookReceiver } from 'flashduty-sdk/webhooks';

const client = new Flashduty();
// The custom header's value set on the integration: required (a fallback here would be a secret anyone can read).
const HOOK_TOKEN = process.env.HOOK_TOKEN;
if (!HOOK_TOKEN) throw new Error('set HOOK_TOKEN to the value of the custom header set on the webhook integration');
const receiver = new WebhookReceiver({
  secret: { header: 'x-flashduty-token', values: [HOOK_TOKEN] },
});

receiver.on('i_new', async (event) => {
  const { incident_id, incident_severity, title } = event.incident;
  if (incident_severity !== 'Critical') return;
  await client.incidents.comment({
    incident_ids: [incident_id],
    comment: `Auto-triage: paging the on-call for "${title}"`,
  });
  await client.incidents.ack({ incident_ids: [incident_id] });
  console.log(`acknowledged ${incident_id}`);
});
receiver.on('error', (error, event) => console.error(`handler failed for ${event?.event_id}:`, error));

const middleware = receiver.nodeMiddleware();
const server = createServer((req, res) => middleware(req, res));
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  console.log(
    `listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}/hooks/flashduty`,
  );
});
