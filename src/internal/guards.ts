// Type guards shared by the checks of request bodies (schemas/), pages (client/pagination/) and
// webhook payloads (webhooks/): one definition of "a JSON object", arrays excluded.

/** A non-null object that is not an array: what JSON calls an object. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
