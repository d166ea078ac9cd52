// The one way a method is called. Every generated method (client.<resource>[.<sub>].<verb>),
// client.request and listIncidents come here: the operation's path, HTTP method, retry policy and
// rules are looked up in the generated tables, which load with the first call together with the
// params' conversion and the schema checker, so a client that is only constructed carries none of
// them. Then: params → wire body (params.ts) → the OpenAPI's request schema → path parameters out of
// the body into the path (encoded) → the request loop (a form for an upload, the answer's lines for
// an NDJSON answer, the operation's own token where it takes one, as the rules say); a list operation
// opens a list call (pagination/list-call.ts) with its paging rule.

import type { APIPromise } from '../../core/api-promise.js';
import { RequestValidationError } from '../../core/api-errors.js';
import { lazy } from '../../internal/lazy.js';
import type { Flashduty, RequestOptions } from '../client.js';
import type { ApiResponse } from '../request-loop.js';
import { isHeaderSafe } from '../client-options.js';
import type { ListCall } from '../pagination/list-call.js';
import type { PagedRequest } from '../pagination/operation.js';
import type { ListPage, PageFactory } from '../pagination/page.js';
import { type ListOpener, ListPagePromise } from '../pagination/page-promise.js';
import type { RetryPolicy } from '../retry.js';
import type { OperationRule } from './rules.js';

/** What the client knows of an operation once the tables loaded. */
export interface ResolvedOperation {
  /** The dotted method name (`incidents.ack`), or the path for one the OpenAPI does not list. */
  name: string;
  path: string;
  http: 'GET' | 'POST';
  retry: RetryPolicy;
  rule: OperationRule | undefined;
}

/** The tables, by method and by path, with the conversion and the checker: all loaded on the first call. */
const loadTables = lazy(async () => {
  const [{ OPERATIONS }, { RULES }, params, schemas, checker, paging] = await Promise.all([
    import('../../generated/operations.js'),
    import('../../generated/operation-rules.js'),
    import('./params.js'),
    import('../../generated/request-schemas.js'),
    import('../../internal/schema.js'),
    import('../pagination/list-call.js'),
  ]);
  const byPath = new Map<string, ResolvedOperation>();
  const byMethod = new Map<string, ResolvedOperation>();
  for (const [path, info] of Object.entries(OPERATIONS)) {
    const resolved = { name: info.method, path, http: info.http, retry: info.kind, rule: RULES[path] };
    byPath.set(path, resolved);
    byMethod.set(info.method, resolved);
  }
  return { byPath, byMethod, params, schemas, checker, paging };
});

type Tables = Awaited<ReturnType<typeof loadTables>>;

/** A method takes our conveniences and checks enums; client.request takes the wire body as it is and leaves enums to the server. */
const METHOD = { enums: true, convert: true };
const REQUEST = { enums: false, convert: false };

/** A call as the request loop sends it: where (path parameters filled in) and what. */
interface Prepared {
  /** The path, its parameters filled in, without its leading `/`. */
  path: string;
  body: unknown;
}

/**
 * The wire body of a call: params converted by the operation's rules, then checked against its
 * request schema (enums only with `enums`: client.request leaves them to the server, so that a value
 * the service adds later can be sent); path parameters taken out of it into the path. A
 * RequestValidationError naming the field, nothing sent.
 */
function prepare(
  tables: Tables,
  operation: ResolvedOperation,
  params: unknown,
  { enums, convert }: { enums: boolean; convert: boolean },
): Prepared {
  const wire = Array.isArray(params) ? params : tables.params.toWire(params, convert ? operation.rule : undefined);
  const schema = tables.schemas.REQUEST_SCHEMAS[operation.path];
  const problem = schema ? tables.checker.checkSchema(wire, schema, tables.schemas.SCHEMA_DEFS, { enums }) : undefined;
  if (problem) throw new RequestValidationError(problem.path || (convert ? 'params' : 'body'), problem.message);
  if (Array.isArray(wire)) return { path: operation.path.slice(1), body: wire };
  const { path, body } = tables.params.toPath(operation.path, wire, operation.rule?.pathParams ?? []);
  if (operation.rule?.multipart) return { path, body: tables.params.toForm(body) };
  return { path, body: tables.params.withIdempotencyKey(body, operation.rule?.idempotency === true) };
}

async function byMethod(method: string): Promise<[Tables, ResolvedOperation]> {
  const tables = await loadTables();
  const operation = tables.byMethod.get(method);
  if (!operation) throw new RequestValidationError('method', `no operation is called ${method}`);
  return [tables, operation];
}

/** A method that resolves to the response's `data`. */
export function callMethod(
  client: Flashduty,
  method: string,
  params: unknown,
  options?: RequestOptions,
): APIPromise<unknown> {
  return client._call(async () => {
    const [tables, operation] = await byMethod(method);
    const token = checkToken(operation, options);
    return send(client, operation, prepare(tables, operation, params, METHOD), options, token);
  }, dataOf);
}

/**
 * `client.request(path, body)` calls any operation by its path. A path the OpenAPI does not list is sent
 * unchecked as a POST mutation, the policy that can never double a write.
 */
export function callPath(
  client: Flashduty,
  path: string,
  body: unknown,
  options?: RequestOptions,
): APIPromise<unknown> {
  return client._call(async () => {
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
    const tables = await loadTables();
    const known = tables.byPath.get(path);
    if (known) {
      const token = checkToken(known, options);
      return send(client, known, prepare(tables, known, body, REQUEST), options, token);
    }
    const unknown: ResolvedOperation = { name: path, path, http: 'POST', retry: 'mutation', rule: undefined };
    return send(client, unknown, { path: path.slice(1), body }, options, checkToken(unknown, options));
  }, dataOf);
}

/** Sends a prepared call, with the operation's own token where it takes one (checked by checkToken). */
function send(
  client: Flashduty,
  operation: ResolvedOperation,
  { path, body }: Prepared,
  options: RequestOptions | undefined,
  token: string | undefined,
): Promise<ApiResponse> {
  const answer = operation.rule?.orEnvelope ? 'either' : operation.rule?.ndjson ? 'ndjson' : 'envelope';
  return client._request(operation.http, path, body, operation.retry, options, answer, token);
}

/**
 * The call's own token where the operation takes one (the automation trigger: required then, and
 * sendable as a header), else undefined; a `token` given to an operation that takes none is refused
 * (it would be ignored silently otherwise). Checked before the params, so that a call without its
 * token is refused for that. Messages never quote the token.
 */
function checkToken(
  operation: ResolvedOperation,
  options: (RequestOptions & { token?: unknown }) | undefined,
): string | undefined {
  const token = options?.token;
  if (operation.rule?.token !== true) {
    if (token === undefined) return undefined;
    throw new RequestValidationError(
      'token',
      `${operation.name} takes the client's credential, not a token of its own`,
    );
  }
  if (typeof token !== 'string' || token.trim() === '') {
    throw new RequestValidationError(
      'token',
      `${operation.name} is authenticated by a token of its own: pass it as the option \`token\` (a non-empty string)`,
    );
  }
  if (!isHeaderSafe(token.trim())) {
    throw new RequestValidationError('token', 'only visible ASCII characters can be sent in an Authorization header');
  }
  return token.trim();
}

const dataOf = (response: ApiResponse): unknown => response.data;

/** A page promise's class: ListPagePromise, or one the API names for an operation (IncidentPagePromise). */
export type PagePromiseClass = new <Item, Request extends PagedRequest>(
  open: ListOpener<Item, Request, ListPage<Item, Request>>,
) => ListPagePromise<Item, Request>;

/** A list method: a PagePromise at once; the params are converted and checked before the first request. */
export function listMethod<Item, Request extends PagedRequest>(
  client: Flashduty,
  method: string,
  params: unknown,
  options: RequestOptions = {},
  Promise_: PagePromiseClass = ListPagePromise,
): ListPagePromise<Item, Request> {
  const copy = snapshot(params);
  return new Promise_<Item, Request>((Page) => openList(client, method, copy, options, Page));
}

/** A list call once its tables loaded: its operation from the rules, its params converted and checked. */
async function openList<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  client: Flashduty,
  method: string,
  params: unknown,
  options: RequestOptions,
  Page: PageFactory<Item, Request, Page>,
): Promise<ListCall<Item, Request, Page>> {
  const [tables, operation] = await byMethod(method);
  checkToken(operation, options);
  const paging = operation.rule?.paging;
  if (!paging) throw new RequestValidationError('method', `${method} is not a list operation`);
  const wire = prepare(tables, operation, params, METHOD).body as Request;
  const list = { name: paging.name ?? operation.name, path: operation.path.slice(1), http: operation.http, paging };
  return new tables.paging.ListCall(client, list, wire, options, Page);
}

/** A shallow copy of an object's params: what the caller changes after a list call does not change its requests. */
function snapshot<T>(params: T): T {
  return typeof params === 'object' && params !== null && !Array.isArray(params) ? { ...params } : params;
}
