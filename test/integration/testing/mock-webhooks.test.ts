// The mock's incident actions and its outbound webhook, delivered over real HTTP to real receivers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockService, MockActionError } from '../../../src/testing/index.js';
import { type IncidentWebhookEventOf, type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { NOW_MS } from '../../helpers.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve))))));

async function endpoint(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/** A real receiver that records what it accepted. */
async function receiverEndpoint(options: ConstructorParameters<typeof WebhookReceiver>[0] = {}) {
  const receiver = new WebhookReceiver(options);
  const events: WebhookEvent[] = [];
  receiver.on('event', (event) => void events.push(event));
  const middleware = receiver.nodeMiddleware();
  return { url: await endpoint((req, res) => middleware(req, res)), events, receiver };
}

describe('incident actions and their events', () => {
  it('emit every event type of the spec, with person for human actions and the latest incident', async () => {
    const service = createMockService({ seed: 11, incidents: 20, now: NOW_MS });
    const { url, events } = await receiverEndpoint();
    const hook = service.webhooks.create({ endpoint: url });
    const me = service.personId;
    const other = service.world.members[1]!.person_id;
    const a = service.actions;

    const incident = await a.create({
      title: 'disk full on db-1',
      incident_severity: 'Critical',
      channel_id: service.world.channels[0]!.channel_id,
    });
    const id = incident.incident_id;
    await a.assign(id, [me], me);
    await a.addResponder(id, other, me);
    service.clock.advance(60_000);
    await a.ack(id, other);
    service.clock.advance(60_000);
    await a.ack(id, me);
    await a.unack(id, me);
    await a.snooze(id, 30, me);
    await a.wake(id, me);
    await a.comment(id, 'looking', me);
    await a.storm(id);
    await a.customAction(id, me);
    for (const field of ['title', 'description', 'impact', 'root_cause', 'resolution'] as const)
      await a.update(id, field, `new ${field}`, me);
    await a.update(id, 'incident_severity', 'Warning', me);
    await a.setField(id, 'region', 'eu', me);
    const second = await a.create({ title: 'second', incident_severity: 'Info', person_id: me });
    await a.merge(id, [second.incident_id], me);
    await a.close(id, me);
    await a.reopen(id, me);
    await a.recover(id);
    await service.webhooks.idle();

    const types = events.map((e) => e.event_type);
    expect(new Set(types)).toEqual(
      new Set([
        'i_new',
        'i_assign',
        'i_a_rspd',
        'i_ack',
        'i_unack',
        'i_snooze',
        'i_wake',
        'i_comm',
        'i_storm',
        'i_custom',
        'i_r_title',
        'i_r_desc',
        'i_r_impact',
        'i_r_rc',
        'i_r_rsltn',
        'i_r_severity',
        'i_r_field',
        'i_merge',
        'i_rslv',
        'i_reopen',
      ]),
    );
    const byType = (t: string) =>
      events.filter(
        (e): e is IncidentWebhookEventOf<string> & WebhookEvent => e.event_type === t && e.incident?.incident_id === id,
      );
    expect(byType('i_new')[0]?.person).toBeUndefined(); // created automatically
    expect(byType('i_storm')[0]?.person).toBeUndefined();
    expect(byType('i_comm')[0]?.person?.person_id).toBe(me);
    const acks = byType('i_ack');
    expect(acks[1]?.incident.ack_time).toBe(acks[0]?.incident.ack_time); // the earliest acknowledgement stays
    expect(acks[0]?.incident.progress).toBe('Processing');
    const closed = byType('i_rslv')[0]!;
    expect(closed.incident).toMatchObject({ progress: 'Closed', end_time: 0, closer: { person_id: me } }); // closing does not recover
    const recovered = byType('i_rslv')[1]!;
    expect(recovered.incident.progress).toBe('Closed');
    expect(recovered.incident.end_time).toBeGreaterThan(0);
    expect(recovered.incident.incident_status).toBe('Ok');
    expect(byType('i_r_field')[0]?.incident.fields).toEqual({ region: 'eu' });
    expect(byType('i_merge')[0]?.incident.alert_cnt).toBe(1);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length); // a fresh event_id per callback
    expect(service.webhooks.history(hook.id)).toHaveLength(events.length);
    // The merged incident is gone from the list.
    expect(service.world.incidents.find((i) => i.incident_id === second.incident_id)?.deleted_at).toBeGreaterThan(0);
  });

  it('refuses actions on unknown incidents or members', async () => {
    const service = createMockService({ seed: 1, incidents: 3, now: NOW_MS });
    await expect(service.actions.ack('000000000000000000000000', service.personId)).rejects.toThrow(MockActionError);
    await expect(service.actions.ack(service.world.incidents[0]!.incident_id, 42)).rejects.toThrow(/no member 42/);
    await expect(service.actions.create({ title: '', incident_severity: 'Critical' })).rejects.toThrow(/title/);
  });
});

describe('webhook integrations', () => {
  it('follow subscriptions and channel scope, and send custom headers', async () => {
    const service = createMockService({ seed: 12, incidents: 5, now: NOW_MS });
    const channel = service.world.channels[0]!.channel_id;
    const headers: Array<string | undefined> = [];
    const target = await receiverEndpoint({ secret: { header: 'x-token', values: ['t0ken'] } });
    const url = target.url;
    service.webhooks.create({
      endpoint: url,
      headers: { 'X-Token': 't0ken' },
      eventTypes: ['i_ack'],
      channelIds: [channel],
    });
    const spy = await endpoint((req, res) => {
      headers.push(req.headers['x-token'] as string | undefined);
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    service.webhooks.create({ endpoint: spy, headers: { 'X-Token': 't0ken' } });
    const inScope = await service.actions.create({
      title: 'in scope',
      incident_severity: 'Warning',
      channel_id: channel,
    });
    const outOfScope = await service.actions.create({ title: 'standalone', incident_severity: 'Warning' });
    await service.actions.ack(inScope.incident_id, service.personId);
    await service.actions.ack(outOfScope.incident_id, service.personId);
    await service.webhooks.idle();
    expect(target.events.map((e) => [e.event_type, e.incident?.title])).toEqual([['i_ack', 'in scope']]);
    expect(headers).toEqual(['t0ken', 't0ken', 't0ken', 't0ken']);
  });

  it('render the custom body with value mapping, with the receiver package renderer', async () => {
    const service = createMockService({ seed: 13, incidents: 5, now: NOW_MS });
    const bodies: unknown[] = [];
    const url = await endpoint((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (text += c));
      req.on('end', () => {
        bodies.push(JSON.parse(text));
        res.writeHead(200).end();
      });
    });
    service.webhooks.create({
      endpoint: url,
      customBody: {
        msg: 'Incident {{incident.title}} is {{incident.incident_severity}}',
        sev: '{{incident.incident_severity}}',
        who: '{{person}}',
        missing: '{{nope}}',
      },
      valueMapping: { 'incident.incident_severity': { Critical: 'P1' } },
    });
    await service.actions.create({ title: 'db down', incident_severity: 'Critical', person_id: service.personId });
    await service.webhooks.idle();
    expect(bodies).toEqual([
      {
        msg: 'Incident db down is P1',
        sev: 'P1',
        who: expect.objectContaining({ person_id: service.personId }),
        missing: '{{nope}}',
      },
    ]);
  });

  it('send a header of any Unicode text as its UTF-8 bytes, which the receiver takes as its secret', async () => {
    const service = createMockService({ seed: 14, incidents: 5, now: NOW_MS });
    const secret = '密码-pässwörd-ü';
    const target = await receiverEndpoint({ secret: { header: 'x-token', values: [secret] } });
    const raw: Buffer[] = [];
    const spy = await endpoint((req, res) => {
      raw.push(Buffer.from(req.headers['x-token'] as string, 'latin1')); // node gives each byte as one character
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    const hook = service.webhooks.create({ endpoint: target.url, headers: { 'X-Token': secret } });
    service.webhooks.create({ endpoint: spy, headers: { 'X-Token': secret } });
    await service.actions.create({ title: 'unicode secret', incident_severity: 'Info' });
    await service.webhooks.idle();
    expect(target.events.map((e) => e.event_type)).toEqual(['i_new']);
    expect(service.webhooks.history(hook.id).map((r) => r.status)).toEqual(['success']);
    expect(raw.map((bytes) => bytes.toString('utf8'))).toEqual([secret]);
  });

  it('refuse a header no HTTP request can carry, when the integration is made', () => {
    const service = createMockService({ seed: 1, incidents: 1 });
    expect(() => service.webhooks.create({ endpoint: 'http://x', headers: { 'X-Token': 'a\r\nX-Evil: 1' } })).toThrow(
      /line breaks/,
    );
    expect(() => service.webhooks.create({ endpoint: 'http://x', headers: { 'X Token': 'a' } })).toThrow(/HTTP token/);
  });

  it('refuse an endpoint that is not http(s)', () => {
    const service = createMockService({ seed: 1, incidents: 1 });
    expect(() => service.webhooks.create({ endpoint: 'ftp://example.com/hook' })).toThrow(/http/);
    expect(() => service.webhooks.create({ endpoint: 'not a url' })).toThrow(/URL/);
    expect(() => service.webhooks.create({ endpoint: 'http://x', customBody: '{bad' })).toThrow(/JSON/);
  });
});

describe('delivery rules and call history', () => {
  async function deliverOnce(handler: (req: IncomingMessage, res: ServerResponse, attempt: number) => void) {
    const service = createMockService({ seed: 14, incidents: 2, now: NOW_MS });
    let attempts = 0;
    const eventIds: string[] = [];
    const url = await endpoint((req, res) => {
      attempts++;
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (text += c));
      req.on('end', () => {
        eventIds.push((JSON.parse(text) as { event_id: string }).event_id);
        handler(req, res, attempts);
      });
    });
    const hook = service.webhooks.create({ endpoint: url });
    const incident = await service.actions.create({ title: 'x', incident_severity: 'Info' });
    await service.webhooks.idle();
    const [record] = service.webhooks.history(hook.id);
    return { record: record!, attempts, eventIds, incident };
  }

  it('succeeds only on 200, recording request and response', async () => {
    const ok = await deliverOnce((_req, res) => res.writeHead(200, { 'X-Answer': 'yes' }).end('fine'));
    expect(ok.record).toMatchObject({
      status: 'success',
      http_status: 200,
      request_count: 1,
      event_type: 'i_new',
      incident_id: ok.incident.incident_id,
    });
    expect(ok.record.response).toMatchObject({ body: 'fine', headers: expect.objectContaining({ 'x-answer': 'yes' }) });
    expect(ok.record.request.headers['Content-Type']).toBe('application/json');
    expect(ok.record.trigger_time).toBe(NOW_MS);
    const created = await deliverOnce((_req, res) => res.writeHead(201).end());
    expect(created.record).toMatchObject({ status: 'failure', http_status: 201, request_count: 1 });
    const failed = await deliverOnce((_req, res) => res.writeHead(500).end('boom'));
    expect(failed.record).toMatchObject({ status: 'failure', http_status: 500, request_count: 1, error: 'HTTP 500' });
  });

  it('retries once on EOF, with the same event_id', async () => {
    const result = await deliverOnce((req, res, attempt) =>
      attempt === 1 ? req.socket.destroy() : res.writeHead(200).end(),
    );
    expect(result.attempts).toBe(2);
    expect(result.eventIds[0]).toBe(result.eventIds[1]);
    expect(result.record).toMatchObject({ status: 'success', request_count: 2 });
    const twice = await deliverOnce((req) => req.socket.destroy());
    expect(twice.attempts).toBe(2); // at most one retry
    expect(twice.record).toMatchObject({ status: 'failure', http_status: 0, request_count: 2 });
    expect(twice.record.error).toMatch(/EOF/);
  });

  it(
    'fails after 2 s without retry while awaiting headers; retries a deadline hit mid-body',
    { timeout: 15_000 },
    async () => {
      const slowHeaders = await deliverOnce((_req, res) => setTimeout(() => res.writeHead(200).end(), 2600));
      expect(slowHeaders.attempts).toBe(1);
      expect(slowHeaders.record).toMatchObject({ status: 'failure', request_count: 1 });
      expect(slowHeaders.record.error).toMatch(/awaiting headers/);
      expect(slowHeaders.record.duration_ms).toBeGreaterThanOrEqual(1900);
      const slowBody = await deliverOnce((_req, res, attempt) => {
        res.writeHead(200);
        res.write('partial');
        if (attempt === 1) setTimeout(() => res.end(), 2600);
        else res.end();
      });
      expect(slowBody.attempts).toBe(2);
      expect(slowBody.record).toMatchObject({ status: 'success', request_count: 2 });
    },
  );

  it('does not retry a refused connection', async () => {
    const service = createMockService({ seed: 15, incidents: 1, now: NOW_MS });
    const hook = service.webhooks.create({ endpoint: 'http://127.0.0.1:1/hook' });
    await service.actions.create({ title: 'x', incident_severity: 'Info' });
    await service.webhooks.idle();
    expect(service.webhooks.history(hook.id)[0]).toMatchObject({ status: 'failure', request_count: 1, http_status: 0 });
  });

  it('filters the history by type, incident, status and time, newest first, last 7 days only', async () => {
    const service = createMockService({ seed: 16, incidents: 2, now: NOW_MS });
    let n = 0;
    const url = await endpoint((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(++n % 2 ? 200 : 500).end());
    });
    const hook = service.webhooks.create({ endpoint: url });
    const a = await service.actions.create({ title: 'a', incident_severity: 'Info' });
    service.clock.advance(60_000);
    const b = await service.actions.create({ title: 'b', incident_severity: 'Info' });
    service.clock.advance(60_000);
    await service.actions.ack(a.incident_id, service.personId);
    await service.webhooks.idle();
    const all = service.webhooks.history(hook.id);
    expect(all.map((r) => r.event_type)).toEqual(['i_ack', 'i_new', 'i_new']);
    expect(all.map((r) => r.status)).toEqual(['success', 'failure', 'success']);
    expect(service.webhooks.history(hook.id, { eventType: 'i_new' })).toHaveLength(2);
    expect(service.webhooks.history(hook.id, { incidentId: b.incident_id }).map((r) => r.incident_id)).toEqual([
      b.incident_id,
    ]);
    expect(service.webhooks.history(hook.id, { status: 'failure' })).toHaveLength(1);
    expect(service.webhooks.history(hook.id, { since: NOW_MS + 60_000, until: NOW_MS + 60_000 })).toHaveLength(1);
    service.clock.advance(7 * 86_400_000);
    expect(service.webhooks.history(hook.id)).toHaveLength(1); // only the ack is within the last 7 days
    service.clock.advance(120_000);
    expect(service.webhooks.history(hook.id)).toHaveLength(0);
  });
});
