// The types the generated methods are written in (src/generated/resources.ts): a method's params
// are its operation's body with our conveniences (a `Date` for a Unix-time field, an array for a
// comma-separated one), its result the response's `data`, or for a list a PagePromise of its items.

import type { PagedRequest } from '../pagination/operation.js';
import type { ListPage } from '../pagination/page.js';
import type { ListPagePromise } from '../pagination/page-promise.js';
import type { OperationBody, OperationData, OperationPath } from '../request.js';
import type { ListWebhookHistoryRequest, WebhookHistoryItem } from '../../schemas/webhook-history.js';

/** What a method takes: the operation's body, `Times` fields also as a `Date`, `Lists` fields also as an array. */
export type Params<P extends OperationPath, Times extends string = never, Lists extends string = never> = {
  [K in keyof OperationBody<P>]: K extends Times
    ? OperationBody<P>[K] | Date
    : K extends Lists
      ? OperationBody<P>[K] | readonly string[]
      : OperationBody<P>[K];
};

/** What a method resolves to: the `data` of the operation's success envelope. */
export type Data<P extends OperationPath> = OperationData<P>;

/** The item type of a list operation (its `data.items`, or the array its `Key` names). */
export type ItemOf<P extends OperationPath, Key extends string = 'items'> =
  OperationData<P> extends { [K in Key]?: Array<infer Item> | null } ? Item : never;

/** What a list method returns: `await` gives the first page, iterating gives every item. */
export type ListPagePromiseOf<P extends OperationPath, Key extends string = 'items'> = ListPagePromise<
  ItemOf<P, Key>,
  OperationBody<P> & PagedRequest
>;

/** One entry of an incident's timeline (`incidents.feed`). */
export type IncidentFeedItem = ItemOf<'/incident/feed'>;
/** One alert of `alerts.list`. */
export type AlertListItem = ItemOf<'/alert/list'>;
/** One raw event of an alert (`alerts.events`). */
export type AlertEventListItem = ItemOf<'/alert/event/list'>;
/** One channel of `channels.list`. */
export type ChannelListItem = ItemOf<'/channel/list'>;
/** One page of `client.webhookHistory.list()`. */
export type WebhookHistoryPage = ListPage<WebhookHistoryItem, ListWebhookHistoryRequest>;
/** `await` gives the first {@link WebhookHistoryPage}; iterating gives every {@link WebhookHistoryItem}. */
export type WebhookHistoryPagePromise = ListPagePromise<WebhookHistoryItem, ListWebhookHistoryRequest>;
