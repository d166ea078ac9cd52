// The one check of a list page's shape (src/client/pagination/page-shape.ts): the items an array of
// objects, where the operation keeps them; the counters the operation promises; the cursor a
// string where there is one; with `validate: false`, only what a walk needs.
import { describe, expect, it } from 'vitest';
import { checkPageShape, type PageLayout } from '../../../../src/client/pagination/page-shape.js';

const incidents: PageLayout = { items: 'items', total: true, hasNextPage: true, cursor: 'search_after_ctx' };

describe('checkPageShape', () => {
  it('passes a page as promised, with unknown fields and a null or absent cursor', () => {
    const page = { items: [{ a: 1 }], total: 1, has_next_page: false, extra: 'kept' };
    expect(checkPageShape(page, incidents, true)).toBeUndefined();
    expect(checkPageShape({ ...page, search_after_ctx: null }, incidents, true)).toBeUndefined();
  });

  it.each<[string, unknown, string]>([
    ['data that is no object', [], 'data: expected an object, got an array'],
    [
      'items that are no array',
      { items: {}, total: 0, has_next_page: false },
      'data.items: expected an array, got object',
    ],
    [
      'an item that is no object',
      { items: [{}, 7], total: 0, has_next_page: false },
      'data.items.1: expected an object, got number',
    ],
    [
      'a total that is no integer',
      { items: [], total: '3', has_next_page: false },
      'data.total: expected an integer, got string',
    ],
    ['no has_next_page', { items: [], total: 3 }, 'data.has_next_page: expected a boolean, got undefined'],
    [
      'a cursor that is no string',
      { items: [], total: 0, has_next_page: true, search_after_ctx: 5 },
      'data.search_after_ctx: expected a string, got number',
    ],
  ])('names %s, and where', (_, data, problem) => {
    const found = checkPageShape(data, incidents, true);
    expect(`${found?.path}: ${found?.message}`).toBe(problem);
  });

  it('finds the items and the cursor where the operation keeps them, and asks no counter it does not promise', () => {
    const audit: PageLayout = { items: 'docs', cursor: 'next_cursor' };
    expect(checkPageShape({ docs: [{}], next_cursor: 'c' }, audit, true)).toBeUndefined();
    expect(checkPageShape({ items: [] }, audit, true)?.path).toBe('data.docs');
    expect(checkPageShape({ docs: [], next_cursor: 1 }, audit, true)?.path).toBe('data.next_cursor');
  });

  it('checks only the items array with validate: false', () => {
    expect(checkPageShape({ items: [7], total: 'many' }, incidents, false)).toBeUndefined();
    expect(checkPageShape({ items: 'nope' }, incidents, false)?.path).toBe('data.items');
  });
});
