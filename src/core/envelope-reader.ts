// Turns one HTTP answer into data or a typed error. Every rule about envelopes lives here: the
// error class follows `error.code` whatever the status, `code: "OK"` beside data is a success, and
// a body that is not an envelope is an APIError (non-2xx) or a ResponseValidationError (2xx). An
// operation that answers NDJSON (interpretLines) succeeds with its lines and fails as every other.
// The envelope's shape is checked by hand (checkEnvelope): it runs on every answer, and zod in this
// path would cost more bytes (about 7 kB min+gzip) and time than the check itself; `validate:
// 'deep'` runs the zod schema on top (schemas/deep.ts).

import { isObject } from '../internal/guards.js';
import {
  APIError,
  type APIErrorOptions,
  errorFromCode,
  type FlashdutyError,
  ResponseValidationError,
} from './api-errors.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import { type Redactor, scrubDeep, scrubHeaders } from '../internal/redact.js';
import { expected, type Problem } from './problem.js';

/** How much of a response is checked: see `ClientOptions.validate`. */
export type ValidateMode = 'envelope' | 'deep' | false;

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The request URL, already scrubbed. */
  url: string;
}

export interface Success {
  data: unknown;
  requestId: string;
  /** The whole parsed envelope. */
  body: object;
}

const EXCERPT_CHARS = 200;

/** The request id by the spec's header, the vendor's header, then the body. */
export function requestIdOf(headers: Headers, body?: unknown): string | undefined {
  const fromHeader = headers.get('service-request-id') ?? headers.get('flashcat-request-id');
  if (fromHeader) return fromHeader;
  const fromBody = (body as { request_id?: unknown } | undefined)?.request_id;
  return typeof fromBody === 'string' && fromBody ? fromBody : undefined;
}

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

/** `request_id` a string when present, `error` an object with a string `code`. `data` is the operation's. */
export function checkEnvelope(body: object): Problem | undefined {
  const { request_id, error } = body as Record<string, unknown>;
  if (request_id !== undefined && typeof request_id !== 'string') return expected('request_id', 'a string', request_id);
  if (error === undefined || error === null) return undefined;
  if (!isObject(error)) return expected('error', 'an object', error);
  if (typeof error.code !== 'string') return expected('error.code', 'a string', error.code);
  if (error.message !== undefined && typeof error.message !== 'string')
    return expected('error.message', 'a string', error.message);
  return undefined;
}

function parseOr(text: string, fallback: unknown): unknown {
  try {
    return text === '' ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

/**
 * The answer of an operation that answers NDJSON (`application/x-ndjson`): a 2xx that is not JSON is
 * its lines, each a JSON object (a blank line is skipped; anything else is a ResponseValidationError
 * naming the line); a JSON answer is an envelope like every other one, so an error keeps its class, and a
 * JSON success is refused (lines were promised). Lines carry no request id: it is the header's, or ''.
 */
export function interpretLines(answer: RawAnswer, validate: ValidateMode, scrub: Redactor): Success {
  const ok = answer.status >= 200 && answer.status < 300;
  const json = /^application\/json\b/i.test(answer.headers.get('content-type')?.trim() ?? '');
  if (!ok || json) {
    const envelope = interpret(answer, validate, scrub);
    throw new ResponseValidationError('Invalid NDJSON answer: a JSON envelope instead of lines', '', {
      status: answer.status,
      url: answer.url,
      ...(envelope.requestId ? { requestId: scrub(envelope.requestId) } : {}),
    });
  }
  const requestId = requestIdOf(answer.headers) ?? '';
  const lines: Array<Record<string, unknown>> = [];
  for (const [index, line] of answer.text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const value = parseOr(line, undefined);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ResponseValidationError(`Invalid NDJSON answer: line ${index + 1} is not a JSON object`, `[${index}]`, {
        status: answer.status,
        url: answer.url,
        ...(requestId ? { requestId: scrub(requestId) } : {}),
      });
    }
    lines.push(value as Record<string, unknown>);
  }
  return { data: lines, requestId, body: lines };
}

export function interpret(answer: RawAnswer, validate: ValidateMode, scrub: Redactor): Success {
  const { status, headers } = answer;
  const ok = status >= 200 && status < 300;
  const body = parseOr(answer.text, undefined);
  const requestId = requestIdOf(headers, body);
  // Built on failure only: errors keep a scrubbed copy of the headers, a success pays nothing.
  const base = () => ({
    status,
    headers: scrubHeaders(headers, scrub),
    url: answer.url,
    ...(requestId ? { requestId: scrub(requestId) } : {}),
  });

  const broken = (why: string, path = ''): FlashdutyError => {
    if (ok) return new ResponseValidationError(`Invalid response envelope: ${why}`, path, base());
    // Scrubbed whole, then cut: a key straddling the cut would otherwise leave its first characters.
    const text = excerpt(scrub(answer.text));
    return new APIError(`HTTP ${status}${text ? `: ${text}` : ''}`, { ...base(), body: text });
  };

  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw broken(answer.text === '' ? 'empty body' : body === undefined ? 'not JSON' : 'not an object');
  }
  const envelope = body as { data?: unknown; error?: { code?: unknown; message?: unknown } };
  const code = typeof envelope.error?.code === 'string' ? envelope.error.code : undefined;
  // An error code makes the error's class whatever the rest of the envelope looks like (a null
  // message, a null request_id): the shape is checked for successes, which hand their data on.
  if (validate !== false && (code === undefined || code === 'OK')) {
    const problem = checkEnvelope(body);
    if (problem) throw broken(`${problem.path}: ${problem.message}`, problem.path);
  }
  if (code !== undefined && code !== 'OK') {
    const message =
      typeof envelope.error?.message === 'string' && envelope.error.message ? envelope.error.message : code;
    // A failure body may echo the request (a message quoting the URL): keep a scrubbed copy only,
    // scrubbed after parsing so that JSON-escaped echoes are caught and the JSON stays intact.
    const options: APIErrorOptions & { retryAfterMs?: number } = {
      ...base(),
      code: scrub(code),
      body: scrubDeep(body, scrub),
    };
    const retryAfterMs = parseRetryAfter(headers);
    if (retryAfterMs !== undefined) options.retryAfterMs = retryAfterMs;
    throw errorFromCode(scrub(message), options);
  }
  if (!ok) throw broken('an error status without an error code');
  if (!requestId && validate !== false) throw broken('no request_id in the body or headers', 'request_id');
  return { data: envelope.data, requestId: requestId ?? '', body };
}
