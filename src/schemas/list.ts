import * as z from 'zod/mini';
import type { Progress, Severity } from './common.js';
import { bool, int, loose, opt, str } from './common.js';
import type { IncidentInfo } from './incident.js';
import { IncidentInfoSchema } from './incident.js';

/** The body of `POST /incident/list`, exactly as it goes on the wire. Times are Unix seconds. */
export interface ListIncidentsRequest {
  /** Window start (required). */
  start_time: number;
  /** Window end (required); greater than `start_time`, at most 31 days after it. */
  end_time: number;
  /** `true` sorts ascending; the default is newest first. */
  asc?: boolean;
  /** Only incidents whose notifications are snoozed. */
  is_snoozed?: boolean;
  /** Only incidents in channels managed by the caller's teams. */
  is_my_team?: boolean;
  /** Only incidents in channels the caller manages personally. */
  is_my_channel?: boolean;
  /** Only incidents that were ever silenced. */
  ever_muted?: boolean;
  /** Only rare incidents. */
  is_rare?: boolean;
  /** Comma-separated progress values, e.g. `Triggered,Processing`. */
  progress?: string;
  /** Full-text search keyword. */
  query?: string;
  /** Comma-separated severities from Critical, Warning, Info. */
  incident_severity?: string;
  /** Channel ids; 0 stands for standalone incidents. */
  channel_ids?: number[];
  /** Team ids, resolved through the teams owning channels. */
  team_ids?: number[];
  responder_ids?: number[];
  acker_ids?: number[];
  /** Creator member ids; 0 means created automatically. */
  creator_ids?: number[];
  /** Closer member ids; 0 means closed automatically. */
  closer_ids?: number[];
  /** Incident ids (24 hex characters each). */
  incident_ids?: string[];
  /** Short identifiers. */
  nums?: string[];
  /** Page number, starting at 1; `p × limit` must stay within 10,000. */
  p?: number;
  /** Page size, 0 to 100 (default 20). */
  limit?: number;
  /** Cursor returned by the previous page; wins over `p`. */
  search_after_ctx?: string;
}

/** Progress or severity filters: an array, or the wire's comma-separated string. */
export type CommaList<T extends string> = T | readonly T[];

/**
 * What `listIncidents` accepts: the wire request, plus `Date` for the window and arrays for the
 * comma-separated filters. It is converted to {@link ListIncidentsRequest} before sending.
 */
export interface ListIncidentsParams extends Omit<
  ListIncidentsRequest,
  'start_time' | 'end_time' | 'progress' | 'incident_severity'
> {
  /** Window start: a `Date` or Unix seconds. */
  start_time: Date | number;
  /** Window end: a `Date` or Unix seconds. Iteration accepts windows longer than 31 days. */
  end_time: Date | number;
  progress?: CommaList<Progress>;
  incident_severity?: CommaList<Severity>;
}

/** The `data` of a successful `POST /incident/list`. */
export interface IncidentListResponse {
  /** Incidents of this page. */
  items: IncidentInfo[];
  /** Total matches; the server caps it at 1000, so rely on `has_next_page`. */
  total: number;
  has_next_page: boolean;
  /** Cursor for the next page; present only when one exists. */
  search_after_ctx?: string;
}

/** Every field of every item: what `validate: 'deep'` checks. */
export const IncidentListResponseSchema: z.ZodMiniType<IncidentListResponse> = /* @__PURE__ */ (() =>
  loose({
    items: z.array(IncidentInfoSchema),
    total: int,
    has_next_page: bool,
    search_after_ctx: opt(str),
  }))();
