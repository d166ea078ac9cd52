// replayFromHistory against the mock service over real HTTP: deliveries that failed (the receiver
// was down, or answered an error) come back from the delivery history, with their headers, and
// run once; a second replay is all duplicates.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { FlashdutyError } from '../../../src/index.js';
import type { MockService } from '../../../src/testing/index.js';
import { replayFromHistory, type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { closedPort, NOW_MS, startMock } from '../../helpers.js';

const SECRET = { header: 'x-flashduty-token', values: ['t0ken'] };
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve))))));

/** A live receiver on loopback that is up for the first `upFor` deliveries, then answers 500. */
async function liveReceiver(receiver: WebhookReceiver, upFor: number): Promise<string> {
  const middleware = receiver.nodeMiddleware();
  let n = 0;
  const server = createServer((req, res) => {
    if (++n > upFor) {
      req.resume();
      req.on('end', () => res.writeHead(500).end('down for maintenance'));
      return;
    }
    middleware(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

async function createIncidents(service: MockService, count: number) {
  const channel = service.world.channels[0]!.channel_id;
  const created = [];
  for (let i = 0; i < count; i++) {
    created.push(
      await service.actions.create({ title: `incident ${i}`, incident_severity: 'Warning', channel_id: channel }),
    );
    service.clock.advance(1_000);
  }
  await service.webhooks.idle();
  return created;
}

describe('replayFromHistory', async () => {
  const h = await startMock({ seed: 5, incidents: 2, rateLimits: false });
  const client = h.client();
  const since = NOW_MS - 3_600_000;
  const until = NOW_MS + 3_600_000;

  it('replays what never arrived (the endpoint was down) once; a second replay is all duplicates', async () => {
    const hook = h.service.webhooks.create({
      endpoint: `http://127.0.0.1:${await closedPort()}/hooks`,
      headers: { 'X-Flashduty-Token': 't0ken' },
    });
    const created = await createIncidents(h.service, 5);
    expect(h.service.webhooks.history(hook.id).every((r) => r.status === 'failure')).toBe(true);
    const receiver = new WebhookReceiver({ secret: SECRET });
    const handled: WebhookEvent[] = [];
    receiver.on('i_new', (event) => void handled.push(event));
    const report = await replayFromHistory({ client, receiver, integrationId: hook.id, since, until });
    expect(report).toEqual({ seen: 5, accepted: 5, duplicate: 0, stale: 0, rejected: 0, rejections: [], unread: [] });
    // Oldest first: in the order they happened.
    expect(handled.map((e) => e.incident?.incident_id)).toEqual(created.map((c) => c.incident_id));
    const again = await replayFromHistory({
      client,
      receiver,
      integrationId: hook.id,
      since: new Date(since),
      until: new Date(until),
    });
    expect(again).toEqual({ seen: 5, accepted: 0, duplicate: 5, stale: 0, rejected: 0, rejections: [], unread: [] });
    expect(handled).toHaveLength(5);
  });

  it('replays only the failed deliveries by default, every one with status "all", run once either way', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    const handled: string[] = [];
    receiver.on('event', (event) => void handled.push(event.event_id));
    const hook = h.service.webhooks.create({
      endpoint: await liveReceiver(receiver, 3),
      headers: { 'X-Flashduty-Token': 't0ken' },
    });
    await createIncidents(h.service, 7);
    const history = h.service.webhooks.history(hook.id);
    expect(history.filter((r) => r.status === 'success')).toHaveLength(3);
    expect(handled).toHaveLength(3);
    const failed = await replayFromHistory({ client, receiver, integrationId: hook.id, since, until });
    expect(failed).toMatchObject({ seen: 4, accepted: 4, duplicate: 0, rejected: 0 });
    const all = await replayFromHistory({ client, receiver, integrationId: hook.id, since, until, status: 'all' });
    expect(all).toMatchObject({ seen: 7, accepted: 0, duplicate: 7, rejected: 0 });
    expect(new Set(handled).size).toBe(7);
    expect(handled).toHaveLength(7);
  });

  it('reports what the receiver refuses, with the reason (a secret that no longer matches)', async () => {
    const hook = h.service.webhooks.create({
      endpoint: `http://127.0.0.1:${await closedPort()}/hooks`,
      headers: { 'X-Flashduty-Token': 'old' },
    });
    await createIncidents(h.service, 2);
    const receiver = new WebhookReceiver({ secret: SECRET });
    const report = await replayFromHistory({ client, receiver, integrationId: hook.id, since, until });
    expect(report).toMatchObject({ seen: 2, accepted: 0, rejected: 2 });
    expect(report.rejections[0]).toEqual({
      eventId: expect.any(String),
      status: 401,
      reason: 'missing or wrong x-flashduty-token header',
    });
  });

  it("refuses bad options with a FlashdutyError, and a bad window with the client's RequestValidationError", async () => {
    const receiver = new WebhookReceiver();
    await expect(replayFromHistory({ client: {} as never, receiver, integrationId: 1, since })).rejects.toBeInstanceOf(
      FlashdutyError,
    );
    await expect(replayFromHistory({ client, receiver: {} as never, integrationId: 1, since })).rejects.toThrow(
      /receiver/,
    );
    await expect(
      replayFromHistory({ client, receiver, integrationId: 1, since, status: 'some' as never }),
    ).rejects.toThrow(/status/);
    await expect(replayFromHistory({ client, receiver, integrationId: 1, since: until, until: since })).rejects.toThrow(
      /end_time/,
    );
  });

  it('stops between records when its signal aborts', async () => {
    const hook = h.service.webhooks.create({ endpoint: `http://127.0.0.1:${await closedPort()}/hooks` });
    await createIncidents(h.service, 3);
    const controller = new AbortController();
    const receiver = new WebhookReceiver();
    let seen = 0;
    receiver.on('event', () => {
      if (++seen === 2) controller.abort();
    });
    await expect(
      replayFromHistory({ client, receiver, integrationId: hook.id, since, until, signal: controller.signal }),
    ).rejects.toThrow();
    expect(seen).toBe(2);
  });
});
