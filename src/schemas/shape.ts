// The incident page's check of `validate: 'envelope'`, written by hand: it runs on every page, and
// zod in this path would cost more bytes (about 7 kB min+gzip) and time than the check itself.
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
