// The shape of an operation's runtime rules, as `npm run generate` writes them for every operation
// (src/generated/operation-rules.ts; how each is read from the OpenAPI: scripts/generate/methods.ts).

/** What the client needs to know of an operation beyond its path, HTTP method and retry policy. */
export interface OperationRule {
  /** How a list operation pages. */
  paging?: PagingRule;
  /**
   * Unix-time fields by their place (`start_time`, `time_filter.start_time`, `layers[].start`: `[]`
   * for each item of an array), in seconds (`s`) or milliseconds (`ms`): they also take a `Date`.
   */
  times?: Record<string, 's' | 'ms'>;
  /** Comma-separated string fields, each with its allowed values (empty: every value): they also take an array. */
  lists?: Record<string, string[]>;
  /** Path parameters: fields of the params, put into the path (encoded), never into the body. */
  pathParams?: string[];
  /** The operation takes a bearer token of its own (the call option `token`) instead of the client's credential. */
  token?: true;
  /** The body has an `idempotency_key`, filled in when the caller gives none. */
  idempotency?: true;
  /** The request is sent as `multipart/form-data` (a file upload), not JSON. */
  multipart?: true;
  /** The answer is NDJSON lines (`application/x-ndjson`), not an envelope: the call resolves to them, parsed. */
  ndjson?: true;
  /** The answer is NDJSON lines or an envelope, as the request asks: read by the answer's Content-Type. */
  orEnvelope?: true;
}

/**
 * How a list operation pages: where its items are, its page size, and the facts its schemes are
 * chosen by (pagination/schemes/: a cursor, a page number, an offset), with what the OpenAPI does
 * not say (scripts/generate/paging.ts: windows, depth, item ids).
 */
export interface PagingRule {
  /** Where the page's items are in `data` (`items`, `docs`). */
  items: string;
  /** The page size when the params give none (the OpenAPI's default of `limit`). */
  limit: number;
  /** Pages by cursor. */
  cursor?: true;
  /** The cursor's fields where they are not `search_after_ctx`: sent as `request`, answered as `response`. */
  cursorFields?: { request: string; response: string };
  /** Pages by page number. */
  number?: true;
  /** The page number is sent as `offset`, the page's first row (`(p − 1) × limit`), instead of `p`. */
  offset?: true;
  /** The longest window of one request, in the time fields' unit. */
  window?: number;
  /** The item's time field the window filters on (default `start_time`). */
  windowField?: string;
  /** How many of that field's units make one of the window's (1000: the item's time in ms, the window in s); default 1. */
  windowFieldUnits?: number;
  /** The deepest page-number page the service serves (`p × limit`). */
  depth?: number;
  /** The item's id field (an item is yielded once even when pages shift). */
  id?: string;
  /** Every page has an integer `total`. */
  total?: true;
  /** Every page has a boolean `has_next_page`. */
  hasNext?: true;
  /** The OpenAPI requires `limit`: the default is sent when the params give none. */
  limitRequired?: true;
  /** The name its walks' messages and resume tokens carry, where not its method's (`listIncidents`). */
  name?: string;
}
