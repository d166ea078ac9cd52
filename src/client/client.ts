// The Flashduty client: options, environment defaults, and the one request loop every operation
// goes through (limiter → ky → envelope → retry policy). Nothing else in the SDK touches the network.

import ky, { type KyInstance } from 'ky';
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
import { createLog, isLogLevel, type LogFn, type Logger, type LogLevel } from '../internal/logger.js';
import { createRedactor, type Redactor, sanitizeCause } from '../internal/redact.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import { VERSION } from '../version.js';
import { deleteSkill, enableA2AAgent, type MutationResult } from './agents.js';
import { listIncidents } from './incidents.js';
import type { IncidentPagePromise } from './pagination.js';
import { RateLimiter, type RateLimitOptions } from './rate-limiter.js';
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

/** The public endpoint of the Flashduty Open API. */
export const DEFAULT_BASE_URL = 'https://api.flashcat.cloud';
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;

/** Options of {@link Flashduty}; each has a default. */
export interface ClientOptions {
  /** The account's API key. Default: `process.env.FLASHDUTY_APP_KEY`. It is sent as `app_key` and never logged. */
  appKey?: string;
  /** Default: `process.env.FLASHDUTY_BASE_URL`, else `https://api.flashcat.cloud`. */
  baseUrl?: string;
  /** Milliseconds per attempt, body included. Default 30 000. */
  timeout?: number;
  /** Retries after the first attempt, by the retry policy of each operation. Default 2. */
  maxRetries?: number;
  /** Client-side limiter; default 50 calls/s and 1000 calls/min. `false` turns it off. */
  rateLimit?: RateLimitOptions | false;
  /** Sent as `Accept-Language`; the server localizes its error messages by it (e.g. `en-US`, `zh-CN`). */
  acceptLanguage?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** A fetch implementation to use instead of the global one. */
  fetch?: typeof fetch;
  /** Where log lines go; default `console`. Lines never contain the app_key. */
  logger?: Logger;
  /** Default `process.env.FLASHDUTY_LOG`, else `'warn'`. */
  logLevel?: LogLevel;
  /**
   * How much of each response is checked. `'envelope'` (default; `true` means the same): the
   * envelope and the page's shape, at almost no cost. `'deep'`: every field of every item through
   * the zod schemas. `false`: nothing.
   */
  validate?: ValidateMode | true;
  /** Constructing a client in a browser page throws without this: the key is the account's identity. */
  dangerouslyAllowBrowser?: boolean;
}

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the call; it then rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Milliseconds per attempt for this call. */
  timeout?: number;
  /** Retries for this call. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** @internal What the request loop hands back to an operation. */
export interface ApiResponse {
  data: unknown;
  requestId: string;
  status: number;
  /** The request URL, with the app_key redacted. */
  url: string;
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
    this.maxRetries = checkRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES, 'maxRetries');
    this.validate = checkValidate(options.validate);
    this.#limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? {});
    this.#headers = {
      ...(isBrowser() ? {} : { 'User-Agent': `flashduty-sdk/${VERSION}` }),
      ...(options.acceptLanguage ? { 'Accept-Language': options.acceptLanguage } : {}),
      ...options.headers,
    };
    const level = options.logLevel ?? readEnv('FLASHDUTY_LOG') ?? 'warn';
    if (!isLogLevel(level)) throw new ConfigError(`logLevel: unknown level ${JSON.stringify(level)}`);
    this.#log = createLog(options.logger ?? console, level, this.#scrub);
    this.#http = ky.create({
      prefixUrl: this.baseUrl,
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      ...(options.fetch ? { fetch: options.fetch } : {}),
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
  enableA2AAgent(agentId: string, options?: RequestOptions): Promise<MutationResult> {
    return enableA2AAgent(this, agentId, options);
  }

  /** Permanently deletes a skill (`POST /safari/skill/delete`). Unknown → `ResourceNotFoundError`. */
  deleteSkill(skillId: string, options?: RequestOptions): Promise<MutationResult> {
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
  request<P extends OperationPath>(path: P, body: OperationBody<P>, options?: RequestOptions): Promise<OperationData<P>> {
    return request(this, path, body, options);
  }

  /** @internal The request loop for POST operations. */
  _post(path: string, body: unknown, kind: RetryKind, options: RequestOptions = {}): Promise<ApiResponse> {
    return this._request('POST', path, body, kind, options);
  }

  /**
   * @internal The request loop. Operations call this with their wire body (for GET, the query
   * parameters) and retry kind.
   */
  async _request(method: 'GET' | 'POST', path: string, body: unknown, kind: RetryKind, options: RequestOptions = {}): Promise<ApiResponse> {
    const maxRetries = options.maxRetries === undefined ? this.maxRetries : checkRetries(options.maxRetries, 'maxRetries');
    const timeout = options.timeout === undefined ? this.timeout : checkTimeout(options.timeout, 'timeout');
    const query = method === 'GET' ? queryOf(body) : '';
    const url = `${this.baseUrl}/${path}?app_key=***${query}`;
    const call: Call = { method, target: path + this.#query + query, body: method === 'GET' ? undefined : body, url };
    for (let retry = 0; ; retry++) {
      try {
        return await this.#attempt(call, timeout, options);
      } catch (error) {
        const failure = error instanceof FlashdutyError ? error : new APIConnectionError(undefined, { url });
        if (retry >= maxRetries || !isRetryable(failure, kind)) throw failure;
        const wait = this.#retryDelay(failure, retry);
        if (wait === undefined) throw failure;
        this.#log('warn', `${path}: ${failure.name} (${describe(failure)}); retry ${retry + 1}/${maxRetries} in ${wait} ms`);
        await sleep(wait, options.signal, () => new APIUserAbortError({ url }));
      }
    }
  }

  async #attempt({ method, target, body, url }: Call, timeout: number, options: RequestOptions): Promise<ApiResponse> {
    const release = this.#limiter ? await this.#limiter.acquire(options.signal) : undefined;
    const attempt = attemptSignal(timeout, options.signal);
    const started = Date.now();
    try {
      const response = await attempt.guard(
        this.#http(target, {
          method,
          ...(body === undefined ? {} : { json: body }),
          headers: options.headers ? { ...this.#headers, ...options.headers } : this.#headers,
          signal: attempt.signal,
        }),
      );
      // The server had the request before it answered: its window counts from here at the latest.
      release?.();
      const text = await attempt.guard(response.text()).catch((error: unknown) => {
        void response.body?.cancel().catch(() => {});
        throw error;
      });
      const result = interpret(
        { status: response.status, headers: response.headers, text, url },
        this.validate,
        this.#scrub,
      );
      if (this.validate === 'deep') {
        const problem = (await loadDeep()).checkEnvelopeDeep(result.body);
        if (problem) {
          const message = `Invalid response envelope: ${problem.path || 'body'}: ${problem.why}`;
          throw new ResponseValidationError(message, problem.path, { status: response.status, requestId: result.requestId, url });
        }
      }
      this.#log('debug', `${method} ${url} → ${response.status} in ${Date.now() - started} ms (request ${result.requestId})`);
      return { data: result.data, requestId: result.requestId, status: response.status, url };
    } catch (error) {
      const failure = this.#classify(error, url, timeout, attempt.timedOut(), options.signal);
      this.#log('debug', `${method} ${url} → ${failure.name} in ${Date.now() - started} ms`);
      throw failure;
    } finally {
      attempt.dispose();
      release?.();
    }
  }

  /** Names what went wrong in an attempt; foreign errors are kept only as scrubbed causes. */
  #classify(error: unknown, url: string, timeout: number, timedOut: boolean, signal?: AbortSignal): FlashdutyError {
    if (error instanceof FlashdutyError) return error;
    const cause = sanitizeCause(error, this.#scrub);
    if (signal?.aborted) return new APIUserAbortError({ url, cause });
    if (timedOut) return new APIConnectionTimeoutError(timeout, { url, cause });
    if (isUnsentFailure(error)) return new UnsentRequestError(undefined, { url, cause });
    return new APIConnectionError(undefined, { url, cause });
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

/** One call as every attempt sends it. */
interface Call {
  method: 'GET' | 'POST';
  /** Path and query, app_key included: never logged or shown. */
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

/** The key as a query value; a lone UTF-16 surrogate cannot be encoded (a bare URIError otherwise). */
function encodeKey(key: string): string {
  try {
    return encodeURIComponent(key);
  } catch {
    throw new ConfigError('appKey: contains a lone UTF-16 surrogate and cannot be sent in a URL');
  }
}

function checkBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`baseUrl: not a valid URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`baseUrl: expected an http(s) URL, got ${url.protocol}`);
  }
  if (url.search || url.hash) throw new ConfigError('baseUrl: must not have a query or fragment');
  return url.href.replace(/\/+$/, '');
}

function checkTimeout(value: number, name: string): number {
  if (typeof value !== 'number' || !(value > 0) || value > 2_147_483_647) {
    throw new ConfigError(`${name}: expected a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

function checkRetries(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigError(`${name}: expected a whole number ≥ 0, got ${String(value)}`);
  }
  return value;
}

function checkValidate(value: ClientOptions['validate']): ValidateMode {
  if (value === undefined || value === true) return 'envelope';
  if (value === 'envelope' || value === 'deep' || value === false) return value;
  throw new ConfigError(`validate: expected 'envelope', 'deep' or false, got ${JSON.stringify(value)}`);
}
