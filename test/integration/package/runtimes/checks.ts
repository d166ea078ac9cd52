// What every runtime test runs against the BUILT package (dist/, never src/): the client against
// the mock over HTTP, and the webhook receiver's fetchHandler given deliveries built by the testing
// entry. Runtime-neutral (no Node APIs): Bun and Deno run it as it is, workerd gets it bundled by
// esbuild the way wrangler bundles a worker. Results come back as plain data for the Node side to
// assert on, so one set of expectations covers every runtime.

import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  Flashduty,
  FlashdutyError,
  InvalidParameterError,
  RequestValidationError,
  UnauthorizedError,
} from '../../../../dist/index.js';
import { buildDelivery, buildWebhookEvent } from '../../../../dist/testing/index.js';
import { type WebhookEvent, WebhookReceiver } from '../../../../dist/webhooks/index.js';

/** What the Node side learns of the mock: where it listens and a key that works. */
export interface MockAddress {
  baseUrl: string;
  appKey: string;
}

/** Faults the Node side queues on the mock before a runtime runs {@link clientChecks}. */
export const CLIENT_FAULTS = [
  // The first list call fails once with a 503: the client must retry (timers of the runtime).
  { path: '/incident/list', status: 503, times: 1 },
  // Two skill deletions answer after 3 s: one runs into the client's timeout, one is aborted.
  { path: '/safari/skill/delete', delayMs: 3000, times: 2 },
];

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const describeError = (error: unknown) => ({
  name: error instanceof Error ? error.name : typeof error,
  flashduty: error instanceof FlashdutyError,
  message: error instanceof Error ? error.message : String(error),
});

/** The client over real HTTP: a page, a walk over several 31-day windows, errors, retries, timeouts. */
export async function clientChecks({ baseUrl, appKey }: MockAddress) {
  const client = new Flashduty({ appKey, baseUrl, logLevel: 'off', validate: 'deep' });
  const now = Math.floor(Date.now() / 1000);
  const page = await client.listIncidents({ start_time: now - 7 * 86400, end_time: now, limit: 5 });
  let walked = 0;
  const ids = new Set<string>();
  for await (const incident of client.listIncidents({ start_time: now - 40 * 86400, end_time: now })) {
    walked++;
    ids.add(incident.incident_id);
  }
  await client.enableA2AAgent('a2a_demo');
  const twice = await failure(client.enableA2AAgent('a2a_demo'));
  const badKey = await failure(
    new Flashduty({ appKey: 'not-a-key-0123456789', baseUrl, logLevel: 'off', maxRetries: 0 }).listIncidents({
      start_time: now - 60,
      end_time: now,
    }),
  );
  const invalid = await failure(client.listIncidents({ start_time: now, end_time: now - 60 }));
  const timedOut = await failure(client.deleteSkill('skill_demo', { timeout: 200, maxRetries: 0 }));
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const aborted = await failure(client.deleteSkill('skill_demo', { signal: controller.signal, maxRetries: 0 }));
  return {
    pageItems: page.items.length,
    pageTotal: page.total,
    walked,
    distinct: ids.size,
    twice: { ...describeError(twice), invalidParameter: twice instanceof InvalidParameterError },
    badKey: { ...describeError(badKey), unauthorized: badKey instanceof UnauthorizedError },
    invalid: { ...describeError(invalid), requestValidation: invalid instanceof RequestValidationError },
    timedOut: { ...describeError(timedOut), timeout: timedOut instanceof APIConnectionTimeoutError },
    aborted: { ...describeError(aborted), userAbort: aborted instanceof APIUserAbortError },
  };
}

/** The token deliveries carry, and the header it rides in. */
export const HOOK_SECRET = { header: 'x-flashduty-token', values: ['runtime-secret'] };

/** A receiver as a user would set one up, with a record of the events its handlers saw. */
export function createReceiver() {
  const seen: string[] = [];
  const receiver = new WebhookReceiver({ secret: HOOK_SECRET });
  receiver.on('i_new', (event) => {
    seen.push(`i_new ${event.event_id} #${event.incident.num}`);
  });
  receiver.on('event', (event: WebhookEvent) => {
    seen.push(`event ${event.event_type}`);
  });
  return { receiver, seen };
}

/** Posts a request to the receiver however the runtime serves it; answers status and body. */
export type Post = (init: RequestInit) => Promise<Response>;

/** Deliveries from the testing entry's fixtures: new, duplicate, wrong token, wrong type, wrong method, invalid. */
export async function webhookScenario(post: Post) {
  const event = buildWebhookEvent('i_new');
  const ok = buildDelivery(event, { headers: { [HOOK_SECRET.header]: 'runtime-secret' } });
  const answer = async (init: RequestInit) => {
    const response = await post(init);
    return { status: response.status, body: await response.text() };
  };
  return {
    eventId: event.event_id,
    first: await answer(ok.init()),
    again: await answer(ok.init()),
    wrongToken: await answer(
      buildDelivery(buildWebhookEvent('i_ack'), { headers: { [HOOK_SECRET.header]: 'nope' } }).init(),
    ),
    wrongType: await answer(
      buildDelivery(buildWebhookEvent('i_ack'), {
        contentType: 'text/plain',
        headers: { [HOOK_SECRET.header]: 'runtime-secret' },
      }).init(),
    ),
    get: await answer({ method: 'GET' }),
    // Why it is invalid is explained by a file the receiver loads with the first invalid delivery.
    invalid: await answer(
      buildDelivery(
        { ...event, event_id: `${event.event_id}-bad`, incident: { ...event.incident, incident_id: '' } },
        { headers: { [HOOK_SECRET.header]: 'runtime-secret' } },
      ).init(),
    ),
  };
}
