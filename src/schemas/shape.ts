// The checks of `validate: 'envelope'`, written by hand: they run on every response, and zod in
// this path would cost more bytes (about 7 kB min+gzip) and time than the checks themselves.
// `validate: 'deep'` runs the zod schemas on top (see deep.ts).
import type { Problem } from '../core/problem.js';
import { isObject } from '../internal/guards.js';

/** Incident, alert and event ids: 24 hexadecimal characters. */
export const HEX24 = /^[0-9a-fA-F]{24}$/;

/**
 * Where a body breaks the contract, and how.
 *
 * @deprecated The same as {@link Problem}; use that name.
 */
export type ShapeProblem = Problem;

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function expect(path: string, expected: string, value: unknown): Problem {
  return { path, message: `expected ${expected}, got ${typeOf(value)}` };
}

/** `request_id` a string when present, `error` an object with a string `code`. `data` is the operation's. */
export function checkEnvelope(body: object): Problem | undefined {
  const { request_id, error } = body as Record<string, unknown>;
  if (request_id !== undefined && typeof request_id !== 'string') return expect('request_id', 'string', request_id);
  if (error === undefined || error === null) return undefined;
  if (!isObject(error)) return expect('error', 'object', error);
  if (typeof error.code !== 'string') return expect('error.code', 'string', error.code);
  if (error.message !== undefined && typeof error.message !== 'string')
    return expect('error.message', 'string', error.message);
  return undefined;
}

/** The page without looking inside its items: an array of objects, `total` and `has_next_page`. */
export function checkPageShape(data: unknown): Problem | undefined {
  if (!isObject(data)) return expect('data', 'object', data);
  const { items, total, has_next_page, search_after_ctx } = data;
  if (!Array.isArray(items)) return expect('data.items', 'array', items);
  for (let i = 0; i < items.length; i++) {
    if (!isObject(items[i])) return expect(`data.items.${i}`, 'object', items[i]);
  }
  if (!Number.isInteger(total)) return expect('data.total', 'integer', total);
  if (typeof has_next_page !== 'boolean') return expect('data.has_next_page', 'boolean', has_next_page);
  if (search_after_ctx !== undefined && typeof search_after_ctx !== 'string') {
    return expect('data.search_after_ctx', 'string', search_after_ctx);
  }
  return undefined;
}
