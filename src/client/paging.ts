// The one paging engine behind every list method: one page, the next page, and walks by cursor or by
// page number across ranges split into windows where the operation limits them. Rules it owns:
// - A walk never loops: it ends on no next page, an empty page, a missing or repeated cursor, or
//   maxPages. Awaiting and then iterating one PagePromise fetches the first page once.
// - Neighbouring windows share their edge second; an item at that second belongs to the window
//   walked first, and is dropped from the next one. That rule needs no memory, so resuming is exact.
// - Every page carries a resume token (window, cursor or next page number, the params' fingerprint);
//   `resumeFrom` continues right after that page, and refuses a token of other params.
// This file holds what a list method returns at once (the page and promise classes); the walks
// themselves (paging-walk.ts) and the params' conversion load on the first page, so an app that never
// lists does not carry them.

import { RESPONSE, type ResponseInfo } from '../core/api-promise.js';
import { PagePromise, type PagingMode } from '../core/page-promise.js';
import { lazy } from '../internal/lazy.js';
import type { ShapeProblem } from '../schemas/shape.js';
import type { ApiResponse, Flashduty, RequestOptions } from './client.js';
import type { ListShape } from './list-shape.js';

/** A list operation, as the engine needs to know it. */
export interface ListOperation<Item> {
  /** For messages and tokens: `listIncidents`, `alerts.list`. */
  name: string;
  /** Wire path without the leading slash. */
  path: string;
  /** Pages by `search_after_ctx`. */
  cursor: boolean;
  /** Pages by `p`. */
  number: boolean;
  /** Page size when the params give none (for `p × limit`). */
  defaultLimit: number;
  /** Where the page's items are in `data` (default `items`; the audit log's are `docs`). */
  items?: string;
  /** Deepest page-number page the service serves (`p × limit`). */
  maxDepth?: number;
  /** The id of an item, to skip repeats within a window (page-number paging while items are added, a repeated cursor). */
  idOf?(item: Item): string;
  /** Where one request may span at most `max` units of `start_time`..`end_time`: iteration splits the range. */
  window?: {
    /** The longest span, in the wire's unit. */
    max: number;
    /** The item's time as the window filters it (incidents and alerts: `start_time`). */
    timeOf(item: Item): number;
  };
  /** Checks the params before the first request (resource methods check them against the OpenAPI). */
  prepare?(wire: PagedRequest): Promise<void>;
  /** What the page promises beside its items (checked unless `validate` is false, where `check` is not given). */
  shape?: ListShape;
  /** Checks the page instead of `shape` (`validate` is not false). */
  check?(data: unknown, client: Flashduty): ShapeProblem | undefined | Promise<ShapeProblem | undefined>;
}

/** The request of a list operation, as far as paging touches it. */
export interface PagedRequest {
  search_after_ctx?: string;
  p?: number;
  limit?: number;
  asc?: boolean;
  start_time?: number;
  end_time?: number;
}

/** Where a page stands in its walk. @internal */
export interface PageContext {
  /** The params' fingerprint, computed when a first token asks for it (most pages are never asked). */
  fingerprint(): string;
  window: number;
  windows: Array<[number, number]> | undefined;
  by: PagingMode;
}

/** The wire data of a page, as far as paging reads it. @internal */
export interface PageData<Item> {
  items: Item[];
  total?: unknown;
  has_next_page?: unknown;
  search_after_ctx?: unknown;
}

/** What a resume token holds. @internal */
export interface Token {
  v: 1;
  op: string;
  f: string;
  w: number;
  c?: string;
  p?: number;
  end?: true;
}

/** One page of a list operation. */
export class ListPage<Item, Request extends PagedRequest = PagedRequest> {
  /** The page's items (during iteration, without any already yielded). */
  readonly items: Item[];
  /** Total matches as the server counts them; `undefined` where the operation does not say. */
  readonly total: number | undefined;
  /** Whether the server has more pages for this request (this window, when iterating a long range). */
  readonly hasNextPage: boolean;
  /** Cursor of the next page (`search_after_ctx`), where the operation pages by cursor. */
  readonly searchAfterCtx: string | undefined;
  readonly requestId: string;
  /** The wire request that produced this page, window included. */
  readonly request: Readonly<Request>;
  readonly #client: Flashduty;
  readonly #operation: ListOperation<Item>;
  readonly #options: RequestOptions;
  readonly #context: PageContext;
  readonly #data: PageData<Item>;
  readonly #answer: ApiResponse;
  #resumeToken: string | undefined;

  /** @internal Pages come from the list methods. */
  constructor(
    client: Flashduty,
    operation: ListOperation<Item>,
    request: Request,
    options: RequestOptions,
    data: PageData<Item>,
    answer: ApiResponse,
    context: PageContext,
  ) {
    this.#data = data;
    this.#answer = answer;
    this.items = data.items;
    this.total = typeof data.total === 'number' ? data.total : undefined;
    this.searchAfterCtx =
      typeof data.search_after_ctx === 'string' && data.search_after_ctx !== '' ? data.search_after_ctx : undefined;
    this.hasNextPage = hasMore(data, this.searchAfterCtx, operation, request) && data.items.length > 0;
    this.requestId = answer.requestId;
    this.request = Object.freeze({ ...request });
    this.#client = client;
    this.#operation = operation;
    this.#options = options;
    this.#context = context;
  }

  /**
   * An opaque string to continue right after this page later, even in another process:
   * `.items({ resumeFrom })` or `.pages({ resumeFrom })` on the same params.
   */
  get resumeToken(): string {
    // Built when asked for: encoding it on every page cost a list call ~1%, and most pages are never resumed from.
    this.#resumeToken ??= encodeToken(this.#next(), this.#operation, this.#context);
    return this.#resumeToken;
  }

  /** @internal The HTTP answer the page came from, for `withResponse()`. */
  [RESPONSE](): ResponseInfo {
    return this.#client._describe(this.#answer);
  }

  /** The page as JSON: its fields, the resume token included. */
  toJSON(): Record<string, unknown> {
    const { items, total, hasNextPage, searchAfterCtx, requestId, request, resumeToken } = this;
    return { items, total, hasNextPage, searchAfterCtx, requestId, request, resumeToken };
  }

  /** The next page of this request (by cursor where the operation has one), or `null` when there is none. */
  nextPage(): Promise<this | null> {
    const next = this.#next();
    if (next.c === undefined && next.p === undefined) return Promise.resolve(null);
    // The next page is of this page's class (an IncidentPage's next page is an IncidentPage).
    const factory = this.constructor as PageFactory<Item, Request, this>;
    return loadWalk().then((walk) =>
      walk.fetchPage(
        this.#client,
        this.#operation,
        walk.nextRequest(this.request, next),
        this.#options,
        this.#context,
        factory,
      ),
    );
  }

  /** @internal The same page with other items (those not yielded before); paging state stays the server's. */
  withItems(items: Item[]): this {
    if (items.length === this.items.length) return this;
    const Page = this.constructor as new (...args: ConstructorParameters<typeof ListPage<Item, Request>>) => this;
    const copy = new Page(
      this.#client,
      this.#operation,
      this.request,
      this.#options,
      this.#data,
      this.#answer,
      this.#context,
    );
    Object.defineProperty(copy, 'items', { value: items, enumerable: true });
    return copy;
  }

  /** Where the walk goes after this page: a cursor or page number in this window, or the next window. */
  #next(): Omit<Token, 'v' | 'op' | 'f'> {
    const { window, windows, by } = this.#context;
    if (this.hasNextPage) {
      if (this.#operation.cursor && this.searchAfterCtx && (by === 'cursor' || !this.#operation.number)) {
        return { w: window, c: this.searchAfterCtx };
      }
      if (this.#operation.number && by === 'number') return { w: window, p: (this.request.p || 1) + 1 };
      if (this.#operation.number && !this.#operation.cursor) return { w: window, p: (this.request.p || 1) + 1 };
    }
    return windows && window + 1 < windows.length ? { w: window + 1 } : { w: window, end: true };
  }
}

/**
 * Whether the server has more pages: its `has_next_page` where it says; else a cursor is the promise
 * of more (webhook history); else, paging by number, `total` counts what is left, and without a
 * total a full page is (the walk then ends on the empty page after the last).
 */
function hasMore(
  data: PageData<unknown>,
  cursor: string | undefined,
  operation: ListOperation<never>,
  request: PagedRequest,
): boolean {
  if (typeof data.has_next_page === 'boolean') return data.has_next_page;
  if (cursor !== undefined) return true;
  if (!operation.number) return false;
  const limit = request.limit || operation.defaultLimit;
  const seen = ((request.p || 1) - 1) * limit + data.items.length;
  return typeof data.total === 'number' ? seen < data.total : data.items.length >= limit;
}

/** Builds the page objects of one operation (a subclass of ListPage where the API names one). */
export type PageFactory<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>> = new (
  ...args: ConstructorParameters<typeof ListPage<Item, Request>>
) => Page;

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

type WalkModule = typeof import('./paging-walk.js');
/** The walks, imported on the first page. */
const loadWalk = lazy(() => import('./paging-walk.js'));

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

function encodeToken(
  next: Omit<Token, 'v' | 'op' | 'f'>,
  operation: ListOperation<never>,
  context: PageContext,
): string {
  const token: Token = { v: 1, op: operation.name, f: context.fingerprint(), ...next };
  return btoa(encodeURIComponent(JSON.stringify(token))).replace(/=+$/, '');
}
