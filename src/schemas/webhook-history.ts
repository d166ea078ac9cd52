// Wire types of the webhook delivery history (`POST /webhook/history/list` and `/detail`), as the
// vendor's OpenAPI describes them: snake_case, times of the request in Unix milliseconds, `event_time`
// of a record a formatted timestamp string. The generated OpenAPI types, with the record's enums open
// (`Known | (string & {})`: the service may add kinds and outcomes).

import type { components } from '../generated/openapi.js';

/** Outcome of one delivery. */
export type WebhookDeliveryStatus = 'success' | 'failed';

/**
 * `POST /webhook/history/list`: filters over a millisecond window, paged by `search_after_ctx`.
 *
 * @interface
 */
export type ListWebhookHistoryRequest = components['schemas']['ListWebhookHistoryRequest'];

/**
 * The params of `client.webhookHistory.list()`: {@link ListWebhookHistoryRequest}, where
 * `start_time`/`end_time` also take a `Date`, and `limit` defaults to 20.
 */
export interface ListWebhookHistoryParams extends Omit<ListWebhookHistoryRequest, 'limit' | 'start_time' | 'end_time'> {
  /** Page size, 1–100; default 20. */
  limit?: number;
  /** Window start: Unix milliseconds or a `Date`. */
  start_time: number | Date;
  /** Window end: Unix milliseconds or a `Date`; after `start_time`. */
  end_time: number | Date;
}

/** A single webhook delivery attempt. Fields with `omitempty` are absent when zero-valued. */
export interface WebhookHistoryItem extends Omit<
  components['schemas']['WebhookHistoryItem'],
  'webhook_type' | 'status'
> {
  /** Source object kind: `incident` or `alert`. */
  webhook_type: 'incident' | 'alert' | (string & {});
  /** Delivery outcome. */
  status: WebhookDeliveryStatus | (string & {});
}

/** `data` of `POST /webhook/history/list`. */
export interface ListWebhookHistoryResponse extends Omit<components['schemas']['ListWebhookHistoryResponse'], 'items'> {
  /** The delivery attempts of this page. */
  items: WebhookHistoryItem[];
}

/**
 * `POST /webhook/history/detail`: one delivery record.
 *
 * @interface
 */
export type GetWebhookHistoryDetailRequest = components['schemas']['GetWebhookHistoryDetailRequest'];

/** Full detail of a delivery attempt: the item plus reference metadata resolved at query time. */
export interface WebhookHistoryDetail
  extends WebhookHistoryItem, Omit<components['schemas']['WebhookHistoryDetail'], keyof WebhookHistoryItem> {}
