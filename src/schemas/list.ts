// `POST /incident/list`: the wire request and response (the generated OpenAPI types; the items are
// our IncidentInfo), what `listIncidents` accepts on top, and the response's zod/mini schema, kept in
// step with its type by `Agrees`.
import * as z from 'zod/mini';
import type { components } from '../generated/openapi.js';
import type { CommaList } from '../client/resources/types.js';
import type { Agrees } from './common.js';
import { bool, int, loose, opt, str } from './common.js';
import type { IncidentInfo } from './incident.js';
import { IncidentInfoSchema } from './incident.js';

/**
 * The body of `POST /incident/list`, exactly as it goes on the wire. Times are Unix seconds.
 *
 * @interface
 */
export type ListIncidentsRequest = components['schemas']['ListIncidentsRequest'];

/** The progress states `listIncidents` filters by (the contract's list; answers may carry others). */
export type ProgressFilter = 'Triggered' | 'Processing' | 'Closed';
/** The severities `listIncidents` filters by (the contract's list; answers may carry others, such as `Ok`). */
export type SeverityFilter = 'Critical' | 'Warning' | 'Info';

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
  /** Progress states: an array, or the wire's comma-separated string (`'Triggered,Processing'`); another value is refused before sending. */
  progress?: CommaList<ProgressFilter>;
  /** Severities: an array, or the wire's comma-separated string (`'Critical,Warning'`); another value is refused before sending. */
  incident_severity?: CommaList<SeverityFilter>;
}

/** The `data` of a successful `POST /incident/list`. */
export interface IncidentListResponse extends Omit<components['schemas']['IncidentListResponse'], 'items'> {
  /** Incidents of this page. */
  items: IncidentInfo[];
}

/** Every field of every item: what `validate: 'deep'` checks. */
export const IncidentListResponseSchema: z.ZodMiniType<IncidentListResponse> = /* @__PURE__ */ (() => {
  const schema = loose({
    items: z.array(IncidentInfoSchema),
    total: int,
    has_next_page: bool,
    search_after_ctx: opt(str),
  });
  return schema satisfies Agrees<typeof schema, IncidentListResponse>;
})();
