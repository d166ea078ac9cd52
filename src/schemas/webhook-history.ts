// Wire types of the webhook delivery history (`POST /webhook/history/list` and `/detail`), as the
// vendor's OpenAPI describes them: snake_case, times of the request in Unix milliseconds, `event_time`
// of a record a formatted timestamp string. Enums stay open (`Known | (string & {})`).

/** Outcome of one delivery. */
export type WebhookDeliveryStatus = 'success' | 'failed';

/** `POST /webhook/history/list`: filters over a millisecond window, paged by `search_after_ctx`. */
export interface ListWebhookHistoryRequest {
  /** Opaque cursor returned by a previous call for fetching the next page. */
  search_after_ctx?: string;
  /** Page size, 1–100. */
  limit: number;
  /** Ascending order by `event_time` when true; otherwise descending. */
  asc?: boolean;
  /** Sort field. Currently only `event_time` is supported. */
  orderby?: 'event_time';
  /** Reference ID filter (incident or alert ID), at most 128 characters. */
  ref_id?: string;
  /** Filter by integration ID. */
  integration_id?: number;
  /** Filter by event type values. */
  event_types?: string[];
  /** Filter by delivery status. */
  status?: WebhookDeliveryStatus;
  /** Window start time in Unix milliseconds. */
  start_time: number;
  /** Window end time in Unix milliseconds. Must be greater than `start_time`. */
  end_time: number;
}

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
export interface WebhookHistoryItem {
  /** Integration ID that triggered the webhook. */
  integration_id: number;
  /** Unique event identifier for the delivery attempt. */
  event_id: string;
  /** Source object kind: `incident` or `alert`. */
  webhook_type: 'incident' | 'alert' | (string & {});
  /** Event type (`i_new`, `i_ack`, `a_update`, …). */
  event_type: string;
  /** Channel ID associated with the event, when applicable. */
  channel_id?: number;
  /** Source object ID (incident ID or alert ID). */
  ref_id?: string;
  /** Serialized outbound request headers (JSON text). */
  request_headers?: string;
  /** Outbound request body payload (the delivered JSON text). */
  request_body?: string;
  /** Destination URL. */
  endpoint: string;
  /** Attempt sequence number. */
  attempt: number;
  /** Total elapsed time of the attempt in milliseconds. */
  duration: number;
  /** Delivery outcome. */
  status: WebhookDeliveryStatus | (string & {});
  /** HTTP status code returned by the destination (0 when none came). */
  status_code: number;
  /** Error message when delivery failed. */
  error_message?: string;
  /** Serialized response headers from the destination (JSON text). */
  response_headers?: string;
  /** Response body returned by the destination. */
  response_body?: string;
  /** Event time as a formatted timestamp string (RFC 3339). */
  event_time: string;
}

/** `data` of `POST /webhook/history/list`. */
export interface ListWebhookHistoryResponse {
  items: WebhookHistoryItem[];
  /** Total number of matching records. */
  total: number;
  /** Cursor of the next page; empty when no further pages are available. */
  search_after_ctx: string;
}

/** `POST /webhook/history/detail`: one delivery record. */
export interface GetWebhookHistoryDetailRequest {
  /** Event ID returned by the list. */
  event_id: string;
  /** Integration ID the event belongs to (≥ 1). */
  integration_id: number;
}

/** Full detail of a delivery attempt: the item plus reference metadata resolved at query time. */
export interface WebhookHistoryDetail extends WebhookHistoryItem {
  /** Title of the source incident or alert, resolved at query time. */
  ref_title?: string;
  /** Name of the associated channel, resolved at query time. */
  channel_name?: string;
}
