// The client's options: what each one means, its default, and the check that refuses a bad value
// with a ConfigError naming the option (so that one `catch` covers everything the SDK throws).
// The request loop (client.ts) takes the checked values from here and checks nothing itself.
// The credential is exactly one of the app key and the access token: from the options where they
// name one (the environment is then not read for it), else from the environment. Both options, or
// both variables, or neither, or an empty one is refused, naming the options, never the values.
// An option the client does not take is refused too (`baseURL`, as openai-node spells it, would
// otherwise be ignored, and the calls sent to the public endpoint), and so is a call's option that
// no call takes (`maxRetry` would otherwise be ignored), where the call starts.

import { ConfigError } from '../core/api-errors.js';
import type { ValidateMode } from '../core/envelope-reader.js';
import { readEnv } from '../internal/env.js';
import type { Logger, LogLevel } from '../internal/logger.js';
import { checkOptionKeys, type ListsEvery } from '../internal/options.js';
import type { RateLimitOptions } from './rate-limiter.js';

/** The public endpoint of the Flashduty Open API. */
export const DEFAULT_BASE_URL = 'https://api.flashcat.cloud';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Options of {@link Flashduty}; each has a default. */
export interface ClientOptions {
  /**
   * The account's API key. Default: `process.env.FLASHDUTY_APP_KEY` (read only when neither this nor
   * `accessToken` is given). It is sent as `app_key` and never logged. Give it or `accessToken`, not both.
   */
  appKey?: string;
  /**
   * An access token, sent as `Authorization: Bearer <token>` instead of the app key (no `app_key` is
   * sent). Default: `process.env.FLASHDUTY_ACCESS_TOKEN` (read only when neither this nor `appKey` is
   * given). Never logged. Give it or `appKey`, not both.
   */
  accessToken?: string;
  /** Default: `process.env.FLASHDUTY_BASE_URL`, else `https://api.flashcat.cloud`. */
  baseUrl?: string;
  /** Milliseconds per attempt, body included. Default 30 000. */
  timeout?: number;
  /** Retries after the first attempt, by the retry policy of each operation. Default 2. */
  maxRetries?: number;
  /** The largest response body read, in bytes after decompression; a larger one is a `ResponseTooLargeError`. Default 32 MiB. */
  maxResponseBytes?: number;
  /** Client-side limiter; default 50 calls/s and 1000 calls/min. `false` turns it off. */
  rateLimit?: RateLimitOptions | false;
  /** Sent as `Accept-Language`; the server localizes its error messages by it (e.g. `en-US`, `zh-CN`). */
  acceptLanguage?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** A fetch implementation to use instead of the global one. */
  fetch?: typeof fetch;
  /**
   * Where log lines go; default stderr (`console.error`, and `console.warn` for warnings), never
   * mixed into what a program prints on stdout. Lines never contain the app_key.
   */
  logger?: Logger;
  /**
   * ky's hooks, passed to ky as they are: `beforeRequest` runs before every attempt (and may
   * return a Request to send instead, or a Response to use), `afterResponse` after every answer
   * (and may return another Response). Mind that `request.url` carries the app key.
   */
  hooks?: Hooks;
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

/** A `beforeRequest` hook (ky's): may return a Request to send instead, or a Response to use without sending. */
export type BeforeRequestHook = (
  request: Request,
  options: object,
  state: { retryCount: number },
) => Request | Response | void | Promise<Request | Response | void>;
/** An `afterResponse` hook (ky's): may return another Response. */
export type AfterResponseHook = (
  request: Request,
  options: object,
  response: Response,
  state: { retryCount: number },
) => Response | void | Promise<Response | void>;
/** The ky hooks a client passes on. */
export interface Hooks {
  /** Run before every attempt, in order. */
  beforeRequest?: BeforeRequestHook[];
  /** Run after every answer, in order. */
  afterResponse?: AfterResponseHook[];
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

/**
 * The options of an operation that is authenticated by a token of its own (the automation
 * trigger's `automations.triggers.fire`): the token, sent as `Authorization: Bearer <token>` in place
 * of the client's app key or access token, and redacted like them.
 */
export interface TokenRequestOptions extends RequestOptions {
  /** The operation's own token (an automation trigger's `http_post_token`). */
  token: string;
}

/** The credential a client sends: its app key (in the query) or its access token (a bearer header), by the option that names it. */
export interface Credential {
  option: 'appKey' | 'accessToken';
  value: string;
}

/** Every option of ClientOptions (the type below fails to compile when one is missing). */
const OPTION_NAMES = [
  'appKey',
  'accessToken',
  'baseUrl',
  'timeout',
  'maxRetries',
  'maxResponseBytes',
  'rateLimit',
  'acceptLanguage',
  'headers',
  'fetch',
  'logger',
  'hooks',
  'logLevel',
  'validate',
  'dangerouslyAllowBrowser',
] as const satisfies ReadonlyArray<keyof ClientOptions>;
const _everyOptionListed: ListsEvery<ClientOptions, typeof OPTION_NAMES> = true;

/** Every option a call takes (the type below fails to compile when one is missing). */
const CALL_OPTION_NAMES = ['signal', 'timeout', 'maxRetries', 'headers', 'token'] as const satisfies ReadonlyArray<
  keyof TokenRequestOptions
>;
const _everyCallOptionListed: ListsEvery<TokenRequestOptions, typeof CALL_OPTION_NAMES> = true;

/** Refuses a key of `options` that is no option of the client, with the option it was likely meant as. */
export function checkOptionNames(options: object): void {
  checkOptionKeys(options, OPTION_NAMES, 'Flashduty');
}

/**
 * A call's options, checked where the call starts, before anything is sent: a name no call takes
 * (`maxRetry`), or a bad `timeout` or `maxRetries`, is a ConfigError naming it. Whether the
 * operation takes `token` is the operation's to say (resources/call.ts).
 */
export function checkCallOptions(options: RequestOptions | undefined): void {
  if (options === undefined) return;
  checkOptionKeys(options, CALL_OPTION_NAMES, 'a call');
  if (options.maxRetries !== undefined) checkWhole(options.maxRetries, 'maxRetries');
  if (options.timeout !== undefined) checkTimeout(options.timeout, 'timeout');
}

/** Header-safe: visible ASCII only (no space, no line break: a header cannot carry them). */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * The one credential of `options`: the option given, else (`fromEnv`) the environment variable set.
 * Both options or both variables, neither, or an empty one: a ConfigError naming the options.
 */
export function checkCredential(options: ClientOptions, fromEnv = true): Credential {
  const named = options.appKey !== undefined || options.accessToken !== undefined || !fromEnv;
  const read = (option: Credential['option'], variable: string) => {
    const value = named ? options[option] : readEnv(variable);
    return value === undefined ? undefined : { option, value, from: named ? `the option \`${option}\`` : variable };
  };
  const appKey = read('appKey', 'FLASHDUTY_APP_KEY');
  const accessToken = read('accessToken', 'FLASHDUTY_ACCESS_TOKEN');
  if (appKey && accessToken) {
    throw new ConfigError(
      `Both appKey (${appKey.from}) and accessToken (${accessToken.from}) are set: a client sends one credential. ` +
        'Pass one of `appKey` and `accessToken` (or set one of FLASHDUTY_APP_KEY and FLASHDUTY_ACCESS_TOKEN).',
    );
  }
  const credential = appKey ?? accessToken;
  if (!credential) {
    throw new ConfigError(
      'No credential: pass `appKey` or `accessToken` to new Flashduty(), or set FLASHDUTY_APP_KEY or FLASHDUTY_ACCESS_TOKEN.',
    );
  }
  if (typeof credential.value !== 'string' || credential.value.trim() === '') {
    throw new ConfigError(
      `${credential.option} is empty (${credential.from}): pass a non-empty one, or set FLASHDUTY_APP_KEY or FLASHDUTY_ACCESS_TOKEN.`,
    );
  }
  const value = credential.value.trim();
  if (credential.option === 'accessToken' && !HEADER_SAFE.test(value)) {
    throw new ConfigError('accessToken: only visible ASCII characters can be sent in an Authorization header');
  }
  if (credential.option === 'appKey') encodeKey(value);
  return { option: credential.option, value };
}

/** Whether a call's own token can be sent as a bearer header. */
export function isHeaderSafe(token: string): boolean {
  return HEADER_SAFE.test(token);
}

/** The key as a query value; a lone UTF-16 surrogate cannot be encoded (a bare URIError otherwise). */
export function encodeKey(key: string): string {
  try {
    return encodeURIComponent(key);
  } catch {
    throw new ConfigError('appKey: contains a lone UTF-16 surrogate and cannot be sent in a URL');
  }
}

export function checkBaseUrl(value: string): string {
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

export function checkTimeout(value: number, name: string): number {
  if (typeof value !== 'number' || !(value > 0) || value > 2_147_483_647) {
    throw new ConfigError(`${name}: expected a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

/** A whole number ≥ `least` (retries: 0, bytes: 1). */
export function checkWhole(value: number, name: string, least = 0): number {
  if (!Number.isInteger(value) || value < least) {
    throw new ConfigError(`${name}: expected a whole number ≥ ${least}, got ${String(value)}`);
  }
  return value;
}

/** The Redis side of `rateLimit`, checked at construction though the shared limiter loads with the first call. */
function checkShared({ redis, keyPrefix, redisTimeoutMs }: RateLimitOptions): void {
  // The shapes redisRunner (internal/redis.ts, loaded with the limiter) adapts.
  const client = redis as { call?: unknown; sendCommand?: unknown } | null;
  if (typeof client?.call !== 'function' && typeof client?.sendCommand !== 'function') {
    throw new ConfigError('rateLimit.redis must be an ioredis or node-redis client');
  }
  if (keyPrefix !== undefined && (typeof keyPrefix !== 'string' || keyPrefix === '')) {
    throw new ConfigError(`rateLimit.keyPrefix: expected a non-empty string, got ${JSON.stringify(keyPrefix)}`);
  }
  if (redisTimeoutMs !== undefined) checkTimeout(redisTimeoutMs, 'rateLimit.redisTimeoutMs');
}

export function checkValidate(value: ClientOptions['validate']): ValidateMode {
  if (value === undefined || value === true) return 'envelope';
  if (value === 'envelope' || value === 'deep' || value === false) return value;
  throw new ConfigError(`validate: expected 'envelope', 'deep' or false, got ${JSON.stringify(value)}`);
}

export function checkHooks(hooks: Hooks): Hooks {
  const lists: unknown[] = [hooks.beforeRequest, hooks.afterResponse];
  if (
    !lists.every(
      (list) => list === undefined || (Array.isArray(list) && list.every((hook) => typeof hook === 'function')),
    )
  ) {
    throw new ConfigError('hooks: beforeRequest and afterResponse must be arrays of functions');
  }
  return hooks;
}

/** The limiter's options, checked at construction (the limiter itself loads with the first call). */
export function checkRateLimit(value: ClientOptions['rateLimit']): RateLimitOptions | false {
  if (value === false) return false;
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) {
    throw new ConfigError(`rateLimit: expected an object or false, got ${JSON.stringify(value)}`);
  }
  for (const name of ['perSecond', 'perMinute'] as const) {
    const limit = value[name];
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new ConfigError(`rateLimit.${name}: expected a positive whole number of calls, got ${limit}`);
    }
  }
  if (value.redis !== undefined) checkShared(value);
  return value;
}
