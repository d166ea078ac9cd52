// A walk through every page of a list call. It goes by one scheme (cursor or page number:
// scheme.ts), across the windows of a long range (windows.ts); what a page's next request is, its
// scheme says, and the walk keeps what no single page can know. Rules it owns:
// - Every item once: items of a window's edge second went out with the window before (windows.ts);
//   within a window, an item whose id was yielded before (page-number paging while items are added, a
//   repeated cursor) is not yielded again.
// - A walk never loops: it ends on no next page, an empty page, a page that says more exist but not
//   how to ask for them, or maxPages; a walk whose pages stop making progress (a cursor it was sent
//   before, or STALE_PAGES pages in a row of only items it already yielded: a service that ignores
//   the cursor or the page number) ends with a FlashdutyError saying so, not silently and not after
//   thousands of requests.
// - `resumeFrom` continues right after the page whose token it is (resume-token.ts), and refuses a
//   token of other params or another list.

import { FlashdutyError, RequestValidationError } from '../../core/api-errors.js';
import { hashOf } from '../../internal/hash.js';
import type { ListCall } from './list-call.js';
import type { PagedRequest } from './operation.js';
import type { ListPage } from './page.js';
import { decodeToken } from './resume-token.js';
import type { WalkOptions } from './page-promise.js';
import type { Position } from './scheme.js';
import { atEdge, edgeOf } from './windows.js';

/** Pages in a row of only items already yielded, after which a walk is taken to make no progress. */
export const STALE_PAGES = 3;

export async function* walk<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>>(
  call: ListCall<Item, Request, Page>,
  { by, maxPages, resumeFrom }: WalkOptions,
  awaited: () => Promise<Page> | undefined,
): AsyncGenerator<Page> {
  const { name, paging } = call.operation;
  const token = resumeFrom === undefined ? undefined : decodeToken(resumeFrom, name, call.fingerprint());
  // A token's position is a cursor or a page number: the walk resumes by the mode that wrote it
  // (another mode would read no position in it, and start over).
  const tokenBy = token?.c !== undefined ? 'cursor' : token?.p !== undefined ? 'number' : undefined;
  if (by !== undefined && tokenBy !== undefined && by !== tokenBy)
    throw new RequestValidationError(
      'resumeFrom',
      `the token was written by a walk by ${tokenBy}: resume with by: '${tokenBy}', or without by`,
    );
  const scheme = call.scheme(by ?? tokenBy);
  if (token?.end) return;
  const windows = call.windows();
  const count = windows?.length ?? 1;
  if (token && token.w >= count)
    throw new RequestValidationError('resumeFrom', 'the token does not belong to these params');
  const ascending = call.request.asc === true;
  let pagesLeft = maxPages;

  for (let index = token?.w ?? 0; index < count; index++) {
    if (pagesLeft <= 0) return;
    const resumed = token ? (index === token.w ? positionOf(token) : {}) : undefined;
    const { request, at } = call.windowStart(scheme, windows, index, resumed);
    // The awaited first page is this very page when nothing moved it: reuse it.
    const reuse = !token && index === 0 && call.startsAsAwaited(scheme, windows) ? awaited() : undefined;
    const edge = edgeOf(windows, index, ascending);
    const ids = new Set<string>();
    const cursors = new Set<string>();
    const progress = new Progress(name, paging.id !== undefined);
    let page: Page | null = await (reuse ?? call.fetch(request, { scheme, at, window: index, windows }));
    while (page) {
      // New to this window's walk (by id), whether or not the edge rule then drops it: a page of only
      // items of the edge second, yielded by the window before, is progress all the same.
      let news = 0;
      const fresh = page.items.filter((item) => {
        if (paging.id !== undefined) {
          const id = idOf((item as Record<string, unknown>)[paging.id]);
          if (ids.has(id)) return false;
          ids.add(id);
          news++;
        }
        return edge === undefined || !atEdge(item, paging, edge);
      });
      progress.check(page.items, news, page.requestId);
      yield call.withItems(page, fresh);
      if (--pagesLeft <= 0) return;
      if (!page.hasNextPage) break;
      const { next } = call.placeOf(page);
      if (!next) {
        call.client._log(
          'warn',
          `${name}: the server said more pages exist but not how to ask for them (request ${page.requestId}); stopping here`,
        );
        break;
      }
      if (next.c !== undefined) {
        if (cursors.has(next.c)) {
          throw new FlashdutyError(
            `${name}: the service sent a cursor it had sent before (request ${page.requestId}): ` +
              'its pages make no progress, so the walk stops here rather than looping',
          );
        }
        cursors.add(next.c);
      }
      page = await call.nextPage(page);
    }
  }
}

/**
 * An item's id as the walk remembers it: a string id as it is (every list's ids are; quoting each
 * as JSON is a measurable share of a walk's time), any other as its JSON, marked so
 * that it is never taken for a string id.
 */
function idOf(id: unknown): string {
  return typeof id === 'string' ? id : `\u0000${JSON.stringify(id ?? null)}`;
}

/** The position a token holds in its window. */
function positionOf({ c, p }: Position): Position {
  return c !== undefined ? { c } : p !== undefined ? { p } : {};
}

/**
 * Whether a window's pages still bring items it has not yielded: by the items' ids where the
 * operation names them (the walk already drops repeated ones: `fresh`), else by a hash of each item.
 * STALE_PAGES pages in a row with nothing new end the walk with a FlashdutyError.
 */
class Progress {
  readonly #name: string;
  readonly #byId: boolean;
  /** Hashes of the items seen, for an operation whose items have no id. */
  readonly #seen = new Set<number>();
  #stale = 0;

  constructor(name: string, byId: boolean) {
    this.#name = name;
    this.#byId = byId;
  }

  check(items: readonly unknown[], fresh: number, requestId: string): void {
    if (items.length === 0) return;
    let news = fresh;
    if (!this.#byId) {
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
        `${this.#name}: ${STALE_PAGES} pages in a row held only items already yielded (last: request ${requestId}): ` +
          'the service is not paging, so the walk stops here rather than looping',
      );
    }
  }
}
