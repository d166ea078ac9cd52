// The types of client.request(path, body) and of every generated method: an operation by its path,
// its body (for the few GET operations, its query parameters) and the `data` of its answer, all from
// the OpenAPI's generated types. The call itself is resources/call.ts.

import type { paths } from '../generated/openapi.js';

/** Every operation path of the Flashduty Open API, as the OpenAPI writes it (`'/incident/ack'`). */
export type OperationPath = keyof paths;

/** The operation object of a path (its POST, or its GET for the few read by GET). */
export type OperationOf<P extends OperationPath> = paths[P] extends { post: infer O }
  ? O
  : paths[P] extends { get: infer O }
    ? O
    : never;

/**
 * What `client.request(path, …)` takes for an operation: its JSON request body, or for the few GET
 * operations its query parameters (the `app_key` is added by the client).
 */
export type OperationBody<P extends OperationPath> =
  OperationOf<P> extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : OperationOf<P> extends { parameters: { query?: infer Q } }
      ? [Q] extends [undefined] // also when Q is never
        ? Record<string, never>
        : Q
      : Record<string, never>;

/** What `client.request(path, …)` resolves to for an operation: the `data` of its success envelope. */
export type OperationData<P extends OperationPath> =
  OperationOf<P> extends { responses: { 200: { content: { 'application/json': infer R } } } }
    ? R extends { data?: infer D }
      ? D
      : unknown
    : unknown;
