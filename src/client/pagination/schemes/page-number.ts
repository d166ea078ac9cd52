// Paging by page number: the request sends `p` (1 for the first page) and the next page is `p + 1`.
// Rules owned here: a walk by number starts at the params' page, else the first; where the answer
// says nothing of `has_next_page`, its `total` counts what is left, and without a total a full page
// promises more (the walk then ends on the empty page after the last); the service serves no page
// past its depth (`p × limit`), so such a page is refused before it is asked for, whether the params
// name it or a walk comes to it.

import { RequestValidationError } from '../../../core/api-errors.js';
import type { PagingRule } from '../../resources/rules.js';
import {
  limitOf,
  type PageAnswer,
  type PagingScheme,
  type Position,
  type SchemeFacts,
  type WireRequest,
} from '../scheme.js';

export class PageNumberPaging implements PagingScheme {
  static readonly by = 'number';

  /** `p` in the request. */
  static recognise(request: ReadonlySet<string>): SchemeFacts | undefined {
    return request.has('p') ? { number: true } : undefined;
  }

  static of(paging: PagingRule): PagingScheme | undefined {
    return paging.number && !paging.offset ? PAGE_NUMBER : undefined;
  }

  readonly by = 'number';

  read(request: WireRequest, paging: PagingRule): Position {
    const p = this.pageOf(request, paging);
    return p === undefined ? {} : this.#within({ p }, limitOf(request, paging), paging);
  }

  place(request: WireRequest, at: Position, paging: PagingRule): WireRequest {
    const rest = this.without(request);
    if (at.p === undefined) return rest;
    const limit = limitOf(request, paging);
    return { ...rest, ...this.fields(this.#within(at, limit, paging).p as number, limit) };
  }

  origin(at: Position): Position {
    return { p: at.p ?? 1 };
  }

  more({ data, items, at, limit }: PageAnswer): boolean {
    if (typeof data.has_next_page === 'boolean') return data.has_next_page;
    const seen = ((at.p ?? 1) - 1) * limit + items.length;
    return typeof data.total === 'number' ? seen < data.total : items.length >= limit;
  }

  next(answer: PageAnswer): Position | undefined {
    return this.more(answer) ? { p: (answer.at.p ?? 1) + 1 } : undefined;
  }

  /** The page number the request asks for, as its field holds it. */
  protected pageOf(request: WireRequest, _paging: PagingRule): number | undefined {
    return typeof request.p === 'number' ? request.p : undefined;
  }

  /** The request's fields for page `p`. */
  protected fields(p: number, _limit: number): WireRequest {
    return { p };
  }

  /** The request without its page field. */
  protected without(request: WireRequest): WireRequest {
    const { p: _p, ...rest } = request;
    return rest;
  }

  /** `at`, where the service serves that deep; a RequestValidationError otherwise. */
  #within(at: Position, limit: number, paging: PagingRule): Position {
    const { depth } = paging;
    if (depth !== undefined && at.p !== undefined && at.p * limit > depth) {
      throw new RequestValidationError(
        'p',
        `p × limit must not exceed ${depth} (got ${at.p} × ${limit}); page by cursor to go further`,
      );
    }
    return at;
  }
}

const PAGE_NUMBER = new PageNumberPaging();
