// Type guards shared by the checks of request bodies (schemas/), pages (client/pagination/) and
// webhook payloads (webhooks/): one definition of "a JSON object", arrays excluded; and one way to
// tell a value given at once from a promise, whatever library or realm made it (webhooks/).

/** A non-null object that is not an array: what JSON calls an object. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `value`, or the native promise of a promise another library or realm made: code that tells a value
 * given at once from one to wait for with `instanceof Promise` (and would take a thenable for the
 * value itself) reads it through this.
 */
export function native<T>(value: T | PromiseLike<T>): T | Promise<T> {
  if (value instanceof Promise) return value;
  return typeof (value as PromiseLike<T> | null | undefined)?.then === 'function'
    ? Promise.resolve(value)
    : (value as T);
}
