// The incident list's pages, as the API names them: IncidentPage and IncidentPagePromise (the
// generated `incidents.list`, and `listIncidents`, return one). The list itself pages as every list
// does, by its generated rule (its 31-day windows, its depth, its incidents' ids).

import type { IncidentInfo } from '../../schemas/incident.js';
import type { ListIncidentsRequest } from '../../schemas/list.js';
import { ListPage } from './page.js';
import { type ListOpener, ListPagePromise } from './page-promise.js';

/** One page of `listIncidents`. */
export class IncidentPage extends ListPage<IncidentInfo, ListIncidentsRequest> {
  /** Total matches as the server counts them (capped at 1000 by the service). */
  declare readonly total: number;
}

/** `await` gives the first page; iterating gives every incident. */
export class IncidentPagePromise extends ListPagePromise<IncidentInfo, ListIncidentsRequest, IncidentPage> {
  /** @internal Made by `incidents.list`; its pages are IncidentPages. */
  constructor(open: ListOpener<IncidentInfo, ListIncidentsRequest, IncidentPage>) {
    super(open, IncidentPage);
  }
}
