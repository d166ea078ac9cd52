// Paging by cursor: the answer gives a cursor, and the next request sends it back. Most lists send
// and answer it as `search_after_ctx`; a few send it under one name and answer it under another
// (`/monit/targets`: sent as `cursor`, answered as `next_cursor`), which the rule's `cursorFields`
// names. Rules owned here: an empty cursor asks for the first page; where the answer says nothing of
// `has_next_page`, a cursor is the promise of more; a page with no cursor has no next page by cursor.

import type { PagingRule } from '../../resources/rules.js';
import type { PageAnswer, PagingScheme, Position, SchemeFacts, WireRequest } from '../scheme.js';

const USUAL = { request: 'search_after_ctx', response: 'search_after_ctx' } as const;

export class CursorPaging implements PagingScheme {
  static readonly by = 'cursor';

  /** `search_after_ctx` in the request; else `cursor` in the request answered by `next_cursor`. */
  static recognise(request: ReadonlySet<string>, answer: ReadonlySet<string>): SchemeFacts | undefined {
    if (request.has('search_after_ctx')) return { cursor: true };
    if (request.has('cursor') && answer.has('next_cursor'))
      return { cursor: true, cursorFields: { request: 'cursor', response: 'next_cursor' } };
    return undefined;
  }

  static of(paging: PagingRule): CursorPaging | undefined {
    return paging.cursor ? new CursorPaging(paging.cursorFields ?? USUAL) : undefined;
  }

  readonly by = 'cursor';
  /** The field the request sends the cursor in, and the field the answer gives it in. */
  readonly #fields: { request: string; response: string };

  constructor(fields: { request: string; response: string }) {
    this.#fields = fields;
  }

  read(request: WireRequest): Position {
    const cursor = request[this.#fields.request];
    return typeof cursor === 'string' && cursor !== '' ? { c: cursor } : {};
  }

  place(request: WireRequest, at: Position): WireRequest {
    const { [this.#fields.request]: _sent, ...rest } = request;
    return at.c === undefined ? rest : { ...rest, [this.#fields.request]: at.c };
  }

  origin(at: Position): Position {
    return at.c === undefined ? {} : { c: at.c };
  }

  cursorOf(data: Record<string, unknown>): string | undefined {
    const cursor = data[this.#fields.response];
    return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
  }

  more({ data }: PageAnswer): boolean {
    return typeof data.has_next_page === 'boolean' ? data.has_next_page : this.cursorOf(data) !== undefined;
  }

  next(answer: PageAnswer): Position | undefined {
    const cursor = this.cursorOf(answer.data);
    return cursor !== undefined && this.more(answer) ? { c: cursor } : undefined;
  }
}
