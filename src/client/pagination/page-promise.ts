// What a list method returns at once: a lazy promise of the first page that is also an async
// iterable of every item (PagePromise), and its list-operation form (ListPagePromise). Nothing is
// sent until it is awaited or iterated, so a caller who only iterates never pays for an extra
// request, and params only valid for iteration (a range over 31 days) do not fail up front.
// Awaiting and then iterating one promise fetches its first page once.

import { responseOf, type WithResponse } from '../../core/api-promise.js';
import { RequestValidationError } from '../../core/api-errors.js';
import type { Flashduty, RequestOptions } from '../client.js';
import type { ListOperation, PagedRequest } from './operation.js';
import { ListPage, loadWalk, type PageFactory } from './page.js';

/** How iteration moves from page to page. */
export type PagingMode = 'cursor' | 'number';

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

/** Where a {@link PagePromise} gets its pages. */
export interface PageSource<Page> {
  /** The one page that `await` gives. */
  first(): Promise<Page>;
  /** Every page, in order, each item appearing once. */
  pages(options: PagesOptions): AsyncIterable<Page>;
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
    if (options.resumeFrom !== undefined && typeof options.resumeFrom !== 'string') {
      throw new RequestValidationError('resumeFrom', 'expected the resumeToken string of a page');
    }
    return this.#source.pages({ ...options, by: checkMode(options.by) });
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
 * walk of 2 000 incidents ~4% slower (bench/walk.ts). Calls made while a page loads wait for it.
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

/** A positive whole number, or Infinity when absent. */
export function checkLimit(value: unknown, name: string): number {
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
 * A list call's operation and wire request, made on the first page (the tables, the params'
 * conversion and checks load then; a failure rejects the first page or the walk, never the call).
 * @internal
 */
export type ListSource<Item, Request> = () => Promise<{ operation: ListOperation<Item>; request: Request }>;

/** `await` gives the first page; iterating gives every item; `.pages()`/`.items()` choose how. */
export class ListPagePromise<
  Item,
  Request extends PagedRequest = PagedRequest,
  Page extends ListPage<Item, Request> = ListPage<Item, Request>,
> extends PagePromise<Page, Item> {
  /** @internal Page promises come from the list methods. */
  constructor(
    client: Flashduty,
    source: ListSource<Item, Request>,
    options: RequestOptions,
    factory: PageFactory<Item, Request, Page>,
  ) {
    let made: ReturnType<ListSource<Item, Request>> | undefined;
    /** Runs `step` once the call is made and the walks are loaded (both at once, each once). */
    const ready = <T>(
      step: (call: { operation: ListOperation<Item>; request: Request }, walk: WalkModule) => Promise<T>,
    ): Promise<T> => {
      const walking = loadWalk();
      made ??= source();
      return made.then((call) => walking.then((walk) => step(call, walk)));
    };
    let first: Promise<Page> | undefined;
    super({
      first: () =>
        (first ??= ready(({ operation, request }, walk) =>
          walk.firstPage(client, operation, request, options, factory),
        )),
      pages: ({ by, maxPages, resumeFrom }) => ({
        [Symbol.asyncIterator]: () =>
          deferredIterator(() =>
            ready(async ({ operation, request }, walk) =>
              walk.walk(client, operation, request, options, factory, { by, maxPages, resumeFrom }, () => first),
            ),
          ),
      }),
    });
  }
}

/** A shallow copy of an object's params: what the caller changes after a list call does not change its requests. */
export function snapshot<T>(params: T): T {
  return typeof params === 'object' && params !== null && !Array.isArray(params) ? { ...params } : params;
}

type WalkModule = typeof import('./walk.js');

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
