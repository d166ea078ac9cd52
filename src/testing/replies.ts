// How the mock writes its answers, as the service writes them: the JSON envelope (`request_id`, then
// `data` or an `error` with its code and a message in the caller's language), its status from the
// spec's error table, the headers every answer carries (`Service-Request-Id`, CORS for browsers);
// NDJSON lines with the next page's cursor in a header; a fault's answer (faults.ts); and the two
// results that are no answer: a dropped connection, a body cut off halfway.

import type { Fault } from './faults.js';
import { type Locale, message, type MessageKey } from './messages.js';
import type { OperationResult, Refusal } from './model/operation-result.js';

/** Returned instead of a Response when the connection must be dropped without an answer. */
export const DROP = Symbol('drop connection');
/** A response whose body must be cut off halfway (the connection then drops). */
export class Truncated {
  constructor(readonly response: Response) {}
}
export type RouteResult = Response | Truncated | typeof DROP;

/** HTTP status of each error code, from the spec's error table. */
export const STATUS_OF_CODE: Record<string, number> = {
  InvalidParameter: 400,
  BadRequest: 400,
  InvalidContentType: 400,
  ResourceNotFound: 400,
  NoLicense: 400,
  ReferenceExist: 400,
  Unauthorized: 401,
  BalanceNotEnough: 402,
  AccessDenied: 403,
  RouteNotFound: 404,
  MethodNotAllowed: 405,
  UndonedOrderExist: 409,
  EntityTooLarge: 413,
  RequestLocked: 423,
  RequestVerifyRequired: 428,
  DangerousOperation: 428,
  RequestTooFrequently: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
};
const CODE_OF_STATUS: Record<number, string> = Object.fromEntries(
  Object.entries(STATUS_OF_CODE)
    .reverse()
    .map(([code, status]) => [status, code]),
);

/** The call an answer is for: its request id (in the envelope and `Service-Request-Id`) and the caller's language. */
export interface ReplyTo {
  requestId: string;
  locale: Locale;
}

/** The headers a browser needs to call the mock from another origin. */
export const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept-Language, Authorization',
  'Access-Control-Expose-Headers': 'Service-Request-Id, Retry-After, X-Search-After-Ctx',
};

/** A success: the envelope with `data`. */
export function success(call: ReplyTo, data: unknown): Response {
  return json(call, 200, { request_id: call.requestId, data });
}

/** What a model's rule gave: its data, or its refusal. */
export function answerResult(call: ReplyTo, result: OperationResult): Response {
  return 'data' in result ? success(call, result.data) : fail(call, result.code, result.key, result.vars);
}

/** An invalid parameter (InvalidParameter), as a check of the model refused it. */
export function refuse(call: ReplyTo, refusal: Refusal): Response {
  return fail(call, 'InvalidParameter', refusal.key, refusal.vars);
}

/** A failure envelope: the error code, its status, the message of `key` in the caller's language. */
export function fail(
  call: ReplyTo,
  code: string,
  key: MessageKey,
  vars: Record<string, string | number> = {},
  headers: Record<string, string> = {},
): Response {
  const body = { request_id: call.requestId, error: { code, message: message(key, call.locale, vars) } };
  return json(call, STATUS_OF_CODE[code] ?? 400, body, headers);
}

/** The answer a fault gives: its raw body, or an envelope of its code (or of the code of its status). */
export function faultResponse(call: ReplyTo, fault: Fault): Response {
  const status = fault.status ?? (fault.code ? STATUS_OF_CODE[fault.code] : undefined) ?? (fault.body ? 200 : 500);
  if (fault.body !== undefined) {
    return new Response(fault.body, {
      status,
      headers: { 'Content-Type': 'text/html; charset=utf-8', ...CORS, ...fault.headers },
    });
  }
  const code = fault.code ?? CODE_OF_STATUS[status] ?? 'InternalError';
  const text = fault.message ?? (code === 'InternalError' ? message('internal', call.locale) : code);
  return json(call, status, { request_id: call.requestId, error: { code, message: text } }, fault.headers);
}

function json(call: ReplyTo, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Service-Request-Id': call.requestId,
      ...CORS,
      ...headers,
    },
  });
}

/** An answer of NDJSON lines, and the next page's cursor where there is one. */
export function ndjson(call: ReplyTo, { text, cursor }: { text: string; cursor?: string }): Response {
  return new Response(text, {
    status: 200,
    headers: {
      'Content-Type': 'application/x-ndjson',
      'Service-Request-Id': call.requestId,
      ...(cursor !== undefined ? { 'X-Search-After-Ctx': cursor } : {}),
      ...CORS,
    },
  });
}
