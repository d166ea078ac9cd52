// Web-standard runtimes: `(request: Request) => Promise<Response>` for Hono, Next.js route
// handlers, Bun, Deno and Cloudflare Workers.

import { webStreamReader } from '../body.js';
import type { WebhookReceiver } from '../receiver.js';
import { answerBody, answerHeaders } from './respond.js';

/** A web-standard request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

export function fetchHandler(receiver: WebhookReceiver): FetchHandler {
  return async (request) => {
    if (request.method !== 'POST') {
      return new Response(JSON.stringify({ outcome: 'rejected', reason: 'use POST' }), {
        status: 405,
        headers: { 'Content-Type': 'application/json', Allow: 'POST' },
      });
    }
    const result = await receiver.handle(request.headers, { kind: 'reader', read: webStreamReader(request.body) });
    return new Response(answerBody(result), { status: result.status, headers: answerHeaders(result) });
  };
}
