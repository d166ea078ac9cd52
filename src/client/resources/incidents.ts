// client.incidents: the incident lifecycle, bodies exactly as the OpenAPI's request schemas. Every
// write is a mutation (never sent twice unless the first attempt provably did not reach the server);
// info, listByIds and feed are reads.

import type { APIPromise } from '../../core/api-promise.js';
import type { Flashduty, RequestOptions } from '../client.js';
import type { ListPagePromise, PagedRequest } from '../paging.js';
import type { OperationBody, OperationData } from '../request.js';
import { type ItemOf, list, listOperation, send } from './shared.js';

const FEED = listOperation({
  path: '/incident/feed',
  name: 'incidents.feed',
  number: true,
  shape: { hasNextPage: true },
});

/** One entry of an incident's timeline. */
export type IncidentFeedItem = ItemOf<'/incident/feed'>;

/** Incidents: detail, timeline and every lifecycle action (`client.incidents`). */
export class Incidents {
  readonly #client: Flashduty;

  /** @internal */
  constructor(client: Flashduty) {
    this.#client = client;
  }

  /** Get incident detail (`POST /incident/info`): timeline, alerts, responders and custom fields. */
  info(params: OperationBody<'/incident/info'>, options?: RequestOptions): APIPromise<OperationData<'/incident/info'>> {
    return send(this.#client, '/incident/info', params, options);
  }

  /** List incidents by IDs (`POST /incident/list-by-ids`): several incidents in one request. */
  listByIds(
    params: OperationBody<'/incident/list-by-ids'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/list-by-ids'>> {
    return send(this.#client, '/incident/list-by-ids', params, options);
  }

  /** Create incident (`POST /incident/create`): manually create a new incident and assign responders. */
  create(
    params: OperationBody<'/incident/create'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/create'>> {
    return send(this.#client, '/incident/create', params, options);
  }

  /** Acknowledge incident (`POST /incident/ack`): you are actively working on it. */
  ack(params: OperationBody<'/incident/ack'>, options?: RequestOptions): APIPromise<OperationData<'/incident/ack'>> {
    return send(this.#client, '/incident/ack', params, options);
  }

  /** Unacknowledge incident (`POST /incident/unack`): remove the acknowledge status. */
  unack(
    params: OperationBody<'/incident/unack'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/unack'>> {
    return send(this.#client, '/incident/unack', params, options);
  }

  /** Resolve incident (`POST /incident/resolve`), optionally with its root cause and resolution. */
  resolve(
    params: OperationBody<'/incident/resolve'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/resolve'>> {
    return send(this.#client, '/incident/resolve', params, options);
  }

  /** Reopen incident (`POST /incident/reopen`): a previously resolved incident. */
  reopen(
    params: OperationBody<'/incident/reopen'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/reopen'>> {
    return send(this.#client, '/incident/reopen', params, options);
  }

  /** Snooze incident (`POST /incident/snooze`): no notifications for `minutes` (1–1440). */
  snooze(
    params: OperationBody<'/incident/snooze'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/snooze'>> {
    return send(this.#client, '/incident/snooze', params, options);
  }

  /** Wake incident (`POST /incident/wake`): cancel the snooze and resume notifications. */
  wake(params: OperationBody<'/incident/wake'>, options?: RequestOptions): APIPromise<OperationData<'/incident/wake'>> {
    return send(this.#client, '/incident/wake', params, options);
  }

  /** Assign incident (`POST /incident/assign`): to people, or to an escalation rule's level. */
  assign(
    params: OperationBody<'/incident/assign'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/assign'>> {
    return send(this.#client, '/incident/assign', params, options);
  }

  /** Add incident responder (`POST /incident/responder/add`). */
  addResponder(
    params: OperationBody<'/incident/responder/add'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/responder/add'>> {
    return send(this.#client, '/incident/responder/add', params, options);
  }

  /** Add comment to incident (`POST /incident/comment`): a text entry on the timeline. */
  comment(
    params: OperationBody<'/incident/comment'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/comment'>> {
    return send(this.#client, '/incident/comment', params, options);
  }

  /** Update incident fields (`POST /incident/reset`): title, description, impact, root cause, resolution, severity. */
  reset(
    params: OperationBody<'/incident/reset'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/reset'>> {
    return send(this.#client, '/incident/reset', params, options);
  }

  /** Merge incidents (`POST /incident/merge`): sources into a target incident. */
  merge(
    params: OperationBody<'/incident/merge'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/merge'>> {
    return send(this.#client, '/incident/merge', params, options);
  }

  /** Delete an incident (`POST /incident/remove`): permanently, with all its data. */
  remove(
    params: OperationBody<'/incident/remove'>,
    options?: RequestOptions,
  ): APIPromise<OperationData<'/incident/remove'>> {
    return send(this.#client, '/incident/remove', params, options);
  }

  /**
   * Get incident timeline (`POST /incident/feed`): state changes, comments and system events, paged
   * by page number. `await` gives one page; iterating gives every entry.
   */
  feed(
    params: OperationBody<'/incident/feed'>,
    options?: RequestOptions,
  ): ListPagePromise<IncidentFeedItem, OperationBody<'/incident/feed'> & PagedRequest> {
    return list<'/incident/feed'>(this.#client, FEED, params, options);
  }
}
