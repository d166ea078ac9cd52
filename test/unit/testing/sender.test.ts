// The mock's webhook sender, its POSTs recorded and answered by a stand-in (no socket): integrations
// refused when they could never be delivered, who gets which event, the delivery rules (success only
// on 200, one retry for what the retry rule retries, the deadlines, one integration's deliveries one
// after another), held deliveries released newest first or several times, custom bodies, and the
// call history with its filters and its 7 days.
import { describe, expect, it } from 'vitest';
import { createMockServiceWith } from '../../../src/testing/service.js';
import { MockActionError } from '../../../src/testing/index.js';
import { NOW_MS, recordingPost } from './support.js';
import type { DeliveryRequest } from '../../../src/testing/delivery-post.js';

const ENDPOINT = 'http://receiver.test/hooks';

/** A mock on the fixed clock whose deliveries go to `post`. */
function mockWith(post = recordingPost()) {
  const service = createMockServiceWith({ now: NOW_MS, incidents: 10, rateLimits: false }, { post });
  const channel = service.world.channels[0]?.channel_id as number;
  const other = service.world.channels[1]?.channel_id as number;
  const incident = (channel_id = channel) =>
    service.actions.create({ title: 'Disk full', incident_severity: 'Critical', channel_id });
  return { service, post, channel, other, incident };
}

const sent = (request: DeliveryRequest) => JSON.parse(request.body) as Record<string, unknown>;

describe('integrations', () => {
  it('are refused when they could never be delivered', () => {
    const { service, channel } = mockWith();
    const create = (config: object) => () => service.webhooks.create({ endpoint: ENDPOINT, ...config });
    expect(create({ endpoint: 'not a url' })).toThrow('webhooks.create: endpoint is not a URL: "not a url"');
    expect(create({ endpoint: 'ftp://x' })).toThrow('webhooks.create: endpoint must start with http:// or https://');
    expect(create({ headers: { 'Bad Name': 'x' } })).toThrow('header name "Bad Name" is not an HTTP token');
    expect(create({ headers: { 'X-A': 'a\r\nb' } })).toThrow('header X-A must be a string without line breaks or NUL');
    expect(create({ kind: 'sms' })).toThrow('webhooks.create: kind must be one of incident, alert, custom_action');
    expect(create({ customBody: '{"a": {{ }' })).toThrow(/not valid JSON/);
    expect(create({ kind: 'custom_action' })).toThrow('webhooks.create: a custom action needs channelIds');
    for (let i = 0; i < 5; i++)
      service.webhooks.create({ endpoint: ENDPOINT, kind: 'custom_action', channelIds: [channel] });
    expect(create({ kind: 'custom_action', channelIds: [channel] })).toThrow(
      `webhooks.create: channel ${channel} already has 5 custom actions`,
    );
  });

  it('have 13-digit ids, the same for the same seed, and defaults for what is not given', () => {
    const a = mockWith().service.webhooks.create({ endpoint: ENDPOINT });
    const b = mockWith().service.webhooks.create({ endpoint: ENDPOINT });
    expect(a.id).toBe(b.id);
    expect(String(a.id)).toMatch(/^\d{13}$/);
    expect(a).toMatchObject({ kind: 'incident', eventTypes: 'all', channelIds: 'all', tlsVerify: true, headers: {} });
  });
});

describe('who gets an event', () => {
  it('each integration of the kind, subscribed to the event type, in scope of the channel', async () => {
    const { service, post, channel, other, incident } = mockWith();
    const all = service.webhooks.create({ endpoint: `${ENDPOINT}/all` });
    service.webhooks.create({ endpoint: `${ENDPOINT}/acks`, eventTypes: ['i_ack'] });
    service.webhooks.create({ endpoint: `${ENDPOINT}/other-channel`, channelIds: [other] });
    service.webhooks.create({ endpoint: `${ENDPOINT}/alerts`, kind: 'alert' });
    const { incident_id } = await incident(channel);
    await service.actions.ack(incident_id, service.personId);
    await service.webhooks.idle();
    // Integrations are delivered to side by side: their order among each other is not a rule.
    expect(post.requests.map((r) => `${new URL(r.endpoint).pathname} ${String(sent(r).event_type)}`).sort()).toEqual([
      '/hooks/acks i_ack',
      '/hooks/all i_ack',
      '/hooks/all i_new',
    ]);
    expect(service.webhooks.history(all.id).map((r) => r.event_type)).toEqual(['i_ack', 'i_new']); // newest first
  });

  it('a custom action goes to the integration triggered alone, the event id inside the incident', async () => {
    const { service, post, channel, other, incident } = mockWith();
    const action = service.webhooks.create({
      endpoint: `${ENDPOINT}/action`,
      kind: 'custom_action',
      channelIds: [channel],
    });
    service.webhooks.create({ endpoint: `${ENDPOINT}/second`, kind: 'custom_action', channelIds: [channel] });
    const { incident_id } = await incident();
    await service.actions.customAction(incident_id, service.personId, action.id);
    await service.webhooks.idle();
    expect(post.requests).toHaveLength(1);
    expect(post.requests[0]?.deadlineMs).toBe(1_000);
    const payload = sent(post.requests[0] as DeliveryRequest);
    expect(payload).toMatchObject({ event_type: 'i_custom', incident: { incident_id, event_id: expect.any(String) } });
    expect(payload).not.toHaveProperty('event_id');
    const elsewhere = await incident(other);
    await expect(service.actions.customAction(elsewhere.incident_id, service.personId, action.id)).rejects.toThrow(
      MockActionError,
    );
  });

  it('an alert event goes to the alert webhooks, recorded with its alert', async () => {
    const { service, channel } = mockWith();
    const hook = service.webhooks.create({ endpoint: ENDPOINT, kind: 'alert' });
    const alert = await service.alertActions.push({ title: 'CPU', event_status: 'Critical', channel_id: channel });
    await service.webhooks.idle();
    expect(service.webhooks.history(hook.id)).toEqual([
      expect.objectContaining({ event_type: 'a_new', alert_id: alert.alert_id, incident_id: '' }),
    ]);
  });
});

describe('the delivery rules', () => {
  it('posts the payload as JSON with the custom headers, within 2 s, as the history records', async () => {
    const { service, post, incident } = mockWith();
    const hook = service.webhooks.create({ endpoint: ENDPOINT, headers: { 'X-Secret': 's' }, tlsVerify: false });
    const { incident_id } = await incident();
    await service.webhooks.idle();
    const [request] = post.requests as [DeliveryRequest];
    expect(request).toMatchObject({
      endpoint: ENDPOINT,
      headers: { 'X-Secret': 's', 'Content-Type': 'application/json' },
      deadlineMs: 2_000,
      tlsVerify: false,
    });
    const [record] = service.webhooks.history(hook.id);
    expect(record).toMatchObject({
      trigger_time: NOW_MS,
      event_type: 'i_new',
      incident_id,
      event_id: sent(request).event_id,
      status: 'success',
      http_status: 200,
      request_count: 1,
      request: { endpoint: ENDPOINT, headers: request.headers, payload: sent(request) },
      response: { headers: {}, body: 'ok' },
    });
  });

  it('is a success only on 200: another status is a failure, its answer kept', async () => {
    const { service, incident } = mockWith(recordingPost(() => ({ status: 201, body: 'created' })));
    const hook = service.webhooks.create({ endpoint: ENDPOINT });
    await incident();
    await service.webhooks.idle();
    expect(service.webhooks.history(hook.id)[0]).toMatchObject({
      status: 'failure',
      http_status: 201,
      error: 'HTTP 201',
      response: { body: 'created' },
      request_count: 1,
    });
  });

  it('retries once, with the same event id, what the retry rule retries; never what it does not', async () => {
    const eof = { status: 0, error: 'EOF: read ECONNRESET', retryable: true };
    const retried = mockWith(recordingPost((_request, index) => (index === 0 ? eof : {})));
    const hook = retried.service.webhooks.create({ endpoint: ENDPOINT });
    await retried.incident();
    await retried.service.webhooks.idle();
    expect(retried.post.requests).toHaveLength(2);
    expect(retried.post.requests[1]?.body).toBe(retried.post.requests[0]?.body);
    expect(retried.service.webhooks.history(hook.id)[0]).toMatchObject({ status: 'success', request_count: 2 });

    const twice = mockWith(recordingPost(() => eof));
    const failing = twice.service.webhooks.create({ endpoint: ENDPOINT });
    await twice.incident();
    await twice.service.webhooks.idle();
    expect(twice.post.requests).toHaveLength(2); // at most one retry
    expect(twice.service.webhooks.history(failing.id)[0]).toMatchObject({
      status: 'failure',
      http_status: 0,
      error: 'EOF: read ECONNRESET',
      request_count: 2,
    });
    expect(twice.service.webhooks.history(failing.id)[0]).not.toHaveProperty('response');

    const refused = mockWith(recordingPost(() => ({ status: 0, error: 'connect ECONNREFUSED', retryable: false })));
    refused.service.webhooks.create({ endpoint: ENDPOINT });
    await refused.incident();
    await refused.service.webhooks.idle();
    expect(refused.post.requests).toHaveLength(1);
  });

  it('sends one integration’s deliveries one after another', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const post = recordingPost();
    const slow = Object.assign(
      async (request: DeliveryRequest) => {
        const attempt = await post(request);
        if (post.requests.length === 1) await gate;
        return attempt;
      },
      { requests: post.requests },
    );
    const { service, incident } = mockWith(slow);
    service.webhooks.create({ endpoint: ENDPOINT });
    const { incident_id } = await incident();
    await service.actions.ack(incident_id, service.personId);
    await new Promise((resolve) => setImmediate(resolve));
    expect(post.requests).toHaveLength(1); // the i_ack waits for the i_new
    let idle = false;
    void service.webhooks.idle().then(() => (idle = true));
    release();
    await service.webhooks.idle();
    expect(idle).toBe(true);
    expect(post.requests.map((r) => sent(r).event_type)).toEqual(['i_new', 'i_ack']);
  });

  it('renders a custom body with its value mapping', async () => {
    const { service, post, incident } = mockWith();
    service.webhooks.create({
      endpoint: ENDPOINT,
      customBody: { text: '{{incident.title}} is {{incident.incident_severity}}', id: '{{event_id}}' },
      valueMapping: { 'incident.incident_severity': { Critical: 'P1' } },
    });
    await incident();
    await service.webhooks.idle();
    expect(sent(post.requests[0] as DeliveryRequest)).toEqual({ text: 'Disk full is P1', id: expect.any(String) });
  });
});

describe('held deliveries', () => {
  it('wait for release, then go newest first, each as many times as asked with its one event id', async () => {
    const { service, post, incident } = mockWith();
    const hook = service.webhooks.create({ endpoint: ENDPOINT });
    service.webhooks.hold(hook.id);
    const { incident_id } = await incident();
    service.clock.advance(1_000);
    await service.actions.ack(incident_id, service.personId);
    await service.webhooks.idle();
    expect(post.requests).toHaveLength(0);
    await service.webhooks.release(hook.id, { newestFirst: true, times: 2 });
    expect(post.requests.map((r) => sent(r).event_type)).toEqual(['i_ack', 'i_ack', 'i_new', 'i_new']);
    expect(sent(post.requests[0] as DeliveryRequest).event_id).toBe(sent(post.requests[1] as DeliveryRequest).event_id);
    expect(() => service.webhooks.release(hook.id)).toThrow(`webhooks.release: no held integration ${hook.id}`);
    expect(() => service.webhooks.hold(1)).toThrow('webhooks.hold: no integration 1');
  });
});

describe('the call history', () => {
  it('filters by event type, incident, status and time, newest first', async () => {
    const { service, incident } = mockWith(
      recordingPost((request) => (request.body.includes('"i_ack"') ? { status: 500 } : {})),
    );
    const hook = service.webhooks.create({ endpoint: ENDPOINT });
    const first = await incident();
    service.clock.advance(60_000);
    const second = await incident();
    await service.actions.ack(second.incident_id, service.personId);
    await service.webhooks.idle();
    const history = (filter = {}) =>
      service.webhooks.history(hook.id, filter).map((r) => [r.event_type, r.incident_id]);
    expect(history()).toEqual([
      ['i_ack', second.incident_id],
      ['i_new', second.incident_id],
      ['i_new', first.incident_id],
    ]);
    expect(history({ eventType: 'i_new' })).toHaveLength(2);
    expect(history({ incidentId: first.incident_id })).toEqual([['i_new', first.incident_id]]);
    expect(history({ status: 'failure' })).toEqual([['i_ack', second.incident_id]]);
    expect(history({ since: NOW_MS + 1 })).toHaveLength(2);
    expect(history({ until: NOW_MS })).toEqual([['i_new', first.incident_id]]);
  });

  it('reaches 7 days back, by the mock’s clock', async () => {
    const { service, incident } = mockWith();
    const hook = service.webhooks.create({ endpoint: ENDPOINT });
    await incident();
    await service.webhooks.idle();
    service.clock.advance(7 * 86_400_000);
    expect(service.webhooks.history(hook.id)).toHaveLength(1);
    service.clock.advance(1);
    expect(service.webhooks.history(hook.id)).toHaveLength(0);
  });

  it('goes with its integration unless kept', () => {
    const { service } = mockWith();
    const gone = service.webhooks.create({ endpoint: ENDPOINT });
    const kept = service.webhooks.create({ endpoint: ENDPOINT });
    expect(service.webhooks.remove(gone.id)).toBe(true);
    expect(service.webhooks.remove(kept.id, { keepHistory: true })).toBe(true);
    expect(() => service.webhooks.history(gone.id)).toThrow(`webhooks.history: no integration ${gone.id}`);
    expect(service.webhooks.history(kept.id)).toEqual([]);
    expect(service.webhooks.list()).toEqual([]);
    expect(service.webhooks.remove(gone.id)).toBe(false);
  });
});
