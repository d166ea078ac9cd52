// The one check of a list page's shape, written by hand: it runs on every page, and zod in this
// path would cost more bytes (about 7 kB min+gzip) and time than the check itself (`validate:
// 'deep'` runs the zod schemas on top: schemas/deep.ts). It looks at the page, never inside its
// items: the items an array of objects, the counters each operation promises (`total`, `has_next_page`),
// and the cursor a string where the answer has one. Even unvalidated, a walk needs an array of items.

import { expected, type Problem } from '../../core/problem.js';
import { isObject } from '../../internal/guards.js';

/** What a list operation's `data` promises beside its items. */
export interface ListShape {
  /** `total` is an integer. */
  total?: boolean;
  /** `has_next_page` is a boolean. */
  hasNextPage?: boolean;
}

/** Where the page's parts are, and what it promises. */
export interface PageLayout extends ListShape {
  /** The field of `data` that holds the items (`items`, `docs`). */
  items: string;
  /** The field of `data` that holds the next page's cursor, where the operation pages by cursor. */
  cursor?: string;
}

/** Where a page breaks its operation's shape, and how; with `validate: false`, only what a walk needs. */
export function checkPageShape(data: unknown, layout: PageLayout, validate: boolean): Problem | undefined {
  if (!isObject(data)) return expected('data', 'an object', data);
  const items = data[layout.items];
  if (!Array.isArray(items)) return expected(`data.${layout.items}`, 'an array', items);
  if (!validate) return undefined;
  const index = items.findIndex((item) => !isObject(item));
  if (index >= 0) return expected(`data.${layout.items}.${index}`, 'an object', items[index]);
  if (layout.total && !Number.isInteger(data.total)) return expected('data.total', 'an integer', data.total);
  if (layout.hasNextPage && typeof data.has_next_page !== 'boolean')
    return expected('data.has_next_page', 'a boolean', data.has_next_page);
  const cursor = layout.cursor === undefined ? undefined : data[layout.cursor];
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string')
    return expected(`data.${layout.cursor}`, 'a string', cursor);
  return undefined;
}
