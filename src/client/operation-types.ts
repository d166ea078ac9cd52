// The types of client.request(path, body) and of every generated method: an operation by its path,
// its body (a form's fields for an upload; for the few GET operations, its query parameters) and the
// `data` of its answer, all from the OpenAPI's generated types. The call itself is resources/call.ts.

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
 * What `client.request(path, …)` takes for an operation: its JSON request body, the fields of its
 * form for an upload (`multipart/form-data`: a file field takes a Blob or File), or for the few GET
 * operations its query parameters (the `app_key` is added by the client); and beside them its path
 * parameters (`trigger_id` of `/safari/automation/triggers/{trigger_id}/fire`), which the client
 * puts into the path.
 */
export type OperationBody<P extends OperationPath> = BodyOf<P> & PathParamsOf<P>;

/** An operation's path parameters, `{}` where it has none. */
export type PathParamsOf<P extends OperationPath> =
  OperationOf<P> extends { parameters: { path: infer Path extends object } } ? Path : unknown;

/** An operation's body (or form, or query parameters) alone. */
type BodyOf<P extends OperationPath> =
  OperationOf<P> extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : OperationOf<P> extends { requestBody?: { content: { 'multipart/form-data': infer F } } }
      ? F
      : OperationOf<P> extends { parameters: { query?: infer Q } }
        ? [Q] extends [undefined] // also when Q is never
          ? Record<string, never>
          : Q
        : Record<string, never>;

/**
 * What an operation that answers NDJSON resolves to (`sessions.export`): its lines, each a JSON
 * object, in order. The OpenAPI types that answer only as text, so the lines' fields are the service's.
 */
export type NdjsonLines = Array<Record<string, unknown>>;

/**
 * What `client.request(path, …)` resolves to for an operation: the `data` of its success envelope,
 * or the lines of an NDJSON answer (either, for an operation that answers one or the other as the
 * request asks).
 */
export type OperationData<P extends OperationPath> =
  OperationOf<P> extends { responses: { 200: { content: infer Content } } }
    ? [EnvelopeData<Content> | LinesOf<Content>] extends [never]
      ? unknown
      : EnvelopeData<Content> | LinesOf<Content>
    : unknown;

/** The `data` of a JSON answer's envelope; never where the answer is not JSON. */
type EnvelopeData<Content> = Content extends { 'application/json': infer R }
  ? R extends { data?: infer D }
    ? D
    : unknown
  : never;

/** The lines of an NDJSON answer; never where the answer is not NDJSON. */
type LinesOf<Content> = Content extends { 'application/x-ndjson': unknown } ? NdjsonLines : never;
