// A list request over the records it lists: `query` in the name, in any case; a field of many values
// against the records' field of one; a field the records have, or hold many of; the caller's own
// views and the time window left to the service; the order made in, or by a field (newest first
// unless asc); a page by number, offset or cursor, answered with the fields its schema names.
import { describe, expect, it } from 'vitest';
import type { PagingRule } from '../../../../src/client/resources/rules.js';
import { filterAndSort, pageAnswer, pageOf } from '../../../../src/testing/world/list-query.js';

const records = [
  { team_id: 1, team_name: 'Platform', person_ids: [7, 8], created_at: 30, status: 'enabled' },
  { team_id: 2, team_name: 'Payments', person_ids: [8], created_at: 10, status: 'disabled' },
  { team_id: 3, team_name: 'Data', person_ids: [9], created_at: 20, status: 'enabled' },
];
const names = (kept: Array<Record<string, unknown>>) => kept.map((r) => r.team_name);

describe('filterAndSort', () => {
  it('filters by name, by many ids, by a field, by one of many, and leaves the rest to the service', () => {
    const keep = (body: Record<string, unknown>) =>
      names(filterAndSort(records, body, { name: 'team_name', times: { start: 's' } }));
    expect(keep({ query: 'PAY' })).toEqual(['Payments']);
    expect(keep({ query: '' })).toEqual(['Platform', 'Payments', 'Data']);
    expect(keep({ team_ids: [3, 1] })).toEqual(['Platform', 'Data']);
    expect(keep({ team_ids: [] })).toEqual(['Platform', 'Payments', 'Data']);
    expect(keep({ status: 'enabled' })).toEqual(['Platform', 'Data']);
    expect(keep({ person_id: 8 })).toEqual(['Platform', 'Payments']);
    expect(keep({ is_my_team: true, start: 5, p: 2, limit: 1 })).toEqual(['Platform', 'Payments', 'Data']);
    expect(keep({ team_id: '2' })).toEqual(['Payments']); // a query parameter's text
  });

  it('keeps the order made in, or sorts by a field, newest first unless asc', () => {
    expect(names(filterAndSort(records, { orderby: 'created_at' }, {}))).toEqual(['Platform', 'Data', 'Payments']);
    expect(names(filterAndSort(records, { order_by: 'created_at', asc: true }, {}))).toEqual([
      'Payments',
      'Data',
      'Platform',
    ]);
    expect(names(filterAndSort(records, { orderby: 'team_name', asc: true }, {}))).toEqual([
      'Data',
      'Payments',
      'Platform',
    ]);
  });
});

describe('pageOf and pageAnswer', () => {
  const items = Array.from({ length: 7 }, (_, i) => i);
  const rule = (extra: Partial<PagingRule>): PagingRule => ({ items: 'items', limit: 3, ...extra });

  it('pages by number, by offset and by cursor', () => {
    expect(pageOf(items, { p: 3 }, rule({ number: true }))).toMatchObject({
      items: [6],
      more: false,
      total: 7,
      p: 3,
      limit: 3,
    });
    expect(pageOf(items, { offset: 2, limit: 2 }, rule({ number: true, offset: true }))).toMatchObject({
      items: [2, 3],
      more: true,
    });
    const first = pageOf(items, {}, rule({ cursor: true }));
    expect(first).toMatchObject({ items: [0, 1, 2], cursor: 'c3' });
    const second = pageOf(items, { search_after_ctx: first.cursor }, rule({ cursor: true }));
    expect(second).toMatchObject({ items: [3, 4, 5], cursor: 'c6' });
    expect(pageOf(items, { search_after_ctx: 'c6' }, rule({ cursor: true }))).toEqual({
      items: [6],
      total: 7,
      more: false,
      p: 1,
      limit: 3,
    });
    expect(pageOf(items, { limit: 100 }, undefined).items).toHaveLength(7); // a list that does not page: all
  });

  it('answers the fields the list’s schema names, the items where it says', () => {
    const page = pageOf(items, {}, rule({ cursor: true }));
    const schema = { type: 'object', properties: { items: {}, total: {}, has_next_page: {}, search_after_ctx: {} } };
    expect(pageAnswer(page, 'items', schema, {}, rule({ cursor: true }))).toEqual({
      items: [0, 1, 2],
      total: 7,
      has_next_page: true,
      search_after_ctx: 'c3',
    });
    const last = pageOf(items, { search_after_ctx: 'c6' }, rule({ cursor: true }));
    expect(pageAnswer(last, 'items', schema, {}, rule({ cursor: true }))).toMatchObject({ search_after_ctx: '' });
    expect(
      pageAnswer(page, 'rules', { properties: { rules: {}, p: {}, limit: {} } }, {}, rule({ number: true })),
    ).toEqual({
      rules: [0, 1, 2],
      p: 1,
      limit: 3,
    });
    expect(pageAnswer(page, '', undefined, {}, undefined)).toEqual([0, 1, 2]);
  });
});
