// The mock's own routes, which are not the service's, over HTTP only (`--via <mock URL>` of the
// command line). `POST /__mock/webhooks/trigger` makes deliveries happen inside a running mock, so
// that they land in its call history (the integration stays, with its history, after its
// deliveries; later events do not go there) and `webhooks replay` finds them: the body is the
// trigger's options as JSON; the answer `{ integration_id, records }`, or 400 `{ error }` naming what
// is wrong. `GET /__mock/credentials` answers the mock's own app key (`{ app_key }`), with which
// `webhooks replay --via` reads that history whatever credential the shell holds: the key opens
// nothing but this mock, which prints it when it starts. Only the mock answers them: a local test
// double, on loopback by default.

import type { MockService } from './service.js';
import { trigger } from './webhook-trigger.js';

/** The trigger route's path. */
export const TRIGGER_PATH = '/__mock/webhooks/trigger';
/** The path of the route that answers the mock's own app key. */
export const CREDENTIALS_PATH = '/__mock/credentials';

/** Whether a request is for a control route. */
export function isControlRoute(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return pathname === TRIGGER_PATH || pathname === CREDENTIALS_PATH;
}

/** Answers a control route: runs a trigger inside `service` and answers its records, or answers its app key. */
export async function answerControlRoute(service: MockService, request: Request): Promise<Response> {
  if (new URL(request.url).pathname === CREDENTIALS_PATH) {
    if (request.method !== 'GET') return jsonAnswer(405, { error: `${CREDENTIALS_PATH} takes GET` });
    return jsonAnswer(200, { app_key: service.appKey });
  }
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
