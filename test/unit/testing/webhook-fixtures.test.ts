// Fixtures for receivers' tests: a payload of any event type with every field real deliveries carry
// (fresh ids, the event's progress and times), overrides applied; one delivery in each form an
// adapter takes; an incident the mock's actions returned, carried as the mock's sender carries it
// (and typed so: the call below compiles).
import { describe, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/webhook-fixtures.js';
import { createMockService } from '../../../src/testing/index.js';
import { toWebhookIncident } from '../../../src/testing/payloads.js';
import { NOW_MS } from './support.js';

describe('buildWebhookEvent', () => {
  it('takes what service.actions return, carried as the sender carries it', async () => {
    const service = createMockService({ incidents: 3, now: NOW_MS });
    const incident = await service.actions.create({
      title: 'db down',
      incident_severity: 'Critical',
      person_id: service.personId,
    });
    const assigned = await service.actions.assign(incident.incident_id, [service.personId], service.personId);
    const event = buildWebhookEvent('i_assign', { incident: assigned, event_time: NOW_MS });
    expect(event.incident).toEqual(toWebhookIncident(assigned));
    expect(event.incident.responder_ids).toEqual([service.personId]);
    expect(event.incident.creator).toEqual({
      person_id: service.personId,
      person_name: service.world.members[0]!.person_name,
      email: service.world.members[0]!.email,
    });
    expect(event.incident).not.toHaveProperty('labels'); // made by hand: no alert's labels
    expect(buildWebhookEvent('i_new', { incident }).incident.incident_id).toBe(incident.incident_id);
  });

  it('makes a payload with fresh ids, its progress and times from the event type', () => {
    const at = Date.UTC(2026, 10, 1);
    const ack = buildWebhookEvent('i_ack', { event_time: at });
    expect(ack).toMatchObject({ event_type: 'i_ack', event_time: at, person: { person_id: expect.any(Number) } });
    expect(ack.incident).toMatchObject({
      progress: 'Processing',
      ack_time: at / 1000,
      close_time: 0,
      start_time: at / 1000,
    });
    expect(buildWebhookEvent('i_rslv').incident).toMatchObject({ progress: 'Closed', close_time: expect.any(Number) });
    expect(buildWebhookEvent('i_new').incident.progress).toBe('Triggered');
    const [a, b] = [buildWebhookEvent('i_new'), buildWebhookEvent('i_new')];
    expect(a.event_id).not.toBe(b.event_id);
    expect(a.incident.incident_id).not.toBe(b.incident.incident_id);
    expect(a.event_id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.incident.incident_id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('applies overrides to the payload and to its incident', () => {
    const event = buildWebhookEvent('i_new', {
      event_id: 'e1',
      incident: { incident_id: 'i1', title: 'db down' },
      extra: 1,
    });
    expect(event).toMatchObject({ event_id: 'e1', extra: 1, incident: { incident_id: 'i1', title: 'db down' } });
    expect(event.incident.detail_url).toContain('/i1');
  });
});

describe('buildDelivery', () => {
  it('gives the same bytes and headers raw, as a Request, as receive() input and as fetch init', async () => {
    const delivery = buildDelivery({ a: 1 }, { headers: { 'X-Secret': 's' } });
    expect(delivery.body).toBe('{"a":1}');
    expect(delivery.headers).toEqual({ 'content-type': 'application/json', 'X-Secret': 's' });
    const request = delivery.request();
    expect(request.url).toBe('http://localhost/webhooks/flashduty');
    expect(await request.text()).toBe('{"a":1}');
    expect(delivery.request('http://x/').url).toBe('http://x/'); // a fresh Request each time
    expect(delivery.receiveInput()).toEqual({ body: '{"a":1}', headers: delivery.headers });
    expect(delivery.init()).toEqual({ method: 'POST', headers: delivery.headers, body: '{"a":1}' });
  });

  it('takes a body as it is, another content type, or none', () => {
    expect(buildDelivery('{not json').body).toBe('{not json');
    expect(buildDelivery({}, { contentType: 'text/plain' }).headers).toEqual({ 'content-type': 'text/plain' });
    expect(buildDelivery({}, { contentType: null }).headers).toEqual({});
  });
});
