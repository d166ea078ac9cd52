// client.request(path, body): every operation of the vendored OpenAPI, typed by its path, through the
// one request loop. Whether a call is retried as a read or a mutation, and whether it is a GET, comes
// from the table `npm run generate` derives from the OpenAPI (see scripts/generate.ts for the rule);
// the table is loaded on first use, so a client that never calls request() does not carry it.

import type { APIPromise } from '../core/api-promise.js';
import { RequestValidationError } from '../core/errors.js';
import type { paths } from '../generated/openapi.js';
import { lazy } from '../internal/lazy.js';
import type { Flashduty, RequestOptions } from './client.js';

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

/** The operations table, the request schemas and their checker, each imported on first use. */
const loadOperations = lazy(() => import('../generated/operations.js'));
const loadSchemas = lazy(() => import('../generated/request-schemas.js'));
const loadChecker = lazy(() => import('../internal/schema.js'));

/**
 * Throws RequestValidationError naming the first field of `body` that breaks its operation's request
 * schema: required fields, types, id patterns, ranges, lengths. Enum membership only with `enums`:
 * `client.request` leaves it to the server, so that a value the service adds after this copy of
 * the OpenAPI can still be sent. A path the OpenAPI does not list is not checked.
 */
export async function checkBody(path: string, body: unknown, enums: boolean, name = 'body'): Promise<void> {
  const [{ REQUEST_SCHEMAS, SCHEMA_DEFS }, { checkSchema }] = await Promise.all([loadSchemas(), loadChecker()]);
  const schema = REQUEST_SCHEMAS[path];
  const problem = schema ? checkSchema(body, schema, SCHEMA_DEFS, { enums }) : undefined;
  if (problem) throw new RequestValidationError(problem.path || name, problem.why);
}

/**
 * The call of `client.request(path, body)`: the body is checked against the OpenAPI (enums aside)
 * unless `prepare` (a resource method's own, stricter check of its params) is given; nothing is
 * sent when a check fails. Everything that throws rejects the returned promise.
 */
export function request<P extends OperationPath>(
  client: Flashduty,
  path: P,
  body: OperationBody<P>,
  options?: RequestOptions,
  prepare?: () => Promise<void>,
): APIPromise<OperationData<P>> {
  return client._call(
    async () => {
      await prepare?.();
      if (typeof path !== 'string' || !path.startsWith('/') || /[?#\s]/.test(path)) {
        throw new RequestValidationError(
          'path',
          `expected an operation path of the OpenAPI such as '/incident/ack', got ${JSON.stringify(path)}`,
        );
      }
      if (typeof body !== 'object' || body === null) {
        throw new RequestValidationError(
          'body',
          'expected an object or array (the operation’s request body or query parameters)',
        );
      }
      if (!prepare) await checkBody(path, body, false);
      const { GET_PATHS, IDEMPOTENCY_KEY_PATHS, READ_PATHS } = await loadOperations();
      // A path this OpenAPI does not know yet is a POST mutation: the policy that can never double a write.
      const method = GET_PATHS.has(path) ? 'GET' : 'POST';
      const kind = READ_PATHS.has(path) ? 'read' : 'mutation';
      const wire = Array.isArray(body) ? body : withIdempotencyKey(body, IDEMPOTENCY_KEY_PATHS.has(path));
      return client._request(method, path.slice(1), wire, kind, options);
    },
    (response) => response.data as OperationData<P>,
  );
}

/**
 * The body with an `idempotency_key` where the operation defines one and the caller gave none:
 * one key per call, so that its retries carry the same key and the server applies the write once.
 */
export function withIdempotencyKey<B extends object>(body: B, defined: boolean): B {
  if (!defined || (body as { idempotency_key?: unknown }).idempotency_key !== undefined) return body;
  return { ...body, idempotency_key: globalThis.crypto.randomUUID() };
}
