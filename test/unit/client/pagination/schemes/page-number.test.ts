// Paging by page number (src/client/pagination/schemes/page-number.ts): `p`, 1 for the first page,
// counted up; where the answer says nothing of has_next_page, total counts what is left, else a full
// page promises more; no page past the service's depth, whether the params or a walk come to it.
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../../../src/index.js';
import { PageNumberPaging } from '../../../../../src/client/pagination/schemes/page-number.js';

const paging = { items: 'items', limit: 20, number: true as const, depth: 100 };
const scheme = PageNumberPaging.of(paging) as PageNumberPaging;
const answer = (data: Record<string, unknown>, items: number, p?: number) => ({
  data,
  items: Array.from({ length: items }, () => ({})),
  at: p === undefined ? {} : { p },
  limit: 10,
});

describe('PageNumberPaging', () => {
  it('is what the generator finds for p', () => {
    expect(PageNumberPaging.recognise(new Set(['p', 'limit']))).toEqual({ number: true });
    expect(PageNumberPaging.recognise(new Set(['offset', 'limit']))).toBeUndefined();
    expect(PageNumberPaging.of({ ...paging, offset: true })).toBeUndefined();
  });

  it('reads and places p, a walk starting at the params’ page or the first', () => {
    expect(scheme.read({ p: 3, limit: 10 }, paging)).toEqual({ p: 3 });
    expect(scheme.read({ limit: 10 }, paging)).toEqual({});
    expect(scheme.place({ p: 3, limit: 10, search_after_ctx: 'c' }, { p: 4 }, paging)).toEqual({
      limit: 10,
      search_after_ctx: 'c',
      p: 4,
    });
    expect(scheme.place({ p: 3 }, {}, paging)).toEqual({});
    expect([scheme.origin({}), scheme.origin({ p: 5, c: 'x' })]).toEqual([{ p: 1 }, { p: 5 }]);
  });

  it('says there is more by has_next_page, else by total, else by a full page', () => {
    expect(scheme.next(answer({ has_next_page: true }, 1, 2))).toEqual({ p: 3 });
    expect(scheme.next(answer({ has_next_page: false, total: 99 }, 10))).toBeUndefined();
    expect(scheme.more(answer({ total: 25 }, 10, 2))).toBe(true); // 20 of 25 seen
    expect(scheme.more(answer({ total: 20 }, 10, 2))).toBe(false);
    expect(scheme.next(answer({}, 10))).toEqual({ p: 2 }); // a full page, no total
    expect(scheme.more(answer({}, 9))).toBe(false);
  });

  it('refuses a page past the service’s depth, from the params or from a walk', () => {
    expect(() => scheme.read({ p: 11, limit: 10 }, paging)).toThrow(
      'p: p × limit must not exceed 100 (got 11 × 10); page by cursor to go further',
    );
    expect(() => scheme.place({ limit: 10 }, { p: 11 }, paging)).toThrow(RequestValidationError);
    expect(scheme.place({ limit: 10 }, { p: 10 }, paging)).toEqual({ limit: 10, p: 10 });
    expect(scheme.read({ p: 99 }, { ...paging, depth: undefined })).toEqual({ p: 99 });
  });
});
