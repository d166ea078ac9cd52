// One page of a list operation: its items, what the server says of the rest (total, next page,
// cursor), its resume token (built when first read) and `nextPage()`. Where a page's answer says
// nothing of a next page, `hasMore` decides (its comment has the rule).

import { RESPONSE, type ResponseInfo } from '../../core/api-promise.js';
import { lazy } from '../../internal/lazy.js';
import type { Flashduty, RequestOptions } from '../client.js';
import type { ApiResponse } from '../request-loop.js';
import type { ListOperation, PageContext, PageData, PagedRequest } from './operation.js';
import { encodeToken, type Next } from './resume-token.js';

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
    return this.#client._responseInfo(this.#answer);
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
  #next(): Next {
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

/** @internal The walks (walk.ts), imported on the first page, so an app that never lists does not carry them. */
export const loadWalk = lazy(() => import('./walk.js'));
