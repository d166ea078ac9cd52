// A list request over the records it lists: its filters, its order and its page. Rules owned here:
// - `query` (or `keyword`) finds the records whose name holds it, in any case;
// - a field of many values (`team_ids`) keeps the records whose field of one (`team_id`) is one of
//   them; a field the records have keeps those equal to it; one the records hold many of
//   (`person_id` for a team's `person_ids`) those that hold it; the list's time window (its Unix-time
//   fields) and the caller's own views (`is_my_team`, `scope`) are left to the service: kept all;
// - without `orderby` (or `order_by`) records keep the order they were made in; with it, they are
//   sorted by that field, newest (largest) first unless `asc`;
// - a page is by number (`p`, `limit`), by offset (`offset`, `limit`) or by cursor (the position after
//   the page, `c<n>`), as the operation's paging rule says; the answer has the fields its schema names
//   (`total`, `has_next_page`, `p`, `limit`, the next cursor, empty on the last page where answered).

import type { PagingRule } from '../../client/resources/rules.js';
import type { Schema } from '../../internal/schema.js';
import { propertiesOf, type ResourceRecord, sameId, textOf } from './records.js';

/** The fields of a list request that are not filters. */
const PAGING_FIELDS = new Set(['p', 'limit', 'offset', 'search_after_ctx', 'orderby', 'order_by', 'asc']);

/** The records a list request's filters keep, in its order. */
export function filterAndSort(
  records: readonly ResourceRecord[],
  body: Record<string, unknown>,
  options: { name?: string; times?: Record<string, unknown>; cursorField?: string },
): ResourceRecord[] {
  let kept = [...records];
  for (const [key, value] of Object.entries(body)) {
    if (PAGING_FIELDS.has(key) || key === options.cursorField || options.times?.[key] || value === undefined) continue;
    const test = filterOf(key, value, options.name);
    if (test) kept = kept.filter(test);
  }
  const order = body.orderby ?? body.order_by;
  if (typeof order === 'string' && order !== '') {
    const direction = body.asc === true ? 1 : -1;
    kept.sort((a, b) => compare(a[order], b[order]) * direction);
  }
  return kept;
}

function filterOf(key: string, value: unknown, name: string | undefined): ((r: ResourceRecord) => boolean) | undefined {
  if (key === 'query' || key === 'keyword') {
    if (typeof value !== 'string' || value === '' || !name) return undefined;
    const needle = value.toLowerCase();
    return (record) => textOf(record[name]).toLowerCase().includes(needle);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const one = key.endsWith('_ids') ? key.slice(0, -1) : key === 'ids' ? 'id' : undefined;
    return (record) => {
      const held = one !== undefined && one in record ? record[one] : record[key];
      if (held === undefined) return true;
      return [held].flat().some((item) => value.some((wanted) => sameId(item, wanted)));
    };
  }
  if (value === '' || value === null || typeof value === 'object') return undefined;
  return (record) => {
    if (key in record) return sameId(record[key], value);
    const many = record[`${key}s`];
    return Array.isArray(many) ? many.some((item) => sameId(item, value)) : true;
  };
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return textOf(a).localeCompare(textOf(b));
}

/** One page of a list, and what its answer may say of the rest. */
export interface Page<T> {
  items: T[];
  total: number;
  more: boolean;
  p: number;
  limit: number;
  /** The next page's cursor, where the list pages by cursor and there is more. */
  cursor?: string;
}

/** The page a request asks for, by its paging rule (all of them where the list does not page). */
export function pageOf<T>(items: readonly T[], body: Record<string, unknown>, paging: PagingRule | undefined): Page<T> {
  if (!paging) return { items: [...items], total: items.length, more: false, p: 1, limit: items.length };
  const limit = typeof body.limit === 'number' && body.limit > 0 ? body.limit : paging.limit;
  const p = typeof body.p === 'number' && body.p > 0 ? body.p : 1;
  const sent = body[paging.cursorFields?.request ?? 'search_after_ctx'];
  const cursor = paging.cursor && typeof sent === 'string' ? /^c(\d+)$/.exec(sent) : null;
  const offset = typeof body.offset === 'number' && body.offset > 0 ? body.offset : 0;
  const from = cursor ? Number(cursor[1]) : paging.offset ? offset : (p - 1) * limit;
  const page = items.slice(from, from + limit);
  const more = from + page.length < items.length;
  return {
    items: page,
    total: items.length,
    more,
    p,
    limit,
    ...(paging.cursor && more ? { cursor: `c${from + page.length}` } : {}),
  };
}

/** A page as the list's answer writes it: the fields its schema names, the items where `itemsKey` says (`''`: the answer is the array). */
export function pageAnswer(
  page: Page<unknown>,
  itemsKey: string,
  schema: Schema | undefined,
  defs: Record<string, Schema>,
  paging: PagingRule | undefined,
): unknown {
  if (itemsKey === '') return page.items;
  const fields = propertiesOf(schema, defs);
  const cursorField = paging?.cursorFields?.response ?? 'search_after_ctx';
  return {
    [itemsKey]: page.items,
    ...('total' in fields ? { total: page.total } : {}),
    ...('has_next_page' in fields ? { has_next_page: page.more } : {}),
    ...('p' in fields ? { p: page.p } : {}),
    ...('limit' in fields ? { limit: page.limit } : {}),
    ...(cursorField in fields && paging?.cursor ? { [cursorField]: page.cursor ?? '' } : {}),
  };
}
