// client.alerts and client.channels: reads, bodies exactly as the OpenAPI's request schemas. The
// alert list pages by cursor or page number over windows of at most 31 days (iteration splits a
// longer range); the channel list by page number; an alert's events come in one page.

import type { APIPromise } from '../../core/api-promise.js';
import type { Flashduty, RequestOptions } from '../client.js';
import type { ListPagePromise, PagedRequest } from '../paging.js';
import type { OperationBody, OperationData } from '../request.js';
import { type ItemOf, list, listOperation, send } from './shared.js';

const ALERT_LIST = listOperation({
  path: '/alert/list',
  name: 'alerts.list',
  cursor: true,
  number: true,
  maxDepth: 10_000,
  window: { max: 31 * 86_400, timeOf: (alert) => alert.start_time ?? 0 },
  idOf: (alert) => alert.alert_id ?? '',
  shape: { hasNextPage: true },
});
const ALERT_EVENTS = listOperation({ path: '/alert/event/list', name: 'alerts.events' });
const CHANNEL_LIST = listOperation({
  path: '/channel/list',
  name: 'channels.list',
  number: true,
  defaultLimit: 100,
  shape: { total: true, hasNextPage: true },
});

/** One alert of `alerts.list`. */
export type AlertListItem = ItemOf<'/alert/list'>;
/** One raw event of an alert. */
export type AlertEventListItem = ItemOf<'/alert/event/list'>;
/** One channel of `channels.list`. */
export type ChannelListItem = ItemOf<'/channel/list'>;

/** Alerts: list, detail and raw events (`client.alerts`). */
export class Alerts {
  readonly #client: Flashduty;

  /** @internal */
  constructor(client: Flashduty) {
    this.#client = client;
  }

  /**
   * List alerts (`POST /alert/list`) in a window of Unix seconds, by cursor (default) or page
   * number. `await` gives one page (the window at most 31 days); iterating walks any range.
   */
  list(
    params: OperationBody<'/alert/list'>,
    options?: RequestOptions,
  ): ListPagePromise<AlertListItem, OperationBody<'/alert/list'> & PagedRequest> {
    return list<'/alert/list'>(this.#client, ALERT_LIST, params, options);
  }

  /** Get alert detail (`POST /alert/info`): its incident and event count included. */
  info(params: OperationBody<'/alert/info'>, options?: RequestOptions): APIPromise<OperationData<'/alert/info'>> {
    return send(this.#client, '/alert/info', params, options);
  }

  /** List events for an alert (`POST /alert/event/list`): every raw event, in chronological order, in one page. */
  events(
    params: OperationBody<'/alert/event/list'>,
    options?: RequestOptions,
  ): ListPagePromise<AlertEventListItem, OperationBody<'/alert/event/list'> & PagedRequest> {
    return list<'/alert/event/list'>(this.#client, ALERT_EVENTS, params, options);
  }
}

/** Channels: list and detail (`client.channels`). */
export class Channels {
  readonly #client: Flashduty;

  /** @internal */
  constructor(client: Flashduty) {
    this.#client = client;
  }

  /** List channels (`POST /channel/list`) accessible to the caller, by page number. */
  list(
    params: OperationBody<'/channel/list'> = {},
    options?: RequestOptions,
  ): ListPagePromise<ChannelListItem, OperationBody<'/channel/list'> & PagedRequest> {
    return list<'/channel/list'>(this.#client, CHANNEL_LIST, params, options);
  }

  /** Get channel detail (`POST /channel/info`). */
  info(params: OperationBody<'/channel/info'>, options?: RequestOptions): APIPromise<OperationData<'/channel/info'>> {
    return send(this.#client, '/channel/info', params, options);
  }
}
