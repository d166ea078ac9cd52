// client.webhookHistory against the mock: deliveries to a real endpoint on loopback, their history
// read back over real HTTP and over MSW, by cursor, with the OpenAPI's filters and checks.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccessDeniedError,
  Flashduty,
  InvalidParameterError,
  RequestValidationError,
  ResourceNotFoundError,
  ResponseValidationError,
  type WebhookHistoryItem,
} from '../../../src/index.js';
import { createMockService, type MockService } from '../../../src/testing/index.js';
import { collect, NOW_MS, rejection, startMock } from '../../helpers.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve))))));

/** An endpoint that answers 200, except 500 for every third delivery. */
async function flakyEndpoint(): Promise<string> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(++n % 3 === 0 ? 500 : 200, { 'Content-Type': 'text/plain' }).end(n % 3 === 0 ? 'boom' : 'ok'),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/** Nine incidents created a minute apart, each delivered to two integrations. */
async function deliver(service: MockService) {
  const url = await flakyEndpoint();
  const hook = service.webhooks.create({ endpoint: url, headers: { 'X-Token': 't0ken' } });
  const other = service.webhooks.create({ endpoint: url, eventTypes: ['i_new'] });
  const channel = service.world.channels[0]!.channel_id;
  const created = [];
  for (let i = 0; i < 9; i++) {
    created.push(
      await service.actions.create({ title: `incident ${i}`, incident_severity: 'Warning', channel_id: channel }),
    );
    service.clock.advance(60_000);
  }
  await service.actions.ack(created[0]!.incident_id, service.personId);
  await service.webhooks.idle();
  return { hook, other, created, channel };
}

const window = { start_time: NOW_MS - 3_600_000, end_time: NOW_MS + 3_600_000 };

describe('webhookHistory over HTTP', async () => {
  const h = await startMock({ seed: 21, incidents: 3, rateLimits: false });
  const { hook, other, created, channel } = await deliver(h.service);
  const client = h.client();

  it('integration ids are whole numbers that the history accepts', () => {
    expect(Number.isSafeInteger(hook.id)).toBe(true);
    expect(hook.id).toBeGreaterThan(1e12);
    expect(other.id).not.toBe(hook.id);
    expect(h.service.webhooks.history(hook.id)).toHaveLength(10);
  });

  it('lists one page shaped as the OpenAPI, newest first, with the exact wire body', async () => {
    const page = await client.webhookHistory.list({
      integration_id: hook.id,
      limit: 4,
      start_time: new Date(window.start_time),
      end_time: window.end_time,
    });
    expect(h.calls.at(-1)?.body).toEqual({
      integration_id: hook.id,
      limit: 4,
      start_time: window.start_time,
      end_time: window.end_time,
    });
    expect(page.items).toHaveLength(4);
    expect(page.total).toBe(10);
    expect(page.hasNextPage).toBe(true);
    expect(page.searchAfterCtx).toEqual(expect.any(String));
    const records = h.service.webhooks.history(hook.id);
    expect(page.items.map((i) => i.event_id)).toEqual(records.slice(0, 4).map((r) => r.event_id));
    const [first] = page.items as [WebhookHistoryItem];
    expect(first).toEqual({
      integration_id: hook.id,
      event_id: records[0]!.event_id,
      webhook_type: 'incident',
      event_type: 'i_ack',
      channel_id: channel,
      ref_id: created[0]!.incident_id,
      endpoint: records[0]!.request.endpoint,
      attempt: 1,
      duration: expect.any(Number),
      status: records[0]!.status === 'success' ? 'success' : 'failed',
      status_code: records[0]!.http_status,
      ...(records[0]!.error ? { error_message: records[0]!.error } : {}),
      event_time: new Date(records[0]!.trigger_time).toISOString(),
    });
  });

  it('walks every record by cursor, once each, and the last page has an empty cursor', async () => {
    const before = h.calls.length;
    const items = await collect(client.webhookHistory.list({ ...window, integration_id: hook.id, limit: 3 }));
    expect(items.map((i) => i.event_id)).toEqual(h.service.webhooks.history(hook.id).map((r) => r.event_id));
    expect(h.calls.length - before).toBe(4);
    const pages = await collect(client.webhookHistory.list({ ...window, integration_id: hook.id, limit: 5 }).pages());
    expect(pages.map((p) => p.items.length)).toEqual([5, 5]);
    expect(pages[1]!.hasNextPage).toBe(false);
    expect(pages[1]!.searchAfterCtx).toBeUndefined();
    expect(await pages[1]!.nextPage()).toBeNull();
  });

  it('awaiting and then iterating fetches the first page once', async () => {
    const before = h.calls.length;
    const pending = client.webhookHistory.list({ ...window, integration_id: hook.id, limit: 6 });
    await pending;
    const items = await collect(pending);
    expect(items).toHaveLength(10);
    expect(h.calls.length - before).toBe(2);
  });

  it('filters by integration, status, event types, ref_id and time, in either order', async () => {
    const list = (params: object) => collect(client.webhookHistory.list({ ...window, limit: 100, ...params }));
    expect(await list({})).toHaveLength(19); // both integrations
    expect((await list({ integration_id: other.id })).every((i) => i.event_type === 'i_new')).toBe(true);
    const failed = await list({ integration_id: hook.id, status: 'failed' });
    expect(failed.map((i) => i.event_id)).toEqual(
      h.service.webhooks.history(hook.id, { status: 'failure' }).map((r) => r.event_id),
    );
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((i) => i.status === 'failed' && i.status_code === 500)).toBe(true);
    expect(await list({ integration_id: hook.id, event_types: ['i_ack'] })).toHaveLength(1);
    expect(await list({ integration_id: hook.id, ref_id: created[0]!.incident_id })).toHaveLength(2);
    const asc = await list({ integration_id: hook.id, asc: true, orderby: 'event_time' });
    expect(asc.map((i) => i.event_id)).toEqual(
      h.service.webhooks
        .history(hook.id)
        .reverse()
        .map((r) => r.event_id),
    );
    const firstTwo = await list({ integration_id: hook.id, start_time: NOW_MS, end_time: NOW_MS + 60_000 });
    expect(firstTwo).toHaveLength(2);
    expect(await list({ integration_id: 1 })).toEqual([]);
  });

  it('gives the detail: the delivered body and headers as JSON text, the response, names resolved', async () => {
    const records = h.service.webhooks.history(hook.id);
    for (const record of [records[0]!, records.find((r) => r.status === 'failure')!]) {
      const detail = await client.webhookHistory.detail({ integration_id: hook.id, event_id: record.event_id });
      expect(h.calls.at(-1)?.body).toEqual({ integration_id: hook.id, event_id: record.event_id });
      expect(JSON.parse(detail.request_body!)).toEqual(record.request.payload);
      expect(JSON.parse(detail.request_headers!)).toEqual(record.request.headers);
      expect(JSON.parse(detail.request_headers!)).toMatchObject({ 'X-Token': 't0ken' });
      expect(detail.response_body).toBe(record.response?.body);
      expect(detail.ref_title).toBe(created.find((c) => c.incident_id === detail.ref_id)?.title);
      expect(detail.channel_name).toBe(h.service.world.channels[0]!.channel_name);
      expect(detail.status).toBe(record.status === 'success' ? 'success' : 'failed');
    }
    const missing = await rejection(client.webhookHistory.detail({ integration_id: hook.id, event_id: 'nope' }));
    expect(missing).toBeInstanceOf(ResourceNotFoundError);
    // The record belongs to its integration only.
    const elsewhere = await rejection(
      client.webhookHistory.detail({ integration_id: other.id, event_id: records[0]!.event_id }),
    );
    expect(elsewhere).toBeInstanceOf(ResourceNotFoundError);
  });

  it('keeps 7 days of history', async () => {
    const service = createMockService({ seed: 22, incidents: 1, now: NOW_MS, rateLimits: false });
    const { hook: old } = await deliver(service);
    const server = await service.listen();
    try {
      const c = new Flashduty({ appKey: service.appKey, baseUrl: server.url, logLevel: 'off' });
      const from = { start_time: NOW_MS - 3_600_000, end_time: NOW_MS + 9 * 86_400_000, integration_id: old.id };
      expect(await collect(c.webhookHistory.list(from))).toHaveLength(10);
      service.clock.advance(7 * 86_400_000); // the ack, 9 minutes after the first delivery, is still within 7 days
      expect(await collect(c.webhookHistory.list(from))).toHaveLength(1);
      service.clock.advance(10 * 60_000);
      expect(await collect(c.webhookHistory.list(from))).toHaveLength(0);
      const record = service.webhooks.history(old.id, { since: 0 });
      expect(record).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('the server refuses what the OpenAPI refuses, naming the field', async () => {
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${h.server.url}${path}?app_key=${h.service.appKey}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as { error?: { code: string; message: string } },
      };
    };
    const ok = { limit: 10, ...window };
    for (const [body, field] of [
      [{ ...window }, 'limit'],
      [{ ...ok, limit: 101 }, 'limit'],
      [{ ...ok, start_time: 1_700_000_000 }, 'start_time'],
      [{ ...ok, end_time: window.start_time }, 'end_time'],
      [{ ...ok, status: 'failure' }, 'status'],
      [{ ...ok, orderby: 'duration' }, 'orderby'],
      [{ ...ok, ref_id: 'x'.repeat(129) }, 'ref_id'],
      [{ ...ok, event_types: 'i_new' }, 'event_types'],
      [{ ...ok, integration_id: -1 }, 'integration_id'],
      [{ ...ok, search_after_ctx: 'garbage' }, 'search_after_ctx'],
    ] as const) {
      const answer = await post('/webhook/history/list', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error?.code).toBe('InvalidParameter');
      expect(answer.body.error?.message).toContain(field);
    }
    for (const [body, field] of [
      [{ integration_id: 1 }, 'event_id'],
      [{ event_id: 'x' }, 'integration_id'],
      [{ event_id: 'x', integration_id: 0 }, 'integration_id'],
      [{ event_id: 7, integration_id: 1 }, 'event_id'],
    ] as const) {
      const answer = await post('/webhook/history/detail', body);
      expect(answer.body.error?.code).toBe('InvalidParameter');
      expect(answer.body.error?.message).toContain(field);
    }
    const denied = new Flashduty({ appKey: h.service.keys.noPermission, baseUrl: h.server.url, logLevel: 'off' });
    expect(await rejection(denied.webhookHistory.list(window))).toBeInstanceOf(AccessDeniedError);
  });

  it('checks params locally and sends nothing when they are wrong', async () => {
    const before = h.calls.length;
    const cases: Array<[unknown, string]> = [
      [{ end_time: window.end_time }, 'start_time'],
      [{ ...window, start_time: 1_700_000_000 }, 'start_time'], // seconds, not milliseconds
      [{ ...window, end_time: new Date(Number.NaN) }, 'end_time'],
      [{ ...window, end_time: window.start_time }, 'end_time'],
      [{ ...window, limit: 0 }, 'limit'],
      [{ ...window, limit: 101 }, 'limit'],
      [{ ...window, status: 'failure' }, 'status'],
      [{ ...window, orderby: 'duration' }, 'orderby'],
      [{ ...window, integration_id: '123' }, 'integration_id'],
      [{ ...window, integration_id: 1.5 }, 'integration_id'],
      [{ ...window, ref_id: 'x'.repeat(129) }, 'ref_id'],
      [{ ...window, event_types: ['i_new', ''] }, 'event_types[1]'],
      [{ ...window, asc: 'yes' }, 'asc'],
      [{ ...window, search_after_ctx: '' }, 'search_after_ctx'],
      [null, 'params'],
    ];
    for (const [params, field] of cases) {
      const error = await rejection(client.webhookHistory.list(params as never));
      expect(error, JSON.stringify(params)).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe(field);
    }
    for (const [params, field] of [
      [{ event_id: 'x' }, 'integration_id'],
      [{ integration_id: 0, event_id: 'x' }, 'integration_id'],
      [{ integration_id: 1 }, 'event_id'],
      [{ integration_id: 1, event_id: '' }, 'event_id'],
    ] as const) {
      const error = await rejection(client.webhookHistory.detail(params as never));
      expect((error as RequestValidationError).field).toBe(field);
    }
    expect(h.calls.length).toBe(before);
    expect(await rejection(collect(client.webhookHistory.list(window).pages({ by: 'number' })))).toBeInstanceOf(
      RequestValidationError,
    );
  });

  it('retries as a read, and refuses a page of the wrong shape', async () => {
    h.service.faults.add({ status: 503, times: 1 });
    const page = await client.webhookHistory.list({ ...window, integration_id: hook.id });
    expect(page.items).toHaveLength(10);
    h.service.faults.add({ status: 500, times: 1, path: '/webhook/history/detail' });
    const record = h.service.webhooks.history(hook.id)[0]!;
    await expect(
      client.webhookHistory.detail({ integration_id: hook.id, event_id: record.event_id }),
    ).resolves.toMatchObject({ event_id: record.event_id });
    h.service.faults.add({
      status: 200,
      body: JSON.stringify({ request_id: 'r', data: { items: {}, total: 1, search_after_ctx: '' } }),
    });
    const bad = await rejection(client.webhookHistory.list(window));
    expect(bad).toBeInstanceOf(ResponseValidationError);
  });

  it('the server answers InvalidParameter to a bad cursor', async () => {
    const raw = new Flashduty({ appKey: h.service.appKey, baseUrl: h.server.url, logLevel: 'off' });
    expect(await rejection(raw.webhookHistory.list({ ...window, search_after_ctx: 'not-a-cursor' }))).toBeInstanceOf(
      InvalidParameterError,
    );
  });
});

describe('webhookHistory over MSW', async () => {
  const service = createMockService({ seed: 23, incidents: 2, now: NOW_MS, rateLimits: false });
  const { hook } = await deliver(service);
  const server = setupServer(...service.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('lists by cursor and reads a detail on any origin', async () => {
    const client = new Flashduty({ appKey: service.appKey, baseUrl: 'https://api.flashcat.cloud', logLevel: 'off' });
    const items = await collect(client.webhookHistory.list({ ...window, integration_id: hook.id, limit: 4 }));
    expect(items.map((i) => i.event_id)).toEqual(service.webhooks.history(hook.id).map((r) => r.event_id));
    const detail = await client.webhookHistory.detail({ integration_id: hook.id, event_id: items[0]!.event_id });
    expect(JSON.parse(detail.request_body!)).toMatchObject({ event_type: 'i_ack', event_id: items[0]!.event_id });
  });
});
