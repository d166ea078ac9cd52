// client.incidents, client.alerts, client.channels against the mock over real HTTP: the lifecycle is
// stateful and each write emits its webhook event to a real receiver; params are checked locally
// against the OpenAPI, and the mock checks them too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  InternalError,
  InvalidParameterError,
  RequestValidationError,
  ResourceNotFoundError,
} from '../../../src/index.js';
import { type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { collect, DAY, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 60, rateLimits: false });
const client = h.client();
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve))))));

/** A real receiver on loopback, subscribed to the mock's webhook. */
async function receiver() {
  const webhookReceiver = new WebhookReceiver();
  const events: WebhookEvent[] = [];
  webhookReceiver.on('event', (event) => void events.push(event));
  const middleware = webhookReceiver.nodeMiddleware();
  const server = createServer((req, res) => middleware(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  h.service.webhooks.create({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
  return { webhookReceiver, events };
}

describe('client.incidents', () => {
  it('walks the lifecycle; each write is one call and emits its webhook event', async () => {
    const { events } = await receiver();
    const me = h.service.personId;
    const channel = h.service.world.channels[0]!.channel_id;
    const created = await client.incidents.create({
      incident_severity: 'Critical',
      title: 'disk full on db-1',
      channel_id: channel,
    });
    expect(created).toEqual({ incident_id: expect.stringMatching(/^[0-9a-f]{24}$/), title: 'disk full on db-1' });
    const id = created.incident_id;
    const ids = [id];
    const before = h.calls.length;
    await client.incidents.assign({ incident_id: id, assigned_to: { person_ids: [me] } });
    await client.incidents.ack({ incident_ids: ids });
    await client.incidents.comment({ incident_ids: ids, comment: 'rolling back' });
    await client.incidents.snooze({ incident_ids: ids, minutes: 30 });
    await client.incidents.wake({ incident_ids: ids });
    await client.incidents.unack({ incident_ids: ids });
    await client.incidents.reset({ incident_id: id, title: 'disk full on db-1 (primary)' });
    await client.incidents.resolve({ incident_ids: ids, root_cause: 'log rotation stopped' });
    await client.incidents.reopen({ incident_ids: ids });
    expect(h.calls.length - before).toBe(9);
    await h.service.webhooks.idle();
    expect(events.filter((e) => e.incident?.incident_id === id).map((e) => e.event_type)).toEqual([
      'i_new',
      'i_assign',
      'i_ack',
      'i_comm',
      'i_snooze',
      'i_wake',
      'i_unack',
      'i_r_title',
      'i_r_rc',
      'i_rslv',
      'i_reopen',
    ]);
    const info = await client.incidents.info({ incident_id: id });
    expect(info).toMatchObject({
      incident_id: id,
      title: 'disk full on db-1 (primary)',
      root_cause: 'log rotation stopped',
    });
    const byIds = await client.incidents.listByIds({ incident_ids: [id, h.service.world.incidents[0]!.incident_id] });
    expect(byIds?.items.map((i) => i.incident_id)).toContain(id);
  });

  it('finds an incident by its short number too (the newer OpenAPI), and needs one of the two', async () => {
    const incident = h.service.world.incidents[3]!;
    expect(await client.incidents.info({ num: incident.num.toLowerCase() })).toMatchObject({
      incident_id: incident.incident_id,
    });
    const neither = await rejection(client.incidents.info({}));
    expect(neither).toBeInstanceOf(InvalidParameterError);
    expect((neither as Error).message).toContain('incident_id');
  });

  it('adds responders, merges and removes', async () => {
    const other = h.service.world.members[1]!.person_id;
    const a = (await client.incidents.create({ incident_severity: 'Warning', title: 'api errors' })).incident_id;
    const b = (await client.incidents.create({ incident_severity: 'Warning', title: 'api errors again' })).incident_id;
    await client.incidents.addResponder({ incident_id: a, person_ids: [other] });
    expect((await client.incidents.info({ incident_id: a }))?.responders?.map((r) => r.person_id)).toContain(other);
    await client.incidents.merge({ source_incident_ids: [b], target_incident_id: a });
    expect(await rejection(client.incidents.info({ incident_id: b }))).toBeInstanceOf(ResourceNotFoundError);
    await client.incidents.remove({ incident_ids: [a] });
    expect(await rejection(client.incidents.info({ incident_id: a }))).toBeInstanceOf(ResourceNotFoundError);
  });

  it('checks params against the OpenAPI and sends nothing when they are wrong', async () => {
    const before = h.calls.length;
    const cases: Array<[Promise<unknown>, string]> = [
      [client.incidents.ack({} as never), 'incident_ids'],
      [client.incidents.ack({ incident_ids: [] }), 'incident_ids'],
      [client.incidents.ack({ incident_ids: ['0123456789abcdef01234567', 'nope'] }), 'incident_ids[1]'],
      [client.incidents.snooze({ incident_ids: ['0123456789abcdef01234567'], minutes: 0 }), 'minutes'],
      [client.incidents.create({ incident_severity: 'Fatal' as never }), 'incident_severity'],
      [client.incidents.info({ incident_id: 42 as never }), 'incident_id'],
      [
        client.incidents.assign({ incident_id: '0123456789abcdef01234567', assigned_to: { person_ids: [] } }),
        'assigned_to.person_ids',
      ],
      [client.incidents.comment(null as never), 'params'],
      [client.channels.info({ channel_id: 'x' as never }), 'channel_id'],
    ];
    for (const [promise, field] of cases) {
      const error = await rejection(promise);
      expect(error, field).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe(field);
    }
    expect(await rejection(collect(client.incidents.feed({ incident_id: 'nope' })))).toBeInstanceOf(
      RequestValidationError,
    );
    expect(h.calls.length).toBe(before);
  });

  it('the mock refuses what the OpenAPI refuses, and unknown incidents', async () => {
    const raw = (path: string, body: unknown) =>
      fetch(`${h.server.url}${path}?app_key=${h.service.appKey}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ error?: { code: string; message: string } }>);
    expect((await raw('/incident/ack', { incident_ids: ['x'] })).error).toMatchObject({
      code: 'InvalidParameter',
      message: expect.stringContaining('incident_ids[0]'),
    });
    expect((await raw('/incident/snooze', { incident_ids: [] })).error).toMatchObject({
      code: 'InvalidParameter',
      message: expect.stringContaining('minutes'),
    });
    expect(await rejection(client.incidents.ack({ incident_ids: ['0123456789abcdef01234567'] }))).toBeInstanceOf(
      ResourceNotFoundError,
    );
    const unknown = await rejection(
      client.incidents.merge({
        source_incident_ids: ['0123456789abcdef01234567'],
        target_incident_id: h.service.world.incidents[0]!.incident_id,
      }),
    );
    expect(unknown).toBeInstanceOf(ResourceNotFoundError);
    expect((await raw('/incident/reset', { incident_id: h.service.world.incidents[0]!.incident_id })).error?.code).toBe(
      'InvalidParameter',
    );
  });

  it('never sends a write twice after it may have reached the server', async () => {
    const id = (await client.incidents.create({ incident_severity: 'Info', title: 'flaky' })).incident_id;
    h.service.faults.add({ status: 500, path: '/incident/ack' });
    const before = h.calls.length;
    expect(await rejection(client.incidents.ack({ incident_ids: [id] }))).toBeInstanceOf(InternalError);
    expect(h.calls.length - before).toBe(1);
    h.service.faults.add({ dropAfter: true, path: '/incident/comment' });
    await rejection(client.incidents.comment({ incident_ids: [id], comment: 'once' }));
    expect(h.service.actions.comments.get(id)?.map((c) => c.text)).toEqual(['once']);
  });

  it('pages the timeline by page number', async () => {
    const entries = Array.from({ length: 5 }, (_, i) => ({
      ref_id: 'r',
      type: 'i_comm',
      detail: {},
      created_at: i,
      updated_at: i,
    }));
    h.service.faults.add({
      body: JSON.stringify({ request_id: 'r', data: { items: entries.slice(0, 3), has_next_page: true } }),
      headers: { 'Content-Type': 'application/json' },
    });
    h.service.faults.add({
      body: JSON.stringify({ request_id: 'r', data: { items: entries.slice(3), has_next_page: false } }),
      headers: { 'Content-Type': 'application/json' },
    });
    const before = h.calls.length;
    const items = await collect(
      client.incidents.feed({ incident_id: h.service.world.incidents[0]!.incident_id, limit: 3 }),
    );
    expect(items).toHaveLength(5);
    expect(h.calls.slice(before).map((c) => (c.body as { p: number }).p)).toEqual([1, 2]);
  });
});

describe('client.alerts and client.channels', () => {
  const alerts = () => [...h.service.world.alerts.values()].flat();

  it('lists alerts by cursor across 31-day windows, and by page number, each once', async () => {
    const range = { start_time: NOW - 40 * DAY, end_time: NOW, limit: 7 };
    const expected = alerts()
      .filter((a) => a.start_time >= range.start_time && a.start_time <= range.end_time)
      .sort((a, b) => b.start_time - a.start_time || (a.alert_id < b.alert_id ? 1 : -1))
      .map((a) => a.alert_id);
    expect(expected.length).toBeGreaterThan(14);
    const byCursor = await collect(client.alerts.list(range));
    expect(byCursor.map((a) => a.alert_id)).toEqual(expected);
    const byNumber = await collect(client.alerts.list(range).items({ by: 'number' }));
    expect(byNumber.map((a) => a.alert_id)).toEqual(expected);
    const pages = await collect(client.alerts.list(range).pages());
    const rest = await collect(client.alerts.list(range).items({ resumeFrom: pages[2]!.resumeToken }));
    expect([...pages.slice(0, 3).flatMap((p) => p.items), ...rest].map((a) => a.alert_id)).toEqual(expected);
    expect(await rejection(client.alerts.list(range))).toBeInstanceOf(RequestValidationError); // one page: 31 days at most
  });

  it('reads an alert and its events', async () => {
    const alert = alerts()[0]!;
    expect(await client.alerts.info({ alert_id: alert.alert_id })).toMatchObject({
      alert_id: alert.alert_id,
      title: alert.title,
    });
    const events = await collect(client.alerts.events({ alert_id: alert.alert_id }));
    expect(events).toHaveLength(alert.event_cnt);
    expect(await rejection(client.alerts.info({ alert_id: 'nope' }))).toBeInstanceOf(ResourceNotFoundError);
  });

  it('lists channels by page number and reads one', async () => {
    const channels = h.service.world.channels;
    const all = await collect(client.channels.list({ limit: 2 }));
    expect(all.map((c) => c.channel_id)).toEqual(channels.map((c) => c.channel_id));
    const page = await client.channels.list();
    expect(page.total).toBe(channels.length);
    expect(await client.channels.info({ channel_id: channels[0]!.channel_id })).toMatchObject({
      channel_name: channels[0]!.channel_name,
    });
  });
});
