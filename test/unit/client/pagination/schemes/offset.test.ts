// Paging by offset (src/client/pagination/schemes/offset.ts): a page number sent as the page's first
// row; an offset in the params must start a page.
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../../../src/index.js';
import { OffsetPaging } from '../../../../../src/client/pagination/schemes/offset.js';

const paging = { items: 'items', limit: 20, number: true as const, offset: true as const };
const scheme = OffsetPaging.of(paging) as OffsetPaging;

describe('OffsetPaging', () => {
  it('is what the generator finds for offset and limit without p', () => {
    expect(OffsetPaging.recognise(new Set(['offset', 'limit']))).toEqual({ number: true, offset: true });
    expect(OffsetPaging.recognise(new Set(['offset', 'limit', 'p']))).toBeUndefined();
    expect(OffsetPaging.recognise(new Set(['offset']))).toBeUndefined();
    expect(OffsetPaging.of({ ...paging, offset: undefined })).toBeUndefined();
  });

  it('reads the page an offset starts, by the request’s limit or the default', () => {
    expect(scheme.read({ offset: 10, limit: 5 }, paging)).toEqual({ p: 3 });
    expect(scheme.read({ offset: 40 }, paging)).toEqual({ p: 3 });
    expect(scheme.read({ offset: 0, limit: 5 }, paging)).toEqual({});
  });

  it('refuses an offset that starts no page', () => {
    expect(() => scheme.read({ offset: 7, limit: 5 }, paging)).toThrow(RequestValidationError);
    expect(() => scheme.read({ offset: 7, limit: 5 }, paging)).toThrow(
      'offset: must be a multiple of limit (5) to page from it, got 7',
    );
  });

  it('sends a page as its first row, never p', () => {
    expect(scheme.place({ limit: 5, offset: 99 }, { p: 4 }, paging)).toEqual({ limit: 5, offset: 15 });
    expect(scheme.place({ limit: 5, offset: 99 }, {}, paging)).toEqual({ limit: 5 });
    expect(scheme.next({ data: { total: 12 }, items: [{}, {}, {}, {}, {}], at: { p: 2 }, limit: 5 })).toEqual({ p: 3 });
  });
});
