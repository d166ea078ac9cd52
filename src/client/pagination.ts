// listIncidents' pages: the incident list as one operation of the paging engine (paging.ts), with
// the page class and promise the API names. Windows of 31 days, cursor and page number.

import type { IncidentInfo } from '../schemas/incident.js';
import type { ListIncidentsRequest } from '../schemas/list.js';
import { loadDeep } from '../schemas/load-deep.js';
import { checkPageShape } from '../schemas/shape.js';
import type { Flashduty, RequestOptions } from './client.js';
import { ListPage, ListPagePromise, type ListOperation, type WireSource } from './paging.js';

/** The longest window the service accepts in one request. */
export const MAX_WINDOW_SECONDS = 31 * 86_400;
/** The service refuses `p × limit` beyond this. */
export const MAX_PAGE_DEPTH = 10_000;

/** @internal */
export const INCIDENT_LIST: ListOperation<IncidentInfo> = {
  name: 'listIncidents',
  path: 'incident/list',
  cursor: true,
  number: true,
  defaultLimit: 20,
  maxDepth: MAX_PAGE_DEPTH,
  idOf: (incident) => incident.incident_id,
  window: { max: MAX_WINDOW_SECONDS, timeOf: (incident) => incident.start_time },
  // At once unless deep: a promise per page where nothing waits cost a call two turns.
  check: (data, client) => {
    const problem = checkPageShape(data);
    if (problem || client.validate !== 'deep') return problem;
    return loadDeep().then((deep) => deep.checkIncidentListDeep(data));
  },
};

/** One page of `listIncidents`. */
export class IncidentPage extends ListPage<IncidentInfo, ListIncidentsRequest> {
  /** Total matches as the server counts them (capped at 1000 by the service). */
  declare readonly total: number;
}

/** `await` gives the first page; iterating gives every incident. */
export class IncidentPagePromise extends ListPagePromise<IncidentInfo, ListIncidentsRequest, IncidentPage> {
  /** @internal */
  constructor(client: Flashduty, wire: WireSource<ListIncidentsRequest>, options: RequestOptions) {
    super(client, INCIDENT_LIST, wire, options, IncidentPage);
  }
}
