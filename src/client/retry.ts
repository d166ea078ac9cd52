// Which failures are retried, and how long to wait. Every operation has a retry policy (the
// manifest calls it the operation's `kind`): reads retry whatever a retry cannot make worse;
// mutations retry only where the first attempt provably had no effect.

import { APIConnectionError, APIConnectionTimeoutError, APIError, FlashdutyError } from '../core/api-errors.js';

/**
 * An operation's retry policy (`OPERATIONS[path].kind`). `read`: retried on network errors, timeouts,
 * 429, 500, 502, 503, 504. `mutation`: on 429 and unsent requests only.
 */
export type RetryPolicy = 'read' | 'mutation';

/** The longest `Retry-After` honoured; a longer one fails the call at once. */
export const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

// 502 and 504 come from proxies and gateways in front of the service: a read is safe to repeat.
const READ_STATUSES = new Set([429, 500, 502, 503, 504]);
const READ_CODES = new Set(['RequestTooFrequently', 'InternalError', 'ServiceUnavailable']);

/** Connection failures that happen before a single byte of the request reaches the server. */
const UNSENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A connection failure that carries proof the request was never sent. */
export class UnsentRequestError extends APIConnectionError {}
UnsentRequestError.prototype.name = 'APIConnectionError';

export function isUnsentFailure(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && UNSENT_CODES.has(code)) return true;
  }
  return false;
}

export function isRetryable(error: FlashdutyError, policy: RetryPolicy): boolean {
  if (error instanceof APIError) {
    const tooFrequent = error.status === 429 || error.code === 'RequestTooFrequently';
    if (policy === 'mutation') return tooFrequent;
    return tooFrequent || READ_STATUSES.has(error.status) || READ_CODES.has(error.code ?? '');
  }
  if (error instanceof UnsentRequestError) return true;
  if (error instanceof APIConnectionTimeoutError || error instanceof APIConnectionError) {
    return policy === 'read';
  }
  return false;
}

/** Exponential backoff with up to 25% jitter downwards: 0.5 s, 1 s, 2 s, … capped at 8 s. */
export function backoffDelay(retryIndex: number): number {
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retryIndex, MAX_DELAY_MS);
  return Math.round(base * (1 - Math.random() * 0.25));
}
