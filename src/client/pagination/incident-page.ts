// The incident list's pages: the page class and promise the API names (IncidentPage,
// IncidentPagePromise), and the page check that `validate` runs on them. The list itself is an
// operation like any other (call.ts, the paging engine), with its 31-day windows and depth limit
// from the generated rules.

import type { IncidentInfo } from '../../schemas/incident.js';
import type { ListIncidentsRequest } from '../../schemas/list.js';
import { loadDeep } from '../../schemas/load-deep.js';
import { checkPageShape } from '../../schemas/shape.js';
import type { ListOperation } from './operation.js';
import { ListPage } from './page.js';
import { ListPagePromise } from './page-promise.js';

/** @internal The incident page's check: at once unless deep (a promise per page where nothing waits cost a call two turns). */
export const checkIncidentPage: NonNullable<ListOperation<IncidentInfo>['check']> = (data, client) => {
  const problem = checkPageShape(data);
  if (problem || client.validate !== 'deep') return problem;
  return loadDeep().then((deep) => deep.checkIncidentListDeep(data));
};

/** One page of `listIncidents`. */
export class IncidentPage extends ListPage<IncidentInfo, ListIncidentsRequest> {
  /** Total matches as the server counts them (capped at 1000 by the service). */
  declare readonly total: number;
}

/** `await` gives the first page; iterating gives every incident. */
export class IncidentPagePromise extends ListPagePromise<IncidentInfo, ListIncidentsRequest, IncidentPage> {}
