// What the OpenAPI does not say about paging, per list operation: how long one request's time window
// may be, how deep page-number paging goes, which field identifies an item (to yield it once when
// pages shift under a walk). Everything else about a list (cursor or page number, where its items
// are, its default page size) the generator reads from the OpenAPI itself.

import { MAX_PAGE_DEPTH, MAX_WINDOW_SECONDS } from '../../src/client/pagination/limits.js';

export interface PagingOverride {
  /** The longest `end_time - start_time` of one request, in the fields' own unit (seconds or ms). */
  window?: number;
  /** The item's field the window filters on (default `start_time`). */
  windowField?: string;
  /** How many of that field's units make one of the window's (1000: the item's time in ms, the window in s). */
  windowFieldUnits?: number;
  /** The service refuses `p × limit` beyond this. */
  depth?: number;
  /** The item's id field. */
  id?: string;
  /** A detail whose body has a cursor for a list inside it: a plain method, resolving to the whole `data`. */
  detail?: true;
}

const DAY_MS = 86_400_000;

export const PAGING_OVERRIDES: Record<string, PagingOverride> = {
  '/incident/list': { window: MAX_WINDOW_SECONDS, depth: MAX_PAGE_DEPTH, id: 'incident_id' },
  '/alert/list': { window: MAX_WINDOW_SECONDS, depth: MAX_PAGE_DEPTH, id: 'alert_id' },
  '/insight/incident/list': { id: 'incident_id' },
  // The service's own descriptions: "Maximum range: 183 days", "Maximum window: 365 days", "Maximum span 90 days".
  '/rum/issue/list': { window: 183 * DAY_MS },
  '/sourcemap/list': { window: 365 * DAY_MS },
  // Its window is in seconds, its docs' `created_at` in ms: a doc at the edge second's first ms is in both windows.
  '/audit/search': { window: 90 * 86_400, windowField: 'created_at', windowFieldUnits: 1000 },
  // The session with a window of its events: `search_after_ctx` pages older events (`has_more_older`).
  // As a list, its pages would hold the events alone and lose the session, which is what it is for.
  '/safari/session/get': { detail: true },
  // Streams the segments as NDJSON by default, its cursor in a header; as an envelope of URLs with
  // `url_mode: true`. One answer of either kind: the method resolves to it (lines or data), and
  // `withResponse()` gives the header's cursor.
  '/rum/session-replay/segments': { detail: true },
};
