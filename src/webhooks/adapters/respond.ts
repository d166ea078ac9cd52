// The answer every adapter sends: the status, and a small JSON body saying what happened.

import type { ReceiveResult } from '../receiver.js';

/** The status of a delivery that could not be recorded in time: the sender should send it again. */
export const UNRECORDED = 503;

// Built once: most answers are one of these.
const PLAIN_BODIES: Record<string, string> = {
  accepted: '{"outcome":"accepted"}',
  duplicate: '{"outcome":"duplicate"}',
  stale: '{"outcome":"stale"}',
};
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Type': 'application/json' });
// After a 413 the rest of the body was never read: the connection cannot be reused.
const CLOSING_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/json',
  Connection: 'close',
});

export function answerBody(result: ReceiveResult): string {
  if (result.reason === undefined) return PLAIN_BODIES[result.outcome] ?? JSON.stringify({ outcome: result.outcome });
  return JSON.stringify({ outcome: result.outcome, reason: result.reason });
}

/** Frozen and shared: node's writeHead, Fastify's reply.headers() and `new Response()` only read them. */
export function answerHeaders(result: ReceiveResult): Readonly<Record<string, string>> {
  return result.status === 413 ? CLOSING_HEADERS : JSON_HEADERS;
}
