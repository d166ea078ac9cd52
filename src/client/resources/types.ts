// The types the generated methods are written in (src/generated/resources/): a method's params
// are its operation's body with our conveniences (a `Date` for a Unix-time field, an array for a
// comma-separated one), its result the response's `data`, or for a list a PagePromise of its items.

import type { PagedRequest } from '../pagination/operation.js';
import type { ListPage } from '../pagination/page.js';
import type { ListPagePromise } from '../pagination/page-promise.js';
import type { OperationBody, OperationData, OperationPath } from '../operation-types.js';
import type { ListWebhookHistoryRequest, WebhookHistoryItem } from '../../schemas/webhook-history.js';

/**
 * What a method takes: the operation's body, with the fields `Times` names (`start_time`,
 * `time_filter.start_time`, `layers[].start`) also as a `Date`, and the comma-separated fields of
 * `Lists` (each with its allowed values, `string` where any goes) also as an array.
 */
export type Params<
  P extends OperationPath,
  Times extends string = never,
  Lists extends Record<string, string> = Record<never, string>,
> = {
  [K in keyof OperationBody<P>]: K extends keyof Lists
    ? CommaList<Lists[K]>
    : WithDates<OperationBody<P>[K], K & string, Times>;
};

/**
 * A comma-separated filter: an array of its values, or the wire's string of them joined by commas
 * (each at most once, in any order: `'Critical'`, `'Critical,Warning'`). Any string where the values
 * are not listed.
 */
export type CommaList<V extends string> = string extends V ? string | readonly string[] : CommaJoined<V> | readonly V[];

/** `V`'s values joined by commas, each at most once, in any order. */
export type CommaJoined<V extends string, All extends string = V> = V extends unknown
  ? V | `${V},${CommaJoined<Exclude<All, V>>}`
  : never;

/** A field's type with a `Date` taken wherever `Times` names it: the field itself (`at`), or one inside it. */
type WithDates<T, At extends string, Times extends string> = At extends Times
  ? T | Date
  : [Extract<Times, `${At}.${string}` | `${At}[].${string}`>] extends [never]
    ? T
    : T extends readonly (infer Item)[]
      ? Array<FieldsWithDates<Item, `${At}[]`, Times>>
      : FieldsWithDates<T, At, Times>;

/** An object's fields, each with a `Date` taken where `Times` names it. */
type FieldsWithDates<T, At extends string, Times extends string> = T extends object
  ? { [K in keyof T]: WithDates<T[K], `${At}.${K & string}`, Times> }
  : T;

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
