// The list of paging schemes (src/client/pagination/schemes/index.ts): a rule's schemes by mode,
// cursor first (the default where an operation has both), at most one of each mode.
import { describe, expect, it } from 'vitest';
import { schemesOf, SCHEMES } from '../../../../../src/client/pagination/schemes/index.js';
import { CursorPaging } from '../../../../../src/client/pagination/schemes/cursor.js';
import { OffsetPaging } from '../../../../../src/client/pagination/schemes/offset.js';
import { PageNumberPaging } from '../../../../../src/client/pagination/schemes/page-number.js';

describe('schemesOf', () => {
  it('gives a rule’s schemes by mode, cursor first', () => {
    const both = schemesOf({ items: 'items', limit: 20, cursor: true, number: true });
    expect([...both.keys()]).toEqual(['cursor', 'number']);
    expect(both.get('cursor')).toBeInstanceOf(CursorPaging);
    expect(both.get('number')).toBeInstanceOf(PageNumberPaging);
    expect(schemesOf({ items: 'items', limit: 20, number: true, offset: true }).get('number')).toBeInstanceOf(
      OffsetPaging,
    );
    expect(schemesOf({ items: 'items', limit: 20 }).size).toBe(0);
  });

  it('lists each scheme once, each with a mode', () => {
    expect(new Set(SCHEMES).size).toBe(SCHEMES.length);
    expect(SCHEMES.map((scheme) => scheme.by)).toEqual(['cursor', 'number', 'number']);
  });
});
