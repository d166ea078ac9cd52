// Time windows (src/client/pagination/windows.ts): a range split into consecutive windows of at
// most the longest span, in the requested order, neighbours sharing their edge second; a request
// narrowed to a window; the edge second a window drops; one request alone refused past the span.
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../../src/index.js';
import {
  atEdge,
  checkWindowLength,
  edgeOf,
  inWindow,
  splitWindows,
  windowsOf,
} from '../../../../src/client/pagination/windows.js';

const paging = { items: 'items', limit: 20, window: 10 };

describe('splitWindows', () => {
  it('walks newest first by default, oldest first with asc, neighbours sharing their edge', () => {
    expect(splitWindows(0, 25, false, 10)).toEqual([
      [15, 25],
      [5, 15],
      [0, 5],
    ]);
    expect(splitWindows(0, 25, true, 10)).toEqual([
      [0, 10],
      [10, 20],
      [20, 25],
    ]);
  });

  it('keeps a range that fits, or is empty, as one window', () => {
    expect(splitWindows(0, 10, false, 10)).toEqual([[0, 10]]);
    expect(splitWindows(5, 5, true, 10)).toEqual([[5, 5]]);
  });

  it('is none for an operation without windows', () => {
    expect(windowsOf({ items: 'items', limit: 20 }, { start_time: 0, end_time: 99 })).toBeUndefined();
    expect(windowsOf(paging, { start_time: 0, end_time: 20, asc: true })).toEqual([
      [0, 10],
      [10, 20],
    ]);
  });
});

describe('a window', () => {
  it('narrows a request, which stays the very same object where the window is its whole range', () => {
    const request = { start_time: 0, end_time: 10, limit: 5 };
    expect(inWindow(request, [0, 10])).toBe(request);
    expect(inWindow(request, undefined)).toBe(request);
    expect(inWindow(request, [3, 7])).toEqual({ start_time: 3, end_time: 7, limit: 5 });
  });

  it('drops the edge second it shares with the window walked before it, the first none', () => {
    const newestFirst = splitWindows(0, 25, false, 10);
    expect([0, 1, 2].map((index) => edgeOf(newestFirst, index, false))).toEqual([undefined, 15, 5]);
    const oldestFirst = splitWindows(0, 25, true, 10);
    expect([0, 1, 2].map((index) => edgeOf(oldestFirst, index, true))).toEqual([undefined, 10, 20]);
  });

  it('tells an item at the edge by the field the operation filters on, in that field’s own unit', () => {
    expect(atEdge({ start_time: 7 }, paging, 7)).toBe(true);
    expect(atEdge({ start_time: 8 }, paging, 7)).toBe(false);
    expect(atEdge({ created_at: 9 }, { ...paging, windowField: 'created_at' }, 9)).toBe(true);
    const ms = { ...paging, windowField: 'created_at', windowFieldUnits: 1000 };
    expect(atEdge({ created_at: 9000 }, ms, 9)).toBe(true);
    expect(atEdge({ created_at: 9500 }, ms, 9)).toBe(false); // within the edge second, but in one window only
    expect(atEdge({}, paging, 0)).toBe(false);
  });

  it('refuses one request whose range passes the longest span, pointing at iteration', () => {
    expect(() => checkWindowLength(paging, { start_time: 0, end_time: 10 })).not.toThrow();
    expect(() => checkWindowLength(paging, { start_time: 0, end_time: 11 })).toThrow(RequestValidationError);
    expect(() =>
      checkWindowLength({ ...paging, window: 31 * 86_400 }, { start_time: 0, end_time: 40 * 86_400 }),
    ).toThrow(/must not exceed 31 days; iterate the result/);
  });
});
