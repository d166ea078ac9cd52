// The answer every adapter sends: the status, and a small JSON body saying what happened.

import type { ReceiveResult } from '../receiver.js';

export function answerBody(result: ReceiveResult): string {
  return JSON.stringify(result.reason === undefined ? { outcome: result.outcome } : { outcome: result.outcome, reason: result.reason });
}

export function answerHeaders(result: ReceiveResult): Record<string, string> {
  // After a 413 the rest of the body was never read: the connection cannot be reused.
  return result.status === 413
    ? { 'Content-Type': 'application/json', Connection: 'close' }
    : { 'Content-Type': 'application/json' };
}
