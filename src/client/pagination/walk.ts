// The one paging engine behind every list method: the first page, the next page, and walks by cursor
// or by page number across ranges split into windows where the operation limits them. Loaded on a
// list method's first page. Rules it owns:
// - A walk never loops: it ends on no next page, an empty page, a missing cursor, or maxPages; a walk
//   whose pages stop making progress (a cursor it was sent before, or STALE_PAGES pages in a row of
//   only items it already yielded: a service that ignores the cursor or the page number) ends with a
//   FlashdutyError saying so, not silently and not after thousands of requests.
// - Neighbouring windows share their edge second; an item at that second belongs to the window
//   walked first, and is dropped from the next one. That rule needs no memory, so resuming is exact.
// - `resumeFrom` continues right after the page whose token it is (resume-token.ts), and refuses a
//   token of other params or another list.

import { FlashdutyError, RequestValidationError, ResponseValidationError } from '../../core/api-errors.js';
import { lazy } from '../../internal/lazy.js';
import type { Problem } from '../../core/problem.js';
import type { Flashduty, RequestOptions } from '../client.js';
import type { ListOperation, PageContext, PagedRequest } from './operation.js';
import { ListPage, type PageFactory } from './page.js';
import { checkLimit, type PagingMode } from './page-promise.js';
import { decodeToken, fingerprint, type Next } from './resume-token.js';
import { checkListShape } from './shape.js';

/** The first page of a list call: the window's length and the params checked, then one request. */
export async function firstPage<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  client: Flashduty,
  operation: ListOperation<Item>,
  wire: Request,
  options: RequestOptions,
  factory: PageFactory<Item, Request, Page>,
): Promise<Page> {
  checkWindowLength(operation, wire);
  await operation.prepare?.(wire);
  const context: PageContext = {
    fingerprint: lazy(() => fingerprint(wire)),
    window: 0,
    windows: undefined,
    by: operation.cursor ? 'cursor' : 'number',
  };
  return fetchPage(client, operation, wire, options, context, factory);
}

/** A request's window must fit the operation's limit when sent alone (iteration splits it). */
export function checkWindowLength(operation: ListOperation<never>, wire: PagedRequest): void {
  const max = operation.window?.max;
  if (max !== undefined && (wire.end_time ?? 0) - (wire.start_time ?? 0) > max) {
    throw new RequestValidationError(
      'end_time',
      `the window must not exceed ${max / 86_400} days; iterate the result (for await, .items(), .pages()) to walk a longer range`,
    );
  }
}

export async function fetchPage<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  client: Flashduty,
  operation: ListOperation<Item>,
  request: Request,
  options: RequestOptions,
  context: PageContext,
  factory?: PageFactory<Item, Request, Page>,
): Promise<Page> {
  const response = await client._request(
    operation.http ?? 'POST',
    operation.path,
    onTheWire(operation, request),
    'read',
    options,
  );
  const key = operation.items ?? 'items';
  const cursor = operation.wire?.cursor?.response;
  const raw = response.data as Record<string, unknown> | null | undefined;
  // The page reads `items` (and `search_after_ctx`); an operation whose items are elsewhere (`docs`)
  // or whose cursor is (`next_cursor`) gets them there too.
  const data =
    (key === 'items' && cursor === undefined) || raw === null || typeof raw !== 'object'
      ? raw
      : { ...raw, items: raw[key], ...(cursor !== undefined ? { search_after_ctx: raw[cursor] } : {}) };
  const items = (data as { items?: unknown } | null | undefined)?.items;
  // Even unvalidated, a walk needs an array of items.
  let problem: Problem | undefined = Array.isArray(items)
    ? undefined
    : { path: 'data.items', message: 'expected an array' };
  if (!problem && client.validate !== false) {
    const checked = operation.check ? operation.check(data, client) : checkListShape(data, operation.shape);
    problem = checked instanceof Promise ? await checked : checked;
  }
  if (problem) {
    throw new ResponseValidationError(
      `Invalid ${operation.name} page at ${problem.path}: ${problem.message}`,
      problem.path,
      {
        status: response.status,
        requestId: response.requestId,
        url: response.url,
      },
    );
  }
  const Factory = (factory ?? ListPage) as PageFactory<Item, Request, Page>;
  return new Factory(client, operation, request, options, data as { items: Item[] }, response, context);
}

/** The request as the wire names its paging fields (operation.wire): `cursor` for the cursor, `offset` for the page. */
function onTheWire<Request extends PagedRequest>(operation: ListOperation<never>, request: Request): PagedRequest {
  const { wire } = operation;
  if (!wire) return request;
  const { search_after_ctx: cursor, p, ...rest } = request;
  const out: Record<string, unknown> = rest;
  if (cursor !== undefined) out[wire.cursor?.request ?? 'search_after_ctx'] = cursor;
  if (p !== undefined && wire.offset) out.offset = (p - 1) * (request.limit || operation.defaultLimit);
  else if (p !== undefined) out.p = p;
  return out;
}

/** @internal */
export interface WalkOptions {
  by: PagingMode | undefined;
  maxPages: number | undefined;
  resumeFrom: string | undefined;
}

export async function* walk<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  client: Flashduty,
  operation: ListOperation<Item>,
  wire: Request,
  options: RequestOptions,
  factory: PageFactory<Item, Request, Page>,
  { by: asked, maxPages, resumeFrom }: WalkOptions,
  awaited: () => Promise<Page> | undefined,
): AsyncGenerator<Page> {
  const by = asked ?? (operation.cursor ? 'cursor' : 'number');
  // An operation without paging answers everything in one page, whatever `by` says.
  const single = !operation.cursor && !operation.number;
  if (!single && by === 'cursor' && !operation.cursor)
    throw new RequestValidationError('by', `${operation.name} pages by page number only`);
  if (!single && by === 'number' && !operation.number)
    throw new RequestValidationError('by', `${operation.name} pages by cursor only`);
  await operation.prepare?.(wire);
  let pagesLeft = checkLimit(maxPages, 'maxPages');
  const print = lazy(() => fingerprint(wire));
  const token = resumeFrom === undefined ? undefined : decodeToken(resumeFrom, operation, print());
  if (token?.end) return;
  const windows = operation.window
    ? splitWindows(wire.start_time ?? 0, wire.end_time ?? 0, wire.asc === true, operation.window.max)
    : undefined;
  const count = windows?.length ?? 1;
  if (token && token.w >= count)
    throw new RequestValidationError('resumeFrom', 'the token does not belong to these params');

  for (let index = token?.w ?? 0; index < count; index++) {
    if (pagesLeft <= 0) return;
    const context: PageContext = { fingerprint: print, window: index, windows, by };
    let request = windowRequest(wire, windows, index);
    if (token && index === token.w && (token.c !== undefined || token.p !== undefined))
      request = nextRequest(request, token);
    else if (index > 0 || token) request = nextRequest(request, { w: index }); // a saved cursor or page number belongs to the first window only
    if (by === 'number' && !single)
      request =
        request.search_after_ctx === undefined
          ? { ...request, p: request.p || 1 }
          : nextRequest(request, { w: index, p: 1 });
    // The awaited first page is this very request when nothing moved it: reuse it.
    const reuse = request === wire ? awaited() : undefined;
    const edge = index > 0 && windows ? (windows[index - 1] as [number, number])[wire.asc === true ? 1 : 0] : undefined;
    const ids = new Set<string>();
    const cursors = new Set<string>();
    const progress = new Progress(operation);
    let page: Page | null = await (reuse ?? fetchPage(client, operation, request, options, context, factory));
    while (page) {
      // Items of the edge second went out with the previous window; items seen on an earlier page of
      // this window (page-number paging while items are added, a repeated cursor) are not yielded twice.
      const fresh = page.items.filter((item) => {
        if (edge !== undefined && operation.window?.timeOf(item) === edge) return false;
        const id = operation.idOf?.(item);
        return id === undefined || (!ids.has(id) && (ids.add(id), true));
      });
      progress.check(page.items, fresh.length, page.requestId);
      yield page.withItems(fresh);
      if (--pagesLeft <= 0) return;
      if (!page.hasNextPage || single) break;
      const next: Page | null = await nextOf(page, operation, by, cursors, client, options, context, factory);
      if (!next) break;
      page = next;
    }
  }
}

/** The page after `page` in its window, or null where the walk must stop (never a loop). */
async function nextOf<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  page: Page,
  operation: ListOperation<Item>,
  by: PagingMode,
  cursors: Set<string>,
  client: Flashduty,
  options: RequestOptions,
  context: PageContext,
  factory: PageFactory<Item, Request, Page>,
): Promise<Page | null> {
  if (by === 'number') {
    const p = (page.request.p || 1) + 1;
    const limit = page.request.limit || operation.defaultLimit;
    if (operation.maxDepth !== undefined && p * limit > operation.maxDepth) {
      throw new RequestValidationError(
        'p',
        `page-number paging cannot go past ${operation.maxDepth} items (p × limit); iterate with by: 'cursor' instead`,
      );
    }
    return fetchPage(client, operation, nextRequest(page.request, { w: 0, p }), options, context, factory);
  }
  const cursor = page.searchAfterCtx;
  if (!cursor) {
    client._log(
      'warn',
      `${operation.name}: the server said more pages exist but sent no cursor (request ${page.requestId}); stopping here`,
    );
    return null;
  }
  if (cursors.has(cursor)) {
    throw new FlashdutyError(
      `${operation.name}: the service sent a cursor it had sent before (request ${page.requestId}): ` +
        'its pages make no progress, so the walk stops here rather than looping',
    );
  }
  cursors.add(cursor);
  return fetchPage(client, operation, nextRequest(page.request, { w: 0, c: cursor }), options, context, factory);
}

/** Pages in a row of only items already yielded, after which a walk is taken to make no progress. */
export const STALE_PAGES = 3;

/**
 * Whether a window's pages still bring items it has not yielded: by the items' ids where the
 * operation names them (the walk already drops repeated ones: `fresh`), else by a hash of each item.
 * STALE_PAGES pages in a row with nothing new end the walk with a FlashdutyError.
 */
class Progress {
  readonly #operation: ListOperation<never>;
  /** Hashes of the items seen, for an operation whose items have no id. */
  readonly #seen = new Set<number>();
  #stale = 0;

  constructor(operation: ListOperation<never>) {
    this.#operation = operation;
  }

  check(items: readonly unknown[], fresh: number, requestId: string): void {
    if (items.length === 0) return;
    let news = fresh;
    if (!this.#operation.idOf) {
      news = 0;
      for (const item of items) {
        const hash = hashOf(JSON.stringify(item) ?? '');
        if (this.#seen.has(hash)) continue;
        this.#seen.add(hash);
        news++;
      }
    }
    this.#stale = news === 0 ? this.#stale + 1 : 0;
    if (this.#stale >= STALE_PAGES) {
      throw new FlashdutyError(
        `${this.#operation.name}: ${STALE_PAGES} pages in a row held only items already yielded (last: request ${requestId}): ` +
          'the service is not paging, so the walk stops here rather than looping',
      );
    }
  }
}

/** FNV-1a over a string's UTF-16 code units, folded to 32 bits: enough to tell a page's items apart. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function windowRequest<Request extends PagedRequest>(
  wire: Request,
  windows: Array<[number, number]> | undefined,
  index: number,
): Request {
  const window = windows?.[index];
  if (!window || (window[0] === wire.start_time && window[1] === wire.end_time)) return wire;
  return { ...wire, start_time: window[0], end_time: window[1] };
}

/** Consecutive windows of at most `max` in the requested order; neighbours share their edge second. */
export function splitWindows(start: number, end: number, ascending: boolean, max: number): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  if (ascending) {
    for (let from = start; from < end; from += max) windows.push([from, Math.min(from + max, end)]);
  } else {
    for (let to = end; to > start; to -= max) windows.push([Math.max(to - max, start), to]);
  }
  return windows.length > 0 ? windows : [[start, end]];
}

export function nextRequest<Request extends PagedRequest>(request: Request, next: Next): Request {
  const { p: _p, search_after_ctx: _c, ...rest } = request;
  if (next.c !== undefined) return { ...rest, search_after_ctx: next.c } as Request;
  return (next.p === undefined ? rest : { ...rest, p: next.p }) as Request;
}
