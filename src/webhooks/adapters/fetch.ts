// Web-standard runtimes (`receiver.fetchHandler`, for Hono, Next.js route handlers, Bun, Deno and
// Cloudflare Workers): a `Request` translated into the receiver's input, and its reply into a
// `Response`. A Response cannot drop its connection, so a reply to drop is sent as it is (503: the
// sender records a failure, and replay from the delivery history recovers it).

import { readBounded } from '../../internal/bytes.js';
import type { BodyReader } from '../ingress.js';
import type { Reply, WebhookRequest } from '../receiver.js';

/** A web-standard request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** The request as the receiver takes it: the body still in its stream. */
export function requestOf(request: Request): WebhookRequest {
  const stream = request.body;
  return { method: request.method, headers: request.headers, body: { form: 'stream', read: streamReader(stream) } };
}

/**
 * Reads a web stream up to the limit, until the deadline: then the read ends with the deadline's
 * error and the stream is cancelled (a sender that dribbles holds nothing past it).
 */
function streamReader(stream: ReadableStream<Uint8Array> | null): BodyReader {
  return (limit, deadline) => {
    if (!stream) return Promise.resolve(new Uint8Array(0));
    const reader = stream.getReader();
    return new Promise((resolve, reject) => {
      deadline.bound((error) => {
        reject(error);
        reader.cancel(error).catch(() => {});
      }, 'reading the body');
      readBounded(reader, limit).then(resolve, reject);
    });
  };
}

/** The reply as a Response. */
export function responseOf(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
