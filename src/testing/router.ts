// One `(Request) → Response` for every route of the mock. MSW handlers and the loopback HTTP server
// both call it, so the model never knows which transport brought the call. Bodies are JSON, but an
// upload's (`multipart/form-data`, as the generated rules say), whose fields are read as the request
// schema types them; an operation that answers NDJSON answers lines. AI SRE's operations
// (`/safari/…`) are a product of their own: they neither need the on-call permission nor count
// against the account's on-call limit. A call carries either credential: the app key (`app_key=`)
// or an access token (`Authorization: Bearer`); an operation that takes a token of its own (the
// automation trigger) takes that token alone. Path parameters (`{trigger_id}`) are read from the
// path into the body before its schema is checked, as the service reads them. A write that names a
// member, team, channel or schedule the world does not have is refused before it changes anything
// (world/references.ts); every write that passed the credential, the limits and the permission goes
// into the audit log with its outcome (world/audit.ts).

import type { ListIncidentsRequest } from '../schemas/list.js';
import type { ListWebhookHistoryRequest } from '../schemas/webhook-history.js';
import { localeOf } from './messages.js';
import type { AgentsAndSkills, ResultCode } from './model/agents-and-skills.js';
import { checkListRequest, queryIncidents } from './model/incident-query.js';
import { REQUEST_SCHEMAS, SCHEMA_DEFS } from '../generated/request-schemas.js';
import { checkSchema } from '../internal/schema.js';
import { OPERATIONS } from '../generated/operations.js';
import { RULES } from '../generated/operation-rules.js';
import type { Schema } from '../internal/schema.js';
import { answerFor, answersLines, linesFor, OPENAPI_PATHS } from './model/openapi-answers.js';
import type { OperationResult } from './model/operation-result.js';
import { STATEFUL_OPERATION_PATHS, statefulHandler } from './model/stateful-operations.js';
import {
  checkHistoryDetailRequest,
  checkHistoryListRequest,
  historyDetail,
  queryHistory,
} from './model/webhook-history.js';
import {
  answerResult,
  CORS,
  DROP,
  fail,
  faultResponse,
  ndjson,
  refuse,
  type ReplyTo,
  type RouteResult,
  success,
  Truncated,
} from './replies.js';
import { resolveRoute } from './resolve-route.js';
import type { Credential, MockState } from './state.js';
import { type AuditEntry, operationName, targetOf } from './world/audit.js';
import { ownIdOf } from './world/engine.js';
import { missingReference } from './world/references.js';

/** The calls to the account's agents and skills, which the audit log records. */
type AgentOrSkillOperation = 'enable' | 'disable' | 'delete';
/**
 * How the router answers a route: the incident list, the webhook history and the agents and skills
 * by rules of their own; every other operation of the OpenAPI (`openapi`) by its request schema,
 * then the model's stateful handler where it has one, else the OpenAPI's answer.
 */
type Operation = 'list' | AgentOrSkillOperation | 'historyList' | 'historyDetail' | 'openapi';
const ROUTES: Record<string, Operation> = {
  ...Object.fromEntries(OPENAPI_PATHS.map((path) => [path, 'openapi' as const])),
  ...Object.fromEntries(STATEFUL_OPERATION_PATHS.map((path) => [path, 'openapi' as const])),
  '/incident/list': 'list',
  '/safari/a2a-agent/enable': 'enable',
  '/safari/a2a-agent/disable': 'disable',
  '/safari/skill/delete': 'delete',
  '/webhook/history/list': 'historyList',
  '/webhook/history/detail': 'historyDetail',
};
/** Every path the mock answers (for MSW). */
export const ROUTE_PATHS = Object.keys(ROUTES);
/** The paths the mock answers from its state (its own rules judge their ids), not from the OpenAPI's examples. */
export const STATEFUL_PATHS = ROUTE_PATHS.filter((path) => ROUTES[path] !== 'openapi' || statefulHandler(path));
/** Operations of the on-call product: they need its permission and count against the account's limit. */
const ON_CALL = new Set<Operation>(['list', 'historyList', 'historyDetail', 'openapi']);

/** What the handlers of one call share: the state, the instant it arrived, and whom its answer is for. */
interface Call extends ReplyTo {
  state: MockState;
  /** performance.now() at arrival: the rate limiter and the call log use the same instant. */
  arrived: number;
}

/** The mock's answer to one request: the service's, a fault's, or a dropped or cut-off connection. */
export async function route(state: MockState, request: Request): Promise<RouteResult> {
  const url = new URL(request.url);
  const { path, params } = resolveRoute(url.pathname, ROUTE_PATHS);
  const call: Call = {
    state,
    arrived: performance.now(),
    requestId: state.nextRequestId(),
    locale: localeOf(request.headers.get('accept-language')),
  };
  const keyName = state.credentials.get(credentialOf(request, url) ?? '')?.name;
  const record = (status: number) =>
    state.recordCall({
      time: performance.timeOrigin + call.arrived,
      path,
      key_name: keyName,
      status,
      request_id: call.requestId,
    });

  const fault = state.faults.take(path);
  if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  if (fault?.drop) {
    record(0);
    return DROP;
  }
  const response =
    fault && (fault.code !== undefined || fault.status !== undefined || fault.body !== undefined)
      ? faultResponse(call, fault)
      : await answerCall(call, request, url, path, params);
  record(fault?.dropAfter ? 0 : response.status);
  // After the call took effect: the answer is lost on the way (dropAfter) or cut off (truncate).
  if (fault?.dropAfter) return DROP;
  if (fault?.truncate) return new Truncated(response);
  return response;
}

/** The answer to a call no fault took over: the route's checks (method, credential, limits, permission, body), then its operation. */
async function answerCall(
  call: Call,
  request: Request,
  url: URL,
  path: string,
  params: Record<string, string>,
): Promise<Response> {
  const { state } = call;
  const operation = ROUTES[path];
  if (!operation) return fail(call, 'RouteNotFound', 'route', { path });
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
  const method = (OPERATIONS as Record<string, { http: string }>)[path]?.http === 'GET' ? 'GET' : 'POST';
  if (request.method !== method) return fail(call, 'MethodNotAllowed', 'method', { method: request.method, path });
  if (RULES[path]?.token) return ownTokenOperation(call, request, path, params);

  const key = state.credentials.get(credentialOf(request, url) ?? '');
  if (!key) return fail(call, 'Unauthorized', 'unauthorized');
  if (key.expired) return fail(call, 'Unauthorized', 'expiredKey');

  const onCall = ON_CALL.has(operation) && !path.startsWith('/safari/');
  const bucket = onCall ? `account:${state.world.account.account_id}` : `key:${key.name}`;
  if (state.limiter && !state.limiter.admit(bucket, call.arrived)) {
    return fail(call, 'RequestTooFrequently', 'tooFrequent', {}, { 'Retry-After': '1' });
  }
  if (onCall && !key.permissions.includes('on-call')) {
    return fail(call, 'AccessDenied', 'accessDenied', { permission: 'on-call' });
  }

  if (method === 'GET') return openapiOperation(call, path, typedFields(url.searchParams, path), key);
  const contentType = request.headers.get('content-type') ?? '';
  const form = RULES[path]?.multipart === true;
  if (!(form ? /^multipart\/form-data\b/i : /^application\/json\b/i).test(contentType.trim()))
    return fail(call, 'InvalidContentType', 'contentType');
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > state.maxBodyBytes)
    return fail(call, 'EntityTooLarge', 'tooLarge', { limit: state.maxBodyBytes });
  if (form) {
    let fields: FormData;
    try {
      fields = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    } catch {
      return fail(call, 'BadRequest', 'badJson');
    }
    return openapiOperation(call, path, typedFields(fields, path), key);
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return fail(call, 'BadRequest', 'badJson');
  }
  // A few operations of the OpenAPI take an array (imports); the rest take an object.
  if (typeof body !== 'object' || body === null || (Array.isArray(body) && operation !== 'openapi'))
    return fail(call, 'BadRequest', 'badJson');

  const fields = body as Record<string, unknown>;
  switch (operation) {
    case 'list':
      return listIncidents(call, fields, key.personId);
    case 'historyList':
      return listHistory(call, fields);
    case 'historyDetail':
      return getHistoryDetail(call, fields);
    case 'openapi':
      return openapiOperation(call, path, fields, key);
    default:
      return agentOrSkillOperation(call, operation, fields, key);
  }
}

/**
 * A GET operation's query parameters, or an upload's form fields, as a body: numbers and booleans
 * where the request schema wants them (the wire has only text), files as they came.
 */
function typedFields(fields: URLSearchParams | FormData, path: string): Record<string, unknown> {
  let schema: Schema | undefined = REQUEST_SCHEMAS[path];
  for (let hops = 0; schema?.$ref !== undefined && hops < 8; hops++) schema = SCHEMA_DEFS[schema.$ref];
  const properties = schema?.properties ?? {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of fields) {
    if (name === 'app_key') continue;
    const types = [properties[name]?.type ?? []].flat(); // `['integer', 'null']` too
    if (typeof value !== 'string') body[name] = value;
    else if (
      types.some((t) => t === 'integer' || t === 'number') &&
      value.trim() !== '' &&
      Number.isFinite(Number(value))
    )
      body[name] = Number(value);
    else if (types.includes('boolean') && (value === 'true' || value === 'false')) body[name] = value === 'true';
    else body[name] = value;
  }
  return body;
}

/**
 * Any other operation of the OpenAPI: the body checked against its request schema (and a write's
 * references against the world), then the model's answer or a schema-valid one; a write goes into
 * the audit log.
 */
async function openapiOperation(
  call: Call,
  path: string,
  body: Record<string, unknown>,
  key: Credential,
): Promise<Response> {
  const write = (OPERATIONS as Record<string, { kind: string }>)[path]?.kind === 'mutation';
  const result = await openapiResult(call, path, body, key.personId, write);
  if (write) {
    const data = 'data' in result ? result.data : undefined;
    audit(call, path, key, targetOf(body, ownIdOf(path), data), 'code' in result ? result.code : 'OK');
  }
  if ('lines' in result) return ndjson(call, result.lines);
  if ('refusal' in result) return fail(call, 'InvalidParameter', 'schema', result.refusal);
  return answerResult(call, result);
}

/** What an operation of the OpenAPI answers: the model's result, a schema-valid one, NDJSON lines, or the schema's refusal. */
async function openapiResult(
  call: Call,
  path: string,
  body: Record<string, unknown>,
  personId: number,
  write: boolean,
): Promise<
  | OperationResult
  | { lines: ReturnType<typeof linesFor> }
  | { refusal: { field: string; why: string }; code: 'InvalidParameter' }
> {
  const schema = REQUEST_SCHEMAS[path];
  const problem = schema ? checkSchema(body, schema, SCHEMA_DEFS) : undefined;
  if (problem) return { code: 'InvalidParameter', refusal: { field: problem.path || 'body', why: problem.message } };
  const own = ownIdOf(path);
  const missing = write ? missingReference(call.state.world, body, new Set(own ? [own] : [])) : undefined;
  if (missing) return missing;
  const handler = statefulHandler(path);
  if (!handler && RULES[path]?.ndjson && answersLines(path, body)) return { lines: linesFor(path, body) };
  if (!handler) return { data: answerFor(path, body) };
  return handler(call.state, body, personId);
}

/** Records a write in the audit log: its operation, the member and credential behind it, what it acted on, its outcome. */
function audit(
  call: Call,
  path: string,
  key: Pick<Credential, 'name' | 'personId'>,
  target: string,
  result: string,
): void {
  const entry: AuditEntry = {
    request_id: call.requestId,
    time: call.state.clock.now(),
    operation: operationName(path),
    target,
    account_id: call.state.world.account.account_id,
    person_id: key.personId,
    key_name: key.name,
    result,
  };
  call.state.auditLog.push(entry);
}

function listHistory(call: Call, body: Record<string, unknown>): Response {
  const refusal = checkHistoryListRequest(body);
  if (refusal) return refuse(call, refusal);
  const data = queryHistory(body as unknown as ListWebhookHistoryRequest, call.state.sender.deliveries());
  return success(call, data);
}

function getHistoryDetail(call: Call, body: Record<string, unknown>): Response {
  const refusal = checkHistoryDetailRequest(body);
  if (refusal) return refuse(call, refusal);
  const integration = body.integration_id as number;
  const id = body.event_id as string;
  const data = historyDetail(integration, id, call.state.sender.deliveries(), call.state.world);
  if (!data) return fail(call, 'ResourceNotFound', 'deliveryMissing', { id, integration });
  return success(call, data);
}

function listIncidents(call: Call, body: Record<string, unknown>, personId: number): Response {
  const refusal = checkListRequest(body);
  if (refusal) return refuse(call, refusal);
  const result = queryIncidents(body as unknown as ListIncidentsRequest, {
    world: call.state.world,
    personId,
    now: Math.floor(call.state.clock.now() / 1000),
  });
  if ('key' in result) return refuse(call, result);
  return success(call, result);
}

/**
 * An operation authenticated by a token of its own (the automation trigger): its body and path
 * parameters checked, then the trigger judges the bearer token; the app key plays no part.
 */
async function ownTokenOperation(
  call: Call,
  request: Request,
  path: string,
  params: Record<string, string>,
): Promise<Response> {
  if (!/^application\/json\b/i.test((request.headers.get('content-type') ?? '').trim()))
    return fail(call, 'InvalidContentType', 'contentType');
  const text = await request.text();
  let body: unknown = {};
  try {
    if (text.trim() !== '') body = JSON.parse(text);
  } catch {
    return fail(call, 'BadRequest', 'badJson');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail(call, 'BadRequest', 'badJson');
  const fields = { ...(body as Record<string, unknown>), ...params };
  const schema = REQUEST_SCHEMAS[path];
  const problem = schema ? checkSchema(fields, schema, SCHEMA_DEFS) : undefined;
  const trigger = { name: 'trigger-token', personId: 0 };
  if (problem) {
    audit(call, path, trigger, String(params.trigger_id), 'InvalidParameter');
    return fail(call, 'InvalidParameter', 'schema', { field: problem.path || 'body', why: problem.message });
  }
  const result = call.state.automations.fire(String(params.trigger_id), bearerOf(request), fields);
  audit(call, path, trigger, String(params.trigger_id), 'code' in result ? result.code : 'OK');
  return answerResult(call, result);
}

/** The credential a call carries: its `app_key`, else the token of its `Authorization: Bearer`. */
function credentialOf(request: Request, url: URL): string | undefined {
  const appKey = url.searchParams.get('app_key');
  if (appKey !== null) return appKey;
  return bearerOf(request);
}

/** The token of a request's `Authorization: Bearer <token>`, if it has one. */
function bearerOf(request: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
}

/** Each agent or skill operation: its path, its id field, and what it does to the registry. */
const AGENT_AND_SKILL_OPERATIONS: Record<
  AgentOrSkillOperation,
  { path: string; field: string; run: (registry: AgentsAndSkills, id: string) => ResultCode }
> = {
  enable: { path: '/safari/a2a-agent/enable', field: 'agent_id', run: (registry, id) => registry.enable(id) },
  disable: { path: '/safari/a2a-agent/disable', field: 'agent_id', run: (registry, id) => registry.disable(id) },
  delete: { path: '/safari/skill/delete', field: 'skill_id', run: (registry, id) => registry.deleteSkill(id) },
};

function agentOrSkillOperation(
  call: Call,
  operation: AgentOrSkillOperation,
  body: Record<string, unknown>,
  key: Credential,
): Response {
  const { path, field, run } = AGENT_AND_SKILL_OPERATIONS[operation];
  const id = body[field];
  const registry = call.state.agentsAndSkills;
  let outcome: ResultCode | 'missing' | 'type';
  if (id === undefined || id === null || id === '') outcome = 'missing';
  else if (typeof id !== 'string') outcome = 'type';
  else outcome = run(registry, id);
  const target = typeof id === 'string' ? id : JSON.stringify(id ?? null);
  audit(call, path, key, target, outcome === 'missing' || outcome === 'type' ? 'InvalidParameter' : outcome);
  switch (outcome) {
    case 'OK':
      return success(call, null);
    case 'missing':
      return fail(call, 'InvalidParameter', 'required', { field });
    case 'type':
      return fail(call, 'InvalidParameter', 'type', { field, type: 'string' });
    case 'InvalidParameter':
      return fail(call, 'InvalidParameter', 'agentEnabled', { id: id as string });
    case 'ResourceNotFound':
      return fail(call, 'ResourceNotFound', field === 'agent_id' ? 'agentMissing' : 'skillMissing', {
        id: id as string,
      });
  }
}
