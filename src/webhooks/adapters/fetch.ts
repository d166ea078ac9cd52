// Web-standard runtimes (`receiver.fetchHandler`, for Hono, Next.js route handlers, Bun, Deno and
// Cloudflare Workers): a `Request` translated into the receiver's input, and its reply into a
// `Response`. A Response cannot drop its connection, so a reply to drop is sent as it is (503: the
// sender records a failure, and replay from the delivery history recovers it).

import { readBounded } from '../../internal/bytes.js';
import type { Reply, WebhookRequest } from '../receiver.js';

/** A web-standard request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** The request as the receiver takes it: the body still in its stream. */
export function requestOf(request: Request): WebhookRequest {
  const stream = request.body;
  return {
    method: request.method,
    headers: request.headers,
    body: {
      form: 'stream',
      read: async (limit) => (stream ? readBounded(stream.getReader(), limit) : new Uint8Array(0)),
    },
  };
}

/** The reply as a Response. */
export function responseOf(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
