// What a list method returns at once: a lazy promise of the first page that is also an async
// iterable of every item (PagePromise), and its list-operation form (ListPagePromise). Nothing is
// sent until it is awaited or iterated, so a caller who only iterates never pays for an extra
// request, and params only valid for iteration (a range over 31 days) do not fail up front.
// Awaiting and then iterating one promise fetches its first page once. The options of `.pages()`
// and `.items()` are checked here, when they are given.

import { responseOf, type WithResponse } from '../../core/api-promise.js';
import { RequestValidationError } from '../../core/api-errors.js';
import type { ListCall } from './list-call.js';
import type { PagedRequest } from './operation.js';
import { ListPage, type PageFactory } from './page.js';
import type { PagingMode } from './scheme.js';

/** Options of {@link PagePromise.pages}. */
export interface PagesOptions {
  /** `'cursor'` (default where the operation has a cursor) follows `search_after_ctx`; `'number'` counts `p` up from the given page. */
  by?: PagingMode;
  /** Stop after this many pages. */
  maxPages?: number;
  /** A page's `resumeToken`: continue right after that page (same params only). */
  resumeFrom?: string;
}

/** Options of {@link PagePromise.items}. */
export interface ItemsOptions extends PagesOptions {
  /** Stop after this many items. */
  maxItems?: number;
}

/** The options of {@link PagePromise.pages} as a {@link PageSource} gets them: checked, `maxPages` Infinity where none was given. */
export interface WalkOptions {
  by: PagingMode | undefined;
  maxPages: number;
  resumeFrom: string | undefined;
}

/** Where a {@link PagePromise} gets its pages. */
export interface PageSource<Page> {
  /** The one page that `await` gives. */
  first(): Promise<Page>;
  /** Every page, in order, each item appearing once. */
  pages(options: WalkOptions): AsyncIterable<Page>;
}

/** A lazy promise of the first page that is also an async iterable of every item. */
export class PagePromise<Page extends { items: Item[] }, Item> implements PromiseLike<Page>, AsyncIterable<Item> {
  readonly #source: PageSource<Page>;
  #first: Promise<Page> | undefined;

  constructor(source: PageSource<Page>) {
    this.#source = source;
  }

  #firstPage(): Promise<Page> {
    this.#first ??= this.#source.first();
    return this.#first;
  }

  then<A = Page, B = never>(
    onFulfilled?: ((page: Page) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  /** Like `Promise.prototype.catch`, for the first page. */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page | B> {
    return this.#firstPage().catch(onRejected);
  }

  /** Like `Promise.prototype.finally`, for the first page. */
  finally(onFinally?: (() => void) | null): Promise<Page> {
    return this.#firstPage().finally(onFinally);
  }

  /** The first page together with the HTTP answer it came from: `{ data, response }`. */
  withResponse(): Promise<WithResponse<Page>> {
    return this.#firstPage().then((page) => ({ data: page, response: responseOf(page) }));
  }

  /** Every page. */
  pages(options: PagesOptions = {}): AsyncIterable<Page> {
    const { by, maxPages, resumeFrom } = options;
    if (resumeFrom !== undefined && typeof resumeFrom !== 'string') {
      throw new RequestValidationError('resumeFrom', 'expected the resumeToken string of a page');
    }
    return this.#source.pages({ by: checkMode(by), maxPages: checkLimit(maxPages, 'maxPages'), resumeFrom });
  }

  /** Every item, across pages. */
  items(options: ItemsOptions = {}): AsyncIterable<Item> {
    const pages = this.pages(options);
    const maxItems = checkLimit(options.maxItems, 'maxItems');
    return { [Symbol.asyncIterator]: () => itemsOf(pages[Symbol.asyncIterator](), maxItems) };
  }

  /** Every item, by cursor: `for await (const item of promise)`. */
  [Symbol.asyncIterator](): AsyncIterator<Item> {
    return this.items()[Symbol.asyncIterator]();
  }

  /** Shows as `[object PagePromise]`. */
  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}

/**
 * The items of `pages` one at a time, at most `max`; the pages are closed when it stops early. Written
 * by hand: an async generator spends several turns of the event loop on every item, which made a
 * walk measurably slower (bench/walk.ts). Calls made while a page loads wait for it.
 */
function itemsOf<Item>(pages: AsyncIterator<{ items: Item[] }>, max: number): AsyncIterator<Item> {
  let items: Item[] = [];
  let index = 0;
  let left = max;
  let finished = false;
  let loading: Promise<void> | undefined;
  const finish = async (): Promise<IteratorResult<Item>> => {
    if (!finished) {
      finished = true;
      await pages.return?.();
    }
    return { done: true, value: undefined };
  };
  const next = (): Promise<IteratorResult<Item>> => {
    if (loading) return loading.then(next);
    if (finished) return Promise.resolve({ done: true, value: undefined });
    if (left <= 0) return finish();
    if (index < items.length) {
      left--;
      return Promise.resolve({ done: false, value: items[index++] as Item });
    }
    loading = pages.next().then(
      (page) => {
        loading = undefined;
        if (page.done) finished = true;
        else [items, index] = [page.value.items, 0];
      },
      (error: unknown) => {
        loading = undefined;
        finished = true;
        throw error;
      },
    );
    return loading.then(next);
  };
  return { next, return: finish };
}

function checkMode(by: unknown): PagingMode | undefined {
  if (by === undefined || by === 'cursor' || by === 'number') return by;
  throw new RequestValidationError('by', `expected 'cursor' or 'number', got ${JSON.stringify(by)}`);
}

/** A whole number ≥ 0, or Infinity when absent. */
function checkLimit(value: unknown, name: string): number {
  if (value === undefined) return Infinity;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RequestValidationError(
      name,
      `expected a whole number ≥ 0, got ${typeof value === 'number' ? value : (JSON.stringify(value) ?? typeof value)}`,
    );
  }
  return value;
}

/**
 * Opens a list call: its tables and params' conversion load, its params are converted and checked
 * (a failure rejects the first page or the walk, never the call). Called once, with the first page
 * or walk.
 */
export type ListOpener<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>> = (
  Page: PageFactory<Item, Request, Page>,
) => Promise<ListCall<Item, Request, Page>>;

/** `await` gives the first page; iterating gives every item; `.pages()`/`.items()` choose how. */
export class ListPagePromise<
  Item,
  Request extends PagedRequest = PagedRequest,
  Page extends ListPage<Item, Request> = ListPage<Item, Request>,
> extends PagePromise<Page, Item> {
  /** @internal Page promises come from the list methods; `Page` is the class of their pages. */
  constructor(
    open: ListOpener<Item, Request, Page>,
    Page: PageFactory<Item, Request, Page> = ListPage as unknown as PageFactory<Item, Request, Page>,
  ) {
    let opened: Promise<ListCall<Item, Request, Page>> | undefined;
    const call = () => (opened ??= open(Page));
    let first: Promise<Page> | undefined;
    super({
      first: () => (first ??= call().then((list) => list.first())),
      pages: (options) => ({
        [Symbol.asyncIterator]: () => deferredIterator(() => call().then((list) => list.walk(options, () => first))),
      }),
    });
  }
}

/** An iterator that starts its source on the first `next()`; `return()` before that ends it without starting it. */
function deferredIterator<T>(start: () => Promise<AsyncIterator<T>>): AsyncIterator<T> {
  let source: Promise<AsyncIterator<T>> | undefined;
  return {
    next: () => (source ??= start()).then((iterator) => iterator.next()),
    return: async (value?: unknown) => {
      const iterator = await source;
      return (await iterator?.return?.(value)) ?? { done: true, value: undefined };
    },
  };
}
