// Paging through incidents: one page, the next page, and walks over every page by cursor or by page
// number, across ranges split into 31-day windows. A walk can never loop: it ends on
// `has_next_page: false`, a missing or repeated cursor, an empty page, or maxPages.

import { RequestValidationError, ResponseValidationError } from '../core/errors.js';
import { checkLimit, PagePromise, type PagesOptions, type PagingMode } from '../core/page-promise.js';
import type { IncidentInfo } from '../schemas/incident.js';
import type { IncidentListResponse, ListIncidentsRequest } from '../schemas/list.js';
import { loadDeep } from '../schemas/load-deep.js';
import { checkPageShape } from '../schemas/shape.js';
import type { ApiResponse, Flashduty, RequestOptions } from './client.js';

/** The longest window the service accepts in one request. */
export const MAX_WINDOW_SECONDS = 31 * 86_400;
/** The service refuses `p × limit` beyond this. */
export const MAX_PAGE_DEPTH = 10_000;
const DEFAULT_LIMIT = 20;

/** One page of `listIncidents`. */
export class IncidentPage {
  /** Incidents of this page (during iteration, without those already yielded by an earlier page). */
  readonly items: IncidentInfo[];
  /** Total matches as the server counts them (capped at 1000 by the service). */
  readonly total: number;
  readonly hasNextPage: boolean;
  /** Cursor of the next page; save it to resume later with `search_after_ctx`. */
  readonly searchAfterCtx: string | undefined;
  readonly requestId: string;
  /**
   * The wire request that produced this page, window included. With `searchAfterCtx` it is what
   * you save to resume later: during iteration over a long range, each page belongs to one window.
   */
  readonly request: Readonly<ListIncidentsRequest>;
  readonly #client: Flashduty;
  readonly #options: RequestOptions;

  constructor(
    client: Flashduty,
    request: ListIncidentsRequest,
    options: RequestOptions,
    data: IncidentListResponse,
    requestId: string,
  ) {
    this.items = data.items;
    this.total = data.total;
    this.hasNextPage = data.has_next_page;
    this.searchAfterCtx = data.search_after_ctx || undefined;
    this.requestId = requestId;
    this.request = Object.freeze({ ...request });
    this.#client = client;
    this.#options = options;
  }

  /** The next page by cursor, or `null` when there is none. */
  nextPage(): Promise<IncidentPage | null> {
    if (!this.hasNextPage || !this.searchAfterCtx) return Promise.resolve(null);
    return fetchPage(this.#client, cursorRequest(this.request, this.searchAfterCtx), this.#options);
  }

  /** @internal The same page without the items an earlier page or window already yielded. */
  withItems(items: IncidentInfo[]): IncidentPage {
    if (items.length === this.items.length) return this;
    const data = { items, total: this.total, has_next_page: this.hasNextPage, search_after_ctx: this.searchAfterCtx };
    return new IncidentPage(this.#client, this.request, this.#options, data, this.requestId);
  }
}

/** `await` gives the first page; iterating gives every incident. */
export class IncidentPagePromise extends PagePromise<IncidentPage, IncidentInfo> {
  constructor(client: Flashduty, wire: ListIncidentsRequest | RequestValidationError, options: RequestOptions) {
    super({
      first: async () => {
        if (wire instanceof RequestValidationError) throw wire;
        checkWindowLength(wire);
        return fetchPage(client, wire, options);
      },
      pages: (pagesOptions) => ({
        [Symbol.asyncIterator]: () => walk(client, wire, options, pagesOptions),
      }),
    });
  }
}

export function checkWindowLength(wire: ListIncidentsRequest): void {
  if (wire.end_time - wire.start_time > MAX_WINDOW_SECONDS) {
    throw new RequestValidationError(
      'end_time',
      'the window must not exceed 31 days; iterate the result (for await, .items(), .pages()) to walk a longer range',
    );
  }
}

export async function fetchPage(
  client: Flashduty,
  request: ListIncidentsRequest,
  options: RequestOptions,
): Promise<IncidentPage> {
  const response = await client._post('incident/list', request, 'read', options);
  const data = await checkPage(response, client.validate);
  return new IncidentPage(client, request, options, data, response.requestId);
}

async function checkPage(response: ApiResponse, mode: Flashduty['validate']): Promise<IncidentListResponse> {
  const { data } = response;
  const items = (data as { items?: unknown } | null | undefined)?.items;
  // Even unvalidated, iteration needs an array to walk.
  let problem = mode === false ? (Array.isArray(items) ? undefined : { path: 'data.items', why: 'expected an array' }) : checkPageShape(data);
  if (!problem && mode === 'deep') problem = (await loadDeep()).checkIncidentListDeep(data);
  if (problem) throw invalidPage(response, problem.path, problem.why);
  return data as IncidentListResponse;
}

function invalidPage(response: ApiResponse, path: string, why: string): ResponseValidationError {
  return new ResponseValidationError(`Invalid incident page at ${path}: ${why}`, path, {
    status: response.status,
    requestId: response.requestId,
    url: response.url,
  });
}

function cursorRequest(request: ListIncidentsRequest, cursor: string): ListIncidentsRequest {
  const { p: _page, ...rest } = request;
  return { ...rest, search_after_ctx: cursor };
}

/** Consecutive windows of at most 31 days in the requested order; neighbours share their edge second. */
export function splitWindows(start: number, end: number, ascending: boolean): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  if (ascending) {
    for (let from = start; from < end; from += MAX_WINDOW_SECONDS) {
      windows.push([from, Math.min(from + MAX_WINDOW_SECONDS, end)]);
    }
  } else {
    for (let to = end; to > start; to -= MAX_WINDOW_SECONDS) {
      windows.push([Math.max(to - MAX_WINDOW_SECONDS, start), to]);
    }
  }
  return windows;
}

async function* walk(
  client: Flashduty,
  wire: ListIncidentsRequest | RequestValidationError,
  options: RequestOptions,
  { by, maxPages }: PagesOptions & { by: PagingMode },
): AsyncGenerator<IncidentPage> {
  if (wire instanceof RequestValidationError) throw wire;
  let pagesLeft = checkLimit(maxPages, 'maxPages');
  // Ids of the current and the previous window: an incident can show up again at a shared edge
  // second, or shift across page-number pages while incidents are added. Older windows are dropped
  // so a long export keeps memory flat.
  let previous = new Set<string>();
  let current = new Set<string>();
  const fresh = (page: IncidentPage): IncidentPage => {
    const items = page.items.filter((incident) => {
      const id = incident.incident_id;
      if (previous.has(id) || current.has(id)) return false;
      current.add(id);
      return true;
    });
    return page.withItems(items);
  };

  const windows = splitWindows(wire.start_time, wire.end_time, wire.asc === true);
  for (const [index, [start_time, end_time]] of windows.entries()) {
    if (pagesLeft <= 0) return;
    // A saved cursor or page number belongs to the first window only.
    const base: ListIncidentsRequest = { ...wire, start_time, end_time };
    if (index > 0) {
      delete base.p;
      delete base.search_after_ctx;
    }
    const pages = by === 'cursor' ? byCursor(client, base, options) : byNumber(client, base, options);
    for await (const page of pages) {
      yield fresh(page);
      if (--pagesLeft <= 0) return;
    }
    previous = current;
    current = new Set();
  }
}

async function* byCursor(client: Flashduty, request: ListIncidentsRequest, options: RequestOptions) {
  const seen = new Set<string>();
  let page = await fetchPage(client, request, options);
  for (;;) {
    yield page;
    if (!page.hasNextPage) return;
    const cursor = page.searchAfterCtx;
    if (!cursor || seen.has(cursor)) {
      client._log('warn', 
        `listIncidents: the server said more pages exist but sent ${cursor ? 'a cursor it already sent' : 'no cursor'} ` +
          `(request ${page.requestId}); stopping here rather than looping`,
      );
      return;
    }
    seen.add(cursor);
    page = await fetchPage(client, cursorRequest(request, cursor), options);
  }
}

async function* byNumber(client: Flashduty, request: ListIncidentsRequest, options: RequestOptions) {
  const { search_after_ctx: _cursor, ...rest } = request;
  const limit = rest.limit || DEFAULT_LIMIT;
  for (let p = rest.p || 1; ; p++) {
    if (p * limit > MAX_PAGE_DEPTH) {
      throw new RequestValidationError(
        'p',
        `page-number paging cannot go past ${MAX_PAGE_DEPTH} incidents (p × limit); iterate with by: 'cursor' instead`,
      );
    }
    const page = await fetchPage(client, { ...rest, p }, options);
    yield page;
    if (!page.hasNextPage || page.items.length === 0) return;
  }
}
