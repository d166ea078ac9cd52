// Entry `flashduty-sdk/operations`: the manifest of every operation, generated from the vendored
// OpenAPI (`npm run generate`). An entry of its own, so that `import { Flashduty }` does not carry it;
// the command line and tools that list or dispatch operations read it.

/** What the manifest says of one operation. */
export interface OperationInfo {
  /** The client's method for it, dotted: `'incidents.ack'` is `client.incidents.ack()`. */
  readonly method: string;
  /** How it is called on the wire. */
  readonly http: 'GET' | 'POST';
  /** Its retry policy: a read is retried on network errors, timeouts, 429 and 5xx; a mutation only where it provably had no effect. */
  readonly kind: RetryPolicy;
  /** The OpenAPI's summary. */
  readonly summary: string;
  /** How a list operation pages (its method returns a PagePromise); absent for the others. */
  readonly paging?: 'cursor' | 'number' | 'both';
}

import { OPERATIONS as GENERATED } from './generated/operations.js';
import type { OperationPath } from './client/operation-types.js';
import type { RetryPolicy } from './client/retry.js';

/** Every operation of the Flashduty Open API by path: its method, HTTP method, retry policy, summary and paging. */
export const OPERATIONS: Readonly<Record<OperationPath, OperationInfo>> = GENERATED;
