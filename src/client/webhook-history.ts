// client.webhookHistory: the delivery history of outbound webhooks (`POST /webhook/history/list`,
// `/detail`). Params become the OpenAPI's wire bodies, checked by its rules before anything is
// sent; both operations are reads (retried as reads).

import { ResponseValidationError } from '../core/errors.js';
import { lazy } from '../internal/lazy.js';
import type {
  GetWebhookHistoryDetailRequest,
  ListWebhookHistoryParams,
  ListWebhookHistoryRequest,
  WebhookHistoryDetail,
  WebhookHistoryItem,
} from '../schemas/webhook-history.js';
import type { APIPromise } from '../core/api-promise.js';
import type { Flashduty, RequestOptions } from './client.js';
import { ListPage, ListPagePromise, type ListOperation, snapshot } from './paging.js';

/** One page of `client.webhookHistory.list()`. */
export type WebhookHistoryPage = ListPage<WebhookHistoryItem, ListWebhookHistoryRequest>;
/** `await` gives the first {@link WebhookHistoryPage}; iterating gives every {@link WebhookHistoryItem}. */
export type WebhookHistoryPagePromise = ListPagePromise<WebhookHistoryItem, ListWebhookHistoryRequest>;

const LIST: ListOperation<WebhookHistoryItem> = {
  name: 'webhookHistory.list',
  path: 'webhook/history/list',
  cursor: true,
  number: false,
  defaultLimit: 20,
  idOf: (item) => `${item.integration_id}:${item.event_id}`,
  shape: { total: true },
};
/** The params' conversion and checks, loaded on first use. */
const loadParams = lazy(() => import('./webhook-history-params.js'));

/** The delivery history of outbound webhooks: what was sent, to where, and how it went (the last 7 days). */
export class WebhookHistory {
  readonly #client: Flashduty;

  /** @internal */
  constructor(client: Flashduty) {
    this.#client = client;
  }

  /**
   * Lists webhook deliveries (`POST /webhook/history/list`) within a millisecond window, newest
   * first unless `asc`. `await` it for one page; iterate it for every record, by cursor.
   *
   * @example
   * ```ts
   * for await (const record of client.webhookHistory.list({ integration_id, status: 'failed', start_time: new Date(Date.now() - 86_400_000), end_time: new Date() })) {
   *   console.log(record.event_id, record.status_code);
   * }
   * ```
   */
  list(params: ListWebhookHistoryParams, options: RequestOptions = {}): WebhookHistoryPagePromise {
    const copy = snapshot(params);
    const wire = () => loadParams().then(({ toListRequest }) => toListRequest(copy));
    return new ListPagePromise<WebhookHistoryItem, ListWebhookHistoryRequest>(
      this.#client,
      LIST,
      wire,
      options,
      ListPage,
    );
  }

  /**
   * One delivery with its request and response (`POST /webhook/history/detail`): `request_body` is
   * the delivered JSON text, `request_headers` a JSON text of its headers.
   */
  detail(params: GetWebhookHistoryDetailRequest, options: RequestOptions = {}): APIPromise<WebhookHistoryDetail> {
    const client = this.#client;
    return client._call(
      async () => client._post('webhook/history/detail', (await loadParams()).toDetailRequest(params), 'read', options),
      (response) => {
        const { data } = response;
        if (client.validate !== false && (typeof data !== 'object' || data === null || Array.isArray(data))) {
          throw new ResponseValidationError(
            'Invalid webhookHistory.detail answer at data: expected an object',
            'data',
            {
              status: response.status,
              requestId: response.requestId,
              url: response.url,
            },
          );
        }
        return data as WebhookHistoryDetail;
      },
    );
  }
}
