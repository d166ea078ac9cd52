// How an operation is called, once it is known: every generated method (resource.ts: `_send`,
// `_list`) and client.request come here, loaded with a client's first call together with the
// generated tables (the manifest, the rules, the request schemas), the params' conversion and the
// schema checker. The operation's path, HTTP method, retry policy and rules are looked up in the
// tables. Then: params → wire body (params.ts) → the OpenAPI's request schema → path parameters out
// of the body into the path (encoded) → the request loop (a form for an upload, the answer's lines
// for an NDJSON answer, the operation's own token where it takes one, as the rules say); a list
// opens a list call (pagination/list-call.ts) with its paging rule instead.

import { RequestValidationError } from '../../core/api-errors.js';
import { OPERATIONS } from '../../generated/operations.js';
import { RULES } from '../../generated/operation-rules.js';
import { REQUEST_SCHEMAS, SCHEMA_DEFS } from '../../generated/request-schemas.js';
import { checkSchema } from '../../internal/schema.js';
import type { Flashduty, RequestOptions } from '../client.js';
import { checkCallOptions, isHeaderSafe } from '../client-options.js';
import { ListCall } from '../pagination/list-call.js';
import type { PagedRequest } from '../pagination/operation.js';
import type { ListPage, PageFactory } from '../pagination/page.js';
import type { ApiResponse } from '../request-loop.js';
import type { RetryPolicy } from '../retry.js';
import { checkWellFormed, hasDotSegment, toForm, toPath, toWire, withIdempotencyKey } from './params.js';
import type { OperationRule } from './rules.js';

/** What the client knows of an operation from the tables. */
interface Operation {
  /** The dotted method name (`incidents.ack`), or the path for one the OpenAPI does not list. */
  name: string;
  path: string;
  http: 'GET' | 'POST';
  retry: RetryPolicy;
  rule: OperationRule | undefined;
}

const BY_PATH = new Map<string, Operation>();
const BY_METHOD = new Map<string, Operation>();
for (const [path, info] of Object.entries(OPERATIONS)) {
  const operation: Operation = { name: info.method, path, http: info.http, retry: info.kind, rule: RULES[path] };
  BY_PATH.set(path, operation);
  BY_METHOD.set(info.method, operation);
}

/**
 * A method takes our conveniences, checks enums and refuses a key its request schema does not list
 * (a misspelt filter would be sent and ignored: every row returned); client.request takes the wire
 * body as it is and leaves enums and unknown keys to the server, the way to send what this copy of
 * the OpenAPI does not know yet.
 */
const METHOD = { enums: true, closed: true, convert: true };
const REQUEST = { enums: false, closed: false, convert: false };

/** A call as the request loop sends it: where (path parameters filled in) and what. */
interface Prepared {
  /** The path, its parameters filled in, without its leading `/`. */
  path: string;
  body: unknown;
}

/** A method's call: its params converted and checked, sent; resolves to the answer. */
export function sendMethod(
  client: Flashduty,
  method: string,
  params: unknown,
  options: RequestOptions | undefined,
): Promise<ApiResponse> {
  const operation = byMethod(method);
  const token = checkOptions(operation, options);
  return send(client, operation, prepare(operation, params, METHOD), options, token);
}

/**
 * `client.request(path, body)` calls any operation by its path, under the base URL's path. A path
 * the OpenAPI does not list is sent as a POST mutation, the policy that can never double a write,
 * its body unchecked; the path itself must stay where it says: a `.` or `..` segment, raw or
 * encoded (`/../admin`, `/%2e%2e/admin`, `/..%2fadmin`), would take the call, and its credential,
 * out of the base URL's path, and a lone surrogate would be sent as another character.
 */
export function sendPath(
  client: Flashduty,
  path: string,
  body: unknown,
  options: RequestOptions | undefined,
): Promise<ApiResponse> {
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
  const known = BY_PATH.get(path);
  if (known) return send(client, known, prepare(known, body, REQUEST), options, checkOptions(known, options));
  checkWellFormed(path, 'path');
  if (hasDotSegment(path)) {
    throw new RequestValidationError(
      'path',
      `${JSON.stringify(path)} has a "." or ".." segment (raw or percent-encoded), which would leave the base URL's path: write the path it means`,
    );
  }
  const unknown: Operation = { name: path, path, http: 'POST', retry: 'mutation', rule: undefined };
  return send(client, unknown, { path: path.slice(1), body }, options, checkOptions(unknown, options));
}

/** A list method's call: its operation from the rules, its params converted and checked. */
export function openList<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  client: Flashduty,
  method: string,
  params: unknown,
  options: RequestOptions,
  Page: PageFactory<Item, Request, Page>,
): ListCall<Item, Request, Page> {
  const operation = byMethod(method);
  checkOptions(operation, options);
  const paging = operation.rule?.paging;
  if (!paging) throw new RequestValidationError('method', `${method} is not a list operation`);
  const wire = prepare(operation, params, METHOD).body as Request;
  const list = { name: paging.name ?? operation.name, path: operation.path.slice(1), http: operation.http, paging };
  return new ListCall(client, list, wire, options, Page);
}

function byMethod(method: string): Operation {
  const operation = BY_METHOD.get(method);
  if (!operation) throw new RequestValidationError('method', `no operation is called ${method}`);
  return operation;
}

/**
 * The wire body of a call: params converted by the operation's rules, then checked against its
 * request schema (enums and unknown keys only for a method: client.request leaves them to the
 * server, so that a value or field the service adds later can be sent); path parameters taken out
 * of it into the path. A RequestValidationError naming the field, nothing sent.
 */
function prepare(operation: Operation, params: unknown, { enums, closed, convert }: typeof METHOD): Prepared {
  const wire = Array.isArray(params) ? params : toWire(params, convert ? operation.rule : undefined);
  const schema = REQUEST_SCHEMAS[operation.path];
  const problem = schema ? checkSchema(wire, schema, SCHEMA_DEFS, { enums, closed }) : undefined;
  if (problem) throw new RequestValidationError(problem.path || (convert ? 'params' : 'body'), problem.message);
  if (Array.isArray(wire)) return { path: operation.path.slice(1), body: wire };
  if (operation.http === 'GET') checkQuery(wire);
  const { path, body } = toPath(operation.path, wire, operation.rule?.pathParams ?? []);
  if (operation.rule?.multipart) return { path, body: toForm(body) };
  return { path, body: withIdempotencyKey(body, operation.rule?.idempotency === true) };
}

/** A GET's query parameters go into the URL, each as the request loop writes it: each must be encodable. */
function checkQuery(params: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(params)) {
    for (const text of [name, ...[value].flat()]) if (typeof text === 'string') checkWellFormed(text, name);
  }
}

/** Sends a prepared call, with the operation's own token where it takes one (checked by checkOptions). */
function send(
  client: Flashduty,
  operation: Operation,
  { path, body }: Prepared,
  options: RequestOptions | undefined,
  token: string | undefined,
): Promise<ApiResponse> {
  const answer = operation.rule?.orEnvelope ? 'either' : operation.rule?.ndjson ? 'ndjson' : 'envelope';
  return client._request(operation.http, path, body, operation.retry, options, answer, token);
}

/**
 * The call's options checked (checkCallOptions: a name no call takes is refused, with the one
 * meant), and its own token where the operation takes one (the automation trigger: required then,
 * and sendable as a header), else undefined; a `token` given to an operation that takes none is
 * refused (it would be ignored silently otherwise). Checked before the params, so that a call
 * without its token is refused for that. Messages never quote the token.
 */
function checkOptions(
  operation: Operation,
  options: (RequestOptions & { token?: unknown }) | undefined,
): string | undefined {
  checkCallOptions(options);
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
