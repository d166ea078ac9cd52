// The Flashduty client: options, environment defaults, and the one request loop every operation
// goes through (limiter → ky → envelope → retry policy). Nothing else in the SDK touches the network.

import ky, { type KyInstance } from 'ky';
import { type APIPromise, apiPromise, rememberResponse } from '../core/api-promise.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ConfigError,
  FlashdutyError,
  ResponseValidationError,
} from '../core/errors.js';
import { interpret, type ValidateMode } from '../core/envelope.js';
import { attemptSignal, sleep } from '../internal/abort.js';
import { isBrowser, readEnv } from '../internal/env.js';
import { createLog, isLogLevel, type LogFn } from '../internal/logger.js';
import { createRedactor, type Redactor, scrubHeaders } from '../internal/redact.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import { VERSION } from '../version.js';
import { deleteSkill, enableA2AAgent, type MutationResult } from './agents.js';
import { listIncidents } from './incidents.js';
import type { IncidentPagePromise } from './pagination.js';
import { RateLimiter } from './rate-limiter.js';
import type * as Transport from './transport.js';
import {
  checkBaseUrl,
  checkHooks,
  checkTimeout,
  checkValidate,
  checkWhole,
  type ClientOptions,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  encodeKey,
  type RequestOptions,
} from './client-options.js';
import {
  backoffDelay,
  isRetryable,
  isUnsentFailure,
  MAX_RETRY_AFTER_MS,
  type RetryKind,
  UnsentRequestError,
} from './retry.js';
import { type OperationBody, type OperationData, type OperationPath, request } from './request.js';
import { WebhookHistory } from './webhook-history.js';
import { Alerts, Channels } from './resources/alerts.js';
import { Incidents } from './resources/incidents.js';
import type { ListIncidentsParams } from '../schemas/list.js';
import { loadDeep } from '../schemas/load-deep.js';

export { DEFAULT_BASE_URL } from './client-options.js';
export type { AfterResponseHook, BeforeRequestHook, ClientOptions, Hooks, RequestOptions } from './client-options.js';

/** @internal What the request loop hands back to an operation. */
export interface ApiResponse {
  data: unknown;
  requestId: string;
  status: number;
  /** The request URL, with the app_key redacted. */
  url: string;
  /** The answer's headers as received (scrubbed only when shown through `withResponse()`). */
  headers: Headers;
}

/**
 * The client of the Flashduty Open API.
 *
 * @example
 * ```ts
 * const client = new Flashduty(); // FLASHDUTY_APP_KEY from the environment
 * for await (const incident of client.listIncidents({ start_time: new Date(Date.now() - 86_400_000), end_time: new Date() })) {
 *   console.log(incident.num, incident.title);
 * }
 * ```
 */
export class Flashduty {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly validate: ValidateMode;
  /** The largest response body read, in bytes (decompressed). */
  readonly maxResponseBytes: number;
  /** The delivery history of outbound webhooks (`/webhook/history/list`, `/webhook/history/detail`). */
  readonly webhookHistory: WebhookHistory;
  /** The incident lifecycle: info, listByIds, create, ack, unack, resolve, reopen, snooze, wake, assign, addResponder, comment, reset, merge, remove, feed. */
  readonly incidents: Incidents;
  /** Alerts: list, info, events. */
  readonly alerts: Alerts;
  /** Channels: list, info. */
  readonly channels: Channels;
  /** `?app_key=…`, built once: ky's searchParams option would build the Request twice per call. */
  readonly #query: string;
  readonly #http: KyInstance;
  readonly #limiter: RateLimiter | undefined;
  readonly #headers: Record<string, string>;
  readonly #scrub: Redactor;
  readonly #log: LogFn;

  constructor(options: ClientOptions = {}) {
    const appKey = options.appKey ?? readEnv('FLASHDUTY_APP_KEY');
    if (typeof appKey !== 'string' || appKey.trim() === '') {
      throw new ConfigError(
        'No app key: pass `appKey` to new Flashduty() or set the FLASHDUTY_APP_KEY environment variable.',
      );
    }
    if (isBrowser() && !options.dangerouslyAllowBrowser) {
      throw new ConfigError(
        'Refusing to run in a browser: the app key is the identity of your whole account and every visitor ' +
          'could read it. Call Flashduty from a server, or pass `dangerouslyAllowBrowser: true` if you accept that.',
      );
    }
    const key = appKey.trim();
    this.#query = `?app_key=${encodeKey(key)}`;
    this.#scrub = createRedactor(key);
    this.baseUrl = checkBaseUrl(options.baseUrl ?? readEnv('FLASHDUTY_BASE_URL') ?? DEFAULT_BASE_URL);
    this.timeout = checkTimeout(options.timeout ?? DEFAULT_TIMEOUT_MS, 'timeout');
    this.maxRetries = checkWhole(options.maxRetries ?? DEFAULT_MAX_RETRIES, 'maxRetries');
    this.validate = checkValidate(options.validate);
    this.maxResponseBytes = checkWhole(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, 'maxResponseBytes', 1);
    this.#limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? {});
    this.#headers = {
      ...(isBrowser() ? {} : { 'User-Agent': `flashduty-sdk/${VERSION}` }),
      ...(options.acceptLanguage ? { 'Accept-Language': options.acceptLanguage } : {}),
      ...options.headers,
    };
    const level = options.logLevel ?? readEnv('FLASHDUTY_LOG') ?? 'warn';
    if (!isLogLevel(level)) throw new ConfigError(`logLevel: unknown level ${JSON.stringify(level)}`);
    this.#log = createLog(options.logger, level, this.#scrub);
    this.#http = ky.create({
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.hooks ? { hooks: checkHooks(options.hooks) } : {}),
    });
    this.webhookHistory = new WebhookHistory(this);
    this.incidents = new Incidents(this);
    this.alerts = new Alerts(this);
    this.channels = new Channels(this);
  }

  /**
   * Lists incidents (`POST /incident/list`). `await` it for one page; iterate it (`for await`) for
   * every match by cursor, or use `.items()` / `.pages()` to choose cursor or page-number paging.
   * Windows longer than 31 days are accepted when iterating and split into 31-day windows.
   */
  listIncidents(params: ListIncidentsParams, options?: RequestOptions): IncidentPagePromise {
    return listIncidents(this, params, options);
  }

  /** Enables a disabled A2A agent (`POST /safari/a2a-agent/enable`). Already enabled → `InvalidParameterError`. */
  enableA2AAgent(agentId: string, options?: RequestOptions): APIPromise<MutationResult> {
    return enableA2AAgent(this, agentId, options);
  }

  /** Permanently deletes a skill (`POST /safari/skill/delete`). Unknown → `ResourceNotFoundError`. */
  deleteSkill(skillId: string, options?: RequestOptions): APIPromise<MutationResult> {
    return deleteSkill(this, skillId, options);
  }

  /**
   * Calls any operation of the Flashduty Open API by its path, as the OpenAPI writes it, and
   * resolves to the response's `data`. The body is typed by the path (for the few GET operations it
   * holds the query parameters). It goes through the same request loop as every method: limiter,
   * retries (a read or a mutation per operation: see the README), typed errors, redaction.
   *
   * @example
   * ```ts
   * await client.request('/incident/ack', { incident_ids: [incidentId] });
   * const channels = await client.request('/channel/list', { p: 1, limit: 20 });
   * ```
   */
  request<P extends OperationPath>(
    path: P,
    body: OperationBody<P>,
    options?: RequestOptions,
  ): APIPromise<OperationData<P>> {
    return request(this, path, body, options);
  }

  /** @internal A call's promise: `run` sends it, `map` makes the result; `withResponse()` works on it. */
  _call<T>(run: () => Promise<ApiResponse>, map: (response: ApiResponse) => T): APIPromise<T> {
    // run() inside then(): a check that throws before sending rejects the promise instead.
    const result = Promise.resolve().then(run);
    return apiPromise(
      result.then((answer) => ({ data: map(answer), answer })),
      this.#scrub,
    );
  }

  /** @internal Remembers the answer `target` (a page) was built from, for `PagePromise.withResponse()`. */
  _remember<T extends object>(target: T, answer: ApiResponse): T {
    return rememberResponse(target, answer, this.#scrub);
  }

  /** @internal The request loop for POST operations. */
  _post(path: string, body: unknown, kind: RetryKind, options: RequestOptions = {}): Promise<ApiResponse> {
    return this._request('POST', path, body, kind, options);
  }

  /**
   * @internal The request loop. Operations call this with their wire body (for GET, the query
   * parameters) and retry kind.
   */
  async _request(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    kind: RetryKind,
    options: RequestOptions = {},
  ): Promise<ApiResponse> {
    const maxRetries =
      options.maxRetries === undefined ? this.maxRetries : checkWhole(options.maxRetries, 'maxRetries');
    const timeout = options.timeout === undefined ? this.timeout : checkTimeout(options.timeout, 'timeout');
    const query = method === 'GET' ? queryOf(body) : '';
    const url = `${this.baseUrl}/${path}?app_key=***${query}`;
    const call: Call = {
      method,
      target: `${this.baseUrl}/${path}${this.#query}${query}`,
      body: method === 'GET' ? undefined : body,
      url,
    };
    for (let retry = 0; ; retry++) {
      try {
        return await this.#attempt(call, timeout, kind, options);
      } catch (error) {
        const failure = error instanceof FlashdutyError ? error : new APIConnectionError(undefined, { url });
        if (retry >= maxRetries || !isRetryable(failure, kind)) throw failure;
        const wait = this.#retryDelay(failure, retry);
        if (wait === undefined) throw failure;
        this.#log(
          'warn',
          `${path}: ${failure.name} (${describe(failure)}); retry ${retry + 1}/${maxRetries} in ${wait} ms`,
        );
        await sleep(wait, options.signal, () => new APIUserAbortError({ url }));
      }
    }
  }

  async #attempt(
    { method, target, body, url }: Call,
    timeout: number,
    kind: RetryKind,
    options: RequestOptions,
  ): Promise<ApiResponse> {
    const release = this.#limiter ? await this.#limiter.acquire(options.signal) : undefined;
    const attempt = attemptSignal(timeout, options.signal);
    const started = Date.now();
    try {
      const send = (to: string) =>
        attempt.guard(
          this.#http(to, {
            method,
            ...(body === undefined ? {} : { json: body }),
            headers: options.headers ? { ...this.#headers, ...options.headers } : this.#headers,
            signal: attempt.signal,
            redirect: 'manual',
          }),
        );
      let response = await send(target);
      const { follow, readText } = (transport ??= await import('./transport.js'));
      const show = (headers: Headers) => scrubHeaders(headers, this.#scrub);
      const hop: Transport.Hop = {
        at: target,
        base: this.baseUrl,
        method,
        mutation: kind === 'mutation',
        query: this.#query,
        url,
        show,
      };
      response = await follow(response, hop, send, this.#log);
      // The server had the request before it answered: its window counts from here at the latest.
      release?.();
      const text = await attempt.guard(
        readText(response, this.maxResponseBytes, { status: response.status, url }, attempt.signal),
      );
      const result = interpret(
        { status: response.status, headers: response.headers, text, url },
        this.validate,
        this.#scrub,
      );
      if (this.validate === 'deep') {
        const problem = (await loadDeep()).checkEnvelopeDeep(result.body);
        if (problem) {
          const message = `Invalid response envelope: ${problem.path || 'body'}: ${problem.why}`;
          throw new ResponseValidationError(message, problem.path, {
            status: response.status,
            requestId: result.requestId,
            url,
          });
        }
      }
      this.#log(
        'debug',
        `${method} ${url} → ${response.status} in ${Date.now() - started} ms (request ${result.requestId})`,
      );
      return {
        data: result.data,
        requestId: result.requestId,
        status: response.status,
        url,
        headers: response.headers,
      };
    } catch (error) {
      const failure = await this.#classify(error, url, timeout, attempt.timedOut(), options.signal);
      this.#log('debug', `${method} ${url} → ${failure.name} in ${Date.now() - started} ms`);
      throw failure;
    } finally {
      attempt.dispose();
      release?.();
    }
  }

  /** Names what went wrong in an attempt; foreign errors are kept only as scrubbed causes. */
  async #classify(
    error: unknown,
    url: string,
    timeout: number,
    timedOut: boolean,
    signal?: AbortSignal,
  ): Promise<FlashdutyError> {
    if (error instanceof FlashdutyError) return error;
    const { sanitizeCause, connectionMessage } = (transport ??= await import('./transport.js'));
    const cause = sanitizeCause(error, this.#scrub);
    if (signal?.aborted) return new APIUserAbortError({ url, cause });
    if (timedOut) return new APIConnectionTimeoutError(timeout, { url, cause });
    const message = connectionMessage(this.baseUrl, cause);
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

  /** @internal */
  _log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    this.#log(level, message);
  }

  /** A log-friendly view of the client, without the app key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, appKey: '***', timeout: this.timeout, maxRetries: this.maxRetries };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Flashduty { baseUrl: '${this.baseUrl}', appKey: '***' }`;
  }
}

/** The wire rules (redirects, bounded bodies), loaded with the first call: off the up-front path. */
let transport: typeof Transport | undefined;

/** One call as every attempt sends it. */
interface Call {
  method: 'GET' | 'POST';
  /** The URL, app_key included: never logged or shown. */
  target: string;
  /** The JSON body (POST only). */
  body: unknown;
  /** The URL as errors and logs show it, app_key redacted. */
  url: string;
}

/** `&name=value` for each defined query parameter of a GET operation (arrays joined by commas). */
function queryOf(params: unknown): string {
  if (params === undefined || params === null) return '';
  let query = '';
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    query += `&${encodeURIComponent(name)}=${encodeURIComponent(text)}`;
  }
  return query;
}

function describe(error: FlashdutyError): string {
  return error instanceof APIError ? `HTTP ${error.status}${error.code ? ` ${error.code}` : ''}` : error.message;
}
