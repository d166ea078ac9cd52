// Recover the webhook deliveries the sender gave up on (your receiver was down, slow, or answered
// an error): the service keeps 7 days of delivery history with every request body, and replaying
// it through the same receiver runs what never ran, once (dedup skips what did arrive).
// Run: FLASHDUTY_APP_KEY=… npx tsx examples/replay-failed-deliveries.ts <integration id> [hours, default 24]
// With REDIS_URL set, it hands the events to the BullMQ queue of examples/webhooks-bullmq.ts
// (the workers there run them); without, it runs the handlers here.
import { Queue } from 'bullmq';
import { Flashduty } from 'flashduty-sdk';
import { RedisStateStore, replayFromHistory, WebhookReceiver } from 'flashduty-sdk/webhooks';
import { Redis } from 'ioredis';

const integrationId = Number(process.argv[2]);
const hours = Number(process.argv[3] ?? 24);
if (!Number.isSafeInteger(integrationId))
  throw new Error('usage: replay-failed-deliveries.ts <integration id> [hours]');

const client = new Flashduty();
const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: null }) : undefined;
// The same configuration as the live receiver (in your code: import it from where you build that one).
// The custom header's value set on the integration is required (a fallback here would be a secret anyone can read).
const HOOK_TOKEN = process.env.HOOK_TOKEN;
if (!HOOK_TOKEN) throw new Error('set HOOK_TOKEN to the value of the custom header set on the webhook integration');
const receiver = new WebhookReceiver({
  secret: { header: 'x-flashduty-token', values: [HOOK_TOKEN] },
  ...(redis && {
    store: new RedisStateStore({ client: redis, keyPrefix: 'flashduty:webhooks:' }),
    queue: new Queue('flashduty-webhooks', { connection: redis }),
  }),
});
receiver.on('event', (event) => console.log(`replayed ${event.event_type} ${event.event_id}`));

const report = await replayFromHistory({ client, receiver, integrationId, since: Date.now() - hours * 3_600_000 });
console.log(
  `seen ${report.seen}, accepted ${report.accepted}, duplicate ${report.duplicate}, stale ${report.stale}, rejected ${report.rejected}, unread ${report.unread.length}`,
);
for (const { eventId, status, reason } of report.rejections) console.log(`  refused ${eventId}: ${status} ${reason}`);
// A record whose request could not be read was not replayed: run again for it (the rest are then duplicates).
for (const { eventId, error } of report.unread) console.error(`  unread ${eventId}: ${String(error)}`);
if (report.unread.length > 0) process.exitCode = 1;
redis?.disconnect();
