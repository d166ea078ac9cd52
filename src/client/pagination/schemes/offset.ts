// Paging by offset: a page number sent as the page's first row, `offset = (p − 1) × limit`
// (`/safari/a2a-agent/list`); otherwise as page number paging. Rule owned here: an offset in the
// params must start a page (a multiple of the page size), or no walk can go on from it page by page.

import { RequestValidationError } from '../../../core/api-errors.js';
import type { PagingRule } from '../../resources/rules.js';
import { limitOf, type PagingScheme, type SchemeFacts, type WireRequest } from '../scheme.js';
import { PageNumberPaging } from './page-number.js';

export class OffsetPaging extends PageNumberPaging {
  /** `offset` and `limit` in the request, and no `p`. */
  static override recognise(request: ReadonlySet<string>): SchemeFacts | undefined {
    return request.has('offset') && request.has('limit') && !request.has('p')
      ? { number: true, offset: true }
      : undefined;
  }

  static override of(paging: PagingRule): PagingScheme | undefined {
    return paging.number && paging.offset ? OFFSET : undefined;
  }

  protected override pageOf(request: WireRequest, paging: PagingRule): number | undefined {
    const { offset } = request;
    if (typeof offset !== 'number') return undefined;
    const limit = limitOf(request, paging);
    if (offset % limit !== 0)
      throw new RequestValidationError(
        'offset',
        `must be a multiple of limit (${limit}) to page from it, got ${offset}`,
      );
    return offset > 0 ? offset / limit + 1 : undefined;
  }

  protected override fields(p: number, limit: number): WireRequest {
    return { offset: (p - 1) * limit };
  }

  protected override without(request: WireRequest): WireRequest {
    const { offset: _offset, ...rest } = request;
    return rest;
  }
}

const OFFSET = new OffsetPaging();
