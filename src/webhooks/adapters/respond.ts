// The answer every adapter sends: the status, and a small JSON body saying what happened.

import type { BodySource, HeadersLike } from '../body.js';
import type { ReceiveResult, WebhookReceiver } from '../receiver.js';

/** The status of a delivery that could not be recorded in time: the sender should send it again. */
export const UNRECORDED = 503;

// Built once: most answers are one of these.
const PLAIN_BODIES: Record<string, string> = {
  accepted: '{"outcome":"accepted"}',
  duplicate: '{"outcome":"duplicate"}',
  stale: '{"outcome":"stale"}',
};
const JSON_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json' };
// An answer given before the body was read whole (401 and 415 read none of it, 413 stopped at the
// limit, 503 may have stopped anywhere) closes the connection: a sender that keeps sending would
// otherwise hold it open for as long as it dribbles, and the rest of its body cannot be told apart
// from a next request.
const CLOSING_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json', Connection: 'close' };

/** The body: `{"outcome":…}`, with the reason of a rejection (every rejection has one). */
export function answerBody(result: ReceiveResult): string {
  return result.reason === undefined
    ? (PLAIN_BODIES[result.outcome] as string)
    : JSON.stringify({ outcome: result.outcome, reason: result.reason });
}

/** Shared, never changed: node's writeHead, Fastify's reply.headers() and `new Response()` only read them. */
export function answerHeaders(result: ReceiveResult): Readonly<Record<string, string>> {
  return answeredEarly(result.status) ? CLOSING_HEADERS : JSON_HEADERS;
}

/** Whether an answer may leave before the whole body was read. */
export function answeredEarly(status: number): boolean {
  return status === 401 || status === 413 || status === 415 || status === UNRECORDED;
}

/** The receiver's answer to a delivery, as a promise: for `receive()` and the adapters that await it. */
export function answerOf(
  receiver: WebhookReceiver,
  headers: HeadersLike | undefined,
  source: BodySource,
): Promise<ReceiveResult> {
  return new Promise((resolve) => receiver.receiveFrom(headers, source, resolve));
}
