// listIncidents: a page promise at once; the params are converted and checked by the spec's rules
// (incident-params.ts, loaded on the first page) before anything is sent, and a bad param rejects
// the first page or the walk.

import { lazy } from '../internal/lazy.js';
import type { ListIncidentsParams } from '../schemas/list.js';
import type { Flashduty, RequestOptions } from './client.js';
import { IncidentPagePromise } from './pagination.js';
import { snapshot } from './paging.js';

/** The params' conversion, imported on the first page. */
const loadParams = lazy(() => import('./incident-params.js'));

export function listIncidents(
  client: Flashduty,
  params: ListIncidentsParams,
  options: RequestOptions = {},
): IncidentPagePromise {
  const copy = snapshot(params);
  return new IncidentPagePromise(client, () => loadParams().then(({ toWireRequest }) => toWireRequest(copy)), options);
}
