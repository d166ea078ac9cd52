// Web-standard runtimes: `(request: Request) => Promise<Response>` for Hono, Next.js route
// handlers, Bun, Deno and Cloudflare Workers. A Response cannot drop its connection, so a delivery
// that could not be recorded in time is answered 503 (the sender records a failure; replay from
// the delivery history recovers it).

import { webStreamReader } from './readers.js';
import type { WebhookReceiver } from '../receiver.js';
import { answerBody, answerHeaders, answerOf } from './respond.js';

/** A web-standard request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** The receiver as a web-standard `(request) => Promise<Response>` handler. */
export function fetchHandler(receiver: WebhookReceiver): FetchHandler {
  return async (request) => {
    if (request.method !== 'POST') {
      return new Response('{"outcome":"rejected","reason":"use POST"}', {
        status: 405,
        headers: { 'Content-Type': 'application/json', Allow: 'POST' },
      });
    }
    const result = await answerOf(receiver, request.headers, { form: 'stream', read: webStreamReader(request.body) });
    return new Response(answerBody(result), { status: result.status, headers: answerHeaders(result) });
  };
}
