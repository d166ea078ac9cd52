// Pages of list operations that page by cursor alone (`search_after_ctx` in, `search_after_ctx` out,
// empty on the last page). A walk can never loop: it ends on an empty cursor, an empty page, a
// repeated cursor, or maxPages.

import { RequestValidationError, ResponseValidationError } from '../core/errors.js';
import { checkLimit, PagePromise, type PagesOptions } from '../core/page-promise.js';
import type { ShapeProblem } from '../schemas/shape.js';
import type { ApiResponse, Flashduty, RequestOptions } from './client.js';
import type { RetryKind } from './retry.js';

/** A list operation paged by cursor. */
export interface CursorOperation {
  /** Wire path without the leading slash. */
  path: string;
  /** For messages: `webhookHistory.list`. */
  name: string;
  /** The retry policy: `read` for every list. */
  kind: RetryKind;
}

/** The wire data of a cursor page, as the `'envelope'` check has let it through. */
export interface CursorPageData<Item> {
  /** The page's records. */
  items: Item[];
  /** Total matches as the server counts them. */
  total: number;
  /** Cursor of the next page; empty or absent on the last one. */
  search_after_ctx?: string | null;
}

/** One page of a list paged by cursor. */
export class CursorPage<Request extends { search_after_ctx?: string }, Item> {
  /** The records of this page. */
  readonly items: Item[];
  /** Total matches as the server counts them. */
  readonly total: number;
  /** Whether a next page may exist (the server sent a cursor and this page was not empty). */
  readonly hasNextPage: boolean;
  /** Cursor of the next page (`search_after_ctx`); `undefined` on the last page. */
  readonly searchAfterCtx: string | undefined;
  readonly requestId: string;
  /** The wire request that produced this page. */
  readonly request: Readonly<Request>;
  readonly #client: Flashduty;
  readonly #operation: CursorOperation;
  readonly #options: RequestOptions;

  constructor(client: Flashduty, operation: CursorOperation, request: Request, options: RequestOptions, data: CursorPageData<Item>, requestId: string) {
    this.items = data.items;
    this.total = data.total;
    this.searchAfterCtx = data.search_after_ctx || undefined;
    this.hasNextPage = this.searchAfterCtx !== undefined && data.items.length > 0;
    this.requestId = requestId;
    this.request = Object.freeze({ ...request });
    this.#client = client;
    this.#operation = operation;
    this.#options = options;
  }

  /** The next page, or `null` when there is none. */
  nextPage(): Promise<CursorPage<Request, Item> | null> {
    if (!this.hasNextPage || !this.searchAfterCtx) return Promise.resolve(null);
    return fetchCursorPage(this.#client, this.#operation, { ...this.request, search_after_ctx: this.searchAfterCtx }, this.#options);
  }
}

/** `await` gives the first page; iterating gives every item, page after page by cursor. */
export class CursorPagePromise<Request extends { search_after_ctx?: string }, Item> extends PagePromise<CursorPage<Request, Item>, Item> {
  constructor(client: Flashduty, operation: CursorOperation, wire: Request | RequestValidationError, options: RequestOptions) {
    let first: Promise<CursorPage<Request, Item>> | undefined;
    const firstPage = () => {
      if (wire instanceof RequestValidationError) return Promise.reject(wire);
      first ??= fetchCursorPage<Request, Item>(client, operation, wire, options);
      return first;
    };
    super({
      first: firstPage,
      pages: ({ by, maxPages }) => ({
        [Symbol.asyncIterator]: () => walk(client, operation, firstPage, by, maxPages),
      }),
    });
  }
}

async function* walk<Request extends { search_after_ctx?: string }, Item>(
  client: Flashduty,
  operation: CursorOperation,
  firstPage: () => Promise<CursorPage<Request, Item>>,
  by: string,
  maxPages: number | undefined,
): AsyncGenerator<CursorPage<Request, Item>> {
  if (by !== 'cursor') throw new RequestValidationError('by', `${operation.name} pages by cursor only`);
  let pagesLeft = checkLimit(maxPages, 'maxPages');
  if (pagesLeft <= 0) return;
  const seen = new Set<string>();
  // The first page is the awaited one when there was one: awaiting and then iterating sends it once.
  let page: CursorPage<Request, Item> | null = await firstPage();
  while (page) {
    yield page;
    if (--pagesLeft <= 0) return;
    const cursor = page.searchAfterCtx;
    if (cursor !== undefined && seen.has(cursor)) {
      client._log('warn', `${operation.name}: the server sent a cursor it already sent (request ${page.requestId}); stopping here rather than looping`);
      return;
    }
    if (cursor !== undefined) seen.add(cursor);
    page = await page.nextPage();
  }
}

export async function fetchCursorPage<Request extends { search_after_ctx?: string }, Item>(
  client: Flashduty,
  operation: CursorOperation,
  request: Request,
  options: RequestOptions,
): Promise<CursorPage<Request, Item>> {
  const response = await client._post(operation.path, request, operation.kind, options);
  const problem = client.validate === false ? checkItems(response.data) : checkCursorPage(response.data);
  if (problem) throw invalid(response, operation, problem);
  return new CursorPage(client, operation, request, options, response.data as CursorPageData<Item>, response.requestId);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Even unvalidated, a walk needs an array of items. */
function checkItems(data: unknown): ShapeProblem | undefined {
  return Array.isArray((data as { items?: unknown } | null | undefined)?.items) ? undefined : { path: 'data.items', why: 'expected an array' };
}

/** The page without looking inside its items: an array of objects, `total`, a string cursor when present. */
function checkCursorPage(data: unknown): ShapeProblem | undefined {
  if (!isObject(data)) return { path: 'data', why: 'expected an object' };
  const { items, total, search_after_ctx } = data;
  const problem = checkItems(data);
  if (problem) return problem;
  const index = (items as unknown[]).findIndex((item) => !isObject(item));
  if (index >= 0) return { path: `data.items.${index}`, why: 'expected an object' };
  if (!Number.isInteger(total)) return { path: 'data.total', why: 'expected an integer' };
  if (search_after_ctx !== undefined && search_after_ctx !== null && typeof search_after_ctx !== 'string') {
    return { path: 'data.search_after_ctx', why: 'expected a string' };
  }
  return undefined;
}

function invalid(response: ApiResponse, operation: CursorOperation, problem: ShapeProblem): ResponseValidationError {
  return new ResponseValidationError(`Invalid ${operation.name} page at ${problem.path}: ${problem.why}`, problem.path, {
    status: response.status,
    requestId: response.requestId,
    url: response.url,
  });
}
