// Paging by cursor (src/client/pagination/schemes/cursor.ts): the cursor read from the params and
// sent back under the request's field, read from the answer's; where the answer says nothing of
// has_next_page, a cursor promises more; no cursor, no next page by cursor.
import { describe, expect, it } from 'vitest';
import { CursorPaging } from '../../../../../src/client/pagination/schemes/cursor.js';

const paging = { items: 'items', limit: 20, cursor: true as const };
const usual = CursorPaging.of(paging) as CursorPaging;
const renamed = CursorPaging.of({
  ...paging,
  cursorFields: { request: 'cursor', response: 'next_cursor' },
}) as CursorPaging;
const answer = (data: Record<string, unknown>) => ({ data, items: [{}], at: {}, limit: 20 });

describe('CursorPaging', () => {
  it('is what the generator finds for search_after_ctx, or cursor answered by next_cursor', () => {
    expect(CursorPaging.recognise(new Set(['search_after_ctx']), new Set())).toEqual({ cursor: true });
    expect(CursorPaging.recognise(new Set(['cursor']), new Set(['next_cursor']))).toEqual({
      cursor: true,
      cursorFields: { request: 'cursor', response: 'next_cursor' },
    });
    expect(CursorPaging.recognise(new Set(['cursor']), new Set())).toBeUndefined();
    expect(CursorPaging.of({ items: 'items', limit: 20, number: true })).toBeUndefined();
  });

  it('reads the params’ cursor, an empty one asking for the first page', () => {
    expect(usual.read({ search_after_ctx: 'c1', p: 2 })).toEqual({ c: 'c1' });
    expect(renamed.read({ cursor: '' })).toEqual({});
    expect(renamed.read({ cursor: 'c2' })).toEqual({ c: 'c2' });
  });

  it('places a position in the request’s own field, and takes it out for none', () => {
    expect(usual.place({ limit: 5, search_after_ctx: 'old', p: 3 }, { c: 'new' })).toEqual({
      limit: 5,
      p: 3,
      search_after_ctx: 'new',
    });
    expect(renamed.place({ limit: 5, cursor: 'old' }, {})).toEqual({ limit: 5 });
    expect(usual.origin({ c: 'c', p: 4 })).toEqual({ c: 'c' });
  });

  it('goes on to the answer’s cursor while there is more', () => {
    expect(usual.next(answer({ has_next_page: true, search_after_ctx: 'c9' }))).toEqual({ c: 'c9' });
    expect(usual.next(answer({ has_next_page: false, search_after_ctx: 'c9' }))).toBeUndefined();
    expect(usual.more(answer({ search_after_ctx: 'c9' }))).toBe(true); // no has_next_page: the cursor promises more
    expect(usual.more(answer({ search_after_ctx: '' }))).toBe(false);
    expect(usual.next(answer({ has_next_page: true }))).toBeUndefined(); // more, but no way to ask for it
    expect(renamed.next(answer({ next_cursor: 'n5' }))).toEqual({ c: 'n5' });
    expect(renamed.cursorOf({ search_after_ctx: 'x' })).toBeUndefined();
  });
});
