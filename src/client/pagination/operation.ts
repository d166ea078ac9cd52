// What paging knows of a list operation, and the request fields paging touches on every list. A
// list operation is its name, where it is sent and its generated paging rule (resources/call.ts
// makes it from the tables).

import type { PagingRule } from '../resources/rules.js';

/** A list operation, as paging knows it. */
export interface ListOperation {
  /** For messages and resume tokens: its method (`alerts.list`), or the name its rule gives (`listIncidents`). */
  name: string;
  /** Wire path without the leading slash. */
  path: string;
  /** How it is called (most lists are POST; a few are GET, their params in the query). */
  http: 'GET' | 'POST';
  /** How it pages: its schemes' facts, where its items are, windows, depth, item ids. */
  paging: PagingRule;
}

/** The request of a list operation, as far as paging touches it (by these names, on most lists). */
export interface PagedRequest {
  search_after_ctx?: string;
  p?: number;
  limit?: number;
  asc?: boolean;
  start_time?: number;
  end_time?: number;
}
