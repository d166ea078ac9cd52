// The root of everything the SDK throws (FlashdutyError, told apart across copies of the SDK by a
// brand) and the error of a refused option (ConfigError). They sit below every other layer, so that
// internal/ and webhooks/ throw them without loading the API's errors; core/api-errors.ts re-exports
// them with those.

/** Options shared by the SDK's errors. */
export interface FlashdutyErrorOptions {
  cause?: unknown;
  /** The request URL with `app_key=***`. */
  url?: string;
}

// Shared by every copy of the SDK in a process (its CJS and ESM builds, two installed versions):
// `instanceof` fails across copies, the brand does not.
const BRAND = Symbol.for('flashduty-sdk.error');

/**
 * True for an error thrown by any copy of this SDK in the process: its CommonJS and ESM builds, or
 * two installed versions, whose classes `instanceof` would tell apart.
 */
export function isFlashdutyError(value: unknown): value is FlashdutyError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** The base class of everything the SDK throws. */
export class FlashdutyError extends Error {
  /** The request URL, with the app_key redacted; absent for errors raised before any request. */
  readonly url?: string;

  constructor(message: string, options: FlashdutyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.url !== undefined) this.url = options.url;
  }

  /**
   * `error instanceof FlashdutyError` holds for errors of every copy of the SDK (see
   * {@link isFlashdutyError}); subclasses keep the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === FlashdutyError ? isFlashdutyError(value) : Function.prototype[Symbol.hasInstance].call(this, value);
  }

  /** A plain, log-friendly view; never holds the app_key. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (value === undefined || key === 'headers' || key === 'body') continue;
      out[key] = value;
    }
    return out;
  }
}
FlashdutyError.prototype.name = 'FlashdutyError';
Object.defineProperty(FlashdutyError.prototype, BRAND, { value: true });

/** An option of the client, the webhook receiver or a store was refused at construction or call time. */
export class ConfigError extends FlashdutyError {}
ConfigError.prototype.name = 'ConfigError';
