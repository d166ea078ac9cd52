// `/webhook/history/list` and `/detail` over stored deliveries: the OpenAPI's checks, the filters,
// newest first unless `asc`, a cursor that stays right while deliveries are added (empty on the last
// page), items without bodies and headers, the detail with them and its incident's title.
import { describe, expect, it } from 'vitest';
import {
  checkHistoryDetailRequest,
  checkHistoryListRequest,
  historyDetail,
  queryHistory,
} from '../../../../src/testing/model/webhook-history.js';
import { createWorld } from '../../../../src/testing/model/world.js';
import type { StoredDelivery } from '../../../../src/testing/sender.js';
import type { ListWebhookHistoryRequest } from '../../../../src/schemas/webhook-history.js';
import { NOW_MS } from '../support.js';

const world = createWorld({ seed: 1, incidents: 3, now: NOW_MS / 1000 });
const incident = world.incidents[0]!;
const channel = world.channels[0]!;

/** A stored delivery of integration 9 (or `integrationId`), the `seq`-th recorded, at NOW_MS + seq s. */
function stored(
  seq: number,
  extra: { integrationId?: number; event_type?: string; status?: 'success' | 'failure' } = {},
): StoredDelivery {
  return {
    seq,
    integrationId: extra.integrationId ?? 9,
    channelId: channel.channel_id,
    webhookType: 'incident',
    body: `{"n":${seq}}`,
    record: {
      trigger_time: NOW_MS + seq * 1_000,
      event_type: extra.event_type ?? 'i_new',
      incident_id: incident.incident_id,
      event_id: `e${seq}`,
      status: extra.status ?? 'success',
      http_status: extra.status === 'failure' ? 500 : 200,
      duration_ms: 5,
      request_count: 1,
      request: { endpoint: 'http://r', headers: { 'X-A': '1' }, payload: { n: seq } },
      response: { headers: { server: 'x' }, body: 'ok' },
    },
  };
}

const deliveries = [
  stored(1),
  stored(2, { event_type: 'i_ack', status: 'failure' }),
  stored(3, { integrationId: 8 }),
  stored(4),
  stored(5, { event_type: 'i_ack' }),
];
const window = { limit: 100, start_time: NOW_MS, end_time: NOW_MS + 60_000 };
const list = (request: Partial<ListWebhookHistoryRequest>, from = deliveries) =>
  queryHistory({ ...window, ...request }, from);
const ids = (page: ReturnType<typeof list>) => page.items.map((item) => item.event_id);

describe('checks', () => {
  it('of the list, in the order the OpenAPI lists the fields', () => {
    expect(checkHistoryListRequest({ start_time: NOW_MS, end_time: NOW_MS + 1 })).toEqual({
      key: 'required',
      vars: { field: 'limit' },
    });
    expect(checkHistoryListRequest({ ...window, limit: 0 })).toEqual({
      key: 'range',
      vars: { field: 'limit', min: 1, max: 100 },
    });
    expect(checkHistoryListRequest({ ...window, start_time: NOW_MS / 1000 })).toMatchObject({
      key: 'range',
      vars: { field: 'start_time' },
    });
    expect(checkHistoryListRequest({ ...window, integration_id: -1 })).toEqual({
      key: 'min',
      vars: { field: 'integration_id', min: 0 },
    });
    expect(checkHistoryListRequest({ ...window, end_time: NOW_MS })).toEqual({ key: 'endAfterStart' });
    expect(checkHistoryListRequest({ ...window, status: 'failure' })).toEqual({
      key: 'enum',
      vars: { field: 'status', values: 'success, failed' },
    });
    expect(checkHistoryListRequest({ ...window, orderby: 'id' })).toMatchObject({ key: 'enum' });
    expect(checkHistoryListRequest({ ...window, ref_id: 'x'.repeat(129) })).toMatchObject({ key: 'maxLength' });
    expect(checkHistoryListRequest({ ...window, event_types: [1] })).toMatchObject({
      vars: { type: 'array of strings' },
    });
    expect(checkHistoryListRequest({ ...window, search_after_ctx: 'nope' })).toEqual({ key: 'cursor' });
    expect(checkHistoryListRequest({ ...window, search_after_ctx: '', status: 'failed' })).toBeUndefined();
  });

  it('of the detail', () => {
    expect(checkHistoryDetailRequest({ integration_id: 9 })).toEqual({ key: 'required', vars: { field: 'event_id' } });
    expect(checkHistoryDetailRequest({ event_id: 1, integration_id: 9 })).toMatchObject({
      vars: { field: 'event_id', type: 'string' },
    });
    expect(checkHistoryDetailRequest({ event_id: 'e', integration_id: 0 })).toEqual({
      key: 'min',
      vars: { field: 'integration_id', min: 1 },
    });
    expect(checkHistoryDetailRequest({ event_id: 'e', integration_id: 9 })).toBeUndefined();
  });
});

describe('queryHistory', () => {
  it('filters by integration, event type, status, incident and window; newest first unless asc', () => {
    expect(ids(list({}))).toEqual(['e5', 'e4', 'e3', 'e2', 'e1']);
    expect(ids(list({ asc: true }))).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(ids(list({ integration_id: 9 }))).toEqual(['e5', 'e4', 'e2', 'e1']);
    expect(ids(list({ event_types: ['i_ack'] }))).toEqual(['e5', 'e2']);
    expect(ids(list({ status: 'failed' }))).toEqual(['e2']);
    expect(ids(list({ ref_id: 'other' }))).toEqual([]);
    expect(ids(list({ ref_id: incident.incident_id }))).toHaveLength(5);
    expect(ids(list({ start_time: NOW_MS + 2_000, end_time: NOW_MS + 4_000 }))).toEqual(['e4', 'e3', 'e2']);
  });

  it('pages by a cursor that stays right while deliveries are added, empty on the last page', () => {
    const first = list({ limit: 2 });
    expect(ids(first)).toEqual(['e5', 'e4']);
    expect(first.total).toBe(5);
    const grown = [...deliveries, stored(6)];
    const second = list({ limit: 2, search_after_ctx: first.search_after_ctx }, grown);
    expect(ids(second)).toEqual(['e3', 'e2']);
    const last = list({ limit: 2, search_after_ctx: second.search_after_ctx }, grown);
    expect(ids(last)).toEqual(['e1']);
    expect(last.search_after_ctx).toBe('');
  });

  it('leaves the bodies and headers out of list items, and keeps them in the detail', () => {
    const [item] = list({ limit: 1 }).items;
    expect(item).toEqual({
      integration_id: 9,
      event_id: 'e5',
      webhook_type: 'incident',
      event_type: 'i_ack',
      channel_id: channel.channel_id,
      ref_id: incident.incident_id,
      endpoint: 'http://r',
      attempt: 1,
      duration: 5,
      status: 'success',
      status_code: 200,
      event_time: new Date(NOW_MS + 5_000).toISOString(),
    });
    expect(historyDetail(9, 'e2', deliveries, world)).toMatchObject({
      event_id: 'e2',
      status: 'failed',
      request_headers: '{"X-A":"1"}',
      request_body: '{"n":2}',
      response_headers: '{"server":"x"}',
      response_body: 'ok',
      ref_title: incident.title,
      channel_name: channel.channel_name,
    });
    expect(historyDetail(8, 'e2', deliveries, world)).toBeUndefined();
  });
});
