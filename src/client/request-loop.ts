// The request loop every operation goes through: limiter → ky → redirects and bounded bodies →
// envelope → retry policy. It is loaded with a client's first call (see `Flashduty._request`), so
// that `import { Flashduty }` does not carry ky and the wire rules up front; nothing else in the SDK
// touches the network. Rules owned here: an attempt holds its limiter slot until the server has
// answered; retries follow the operation's retry policy (retry.ts: reads, mutations); foreign errors are
// kept only as causes scrubbed of the credentials. A call carries one credential: the client's app
// key (`app_key` in the query) or access token (`Authorization: Bearer`), or for an operation that
// takes a token of its own, that token alone (`Authorization: Bearer`, no app key).
// ky sends what it builds through the global fetch, unless the client was given a fetch or hooks of
// its own: then ky keeps its Request (a hook may read or replace it) and the fetch gets it as it is.
// Without them, the JSON body stays out of ky's Request and goes straight to fetch with its URL,
// headers and signal: a Request with a body is teed for ky's retries (we retry ourselves) and copied
// again by fetch, a measurable share of a page's cost (bench/run.ts).

import ky, { type KyInstance, TimeoutError } from 'ky';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  FlashdutyError,
  ResponseValidationError,
} from '../core/api-errors.js';
import type { Answer } from '../core/api-promise.js';
import { interpret, interpretLines, type ValidateMode } from '../core/envelope-reader.js';
import { sleep, startAttempt } from '../internal/abort.js';
import type { LogFn } from '../internal/logger.js';
import { loader } from '../internal/lazy.js';
import { loadSpans, otelRegistry } from '../internal/otel.js';
import type { ClientSpan } from '../internal/otel-spans.js';
import { createRedactor, type Redactor, scrubHeaders } from '../internal/redact.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import { loadDeep } from '../schemas/load-deep.js';
import type { Hooks, RequestOptions } from './client-options.js';
import { createLimiter } from './limiters.js';
import { attemptTimer } from './metrics.js';
import { operationTemplate } from './operation-template.js';
import type { Limiter, RateLimitOptions } from './rate-limiter.js';
import {
  backoffDelay,
  isRetryable,
  isUnsentFailure,
  MAX_RETRY_AFTER_MS,
  type RetryPolicy,
  UnsentRequestError,
} from './retry.js';
import type * as Transport from './transport.js';

/** @internal What a client hands its request loop: its options, checked at construction. */
export interface LoopSettings {
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  validate: ValidateMode;
  maxResponseBytes: number;
  /** `app_key=…` (built once: ky's searchParams option would build the Request twice per call), or none with an access token. */
  appKeyParam: string | undefined;
  /** Every call's headers (`Authorization: Bearer` with an access token). */
  headers: Record<string, string>;
  /** The client's credential, for scrubbing it together with a call's own token. */
  secret: string;
  scrub: Redactor;
  log: LogFn;
  /** Whether debug lines are logged: a call builds its debug line only then. */
  debug: boolean;
  fetch: typeof fetch | undefined;
  hooks: Hooks | undefined;
  rateLimit: RateLimitOptions | false;
  /** Where the limiter is kept: clients made by `withOptions()` with the same base URL and credential share one. */
  limiter: { current?: Limiter | undefined; made?: true };
}

/**
 * @internal What the request loop hands back to an operation: the answer's `data` (or NDJSON lines)
 * and the answer itself (its status, request id, URL with the app_key redacted, headers as received
 * and, where the call carried a token of its own, the scrub that knows it), which `withResponse()`
 * shows.
 */
export interface ApiResponse extends Answer {
  data: unknown;
}

/** @internal The request loop of one client. */
export class RequestLoop {
  readonly #settings: LoopSettings;
  readonly #http: KyInstance;
  readonly #limiter: Limiter | undefined;
  /** The headers of a call with a JSON body: the client's, with a JSON content type unless they name one. */
  readonly #jsonHeaders: Record<string, string>;
  /** Whether ky's Request may be left without its body (no fetch or hooks of the user's see it). */
  readonly #direct: boolean;

  constructor(settings: LoopSettings) {
    this.#settings = settings;
    const shared = settings.limiter;
    if (!shared.made) [shared.current, shared.made] = [createLimiter(settings.rateLimit, settings.log), true];
    this.#limiter = shared.current;
    this.#jsonHeaders = withJsonType(settings.headers);
    this.#direct = !settings.fetch && !settings.hooks;
    this.#http = ky.create({
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
      ...(settings.hooks ? { hooks: settings.hooks } : {}),
    });
  }

  /**
   * One call: attempts until one succeeds, the error is final, or the retries are spent. `body` is
   * sent as JSON, or as `multipart/form-data` when it is a FormData (an upload); `answer` says what a
   * success is: an envelope's `data`, (`'ndjson'`) the lines of an NDJSON answer, or (`'either'`)
   * whichever the answer's Content-Type says. `token`: the operation's own token, sent instead of
   * the client's credential.
   */
  async send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    policy: RetryPolicy,
    options: RequestOptions = {},
    answer: AnswerFormat = 'envelope',
    token?: string,
  ): Promise<ApiResponse> {
    // The options were checked where the call started (checkCallOptions).
    const maxRetries = options.maxRetries ?? this.#settings.maxRetries;
    const timeout = options.timeout ?? this.#settings.timeout;
    const pairs = method === 'GET' ? queryOf(body) : [];
    const appKey = token === undefined ? this.#settings.appKeyParam : undefined;
    const shown = [...(appKey ? ['app_key=***'] : []), ...pairs];
    const sent = [...(appKey ? [appKey] : []), ...pairs];
    const url = `${this.#settings.baseUrl}/${path}${shown.length > 0 ? `?${shown.join('&')}` : ''}`;
    const call: Call = {
      method,
      operation: path,
      target: `${this.#settings.baseUrl}/${path}${sent.length > 0 ? `?${sent.join('&')}` : ''}`,
      body: method === 'GET' || body === undefined ? undefined : isForm(body) ? body : JSON.stringify(body),
      url,
      answer,
      appKeyParam: appKey,
      ...(token === undefined ? { scrub: this.#settings.scrub } : this.#withToken(token)),
    };
    // OpenTelemetry: one span per call, its retries as events (src/internal/otel.ts).
    const otel = otelRegistry();
    const span =
      otel &&
      (await loadSpans()).startClientSpan(otel, {
        method,
        path,
        template: await operationTemplate(path),
        baseUrl: this.#settings.baseUrl,
      });
    if (span) call.trace = span.headers;
    for (let retry = 0; ; retry++) {
      try {
        const response = await (span
          ? span.run(() => this.#attempt(call, timeout, policy, options))
          : this.#attempt(call, timeout, policy, options));
        span?.end(response, retry);
        return response;
      } catch (error) {
        const failure = error instanceof FlashdutyError ? error : new APIConnectionError(undefined, { url });
        const wait =
          retry >= maxRetries || !isRetryable(failure, policy) ? undefined : this.#retryDelay(failure, retry);
        if (wait === undefined) throw failed(span, failure, retry);
        this.#settings.log(
          'warn',
          `${path}: ${failure.name} (${failureSummary(failure)}); retry ${retry + 1}/${maxRetries} in ${wait} ms`,
        );
        span?.retry(failure, retry);
        await sleep(wait, options.signal, () => failed(span, new APIUserAbortError({ url }), retry));
      }
    }
  }

  /** A call's own credential: its token as the one `Authorization`, and a scrub that knows it too. */
  #withToken(token: string): Pick<Call, 'scrub' | 'headers'> {
    const others = (headers: Record<string, string>) =>
      Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
    const headers = { ...others(this.#settings.headers), authorization: `Bearer ${token}` };
    return { scrub: createRedactor([this.#settings.secret, token]), headers };
  }

  async #attempt(
    { method, operation, target, body, url, trace, answer, scrub, headers: own, appKeyParam }: Call,
    timeout: number,
    policy: RetryPolicy,
    options: RequestOptions,
  ): Promise<ApiResponse> {
    // A free slot is taken at once: waiting on a promise only when there is none costs a call a turn less.
    const release = this.#limiter
      ? (this.#limiter.tryAcquire?.(options.signal) ?? (await this.#limiter.acquire(options.signal, timeout)))
      : undefined;
    const attempt = startAttempt(timeout, options.signal);
    const started = Date.now();
    const timer = attemptTimer(method, operation, this.#settings.baseUrl);
    let status: number | undefined;
    try {
      // ky's timeout bounds the request up to its headers (each redirect hop gets what is left),
      // the attempt's guard the body; the caller's signal goes to ky only when there is one.
      const json = typeof body === 'string';
      const headers = own ? (json ? withJsonType(own) : own) : json ? this.#jsonHeaders : this.#settings.headers;
      const send = (to: string) =>
        attempt.guard(
          this.#http(to, {
            method,
            // A form is built anew for every attempt by fetch; ky sets its multipart boundary.
            ...(body === undefined ? {} : json && this.#direct ? { fetch: direct(body) } : { body }),
            headers: options.headers || trace ? { ...headers, ...trace, ...options.headers } : headers,
            timeout: attempt.remaining(),
            ...(options.signal ? { signal: options.signal } : {}),
            redirect: 'manual',
          }),
        );
      let response = networkErrorAsRejection(await send(target));
      const { follow, isRedirect, readText } = loadTransport.value ?? (await loadTransport());
      if (isRedirect(response)) {
        const hop: Transport.Hop = {
          at: target,
          base: this.#settings.baseUrl,
          method,
          mutation: policy === 'mutation',
          appKeyParam,
          url,
          show: (headers) => scrubHeaders(headers, scrub),
        };
        response = networkErrorAsRejection(await follow(response, hop, send, this.#settings.log));
      }
      status = response.status;
      // The server had the request before it answered: its window counts from here at the latest.
      release?.();
      const text = await readText(response, this.#settings.maxResponseBytes, { status: response.status, url }, attempt);
      const lines = answer === 'ndjson' || (answer === 'either' && isNdjson(response.headers));
      const result = (lines ? interpretLines : interpret)(
        { status: response.status, headers: response.headers, text, url },
        this.#settings.validate,
        scrub,
      );
      if (this.#settings.validate === 'deep' && !lines) {
        const problem = (await loadDeep()).checkEnvelopeDeep(result.body);
        if (problem) {
          const message = `Invalid response envelope: ${problem.path || 'body'}: ${problem.message}`;
          throw new ResponseValidationError(message, problem.path, {
            status: response.status,
            requestId: result.requestId,
            url,
          });
        }
      }
      if (this.#settings.debug) {
        this.#settings.log(
          'debug',
          `${method} ${url} → ${response.status} in ${Date.now() - started} ms (request ${result.requestId})`,
        );
      }
      timer?.(status);
      return {
        data: result.data,
        requestId: result.requestId,
        status: response.status,
        url,
        headers: response.headers,
        ...(own ? { scrub } : {}),
      };
    } catch (error) {
      const timedOut = attempt.timedOut() || error instanceof TimeoutError;
      const failure = await this.#classify(error, url, timeout, timedOut, scrub, options.signal);
      this.#settings.log('debug', `${method} ${url} → ${failure.name} in ${Date.now() - started} ms`);
      timer?.(status, failure);
      throw failure;
    } finally {
      release?.();
    }
  }

  /** Names what went wrong in an attempt; foreign errors are kept only as scrubbed causes. */
  async #classify(
    error: unknown,
    url: string,
    timeout: number,
    timedOut: boolean,
    scrub: Redactor,
    signal?: AbortSignal,
  ): Promise<FlashdutyError> {
    if (error instanceof FlashdutyError) return error;
    const { sanitizeCause, connectionMessage } = loadTransport.value ?? (await loadTransport());
    const cause = sanitizeCause(error, scrub);
    if (signal?.aborted) return new APIUserAbortError({ url, cause });
    if (timedOut) return new APIConnectionTimeoutError(timeout, { url, cause });
    const message = connectionMessage(this.#settings.baseUrl, cause);
    if (isUnsentFailure(error)) return new UnsentRequestError(message, { url, cause });
    return new APIConnectionError(message, { url, cause });
  }

  /** The wait before the next attempt; `undefined` when the server asked for more than we honour. */
  #retryDelay(error: FlashdutyError, retry: number): number | undefined {
    if (error instanceof APIError) {
      const asked = parseRetryAfter(error.headers);
      if (asked !== undefined) return asked > MAX_RETRY_AFTER_MS ? undefined : asked;
    }
    return backoffDelay(retry);
  }
}

/** The wire rules (redirects, bounded bodies), loaded with the first call: off the up-front path. */
const loadTransport = loader(() => import('./transport.js'));

/** What a success is: an envelope, NDJSON lines, or whichever the answer's Content-Type says. */
type AnswerFormat = 'envelope' | 'ndjson' | 'either';

/** One call as every attempt sends it. */
interface Call {
  method: 'GET' | 'POST';
  /** The operation's path, without the base URL or the query: what metrics name. */
  operation: string;
  /** The URL, app_key included: never logged or shown. */
  target: string;
  /** The JSON text of the body, or the form of an upload (POST only). */
  body: string | FormData | undefined;
  answer: AnswerFormat;
  /** Scrubs the call's credentials from what it shows: the client's, and the call's own token. */
  scrub: Redactor;
  /** The call's own headers (its token's `Authorization`), where it does not send the client's. */
  headers?: Record<string, string>;
  /** `app_key=…` where the call sends the app key: a redirect's target gets it too. */
  appKeyParam: string | undefined;
  /** The URL as errors and logs show it, app_key redacted. */
  url: string;
  /** The trace context's headers (`traceparent`), when the call is traced. */
  trace?: Record<string, string>;
}

/** Ends a traced call with its failure (an ERROR span); hands the failure back to throw. */
function failed(span: ClientSpan | undefined, failure: FlashdutyError, resends: number): FlashdutyError {
  span?.end(failure, resends);
  return failure;
}

/**
 * fetch rejects on a network error, but a `fetch` of the caller's or an interceptor may resolve with
 * `Response.error()` instead (MSW does when another library replaced the global `Response`): that
 * is a connection that failed, not an answer with HTTP status 0.
 */
function networkErrorAsRejection(response: Response): Response {
  if (response.type === 'error') throw new TypeError('fetch gave Response.error(), a network error');
  return response;
}

/**
 * The fetch ky is given for a JSON call of a client without fetch or hooks of its own: ky's Request
 * (built without the body) sent by the global fetch, looked up at call time (MSW and other
 * interceptors patch it), with its URL, method, headers, signal and redirect mode, and the body.
 */
function direct(body: string): typeof fetch {
  return (input) => {
    const request = input as Request;
    return fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body,
      signal: request.signal,
      redirect: request.redirect,
    });
  };
}

/** An upload's form (FormData exists wherever fetch does; checked so that a runtime without it sends JSON). */
function isForm(body: unknown): body is FormData {
  return typeof FormData !== 'undefined' && body instanceof FormData;
}

/** `name=value` for each defined query parameter of a GET operation (arrays joined by commas). */
function queryOf(params: unknown): string[] {
  if (params === undefined || params === null) return [];
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
  }
  return pairs;
}

/** A call's headers with a JSON content type, unless they name one. */
function withJsonType(headers: Record<string, string>): Record<string, string> {
  const typed = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  return typed ? headers : { 'content-type': 'application/json', ...headers };
}

/** Whether an answer says it is NDJSON lines (an operation that answers lines or an envelope, as asked). */
function isNdjson(headers: Headers): boolean {
  return /^application\/(x-)?ndjson\b/i.test(headers.get('content-type') ?? '');
}

/** A failure as the retry log line names it: `HTTP 503 ServiceUnavailable`, or the error's message. */
function failureSummary(error: FlashdutyError): string {
  return error instanceof APIError ? `HTTP ${error.status}${error.code ? ` ${error.code}` : ''}` : error.message;
}
