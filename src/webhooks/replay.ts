// Recovering what the sender gave up on. The service keeps 7 days of delivery history with each
// request's body and headers; replay walks it and feeds every recorded delivery through the
// receiver, whose dedup makes replaying twice (or replaying what did arrive) harmless.
//
// Rules owned here:
// - Failed deliveries by default (`status: 'all'` for every one), oldest first, so that staleness
//   judges them in the order they happened.
// - Each record's own headers go with it (the integration's custom headers carry the secret), with
//   the content type it was sent with.
// - A record whose request cannot be read (expired since the list was walked, or its call failed
//   for good) is reported as unread and the walk goes on: one record never blocks the rest, and a
//   run again reads it (the others are then duplicates). A list that cannot be walked throws.
// - The client is taken structurally: the webhooks entry never bundles the API client.

import type { ListWebhookHistoryParams, WebhookHistoryDetail, WebhookHistoryItem } from '../schemas/webhook-history.js';
import { ConfigError } from '../internal/flashduty-error.js';
import type { ReceiveResult, WebhookReceiver } from './receiver.js';

/** The part of the client replay uses: `client.webhookHistory`. */
export interface ReplayClient {
  /** The API client's delivery-history resource. */
  webhookHistory: {
    /** Lists history records; iterating it walks every page. */
    list(params: ListWebhookHistoryParams): AsyncIterable<WebhookHistoryItem>;
    /** One record with its request. */
    detail(params: { integration_id: number; event_id: string }): Promise<WebhookHistoryDetail>;
  };
}

/** Options of {@link replayFromHistory}. */
export interface ReplayOptions {
  /** A `Flashduty` client (anything with its `webhookHistory`). */
  client: ReplayClient;
  /** The receiver to feed: the same configuration (secret, store, queue) as the live one. */
  receiver: Pick<WebhookReceiver, 'receive'>;
  /** The webhook integration whose deliveries to replay. */
  integrationId: number;
  /** Start of the window: a `Date` or Unix ms (the service keeps 7 days). */
  since: Date | number;
  /** End of the window: a `Date` or Unix ms; default now. */
  until?: Date | number;
  /** Which deliveries: `'failed'` (default) or `'all'`. */
  status?: 'failed' | 'all';
  /** Stops the walk between records; the report so far is thrown away (the walk can simply run again). */
  signal?: AbortSignal;
}

/** A replayed delivery the receiver refused, and why. */
export interface ReplayRejection {
  eventId: string;
  status: number;
  reason: string;
}

/** A history record whose request could not be read (`/webhook/history/detail` failed): replay again for it. */
export interface UnreadRecord {
  eventId: string;
  /** What the detail call failed with (a typed error of the client). */
  error: unknown;
}

/** What became of the replayed deliveries. */
export interface ReplayReport {
  /** History records walked: each is accepted, duplicate, stale, rejected or unread. */
  seen: number;
  accepted: number;
  duplicate: number;
  stale: number;
  /** Refused by the receiver (bad payload, wrong secret, store down: see `rejections`). */
  rejected: number;
  /** Each refusal, with the receiver's reason. */
  rejections: ReplayRejection[];
  /** Records whose request could not be read, not replayed. */
  unread: UnreadRecord[];
}

/**
 * Walks the delivery history of an integration (`/webhook/history/list`, failed deliveries by
 * default) and feeds each recorded request (`/webhook/history/detail`) through `receiver.receive()`.
 *
 * @example
 * ```ts
 * const report = await replayFromHistory({ client, receiver, integrationId: 5321026051131, since: Date.now() - 86_400_000 });
 * // → { seen: 12, accepted: 11, duplicate: 1, stale: 0, rejected: 0, rejections: [], unread: [] }
 * ```
 */
export async function replayFromHistory(options: ReplayOptions): Promise<ReplayReport> {
  const {
    client,
    receiver,
    integrationId,
    since,
    until = Date.now(),
    status = 'failed',
    signal,
  } = options ?? ({} as ReplayOptions);
  if (typeof client?.webhookHistory?.list !== 'function') {
    throw new ConfigError('replayFromHistory: `client` must be a Flashduty client (with webhookHistory)');
  }
  if (typeof receiver?.receive !== 'function')
    throw new ConfigError('replayFromHistory: `receiver` must be a WebhookReceiver');
  if (status !== 'failed' && status !== 'all') {
    throw new ConfigError(`replayFromHistory: status must be 'failed' or 'all', got ${JSON.stringify(status)}`);
  }
  const report: ReplayReport = {
    seen: 0,
    accepted: 0,
    duplicate: 0,
    stale: 0,
    rejected: 0,
    rejections: [],
    unread: [],
  };
  const records = client.webhookHistory.list({
    integration_id: integrationId,
    start_time: since,
    end_time: until,
    asc: true,
    limit: 100,
    ...(status === 'failed' ? { status: 'failed' } : {}),
  });
  for await (const record of records) {
    signal?.throwIfAborted();
    report.seen++;
    let detail: WebhookHistoryDetail;
    try {
      detail = await client.webhookHistory.detail({ integration_id: integrationId, event_id: record.event_id });
    } catch (error) {
      report.unread.push({ eventId: record.event_id, error });
      continue;
    }
    const result = await receiver.receive({ body: detail.request_body ?? '', headers: recordedHeaders(detail) });
    count(report, record.event_id, result);
  }
  return report;
}

function count(report: ReplayReport, eventId: string, result: ReceiveResult): void {
  if (result.outcome === 'rejected') {
    report.rejected++;
    report.rejections.push({ eventId, status: result.status, reason: result.reason ?? '' });
  } else report[result.outcome]++;
}

/** The record's request headers (a JSON text of a header map), with a JSON content type if it lost it. */
function recordedHeaders(detail: WebhookHistoryDetail): Record<string, string> {
  const headers: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(detail.request_headers || '{}');
    if (parsed && typeof parsed === 'object') {
      for (const [name, value] of Object.entries(parsed)) {
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      }
    }
  } catch {
    // headers recorded in a form we cannot read: the body still replays, without the secret
  }
  headers['content-type'] ??= 'application/json';
  return headers;
}
