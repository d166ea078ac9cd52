// Foreign errors (from fetch, ky or a user's fetch) as causes of ours: scrubbed copies, because the
// original may hold the Request (with its URL) or quote the URL, and the URL holds the app key.
// Apart from redact.ts so that it loads with the client's transport, on the first failed attempt.

import type { Redactor } from './redact.js';

/** Fields of foreign errors worth keeping: they say what failed without carrying request data. */
const KEPT_FIELDS = ['code', 'errno', 'syscall'] as const;

export interface SanitizedCause {
  name: string;
  message: string;
  stack?: string;
  code?: unknown;
  errno?: unknown;
  syscall?: unknown;
  cause?: SanitizedCause;
}

/**
 * A scrubbed copy of an error thrown by fetch, ky or a user's fetch. The original may hold the
 * Request (with its URL) or a message quoting the URL, so it is never kept as a `cause` itself.
 */
export function sanitizeCause(error: unknown, scrub: Redactor, depth = 0): SanitizedCause | undefined {
  if (error === undefined || error === null || depth > 4) return undefined;
  if (!(error instanceof Error)) {
    return { name: 'Error', message: scrub(typeof error === 'string' ? error : asText(error)) };
  }
  const copy = new Error(scrub(error.message)) as Error & SanitizedCause;
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : scrub(error.stack);
  const source = error as Error & Record<string, unknown>;
  for (const field of KEPT_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' || typeof value === 'number') copy[field] = value;
  }
  const inner = sanitizeCause(error.cause, scrub, depth + 1);
  if (inner) copy.cause = inner;
  return copy;
}

/** A thrown value that is not an Error, as text: its JSON, else `String()` of it. */
function asText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
