// The 'envelope' check of a list page, for operations whose pages differ from the incident list:
// items an array of objects, and the counters each operation promises. Written by hand, like
// shape.ts: it runs on every page.

import type { Problem } from '../../core/problem.js';
import { isObject } from '../../internal/guards.js';

/** What a list operation's `data` promises beside `items`. */
export interface ListShape {
  /** `total` is an integer. */
  total?: boolean;
  /** `has_next_page` is a boolean. */
  hasNextPage?: boolean;
}

export function checkListShape(data: unknown, shape: ListShape = {}): Problem | undefined {
  if (!isObject(data)) return { path: 'data', message: 'expected an object' };
  const { items, total, has_next_page, search_after_ctx } = data;
  if (!Array.isArray(items)) return { path: 'data.items', message: 'expected an array' };
  const index = items.findIndex((item) => !isObject(item));
  if (index >= 0) return { path: `data.items.${index}`, message: 'expected an object' };
  if (shape.total && !Number.isInteger(total)) return { path: 'data.total', message: 'expected an integer' };
  if (shape.hasNextPage && typeof has_next_page !== 'boolean')
    return { path: 'data.has_next_page', message: 'expected a boolean' };
  if (search_after_ctx !== undefined && search_after_ctx !== null && typeof search_after_ctx !== 'string') {
    return { path: 'data.search_after_ctx', message: 'expected a string' };
  }
  return undefined;
}
