// One list call, once its params are converted and checked: its operation and schemes, the caller's
// request and the position it holds, and how a page of it is fetched: sent through the request loop
// as a read, its shape checked, made into a page of its class, and where it stands kept beside it
// (its scheme, position and window, and the position of the page after it, which its scheme says).
// A page asks its call for the next page, its resume token and its HTTP answer; a walk (walk.ts) asks
// it for the first page of each window. Made with the call's first page or walk: the paging code
// loads then.

import { RequestValidationError, ResponseValidationError } from '../../core/api-errors.js';
import type { ResponseInfo } from '../../core/api-promise.js';
import type { Problem } from '../../core/problem.js';
import { lazy } from '../../internal/lazy.js';
import { loadDeep } from '../../schemas/load-deep.js';
import type { Flashduty, RequestOptions } from '../client.js';
import type { ApiResponse } from '../request-loop.js';
import type { ListOperation, PagedRequest } from './operation.js';
import { type ListPage, PAGE_RECORD, type PageCall, type PageFacts, type PageFactory } from './page.js';
import { checkPageShape, type PageLayout } from './page-shape.js';
import { encodeToken, fingerprint, type Next } from './resume-token.js';
import { limitOf, type PagingMode, type PagingScheme, type Position, type WireRequest } from './scheme.js';
import { schemesOf } from './schemes/index.js';
import type { WalkOptions } from './page-promise.js';
import { walk } from './walk.js';
import { checkWindowLength, inWindow, type Range, windowsOf } from './windows.js';

/** What a call keeps of each of its pages, in the page: where it stands, and the HTTP answer it came from. */
interface PageRecord {
  place: PagePlace;
  response: ApiResponse;
}

/** Where a page stands in its call: its scheme, position and window, and where the page after it is. */
export interface PagePlace {
  scheme: PagingScheme;
  at: Position;
  /** The window's index among `windows`. */
  window: number;
  /** The walk's windows; undefined for a page outside a walk, or of an operation without windows. */
  windows: readonly Range[] | undefined;
  /** The position of the next page in this window, where there is one. */
  next?: Position | undefined;
}

export class ListCall<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>> implements PageCall<
  Item,
  Request
> {
  readonly client: Flashduty;
  readonly operation: ListOperation;
  readonly options: RequestOptions;
  /** The caller's request, as converted: the first page's, as it is. */
  readonly request: Request;
  /** The scheme a page awaited from the call pages by: by cursor where the operation has one. */
  readonly defaultScheme: PagingScheme;
  /** The params' fingerprint, computed when a first token asks for it (most pages are never asked). */
  readonly fingerprint: () => string;
  readonly #Page: PageFactory<Item, Request, Page>;
  readonly #schemes: Map<PagingMode, PagingScheme>;
  /** The caller's request, as paging reads it. */
  readonly #given: WireRequest;
  /** The caller's request without a position: every other page's request is it, in its window, at its position. */
  readonly #base: WireRequest;
  /** The position the caller's request holds. */
  readonly #start: Position;
  readonly #layout: PageLayout;

  constructor(
    client: Flashduty,
    operation: ListOperation,
    request: Request,
    options: RequestOptions,
    Page: PageFactory<Item, Request, Page>,
  ) {
    const { paging } = operation;
    this.client = client;
    this.operation = operation;
    this.request = request;
    this.options = options;
    this.#Page = Page;
    this.#schemes = schemesOf(paging);
    const schemes = [...this.#schemes.values()];
    const first = schemes[0];
    if (!first) throw new RequestValidationError('method', `${operation.name} is not a list operation`);
    this.defaultScheme = first;
    const wire = request as unknown as WireRequest;
    this.#given = wire;
    this.#start = Object.assign({}, ...schemes.map((scheme) => scheme.read(wire, paging))) as Position;
    const base = schemes.reduce((rest, scheme) => scheme.place(rest, {}, paging), wire);
    this.#base = base;
    this.fingerprint = lazy(() => fingerprint(base));
    this.#layout = {
      items: paging.items,
      total: paging.total === true,
      hasNextPage: paging.hasNext === true,
      cursor: paging.cursor ? (paging.cursorFields?.response ?? 'search_after_ctx') : undefined,
    };
  }

  /** The scheme a walk `by` this mode pages by (the default where none is asked); refused where the operation has none. */
  scheme(by: PagingMode | undefined): PagingScheme {
    const scheme = by === undefined ? this.defaultScheme : this.#schemes.get(by);
    if (!scheme) {
      const other = by === 'cursor' ? 'page number' : 'cursor';
      throw new RequestValidationError('by', `${this.operation.name} pages by ${other} only`);
    }
    return scheme;
  }

  /** The page that `await` gives: the caller's request as it is, alone, so its range must fit one window. */
  first(): Promise<Page> {
    checkWindowLength(this.operation.paging, this.#given);
    return this.fetch(this.request, { scheme: this.defaultScheme, at: this.#start, window: 0, windows: undefined });
  }

  /** Every page, by `options.by`, across the windows, from the start or from a resume token. */
  walk(options: WalkOptions, awaited: () => Promise<Page> | undefined): AsyncGenerator<Page> {
    return walk(this, options, awaited);
  }

  /** The walk's windows (the params' range split), where the operation limits a request's range. */
  windows(): Range[] | undefined {
    return windowsOf(this.operation.paging, this.#given);
  }

  /**
   * Where a walk by `scheme` starts in window `index`: in the first window, the caller's request at
   * its own position (its other scheme's field dropped where the walk pages by another); in a later
   * one, or when resuming (`resumed`), the request without a position, at the window's start or
   * the resumed position.
   */
  windowStart(
    scheme: PagingScheme,
    windows: readonly Range[] | undefined,
    index: number,
    resumed: Position | undefined,
  ): { request: Request; at: Position } {
    const fresh = resumed === undefined && index === 0;
    const at = scheme.origin(fresh ? this.#start : (resumed ?? {}));
    const from = fresh && scheme === this.defaultScheme ? this.#given : this.#base;
    return { request: this.#at(from, scheme, at, windows?.[index]), at };
  }

  /**
   * Whether a walk by `scheme` starts with the very request of the awaited first page: the call's
   * own scheme, and a range that fits one window.
   */
  startsAsAwaited(scheme: PagingScheme, windows: readonly Range[] | undefined): boolean {
    return scheme === this.defaultScheme && inWindow(this.#given, windows?.[0]) === this.#given;
  }

  /** The request, its shape checked, made into a page and placed. */
  fetch(request: Request, place: PagePlace): Promise<Page> {
    return this.#fetch(request, place, this.#Page);
  }

  async #fetch<P extends ListPage<Item, Request>>(
    request: Request,
    place: PagePlace,
    Page: PageFactory<Item, Request, P>,
  ): Promise<P> {
    const { client, operation } = this;
    const response = await client._request(operation.http, operation.path, request, 'read', this.options);
    const data = response.data as Record<string, unknown>;
    let problem: Problem | undefined = checkPageShape(data, this.#layout, client.validate !== false);
    if (!problem && client.validate === 'deep') problem = (await loadDeep()).checkPageDeep(`/${operation.path}`, data);
    if (problem) {
      const { status, requestId, url } = response;
      const message = `Invalid ${operation.name} page at ${problem.path}: ${problem.message}`;
      throw new ResponseValidationError(message, problem.path, { status, requestId, url });
    }
    const items = data[operation.paging.items] as Item[];
    const answer = { data, items, at: place.at, limit: limitOf(request as unknown as WireRequest, operation.paging) };
    const hasNextPage = items.length > 0 && place.scheme.more(answer);
    const facts: PageFacts<Item> = {
      items,
      total: typeof data.total === 'number' ? data.total : undefined,
      hasNextPage,
      searchAfterCtx: this.#schemes.get('cursor')?.cursorOf?.(data),
      requestId: response.requestId,
    };
    const next = hasNextPage ? place.scheme.next(answer) : undefined;
    return this.#make(Page, request, facts, { place: { ...place, next }, response });
  }

  /** Where a page of this call stands. */
  placeOf(page: ListPage<Item, Request>): PagePlace {
    return this.#recordOf(page).place;
  }

  /** The page after `page` in its window, of its class; null where there is none. */
  async nextPage<P extends ListPage<Item, Request>>(page: P): Promise<P | null> {
    const { next, scheme, windows, window } = this.placeOf(page);
    if (!next) return null;
    const request = this.#at(this.#base, scheme, next, windows?.[window]);
    return this.#fetch(
      request,
      { scheme, at: next, window, windows },
      page.constructor as PageFactory<Item, Request, P>,
    );
  }

  /** `page` with other items (those a walk had not yielded before); where it stands is the server's, as before. */
  withItems<P extends ListPage<Item, Request>>(page: P, items: Item[]): P {
    if (items.length === page.items.length) return page;
    const { request, total, hasNextPage, searchAfterCtx, requestId } = page;
    const facts = { items, total, hasNextPage, searchAfterCtx, requestId };
    return this.#make(page.constructor as PageFactory<Item, Request, P>, request, facts, this.#recordOf(page));
  }

  /** The token to resume right after `page`: its next page, else the next window's first, else the end. */
  tokenAfter(page: ListPage<Item, Request>): string {
    const { next, window, windows } = this.placeOf(page);
    const after: Next = next
      ? { w: window, ...next }
      : windows && window + 1 < windows.length
        ? { w: window + 1 }
        : { w: window, end: true };
    return encodeToken(this.operation.name, this.fingerprint(), after);
  }

  /** What `withResponse()` shows of the HTTP answer `page` came from. */
  responseInfo(page: ListPage<Item, Request>): ResponseInfo {
    return this.client._responseInfo(this.#recordOf(page).response);
  }

  #make<P extends ListPage<Item, Request>>(
    Page: PageFactory<Item, Request, P>,
    request: Readonly<Request>,
    facts: PageFacts<Item>,
    record: PageRecord,
  ): P {
    return new Page(this, request, facts, record);
  }

  #recordOf(page: ListPage<Item, Request>): PageRecord {
    // A page keeps the record its call made for it (#make), and hands it only to that call.
    return page[PAGE_RECORD]() as PageRecord;
  }

  /** `from` at position `at` by `scheme`, in `window`. */
  #at(from: WireRequest, scheme: PagingScheme, at: Position, window: Range | undefined): Request {
    return inWindow(scheme.place(from, at, this.operation.paging), window) as Request;
  }
}
