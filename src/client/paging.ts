// The one paging engine behind every list method: one page, the next page, and walks by cursor or by
// page number across ranges split into windows where the operation limits them. Rules it owns:
// - A walk never loops: it ends on no next page, an empty page, a missing or repeated cursor, or
//   maxPages. Awaiting and then iterating one PagePromise fetches the first page once.
// - Neighbouring windows share their edge second; an item at that second belongs to the window
//   walked first, and is dropped from the next one. That rule needs no memory, so resuming is exact.
// - Every page carries a resume token (window, cursor or next page number, the params' fingerprint);
//   `resumeFrom` continues right after that page, and refuses a token of other params.

import { RequestValidationError, ResponseValidationError } from '../core/errors.js';
import { checkLimit, PagePromise, type PagingMode } from '../core/page-promise.js';
import type { ShapeProblem } from '../schemas/shape.js';
import type { Flashduty, RequestOptions } from './client.js';

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
  /** Checks the page beyond the items being an array (`validate` is not false). */
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
  fingerprint: string;
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

/** What a resume token holds. */
interface Token {
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
  /**
   * An opaque string to continue right after this page later, even in another process:
   * `.items({ resumeFrom })` or `.pages({ resumeFrom })` on the same params.
   */
  readonly resumeToken: string;
  readonly #client: Flashduty;
  readonly #operation: ListOperation<Item>;
  readonly #options: RequestOptions;
  readonly #context: PageContext;
  readonly #data: PageData<Item>;

  /** @internal Pages come from the list methods. */
  constructor(
    client: Flashduty,
    operation: ListOperation<Item>,
    request: Request,
    options: RequestOptions,
    data: PageData<Item>,
    requestId: string,
    context: PageContext,
  ) {
    this.#data = data;
    this.items = data.items;
    this.total = typeof data.total === 'number' ? data.total : undefined;
    this.searchAfterCtx = typeof data.search_after_ctx === 'string' && data.search_after_ctx !== '' ? data.search_after_ctx : undefined;
    // Without has_next_page (webhook history), a cursor is the promise of more.
    const more = typeof data.has_next_page === 'boolean' ? data.has_next_page : this.searchAfterCtx !== undefined;
    this.hasNextPage = more && data.items.length > 0;
    this.requestId = requestId;
    this.request = Object.freeze({ ...request });
    this.#client = client;
    this.#operation = operation;
    this.#options = options;
    this.#context = context;
    this.resumeToken = encodeToken(this.#next(), operation, context);
  }

  /** The next page of this request (by cursor where the operation has one), or `null` when there is none. */
  nextPage(): Promise<this | null> {
    const next = this.#next();
    if (next.c === undefined && next.p === undefined) return Promise.resolve(null);
    // The next page is of this page's class (an IncidentPage's next page is an IncidentPage).
    const factory = this.constructor as PageFactory<Item, Request, this>;
    return fetchPage(this.#client, this.#operation, nextRequest(this.request, next), this.#options, this.#context, factory);
  }

  /** @internal The same page with other items (those not yielded before); paging state stays the server's. */
  withItems(items: Item[]): this {
    if (items.length === this.items.length) return this;
    const Page = this.constructor as new (...args: ConstructorParameters<typeof ListPage<Item, Request>>) => this;
    const copy = new Page(this.#client, this.#operation, this.request, this.#options, this.#data, this.requestId, this.#context);
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

function nextRequest<Request extends PagedRequest>(request: Request, next: Omit<Token, 'v' | 'op' | 'f'>): Request {
  const { p: _p, search_after_ctx: _c, ...rest } = request;
  if (next.c !== undefined) return { ...rest, search_after_ctx: next.c } as Request;
  return (next.p === undefined ? rest : { ...rest, p: next.p }) as Request;
}

/** Builds the page objects of one operation (a subclass of ListPage where the API names one). */
export type PageFactory<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>> = new (
  ...args: ConstructorParameters<typeof ListPage<Item, Request>>
) => Page;

/** `await` gives the first page; iterating gives every item; `.pages()`/`.items()` choose how. */
export class ListPagePromise<Item, Request extends PagedRequest = PagedRequest, Page extends ListPage<Item, Request> = ListPage<Item, Request>> extends PagePromise<Page, Item> {
  /** @internal Page promises come from the list methods. */
  constructor(
    client: Flashduty,
    operation: ListOperation<Item>,
    wire: Request | RequestValidationError,
    options: RequestOptions,
    factory: PageFactory<Item, Request, Page>,
  ) {
    let first: Promise<Page> | undefined;
    // async: a bad request (or window) rejects the awaited page rather than throwing at the caller.
    const awaited = async (): Promise<Page> => {
      if (wire instanceof RequestValidationError) throw wire;
      if (first) return first;
      checkWindowLength(operation, wire);
      const context = { fingerprint: fingerprint(wire), window: 0, windows: undefined, by: operation.cursor ? 'cursor' : 'number' } as const;
      first = operation.prepare
        ? operation.prepare(wire).then(() => fetchPage(client, operation, wire, options, context, factory))
        : fetchPage(client, operation, wire, options, context, factory);
      return first;
    };
    super({
      first: awaited,
      pages: ({ by, maxPages, resumeFrom }) => ({
        [Symbol.asyncIterator]: () => walk(client, operation, wire, options, factory, { by, maxPages, resumeFrom }, () => first),
      }),
    });
  }
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

async function fetchPage<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  client: Flashduty,
  operation: ListOperation<Item>,
  request: Request,
  options: RequestOptions,
  context: PageContext,
  factory?: PageFactory<Item, Request, Page>,
): Promise<Page> {
  const response = await client._post(operation.path, request, 'read', options);
  const { data } = response;
  const items = (data as { items?: unknown } | null | undefined)?.items;
  // Even unvalidated, a walk needs an array of items.
  let problem: ShapeProblem | undefined = Array.isArray(items) ? undefined : { path: 'data.items', why: 'expected an array' };
  if (!problem && client.validate !== false) problem = await operation.check?.(data, client);
  if (problem) {
    throw new ResponseValidationError(`Invalid ${operation.name} page at ${problem.path}: ${problem.why}`, problem.path, {
      status: response.status,
      requestId: response.requestId,
      url: response.url,
    });
  }
  const Factory = (factory ?? ListPage) as PageFactory<Item, Request, Page>;
  return new Factory(client, operation, request, options, data as { items: Item[] }, response.requestId, context);
}

interface WalkOptions {
  by: PagingMode | undefined;
  maxPages: number | undefined;
  resumeFrom: string | undefined;
}

async function* walk<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  client: Flashduty,
  operation: ListOperation<Item>,
  wire: Request | RequestValidationError,
  options: RequestOptions,
  factory: PageFactory<Item, Request, Page>,
  { by: asked, maxPages, resumeFrom }: WalkOptions,
  awaited: () => Promise<Page> | undefined,
): AsyncGenerator<Page> {
  if (wire instanceof RequestValidationError) throw wire;
  const by = asked ?? (operation.cursor ? 'cursor' : 'number');
  // An operation without paging answers everything in one page, whatever `by` says.
  const single = !operation.cursor && !operation.number;
  if (!single && by === 'cursor' && !operation.cursor) throw new RequestValidationError('by', `${operation.name} pages by page number only`);
  if (!single && by === 'number' && !operation.number) throw new RequestValidationError('by', `${operation.name} pages by cursor only`);
  await operation.prepare?.(wire);
  let pagesLeft = checkLimit(maxPages, 'maxPages');
  const print = fingerprint(wire);
  const token = resumeFrom === undefined ? undefined : decodeToken(resumeFrom, operation, print);
  if (token?.end) return;
  const windows = operation.window ? splitWindows(wire.start_time ?? 0, wire.end_time ?? 0, wire.asc === true, operation.window.max) : undefined;
  const count = windows?.length ?? 1;
  if (token && token.w >= count) throw new RequestValidationError('resumeFrom', 'the token does not belong to these params');

  for (let index = token?.w ?? 0; index < count; index++) {
    if (pagesLeft <= 0) return;
    const context: PageContext = { fingerprint: print, window: index, windows, by };
    let request = windowRequest(wire, windows, index);
    if (token && index === token.w && (token.c !== undefined || token.p !== undefined)) request = nextRequest(request, token);
    else if (index > 0 || token) request = nextRequest(request, { w: index }); // a saved cursor or page number belongs to the first window only
    if (by === 'number' && !single) request = request.search_after_ctx === undefined ? { ...request, p: request.p || 1 } : nextRequest(request, { w: index, p: 1 });
    // The awaited first page is this very request when nothing moved it: reuse it.
    const reuse = request === wire ? awaited() : undefined;
    const edge = index > 0 && windows ? (windows[index - 1] as [number, number])[wire.asc === true ? 1 : 0] : undefined;
    const ids = new Set<string>();
    const cursors = new Set<string>();
    let page: Page | null = await (reuse ?? fetchPage(client, operation, request, options, context, factory));
    while (page) {
      // Items of the edge second went out with the previous window; items seen on an earlier page of
      // this window (page-number paging while items are added, a repeated cursor) are not yielded twice.
      const fresh = page.items.filter((item) => {
        if (edge !== undefined && operation.window?.timeOf(item) === edge) return false;
        const id = operation.idOf?.(item);
        return id === undefined || (!ids.has(id) && (ids.add(id), true));
      });
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
  if (!cursor || cursors.has(cursor)) {
    client._log(
      'warn',
      `${operation.name}: the server said more pages exist but sent ${cursor ? 'a cursor it already sent' : 'no cursor'} ` +
        `(request ${page.requestId}); stopping here rather than looping`,
    );
    return null;
  }
  cursors.add(cursor);
  return fetchPage(client, operation, nextRequest(page.request, { w: 0, c: cursor }), options, context, factory);
}

function windowRequest<Request extends PagedRequest>(wire: Request, windows: Array<[number, number]> | undefined, index: number): Request {
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

/** The params without their paging fields, hashed (FNV-1a over canonical JSON): what a token belongs to. */
export function fingerprint(wire: PagedRequest): string {
  const { p: _p, search_after_ctx: _c, ...rest } = wire;
  const text = canonical(rest);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function encodeToken(next: Omit<Token, 'v' | 'op' | 'f'>, operation: ListOperation<never>, context: PageContext): string {
  const token: Token = { v: 1, op: operation.name, f: context.fingerprint, ...next };
  return btoa(encodeURIComponent(JSON.stringify(token))).replace(/=+$/, '');
}

function decodeToken(text: unknown, operation: ListOperation<never>, print: string): Token {
  let token: Partial<Token> | undefined;
  try {
    token = typeof text === 'string' ? (JSON.parse(decodeURIComponent(atob(text))) as Partial<Token>) : undefined;
  } catch {
    token = undefined;
  }
  if (!token || token.v !== 1 || typeof token.w !== 'number') {
    throw new RequestValidationError('resumeFrom', 'expected the resumeToken of a page');
  }
  if (token.op !== operation.name || token.f !== print) {
    throw new RequestValidationError('resumeFrom', `the token belongs to other params (or another list than ${operation.name}); resume with the params it came from`);
  }
  return token as Token;
}
