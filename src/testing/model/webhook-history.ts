// `POST /webhook/history/list` and `/detail` over the sender's call history, shaped as the vendor's
// OpenAPI describes them. The history reaches 7 days back (the spec's horizon). A cursor is the sort
// key of the last record sent ("search after"), so paging stays exact while deliveries are added;
// `search_after_ctx` is empty on the last page, as the vendor documents.

import type {
  ListWebhookHistoryRequest,
  ListWebhookHistoryResponse,
  WebhookHistoryDetail,
  WebhookHistoryItem,
} from '../../schemas/webhook-history.js';
import type { StoredDelivery } from '../sender.js';
import type { Refusal } from './operation-result.js';
import type { World } from './world.js';

const MIN_MS = 1_000_000_000_000;
const MAX_MS = 9_999_999_999_999;
const MAX_REF_ID = 128;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** The OpenAPI's rules for `ListWebhookHistoryRequest`, in the order its fields are listed. */
export function checkHistoryListRequest(body: Record<string, unknown>): Refusal | undefined {
  for (const field of ['limit', 'start_time', 'end_time']) {
    if (body[field] === undefined || body[field] === null) return { key: 'required', vars: { field } };
  }
  const ranges = [
    ['limit', 1, 100],
    ['start_time', MIN_MS, MAX_MS],
    ['end_time', MIN_MS, MAX_MS],
    ['integration_id', 0, Number.MAX_SAFE_INTEGER],
  ] as const;
  for (const [field, min, max] of ranges) {
    const v = body[field];
    if (v === undefined) continue;
    if (!isInt(v)) return { key: 'type', vars: { field, type: 'integer' } };
    if (v < min || v > max)
      return max === Number.MAX_SAFE_INTEGER
        ? { key: 'min', vars: { field, min } }
        : { key: 'range', vars: { field, min, max } };
  }
  if ((body.end_time as number) <= (body.start_time as number)) return { key: 'endAfterStart' };
  for (const field of ['search_after_ctx', 'ref_id', 'status', 'orderby']) {
    if (body[field] !== undefined && typeof body[field] !== 'string')
      return { key: 'type', vars: { field, type: 'string' } };
  }
  if (body.asc !== undefined && typeof body.asc !== 'boolean')
    return { key: 'type', vars: { field: 'asc', type: 'boolean' } };
  const types = body.event_types;
  if (types !== undefined && !(Array.isArray(types) && types.every((t) => typeof t === 'string'))) {
    return { key: 'type', vars: { field: 'event_types', type: 'array of strings' } };
  }
  if (body.status !== undefined && body.status !== 'success' && body.status !== 'failed') {
    return { key: 'enum', vars: { field: 'status', values: 'success, failed' } };
  }
  if (body.orderby !== undefined && body.orderby !== 'event_time')
    return { key: 'enum', vars: { field: 'orderby', values: 'event_time' } };
  if (typeof body.ref_id === 'string' && body.ref_id.length > MAX_REF_ID)
    return { key: 'maxLength', vars: { field: 'ref_id', max: MAX_REF_ID } };
  if (
    typeof body.search_after_ctx === 'string' &&
    body.search_after_ctx !== '' &&
    !decodeCursor(body.search_after_ctx)
  ) {
    return { key: 'cursor' };
  }
  return undefined;
}

/** The rules of `GetWebhookHistoryDetailRequest`. */
export function checkHistoryDetailRequest(body: Record<string, unknown>): Refusal | undefined {
  for (const field of ['event_id', 'integration_id']) {
    if (body[field] === undefined || body[field] === null || body[field] === '')
      return { key: 'required', vars: { field } };
  }
  if (typeof body.event_id !== 'string') return { key: 'type', vars: { field: 'event_id', type: 'string' } };
  if (!isInt(body.integration_id)) return { key: 'type', vars: { field: 'integration_id', type: 'integer' } };
  if (body.integration_id < 1) return { key: 'min', vars: { field: 'integration_id', min: 1 } };
  return undefined;
}

/** One page of the history; `deliveries` are the sender's deliveries within the horizon. */
export function queryHistory(
  request: ListWebhookHistoryRequest,
  deliveries: StoredDelivery[],
): ListWebhookHistoryResponse {
  const types = request.event_types?.length ? new Set(request.event_types) : undefined;
  const matches = deliveries.filter(
    (delivery) =>
      delivery.record.trigger_time >= request.start_time &&
      delivery.record.trigger_time <= request.end_time &&
      (request.integration_id === undefined || delivery.integrationId === request.integration_id) &&
      (types === undefined || types.has(delivery.record.event_type)) &&
      (request.status === undefined || statusOf(delivery) === request.status) &&
      (request.ref_id === undefined ||
        request.ref_id === '' ||
        (delivery.record.alert_id ?? delivery.record.incident_id) === request.ref_id),
  );
  const direction = request.asc === true ? 1 : -1;
  matches.sort((a, b) => compareKeys(keyOf(a), keyOf(b)) * direction);
  let from = 0;
  const after = request.search_after_ctx ? decodeCursor(request.search_after_ctx) : undefined;
  if (after) {
    from = matches.findIndex((delivery) => compareKeys(keyOf(delivery), after) * direction > 0);
    if (from < 0) from = matches.length;
  }
  const page = matches.slice(from, from + request.limit);
  const last = page[page.length - 1];
  const more = from + request.limit < matches.length;
  return {
    items: page.map((delivery) => toItem(delivery, false)),
    total: matches.length,
    search_after_ctx: more && last ? encodeCursor(keyOf(last)) : '',
  };
}

/** The record of one delivery, or undefined when the integration has no such event within the horizon. */
export function historyDetail(
  integrationId: number,
  eventId: string,
  deliveries: StoredDelivery[],
  world: World,
): WebhookHistoryDetail | undefined {
  const delivery = deliveries.find((c) => c.integrationId === integrationId && c.record.event_id === eventId);
  if (!delivery) return undefined;
  const title = world.incidents.find((i) => i.incident_id === delivery.record.incident_id)?.title;
  const channel = world.channels.find((c) => c.channel_id === delivery.channelId)?.channel_name;
  return {
    ...toItem(delivery, true),
    ...(title !== undefined ? { ref_title: title } : {}),
    ...(channel !== undefined ? { channel_name: channel } : {}),
  };
}

function statusOf(delivery: StoredDelivery): 'success' | 'failed' {
  return delivery.record.status === 'success' ? 'success' : 'failed';
}

/** Like the vendor's list, items leave out the bodies and headers; the detail has them. */
function toItem(delivery: StoredDelivery, full: boolean): WebhookHistoryItem {
  const { record } = delivery;
  const { response } = record;
  return {
    integration_id: delivery.integrationId,
    event_id: record.event_id,
    webhook_type: delivery.webhookType,
    event_type: record.event_type,
    ...(delivery.channelId ? { channel_id: delivery.channelId } : {}),
    ref_id: record.alert_id ?? record.incident_id, // what the delivery is about: the alert of an alert webhook
    ...(full ? { request_headers: JSON.stringify(record.request.headers), request_body: delivery.body } : {}),
    endpoint: record.request.endpoint,
    attempt: record.request_count,
    duration: record.duration_ms,
    status: statusOf(delivery),
    status_code: record.http_status,
    ...(record.error !== undefined ? { error_message: record.error } : {}),
    ...(full && response ? { response_headers: JSON.stringify(response.headers), response_body: response.body } : {}),
    event_time: new Date(record.trigger_time).toISOString(),
  };
}

type SortKey = [number, number];

const keyOf = (delivery: StoredDelivery): SortKey => [delivery.record.trigger_time, delivery.seq];

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || a[1] - b[1];
}

function encodeCursor([time, seq]: SortKey): string {
  return `wh.${time.toString(36)}.${seq.toString(36)}`;
}

function decodeCursor(cursor: string): SortKey | undefined {
  const match = /^wh\.([0-9a-z]+)\.([0-9a-z]+)$/.exec(cursor);
  return match ? [parseInt(match[1] as string, 36), parseInt(match[2] as string, 36)] : undefined;
}
