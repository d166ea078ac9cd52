// The contract of a paging scheme, the one thing that differs between list operations' walks: how
// a request asks for a page (its cursor or page number, in the wire's own field), which page comes
// next, and whether the service has more. The schemes themselves are in schemes/, one file each;
// the walk (walk.ts) knows none of them by name. A scheme is chosen per operation from its generated
// paging rule, and by `.pages({ by })` where an operation has two.

import type { PagingRule } from '../resources/rules.js';

/** How iteration moves from page to page (`.pages({ by })`): by a cursor the answer gives, or by counting pages. */
export type PagingMode = 'cursor' | 'number';

/**
 * Where a page stands in its window, as resume tokens keep it: the cursor it was asked with (`c`), or
 * its page number (`p`, 1 for the first page). Neither: the first page of the params as given.
 */
export interface Position {
  c?: string;
  p?: number;
}

/** A request body of a list operation, as paging touches it: its fields by their wire names. */
export type WireRequest = Record<string, unknown>;

/** A page's answer, as a scheme reads it. */
export interface PageAnswer {
  /** The answer's `data`. */
  data: Record<string, unknown>;
  /** The page's items. */
  items: readonly unknown[];
  /** Where the page was asked for. */
  at: Position;
  /** The request's page size: its `limit`, else the operation's default. */
  limit: number;
}

/** One way of paging: how a request asks for a page, and which page comes next. */
export interface PagingScheme {
  readonly by: PagingMode;
  /**
   * The position the caller's params hold in this scheme's field (`{}` for none); a
   * RequestValidationError where they name one no walk can start from.
   */
  read(request: WireRequest, paging: PagingRule): Position;
  /** `request` asking for the page at `at`: the scheme's field set from it, or left out where `at` has none. */
  place(request: WireRequest, at: Position, paging: PagingRule): WireRequest;
  /** Where a walk by this scheme starts, given the caller's position. */
  origin(at: Position): Position;
  /** Whether the service has pages after this one (for this request, in this window). */
  more(answer: PageAnswer): boolean;
  /** The position of the page after this one, where the service has one and the answer says how to ask for it. */
  next(answer: PageAnswer): Position | undefined;
  /** The cursor the answer gives for the next page, where the scheme pages by cursor (a page's `searchAfterCtx`). */
  cursorOf?(data: Record<string, unknown>): string | undefined;
}

/** What the generator writes into an operation's paging rule for a scheme it recognises. */
export type SchemeFacts = Pick<PagingRule, 'cursor' | 'number' | 'cursorFields' | 'offset'>;

/**
 * A scheme's class: which operations page by it, read by the generator from the OpenAPI (the fields
 * of the request body and of the answer's `data`) and by the client from the generated rule.
 */
export interface SchemeKind {
  readonly by: PagingMode;
  /** The facts of an operation whose request and answer have these fields, where it pages by this scheme. */
  recognise(request: ReadonlySet<string>, answer: ReadonlySet<string>): SchemeFacts | undefined;
  /** The scheme of an operation with this rule, where it pages by this scheme. */
  of(paging: PagingRule): PagingScheme | undefined;
}

/** The request's page size: its `limit`, else the operation's default. */
export function limitOf(request: WireRequest, paging: PagingRule): number {
  const { limit } = request;
  return typeof limit === 'number' && limit > 0 ? limit : paging.limit;
}
