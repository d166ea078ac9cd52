// PagePromise's item iterator over an in-memory page source (no sockets, no clock): items in order
// across pages (empty pages included), maxItems, the pages closed when iteration stops early, a
// failing page, and next() called again while a page is still loading.

import { describe, expect, it } from 'vitest';
import { PagePromise, type PageSource } from '../../../src/client/pagination/page-promise.js';

interface Page {
  items: number[];
}

/** A source of fixed pages that records how far it was read and whether it was closed. */
function source(pages: Array<number[] | Error>) {
  const seen = { pagesRead: 0, closed: false };
  const pageSource: PageSource<Page> = {
    first: () => Promise.resolve({ items: (pages[0] as number[]) ?? [] }),
    pages: () => ({
      async *[Symbol.asyncIterator]() {
        try {
          for (const page of pages) {
            seen.pagesRead++;
            await Promise.resolve();
            if (page instanceof Error) throw page;
            yield { items: page };
          }
        } finally {
          seen.closed = true;
        }
      },
    }),
  };
  return { promise: new PagePromise<Page, number>(pageSource), seen };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('PagePromise items', () => {
  it('gives every item of every page in order, past empty pages', async () => {
    const { promise, seen } = source([[1, 2], [], [3], [4, 5]]);
    expect(await collect(promise)).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual({ pagesRead: 4, closed: true });
  });

  it('stops at maxItems without reading a page more, and closes the pages', async () => {
    const { promise, seen } = source([[1, 2], [3, 4], [5]]);
    expect(await collect(promise.items({ maxItems: 3 }))).toEqual([1, 2, 3]);
    expect(seen).toEqual({ pagesRead: 2, closed: true });
  });

  it('reads no page for maxItems: 0', async () => {
    const { promise, seen } = source([[1]]);
    expect(await collect(promise.items({ maxItems: 0 }))).toEqual([]);
    expect(seen.pagesRead).toBe(0);
  });

  it('closes the pages when the loop breaks', async () => {
    const { promise, seen } = source([[1, 2], [3]]);
    for await (const item of promise) if (item === 1) break;
    expect(seen).toEqual({ pagesRead: 1, closed: true });
  });

  it('rejects with a failing page after the items before it, and then is done', async () => {
    const failure = new Error('page 2 failed');
    const { promise } = source([[1], failure, [2]]);
    const iterator = promise[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 1 });
    await expect(iterator.next()).rejects.toBe(failure);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('answers next() calls made while a page loads in order, each item once', async () => {
    const { promise } = source([[1, 2], [3]]);
    const iterator = promise[Symbol.asyncIterator]();
    const results = await Promise.all([iterator.next(), iterator.next(), iterator.next(), iterator.next()]);
    expect(results).toEqual([
      { done: false, value: 1 },
      { done: false, value: 2 },
      { done: false, value: 3 },
      { done: true, value: undefined },
    ]);
  });
});
