// replayFromHistory (src/webhooks/replay.ts), with the real client against the mock service served
// by MSW in process (no socket), and a real WebhookReceiver counting what its handlers run. The
// mock's sender posts each delivery to that receiver while it is "up" and records a 503 while it is
// "down", so the delivery history holds successes and failures as the service's would. Rules checked:
// - failed deliveries only by default, every one with `status: 'all'`, oldest first, every page of
//   the history walked; a second replay is all duplicates (the receiver's dedup);
// - the report counts each outcome (accepted, duplicate, stale, rejected) and lists each rejection
//   with its event id, status and the receiver's reason; a record whose detail cannot be read is
//   listed as unread, and the walk goes on;
// - each record goes with its own recorded headers (the secret), their names lowercased, an array
//   joined, a JSON content type where none was recorded, none at all where they cannot be read;
// - `until` defaults to now, the window is sent in Unix ms, the list asked oldest first;
// - options refused before any call: a client without `webhookHistory`, a receiver without
//   `receive`, a `status` other than 'failed' or 'all' (the error names both);
// - its signal stops the walk between records.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, Flashduty, FlashdutyError } from '../../../src/index.js';
import type { Attempt, DeliveryRequest, PostDelivery } from '../../../src/testing/delivery-post.js';
import { createMockServiceWith } from '../../../src/testing/service.js';
import type { WebhookIntegration } from '../../../src/testing/index.js';
import { replayFromHistory, type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { rejection } from '../../helpers.js';

/** 2026-11-01T00:00:00Z: the mock's clock, pinned. */
const NOW_MS = Date.UTC(2026, 10, 1);
const since = NOW_MS - 3_600_000;
const until = NOW_MS + 3_600_000;
const SECRET = { header: 'x-flashduty-token', values: ['t0ken'] };
const TOKEN = { 'X-Flashduty-Token': 't0ken' };

/** Each integration's endpoint, by URL: what the mock's sender posts a delivery to. */
const endpoints = new Map<string, (request: DeliveryRequest) => Promise<Attempt>>();
const down = (): Attempt => ({ status: 503, headers: {}, body: 'down for maintenance', retryable: false });
const post: PostDelivery = async (request) => (endpoints.get(request.endpoint) ?? (async () => down()))(request);

const service = createMockServiceWith({ seed: 11, incidents: 2, now: NOW_MS, rateLimits: false }, { post });
const channel = service.world.channels[0]?.channel_id as number;
const server = setupServer(...service.handlers);

/** The bodies of the history list calls, as the mock received them. */
const listed: Array<Record<string, unknown>> = [];
let detailCalls = 0;
server.events.on('request:start', ({ request }) => {
  const path = new URL(request.url).pathname;
  if (path === '/webhook/history/detail') detailCalls++;
  if (path === '/webhook/history/list')
    void request
      .clone()
      .json()
      .then((body) => listed.push(body as Record<string, unknown>));
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
afterEach(() => {
  service.faults.clear();
  listed.length = 0;
  detailCalls = 0;
});

const client = () => new Flashduty({ appKey: service.appKey, baseUrl: 'https://api.flashcat.cloud', logLevel: 'off' });

let made = 0;
/**
 * A webhook integration whose endpoint is `receiver`, reached while `up()` says so (the mock's
 * sender then records the receiver's answer), answering 503 otherwise.
 */
function integration(
  receiver: WebhookReceiver,
  up: () => boolean,
  headers: Record<string, string> = TOKEN,
): WebhookIntegration {
  const endpoint = `http://receiver.test/hooks/${++made}`;
  endpoints.set(endpoint, async (request) => {
    if (!up()) return down();
    const result = await receiver.receive({ body: request.body, headers: request.headers });
    return { status: result.status, headers: {}, body: result.reason ?? 'ok', retryable: false };
  });
  return service.webhooks.create({ endpoint, headers });
}

/** Creates incidents titled `titles`, a second apart, and waits for their deliveries. */
async function createIncidents(...titles: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const title of titles) {
    const { incident_id } = await service.actions.create({ title, incident_severity: 'Warning', channel_id: channel });
    ids.push(incident_id);
    service.clock.advance(1_000);
  }
  await service.webhooks.idle();
  return ids;
}

/** A receiver with the secret whose handlers record the incident titles of the events they run. */
function countingReceiver(): { receiver: WebhookReceiver; handled: string[] } {
  const receiver = new WebhookReceiver({ secret: SECRET, logger: false });
  const handled: string[] = [];
  receiver.on('event', (event: WebhookEvent) => void handled.push(`${event.event_type} ${event.incident?.title}`));
  return { receiver, handled };
}

/** A switch: up for the first `n` deliveries, down after. */
function upFor(n: number): () => boolean {
  let seen = 0;
  return () => ++seen <= n;
}

describe('what replayFromHistory replays', () => {
  it('only the failed deliveries by default, oldest first; a second replay is all duplicates', async () => {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, upFor(2));
    await createIncidents('a', 'b', 'c', 'd', 'e');
    expect(service.webhooks.history(hook.id).map((r) => r.status)).toEqual([
      'failure',
      'failure',
      'failure',
      'success',
      'success',
    ]);
    expect(handled).toEqual(['i_new a', 'i_new b']);

    const report = await replayFromHistory({ client: client(), receiver, integrationId: hook.id, since, until });
    expect(report).toEqual({ seen: 3, accepted: 3, duplicate: 0, stale: 0, rejected: 0, rejections: [], unread: [] });
    // In the order they happened.
    expect(handled).toEqual(['i_new a', 'i_new b', 'i_new c', 'i_new d', 'i_new e']);
    expect(listed).toEqual([
      { integration_id: hook.id, start_time: since, end_time: until, asc: true, limit: 100, status: 'failed' },
    ]);
    expect(detailCalls).toBe(3);

    const again = await replayFromHistory({ client: client(), receiver, integrationId: hook.id, since, until });
    expect(again).toEqual({ seen: 3, accepted: 0, duplicate: 3, stale: 0, rejected: 0, rejections: [], unread: [] });
    expect(handled).toHaveLength(5);
  });

  it('reports a record whose request cannot be read as unread and goes on; a run again replays it', async () => {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, () => false);
    await createIncidents('p', 'q');
    const first = service.webhooks.history(hook.id).at(-1); // the oldest, walked first
    service.faults.add({ path: '/webhook/history/detail', status: 404 }); // gone between the list and its detail
    const report = await replayFromHistory({ client: client(), receiver, integrationId: hook.id, since, until });
    expect(report).toMatchObject({ seen: 2, accepted: 1, rejected: 0, unread: [{ eventId: first?.event_id }] });
    expect(report.unread[0]?.error).toBeInstanceOf(FlashdutyError);
    expect(handled).toEqual(['i_new q']);
    const again = await replayFromHistory({ client: client(), receiver, integrationId: hook.id, since, until });
    expect(again).toMatchObject({ seen: 2, accepted: 1, duplicate: 1, unread: [] });
    expect(handled).toEqual(['i_new q', 'i_new p']);
  });

  it("every delivery with status: 'all', those that did arrive as duplicates; a Date window is sent in ms", async () => {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, upFor(2));
    await createIncidents('a', 'b', 'c', 'd');
    const report = await replayFromHistory({
      client: client(),
      receiver,
      integrationId: hook.id,
      since: new Date(since),
      until: new Date(until),
      status: 'all',
    });
    expect(report).toEqual({ seen: 4, accepted: 2, duplicate: 2, stale: 0, rejected: 0, rejections: [], unread: [] });
    expect(handled).toEqual(['i_new a', 'i_new b', 'i_new c', 'i_new d']);
    expect(listed).toEqual([
      { integration_id: hook.id, start_time: since, end_time: until, asc: true, limit: 100 }, // no status filter
    ]);
  });

  it('only the deliveries of its integration, within its window', async () => {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, () => false);
    const other = integration(receiver, () => false);
    await createIncidents('before');
    const from = service.clock.now();
    await createIncidents('inside');
    const to = service.clock.now();
    await createIncidents('after');
    expect(service.webhooks.history(other.id)).toHaveLength(3);
    const report = await replayFromHistory({
      client: client(),
      receiver,
      integrationId: hook.id,
      since: from,
      until: to - 1,
    });
    expect(report.seen).toBe(1);
    expect(handled).toEqual(['i_new inside']);
  });

  it('walks every page of the history (101 records: two pages of 100)', async () => {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, () => false);
    const titles = Array.from({ length: 101 }, (_, i) => `n${i}`);
    await createIncidents(...titles);
    const report = await replayFromHistory({ client: client(), receiver, integrationId: hook.id, since, until });
    expect(report).toMatchObject({ seen: 101, accepted: 101, rejected: 0 });
    expect(handled).toEqual(titles.map((title) => `i_new ${title}`));
    expect(listed).toHaveLength(2);
    expect(listed[1]?.search_after_ctx).toEqual(expect.any(String));
  });

  it('until now when no until is given', async () => {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, () => false);
    await createIncidents('past', 'future');
    const now = service.clock.now() - 1_500; // between the two

    vi.useFakeTimers({ now, toFake: ['Date'] });
    try {
      const report = await replayFromHistory({
        client: client(),
        receiver,
        integrationId: hook.id,
        since: now - 60_000,
      });
      expect(report.seen).toBe(1);
    } finally {
      vi.useRealTimers();
    }
    expect(handled).toEqual(['i_new past']);
    expect(listed[0]?.end_time).toBe(now);
  });
});

describe('the report', () => {
  it('counts each outcome: accepted, duplicate, stale, and a rejection with its reason', async () => {
    let up = false;
    const receiver = new WebhookReceiver({ secret: SECRET, logger: false });
    const handled: string[] = [];
    receiver.on('event', (event) => {
      if (event.incident?.title === 'broken') throw new Error('database down');
      handled.push(`${event.event_type} ${event.incident?.title}`);
    });
    const hook = integration(receiver, () => up);
    const [first] = await createIncidents('first'); // failed: i_new of "first"
    up = true;
    await service.actions.ack(first as string, service.personId); // arrived: i_ack of "first"
    service.clock.advance(1_000);
    await service.webhooks.idle();
    up = false;
    await createIncidents('second', 'broken'); // failed
    expect(handled).toEqual(['i_ack first']);

    const report = await replayFromHistory({
      client: client(),
      receiver,
      integrationId: hook.id,
      since,
      until,
      status: 'all',
    });
    // Oldest first: the i_new of "first" is older than its i_ack, already handled.
    const brokenId = service.webhooks.history(hook.id)[0]?.event_id;
    expect(report).toEqual({
      seen: 4,
      accepted: 1,
      duplicate: 1,
      stale: 1,
      rejected: 1,
      rejections: [{ eventId: brokenId, status: 500, reason: 'handler failed' }],
      unread: [],
    });
    expect(handled).toEqual(['i_ack first', 'i_new second']);
  });

  it("lists each delivery the receiver refuses: a secret that no longer matches, by the record's event id", async () => {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, () => false, { 'X-Flashduty-Token': 'old' });
    await createIncidents('a', 'b');
    const report = await replayFromHistory({ client: client(), receiver, integrationId: hook.id, since, until });
    const oldestFirst = service.webhooks
      .history(hook.id)
      .map((r) => r.event_id)
      .reverse();
    const reason = 'missing or wrong x-flashduty-token header';
    expect(report).toEqual({
      seen: 2,
      accepted: 0,
      duplicate: 0,
      stale: 0,
      rejected: 2,
      rejections: oldestFirst.map((eventId) => ({ eventId, status: 401, reason })),
      unread: [],
    });
    expect(handled).toEqual([]);
  });
});

describe("a record's headers", () => {
  /** A failed delivery of a fresh integration, and a client. */
  async function oneFailed() {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, () => false);
    await createIncidents('x');
    const c = client();
    const [record] = service.webhooks.history(hook.id);
    const detail = await c.webhookHistory.detail({ integration_id: hook.id, event_id: record?.event_id as string });
    return { receiver, handled, hook, c, detail };
  }

  /** The next detail answered as `detail` with other recorded headers (or none). */
  function recordedAs(detail: object, request_headers: string | undefined): void {
    service.faults.add({
      path: '/webhook/history/detail',
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ request_id: 'r-fault', data: { ...detail, request_headers } }),
    });
  }

  it('are sent as recorded, whatever the case of their names (an array joined)', async () => {
    const { receiver, handled, hook, c, detail } = await oneFailed();
    recordedAs(detail, JSON.stringify({ 'X-FLASHDUTY-TOKEN': ['t0ken'], 'Content-Type': 'application/json' }));
    const report = await replayFromHistory({ client: c, receiver, integrationId: hook.id, since, until });
    expect(report).toMatchObject({ seen: 1, accepted: 1 });
    expect(handled).toEqual(['i_new x']);
  });

  it('keep the content type they were sent with, whatever the case of its name', async () => {
    const { receiver, hook, c, detail } = await oneFailed();
    recordedAs(detail, JSON.stringify({ 'x-flashduty-token': 't0ken', 'Content-Type': 'text/plain' }));
    const report = await replayFromHistory({ client: c, receiver, integrationId: hook.id, since, until });
    expect(report.rejections).toEqual([
      { eventId: detail.event_id, status: 415, reason: 'content type text/plain is not JSON' },
    ]);
  });

  it('get a JSON content type where none was recorded', async () => {
    const { receiver, handled, hook, c, detail } = await oneFailed();
    recordedAs(detail, JSON.stringify({ 'x-flashduty-token': 't0ken' }));
    expect(await replayFromHistory({ client: c, receiver, integrationId: hook.id, since, until })).toMatchObject({
      accepted: 1,
    });
    expect(handled).toEqual(['i_new x']);
  });

  it('that cannot be read, or none at all: the body still replays, without the secret', async () => {
    for (const headers of ['not json', undefined]) {
      const { receiver, hook, c, detail } = await oneFailed();
      recordedAs(detail, headers);
      const report = await replayFromHistory({ client: c, receiver, integrationId: hook.id, since, until });
      expect(report.rejections, String(headers)).toEqual([
        { eventId: detail.event_id, status: 401, reason: 'missing or wrong x-flashduty-token header' },
      ]);
      // Without a secret to check, the same record is accepted.
      recordedAs(detail, headers);
      const open = new WebhookReceiver({ logger: false });
      expect(
        await replayFromHistory({ client: c, receiver: open, integrationId: hook.id, since, until }),
        String(headers),
      ).toMatchObject({ seen: 1, accepted: 1 });
    }
  });
});

describe('its options', () => {
  const receiver = new WebhookReceiver({ logger: false });

  it('refuse a client without webhookHistory, before any call', async () => {
    for (const bad of [undefined, {}, { webhookHistory: {} }, { webhookHistory: { list: 'no' } }]) {
      const error = await rejection(replayFromHistory({ client: bad as never, receiver, integrationId: 1, since }));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(
        'replayFromHistory: `client` must be a Flashduty client (with webhookHistory)',
      );
    }
    expect(await rejection(replayFromHistory(undefined as never))).toBeInstanceOf(ConfigError);
    expect(listed).toEqual([]);
  });

  it('refuse a receiver that is no WebhookReceiver, before any call', async () => {
    for (const bad of [undefined, {}, { receive: true }, client()]) {
      const error = await rejection(
        replayFromHistory({ client: client(), receiver: bad as never, integrationId: 1, since }),
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe('replayFromHistory: `receiver` must be a WebhookReceiver');
    }
    expect(listed).toEqual([]);
  });

  it("refuse a status other than 'failed' or 'all', naming both and the value given, before any call", async () => {
    for (const status of ['failure', 'success', 'FAILED', '', null, 1]) {
      const error = await rejection(
        replayFromHistory({ client: client(), receiver, integrationId: 1, since, status: status as never }),
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(
        `replayFromHistory: status must be 'failed' or 'all', got ${JSON.stringify(status)}`,
      );
    }
    expect(listed).toEqual([]);
  });

  it('stop the walk between records when the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const receiver = new WebhookReceiver({ secret: SECRET, logger: false });
    let runs = 0;
    receiver.on('event', () => {
      if (++runs === 2) controller.abort(reason);
    });
    const hook = integration(receiver, () => false);
    await createIncidents('a', 'b', 'c', 'd');
    const error = await rejection(
      replayFromHistory({
        client: client(),
        receiver,
        integrationId: hook.id,
        since,
        until,
        signal: controller.signal,
      }),
    );
    expect(error).toBe(reason);
    expect([runs, detailCalls]).toEqual([2, 2]);
  });

  it('an aborted signal replays nothing', async () => {
    const { receiver, handled } = countingReceiver();
    const hook = integration(receiver, () => false);
    await createIncidents('a');
    const error = await rejection(
      replayFromHistory({
        client: client(),
        receiver,
        integrationId: hook.id,
        since,
        until,
        signal: AbortSignal.abort(),
      }),
    );
    expect((error as Error).name).toBe('AbortError');
    expect([handled, detailCalls]).toEqual([[], 0]);
  });
});
