// The Flashduty client: options and environment defaults, all checked at construction, and the
// methods. Every call goes through one request loop (request-loop.ts: limiter → ky → envelope →
// retry policy), which loads with the first call so that ky is not on the up-front path.
// `withOptions()` makes a client of the same options but those given; it shares this client's
// rate limiter when it calls the same service with the same credential (the service counts calls
// per account), and has a limiter of its own otherwise.

import { type APIPromise, apiPromise, responseInfo, type ResponseInfo } from '../core/api-promise.js';
import { ConfigError } from '../core/api-errors.js';
import type { ValidateMode } from '../core/envelope-reader.js';
import { isBrowser, readEnv } from '../internal/env.js';
import { lazy } from '../internal/lazy.js';
import { createLog, isLogLevel } from '../internal/logger.js';
import { createRedactor } from '../internal/redact.js';
import { VERSION } from '../version.js';
import { Resources } from '../generated/resources/index.js';
import { deleteSkill, enableA2AAgent, type MutationResult } from './ai-sre-mutations.js';
import type { IncidentPagePromise } from './pagination/incident-page.js';
import type { ApiResponse, LoopSettings, RequestLoop } from './request-loop.js';
import {
  checkBaseUrl,
  checkCredential,
  checkOptionNames,
  checkHooks,
  checkRateLimit,
  checkTimeout,
  checkValidate,
  checkWhole,
  type ClientOptions,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type Credential,
  encodeKey,
  type RequestOptions,
} from './client-options.js';
import type { OperationBody, OperationData, OperationPath } from './operation-types.js';
import { loadCall } from './resources/resource.js';
import type { ListIncidentsParams } from '../schemas/list.js';

export { DEFAULT_BASE_URL } from './client-options.js';
export type {
  AfterResponseHook,
  BeforeRequestHook,
  ClientOptions,
  Hooks,
  RequestOptions,
  TokenRequestOptions,
} from './client-options.js';

/**
 * The client of the Flashduty Open API: every operation is a method
 * `client.<resource>[.<sub>].<verb>(params)` (see the README for the naming rule).
 *
 * @example
 * ```ts
 * const client = new Flashduty(); // FLASHDUTY_APP_KEY from the environment
 * for await (const incident of client.listIncidents({ start_time: new Date(Date.now() - 86_400_000), end_time: new Date() })) {
 *   console.log(incident.num, incident.title);
 * }
 * ```
 */
export class Flashduty extends Resources {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly validate: ValidateMode;
  /** The largest response body read, in bytes (decompressed). */
  readonly maxResponseBytes: number;
  readonly #settings: LoopSettings;
  /** The options as given, with what the environment gave made explicit: `withOptions()` starts from them. */
  readonly #options: ClientOptions;
  readonly #credential: Credential;
  #loop: RequestLoop | undefined;
  #loopPromise: Promise<RequestLoop> | undefined;

  constructor(options: ClientOptions = {}) {
    // The namespaces (client.incidents, client.members, …) are the generated base class's: made
    // first, they only keep the client, which every call goes through once it is made.
    super();
    const parent = DERIVED.get(options);
    checkOptionNames(options);
    const credential = checkCredential(options, parent === undefined);
    if (isBrowser() && !options.dangerouslyAllowBrowser) {
      throw new ConfigError(
        'Refusing to run in a browser: the credential is the identity of your whole account and every visitor ' +
          'could read it. Call Flashduty from a server, or pass `dangerouslyAllowBrowser: true` if you accept that.',
      );
    }
    const key = credential.value;
    const scrub = createRedactor(key);
    this.#credential = credential;
    this.baseUrl = checkBaseUrl(options.baseUrl ?? readEnv('FLASHDUTY_BASE_URL') ?? DEFAULT_BASE_URL);
    this.timeout = checkTimeout(options.timeout ?? DEFAULT_TIMEOUT_MS, 'timeout');
    this.maxRetries = checkWhole(options.maxRetries ?? DEFAULT_MAX_RETRIES, 'maxRetries');
    this.validate = checkValidate(options.validate);
    this.maxResponseBytes = checkWhole(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, 'maxResponseBytes', 1);
    const level = options.logLevel ?? readEnv('FLASHDUTY_LOG') ?? 'warn';
    if (!isLogLevel(level)) throw new ConfigError(`logLevel: unknown level ${JSON.stringify(level)}`);
    // Every option is checked here, so that a mistake throws at construction, not at the first call.
    const bearer = credential.option === 'accessToken';
    this.#settings = {
      baseUrl: this.baseUrl,
      timeout: this.timeout,
      maxRetries: this.maxRetries,
      validate: this.validate,
      maxResponseBytes: this.maxResponseBytes,
      appKeyParam: bearer ? undefined : `app_key=${encodeKey(key)}`,
      headers: {
        ...(isBrowser() ? {} : { 'User-Agent': `flashduty-sdk/${VERSION}` }),
        ...(options.acceptLanguage ? { 'Accept-Language': options.acceptLanguage } : {}),
        ...options.headers,
        ...(bearer ? { Authorization: `Bearer ${key}` } : {}),
      },
      secret: key,
      scrub,
      log: createLog(options.logger, level, scrub),
      debug: level === 'debug',
      fetch: options.fetch,
      hooks: options.hooks ? checkHooks(options.hooks) : undefined,
      rateLimit: checkRateLimit(options.rateLimit),
      limiter: parent?.limiter ?? {},
    };
    const { appKey: _appKey, accessToken: _accessToken, ...rest } = options;
    this.#options = { ...rest, baseUrl: this.baseUrl, logLevel: level, [credential.option]: key };
  }

  /**
   * A new client with `options` changed and every other option kept; this client is unchanged.
   * Giving `appKey` or `accessToken` replaces the credential. The two clients share one rate limiter
   * (the service's limits are the account's) when they call the same base URL with the same
   * credential and `options` does not change `rateLimit`.
   *
   * @example
   * ```ts
   * const eu = client.withOptions({ baseUrl: 'https://api.example.eu', timeout: 5_000 });
   * const patient = client.withOptions({ maxRetries: 5 }); // same service and key: one limiter for both
   * ```
   */
  withOptions(options: ClientOptions): Flashduty {
    const replaces = options.appKey !== undefined || options.accessToken !== undefined;
    const { appKey: _appKey, accessToken: _accessToken, ...kept } = this.#options;
    const merged: ClientOptions = { ...(replaces ? kept : this.#options), ...options };
    const credential = checkCredential(merged, false);
    const shares =
      checkBaseUrl(merged.baseUrl ?? this.baseUrl) === this.baseUrl &&
      credential.option === this.#credential.option &&
      credential.value === this.#credential.value &&
      options.rateLimit === undefined;
    DERIVED.set(merged, { limiter: shares ? this.#settings.limiter : {} });
    return new Flashduty(merged);
  }

  /**
   * Lists incidents (`POST /incident/list`). `await` it for one page; iterate it (`for await`) for
   * every match by cursor, or use `.items()` / `.pages()` to choose cursor or page-number paging.
   * Windows longer than 31 days are accepted when iterating and split into 31-day windows.
   */
  listIncidents(params: ListIncidentsParams, options?: RequestOptions): IncidentPagePromise {
    return this.incidents.list(params, options);
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
   * retries (a read or a mutation per operation: see docs/client.md), typed errors, redaction. An
   * operation authenticated by a token of its own (the automation trigger) takes it as `token`.
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
    options?: RequestOptions & { token?: string },
  ): APIPromise<OperationData<P>> {
    return this._call<OperationData<P>>(() => loadCall().then((call) => call.sendPath(this, path, body, options)));
  }

  /**
   * @internal A call's promise: `run` sends it, `map` makes the result (by default the answer's
   * `data`); `withResponse()` works on it.
   */
  _call<T = unknown>(
    run: () => Promise<ApiResponse>,
    map: (response: ApiResponse) => T = (response) => response.data as T,
  ): APIPromise<T> {
    // run() inside then(): a check that throws before sending rejects the promise instead.
    const result = Promise.resolve().then(run);
    return apiPromise(
      result.then((answer) => ({ data: map(answer), answer })),
      this.#settings.scrub,
    );
  }

  /** @internal What `withResponse()` shows of an answer (a page's): its headers scrubbed of the key. */
  _responseInfo(answer: ApiResponse): ResponseInfo {
    return responseInfo(answer, this.#settings.scrub);
  }

  /**
   * @internal The request loop. Operations call this with their wire body (for GET, the query
   * parameters) and retry policy. The loop (ky and the wire rules) loads with the first call.
   */
  _request(...call: Parameters<RequestLoop['send']>): Promise<ApiResponse> {
    const loop = this.#loop; // not awaited once loaded: a call pays no extra turn for the lazy load
    if (loop) return loop.send(...call);
    return this.#loading().then((loaded) => loaded.send(...call));
  }

  /** The request loop, built once however many calls wait for it. */
  #loading(): Promise<RequestLoop> {
    this.#loopPromise ??= loadLoop().then(({ RequestLoop }) => (this.#loop = new RequestLoop(this.#settings)));
    return this.#loopPromise;
  }

  /** @internal */
  _log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    this.#settings.log(level, message);
  }

  /** A log-friendly view of the client, without its credential. */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.baseUrl,
      [this.#credential.option]: '***',
      timeout: this.timeout,
      maxRetries: this.maxRetries,
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Flashduty { baseUrl: '${this.baseUrl}', ${this.#credential.option}: '***' }`;
  }
}

/**
 * What `withOptions()` hands the client it makes, keyed by that client's options object: the
 * limiter to share (or a place of its own), and that its credential is the options' alone (never the
 * environment's: a replaced app key must not come back from FLASHDUTY_APP_KEY).
 */
const DERIVED = new WeakMap<ClientOptions, { limiter: LoopSettings['limiter'] }>();

/** The request loop, imported with a client's first call. */
const loadLoop = lazy(() => import('./request-loop.js'));
