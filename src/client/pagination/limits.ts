// The service's paging limits, defined once: the client checks requests against them before
// sending, the paging table (scripts/generate/paging.ts) gives them to the list operations that
// have them, and the mock service enforces them.

/** The longest time window of one incident or alert list request: 31 days, in seconds. */
export const MAX_WINDOW_SECONDS = 31 * 86_400;
/** The service refuses page-number requests with `p × limit` beyond this. */
export const MAX_PAGE_DEPTH = 10_000;
