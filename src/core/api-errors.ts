// The errors of calls to the API, all FlashdutyErrors (internal/flashduty-error.ts, re-exported
// here): refused params, invalid answers, connection failures, and the server's answers, which map
// to one class per error code of the spec, chosen by the envelope's `code` (a 400 can be
// ResourceNotFound, a 200 can carry an error). Messages and URLs reaching these constructors are
// already scrubbed of the app_key by the client.

import {
  ConfigError,
  FlashdutyError,
  type FlashdutyErrorOptions,
  isFlashdutyError,
} from '../internal/flashduty-error.js';

export { ConfigError, FlashdutyError, isFlashdutyError };
export type { FlashdutyErrorOptions };

/** The parameters were refused before anything was sent. */
export class RequestValidationError extends FlashdutyError {
  /** The parameter at fault, such as `end_time` or `incident_ids[2]`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.field = field;
  }
}
RequestValidationError.prototype.name = 'RequestValidationError';

/** What errors about a response know of it. */
export interface ResponseErrorOptions extends FlashdutyErrorOptions {
  status: number;
  requestId?: string;
  headers?: Headers;
}

/** A 2xx answer that is not a valid envelope (or, with `validate: 'deep'`, not a valid resource). */
export class ResponseValidationError extends FlashdutyError {
  readonly status: number;
  readonly requestId?: string;
  /** Where in the body the problem is, e.g. `data.items.3.incident_id`; empty for the whole body. */
  readonly path: string;

  constructor(message: string, path: string, options: ResponseErrorOptions) {
    super(message, options);
    this.status = options.status;
    this.path = path;
    if (options.requestId !== undefined) this.requestId = options.requestId;
  }
}
ResponseValidationError.prototype.name = 'ResponseValidationError';

/** What an {@link APIError} is built from. */
export interface APIErrorOptions extends ResponseErrorOptions {
  code?: string;
  /** The parsed body, or an excerpt of a body that was not JSON. */
  body?: unknown;
}

/** The server answered with an error. `code` is the spec's error code, `undefined` for a non-envelope body. */
export class APIError extends FlashdutyError {
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly headers: Headers;
  readonly body: unknown;

  constructor(message: string, options: APIErrorOptions) {
    super(message, options);
    this.status = options.status;
    this.code = options.code;
    this.requestId = options.requestId;
    this.headers = options.headers ?? new Headers();
    this.body = options.body;
  }
}
APIError.prototype.name = 'APIError';

export class InvalidParameterError extends APIError {}
export class BadRequestError extends APIError {}
export class InvalidContentTypeError extends APIError {}
export class ResourceNotFoundError extends APIError {}
export class NoLicenseError extends APIError {}
export class ReferenceExistError extends APIError {}
export class UnauthorizedError extends APIError {}
export class BalanceNotEnoughError extends APIError {}
export class AccessDeniedError extends APIError {}
export class RouteNotFoundError extends APIError {}
export class MethodNotAllowedError extends APIError {}
export class UndonedOrderExistError extends APIError {}
export class EntityTooLargeError extends APIError {}
export class RequestLockedError extends APIError {}
export class RequestVerifyRequiredError extends APIError {}
export class DangerousOperationError extends APIError {}
export class InternalError extends APIError {}
export class ServiceUnavailableError extends APIError {}

export class RequestTooFrequentlyError extends APIError {
  /** The delay the server asked for in `Retry-After`, in ms; `undefined` when it sent none. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: APIErrorOptions & { retryAfterMs?: number }) {
    super(message, options);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The error classes by the spec's error code; `OK` is a success and has none. */
export const ERROR_CLASSES = {
  InvalidParameter: InvalidParameterError,
  BadRequest: BadRequestError,
  InvalidContentType: InvalidContentTypeError,
  ResourceNotFound: ResourceNotFoundError,
  NoLicense: NoLicenseError,
  ReferenceExist: ReferenceExistError,
  Unauthorized: UnauthorizedError,
  BalanceNotEnough: BalanceNotEnoughError,
  AccessDenied: AccessDeniedError,
  RouteNotFound: RouteNotFoundError,
  MethodNotAllowed: MethodNotAllowedError,
  UndonedOrderExist: UndonedOrderExistError,
  EntityTooLarge: EntityTooLargeError,
  RequestLocked: RequestLockedError,
  RequestVerifyRequired: RequestVerifyRequiredError,
  DangerousOperation: DangerousOperationError,
  RequestTooFrequently: RequestTooFrequentlyError,
  InternalError: InternalError,
  ServiceUnavailable: ServiceUnavailableError,
} as const;

/** Error codes of the spec. The server may add more; those arrive as a plain `APIError`. */
export type ErrorCode = keyof typeof ERROR_CLASSES | 'OK';

// Names are set on the prototype, not read from the constructor, so that minified bundles keep them.
for (const [code, ErrorClass] of Object.entries(ERROR_CLASSES)) {
  ErrorClass.prototype.name = code === 'InternalError' ? code : `${code}Error`;
}

/** Builds the error for a failure envelope: the class follows `code`, never the HTTP status. */
export function errorFromCode(message: string, options: APIErrorOptions & { retryAfterMs?: number }): APIError {
  const code = options.code;
  const ErrorClass =
    code !== undefined && Object.hasOwn(ERROR_CLASSES, code)
      ? ERROR_CLASSES[code as keyof typeof ERROR_CLASSES]
      : APIError;
  return new ErrorClass(message, options);
}

/** A network failure: no answer came. `cause` holds the scrubbed underlying error. */
export class APIConnectionError extends FlashdutyError {
  constructor(message = 'Connection error.', options: FlashdutyErrorOptions = {}) {
    super(message, options);
  }
}
APIConnectionError.prototype.name = 'APIConnectionError';

/** No answer came within the per-attempt `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  constructor(timeoutMs: number, options: FlashdutyErrorOptions = {}) {
    super(`Request timed out after ${timeoutMs} ms.`, options);
  }
}
APIConnectionTimeoutError.prototype.name = 'APIConnectionTimeoutError';

/** The answer's body passed `maxResponseBytes` (counted decompressed); it was not read further and the call is not retried. */
export class ResponseTooLargeError extends FlashdutyError {
  /** The limit it passed, in bytes. */
  readonly limit: number;
  readonly status: number;
  readonly requestId?: string;

  constructor(limit: number, options: FlashdutyErrorOptions & { status: number; requestId?: string }) {
    super(`The response body is larger than maxResponseBytes (${limit} bytes); it was not read further.`, options);
    this.limit = limit;
    this.status = options.status;
    if (options.requestId !== undefined) this.requestId = options.requestId;
  }
}
ResponseTooLargeError.prototype.name = 'ResponseTooLargeError';

/** The caller's `signal` aborted the call. */
export class APIUserAbortError extends FlashdutyError {
  constructor(options: FlashdutyErrorOptions = {}) {
    super('Request was aborted.', options);
  }
}
APIUserAbortError.prototype.name = 'APIUserAbortError';
