// Following an integration's delivery history as the service records it (`webhooks listen`): each
// poll asks for the window from a lookback before the last poll's end (the first: from the start
// given) to now, oldest first, and gives the records not given before, by event_id (unique per
// callback: a retry of one is not a new delivery). The lookback is what makes a record the service
// writes after its event, late (a slow receiver, a retry, a clock a little apart), still found by
// the next poll; the ids remembered are only those the next window can still hold, so memory stays
// that of a few minutes of deliveries however long it runs.

import type { ListWebhookHistoryParams, WebhookHistoryItem } from '../../schemas/webhook-history.js';

/** How far before the end of the last poll the next one looks: a record written later than this after its event is missed. */
export const LOOKBACK_MS = 5 * 60_000;
/** The largest page the history gives. */
const PAGE = 100;

/** The part of the client a follower uses. */
export interface HistoryReader {
  webhookHistory: {
    list(params: ListWebhookHistoryParams, options?: { signal?: AbortSignal }): AsyncIterable<WebhookHistoryItem>;
  };
}

export class HistoryFollower {
  readonly #client: HistoryReader;
  readonly #integration: number;
  readonly #since: number;
  /** The end of the last poll that was read to its end. */
  #lastUntil = -Infinity;
  /** event_id → the end of the poll that first gave it. */
  readonly #given = new Map<string, number>();

  /** Follows `integration`'s history from `since` (Unix ms). */
  constructor(client: HistoryReader, integration: number, since: number) {
    this.#client = client;
    this.#integration = integration;
    this.#since = since;
  }

  /** How many event ids are remembered (those the next window can still hold). */
  get remembered(): number {
    return this.#given.size;
  }

  /**
   * The records up to `until` (Unix ms) not given before, oldest first. A poll that fails or is
   * stopped part way is asked again whole by the next one: what it gave is not given again.
   */
  async *poll(until: number, signal?: AbortSignal): AsyncGenerator<WebhookHistoryItem> {
    const from = Math.max(this.#since, this.#lastUntil - LOOKBACK_MS);
    if (until <= from) return;
    const records = this.#client.webhookHistory.list(
      { integration_id: this.#integration, start_time: from, end_time: until, asc: true, limit: PAGE },
      signal ? { signal } : {},
    );
    for await (const record of records) {
      if (this.#given.has(record.event_id)) continue;
      this.#given.set(record.event_id, until);
      yield record;
    }
    this.#lastUntil = until;
    // A record given by a poll that ended before the next window starts happened before it too.
    const next = Math.max(this.#since, until - LOOKBACK_MS);
    for (const [eventId, givenAt] of this.#given) if (givenAt < next) this.#given.delete(eventId);
  }
}
