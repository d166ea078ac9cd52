// PagePromise over an in-memory page source (no sockets, no clock): the first page fetched once
// however often it is awaited; the options of .pages() and .items() checked when they are given; the
// item iterator: items in order across pages (empty pages included), maxItems, the pages closed when
// iteration stops early, a failing page, and next() called again while a page is still loading.

import { describe, expect, it } from 'vitest';
import { FlashdutyError, RequestValidationError } from '../../../../src/index.js';
import { PagePromise, type PageSource, type WalkOptions } from '../../../../src/client/pagination/page-promise.js';
import { collect } from '../../../helpers.js';

interface Page {
  items: number[];
}

/** A source of fixed pages that records how far it was read, whether it was closed, and what it was asked. */
function source(pages: Array<number[] | Error>) {
  const seen = { pagesRead: 0, closed: false };
  const asked = { firsts: 0, options: [] as WalkOptions[] };
  const pageSource: PageSource<Page> = {
    first: () => {
      asked.firsts++;
      return Promise.resolve({ items: (pages[0] as number[]) ?? [] });
    },
    pages: (options) => {
      asked.options.push(options);
      return {
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
      };
    },
  };
  return { promise: new PagePromise<Page, number>(pageSource), seen, asked };
}

describe('PagePromise', () => {
  it('fetches the first page once, however often it is awaited', async () => {
    const { promise, asked } = source([[1, 2]]);
    expect(await promise).toEqual({ items: [1, 2] });
    expect(await promise.then((page) => page.items.length)).toBe(2);
    await promise.finally(() => {});
    expect(asked.firsts).toBe(1);
    expect(Object.prototype.toString.call(promise)).toBe('[object PagePromise]');
  });

  it('hands the source its options checked, maxPages Infinity where none is given', () => {
    const { promise, asked } = source([]);
    promise.pages();
    promise.pages({ by: 'number', maxPages: 2, resumeFrom: 'token' });
    expect(asked.options).toEqual([
      { by: undefined, maxPages: Infinity, resumeFrom: undefined },
      { by: 'number', maxPages: 2, resumeFrom: 'token' },
    ]);
  });

  it.each<[string, () => unknown, string]>([
    ['a mode it does not know', () => source([]).promise.pages({ by: 'offset' as never }), 'by'],
    ['a negative maxPages', () => source([]).promise.pages({ maxPages: -1 }), 'maxPages'],
    ['a fractional maxItems', () => source([]).promise.items({ maxItems: 1.5 }), 'maxItems'],
    ['a token that is no string', () => source([]).promise.items({ resumeFrom: 7 as never }), 'resumeFrom'],
  ])('refuses %s when it is given', (_, call, field) => {
    expect(call).toThrow(RequestValidationError);
    expect(call).toThrow(expect.objectContaining({ field }));
  });

  it('has no HTTP answer to show for a page that did not come from one', async () => {
    const { promise } = source([[1]]);
    await expect(promise.withResponse()).rejects.toThrow(FlashdutyError);
  });
});

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
