// The mock's one route that is not the service's: `POST /__mock/webhooks/trigger`, over HTTP only
// (`flashduty webhooks trigger --via <mock URL>`). It makes deliveries happen inside a running mock,
// so that they land in its call history (the integration stays, with its history, after its
// deliveries; later events do not go there) and `webhooks replay` finds them. The body is the
// trigger's options as JSON; the answer `{ integration_id, records }`, or 400 `{ error }` naming what
// is wrong. Only the mock answers it: a local test double, on loopback by default.

import type { MockService } from './service.js';
import { trigger } from './webhook-trigger.js';

/** The control route's path. */
export const TRIGGER_PATH = '/__mock/webhooks/trigger';

/** Whether a request is for the control route. */
export function isControlRoute(request: Request): boolean {
  return new URL(request.url).pathname === TRIGGER_PATH;
}

/** Runs a trigger inside `service` and answers its records. */
export async function answerControlRoute(service: MockService, request: Request): Promise<Response> {
  if (request.method !== 'POST') return jsonAnswer(405, { error: `${TRIGGER_PATH} takes POST` });
  let options: unknown;
  try {
    options = await request.json();
  } catch {
    return jsonAnswer(400, { error: 'the body is not JSON' });
  }
  if (
    typeof options !== 'object' ||
    options === null ||
    typeof (options as { endpoint?: unknown }).endpoint !== 'string'
  )
    return jsonAnswer(400, { error: 'expected the trigger options: { eventType, endpoint, … }' });
  try {
    const { integration, records } = await trigger(service, options as Parameters<typeof trigger>[1]);
    service.webhooks.remove(integration, { keepHistory: true });
    return jsonAnswer(200, { integration_id: integration, records });
  } catch (error) {
    return jsonAnswer(400, { error: (error as Error).message });
  }
}

function jsonAnswer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
