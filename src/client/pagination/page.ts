// One page of a list operation: its items and what the server says of the rest (total, whether
// there is a next page, its cursor), as the call that fetched it read them. What comes after the
// page (`nextPage()`), its resume token and its HTTP answer it asks that call for (list-call.ts),
// handing it what the call keeps of the page (where it stands, its answer), so a page holds no
// paging rule of its own. The record is the page's own field, not an entry of a WeakMap in the
// call: a WeakMap's values (a page's parsed answer) cost the garbage collector about twice the time
// in a walk (docs/performance.md).

import { RESPONSE, type ResponseInfo } from '../../core/api-promise.js';
import type { PagedRequest } from './operation.js';

/** @internal How a page's call reads what it keeps of a page (`page[PAGE_RECORD]()`). */
export const PAGE_RECORD: unique symbol = Symbol('flashduty.pageRecord');

/** What a page's call does for it. */
export interface PageCall<Item, Request extends PagedRequest> {
  /** The page after `page` in its request (its window, in a walk), of its class; null where there is none. */
  nextPage<P extends ListPage<Item, Request>>(page: P): Promise<P | null>;
  /** The token to resume right after `page`. */
  tokenAfter(page: ListPage<Item, Request>): string;
  /** The HTTP answer `page` came from, as `withResponse()` shows it. */
  responseInfo(page: ListPage<Item, Request>): ResponseInfo;
}

/** What a page's answer says, as its call read it. */
export interface PageFacts<Item> {
  items: Item[];
  total: number | undefined;
  hasNextPage: boolean;
  searchAfterCtx: string | undefined;
  requestId: string;
}

/** One page of a list operation. */
export class ListPage<Item, Request extends PagedRequest = PagedRequest> {
  /** The page's items (during iteration, without any already yielded). */
  readonly items: Item[];
  /** Total matches as the server counts them; `undefined` where the operation does not say. */
  readonly total: number | undefined;
  /** Whether the server has more pages for this request (this window, when iterating a long range). */
  readonly hasNextPage: boolean;
  /** Cursor of the next page (`search_after_ctx`, or the field the operation answers it in), where the operation pages by cursor. */
  readonly searchAfterCtx: string | undefined;
  readonly requestId: string;
  /** The wire request that produced this page, window included. */
  readonly request: Readonly<Request>;
  readonly #call: PageCall<Item, Request>;
  /** What the call keeps of the page, opaque to it. */
  readonly #record: unknown;
  #resumeToken: string | undefined;

  /** @internal Pages come from the list methods. */
  constructor(call: PageCall<Item, Request>, request: Readonly<Request>, facts: PageFacts<Item>, record: unknown) {
    this.items = facts.items;
    this.total = facts.total;
    this.hasNextPage = facts.hasNextPage;
    this.searchAfterCtx = facts.searchAfterCtx;
    this.requestId = facts.requestId;
    this.request = Object.isFrozen(request) ? request : Object.freeze({ ...request });
    this.#call = call;
    this.#record = record;
  }

  /**
   * An opaque string to continue right after this page later, even in another process:
   * `.items({ resumeFrom })` or `.pages({ resumeFrom })` on the same params.
   */
  get resumeToken(): string {
    // Built when asked for: most pages are never resumed from, and encoding one costs every list call.
    this.#resumeToken ??= this.#call.tokenAfter(this);
    return this.#resumeToken;
  }

  /** @internal The HTTP answer the page came from, for `withResponse()`. */
  [RESPONSE](): ResponseInfo {
    return this.#call.responseInfo(this);
  }

  /** @internal What the page's call keeps of it. */
  [PAGE_RECORD](): unknown {
    return this.#record;
  }

  /** The page as JSON: its fields, the resume token included. */
  toJSON(): Record<string, unknown> {
    const { items, total, hasNextPage, searchAfterCtx, requestId, request, resumeToken } = this;
    return { items, total, hasNextPage, searchAfterCtx, requestId, request, resumeToken };
  }

  /** The next page of this request (by cursor where the operation has one), or `null` when there is none. */
  nextPage(): Promise<this | null> {
    return this.#call.nextPage(this);
  }
}

/** Builds the page objects of one operation (a subclass of ListPage where the API names one). */
export type PageFactory<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>> = new (
  ...args: ConstructorParameters<typeof ListPage<Item, Request>>
) => Page;
