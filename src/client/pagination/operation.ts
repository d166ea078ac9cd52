// What the paging engine knows of a list operation and of its pages: the operation (cursor, page
// number, windows, depth, item ids, page shape), the request fields paging touches, and where a
// page stands in its walk. Made from the generated rules (resources/call.ts), one per operation.

import type { Problem } from '../../core/problem.js';
import type { Flashduty } from '../client.js';
import type { PagingMode } from './page-promise.js';
import type { ListShape } from './shape.js';

/** A list operation, as the engine needs to know it. */
export interface ListOperation<Item> {
  /** For messages and tokens: `listIncidents`, `alerts.list`. */
  name: string;
  /** Wire path without the leading slash. */
  path: string;
  /** How it is called (default POST; a few lists are GET, their params in the query). */
  http?: 'GET' | 'POST';
  /** Pages by `search_after_ctx`. */
  cursor: boolean;
  /** Pages by `p`. */
  number: boolean;
  /** Page size when the params give none (for `p × limit`). */
  defaultLimit: number;
  /** Where the page's items are in `data` (default `items`; the audit log's are `docs`). */
  items?: string;
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
  /** What the page promises beside its items (checked unless `validate` is false, where `check` is not given). */
  shape?: ListShape;
  /** Checks the page instead of `shape` (`validate` is not false). */
  check?(data: unknown, client: Flashduty): Problem | undefined | Promise<Problem | undefined>;
  /**
   * Where the wire names paging otherwise: the engine works with `search_after_ctx` and `p`, and
   * these are their names on the wire (a cursor sent as `request`, answered as `response`; a page
   * number sent as `offset`, its first row). Pages keep the engine's names in `request`.
   */
  wire?: { cursor?: { request: string; response: string }; offset?: true };
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
  /** The params' fingerprint, computed when a first token asks for it (most pages are never asked). */
  fingerprint(): string;
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
