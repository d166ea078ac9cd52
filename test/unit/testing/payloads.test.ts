// The payloads the mock's sender posts, from the model's events: the incident webhook's (with the
// acting person), a custom action's (`event_id` inside `incident`, `event_detail` naming the
// integration) and the alert webhook's; the incident and the alert as deliveries carry them.
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../src/testing/model/world.js';
import {
  alertPayload,
  customActionPayload,
  incidentPayload,
  toWebhookAlert,
  toWebhookIncident,
} from '../../../src/testing/payloads.js';
import type { AlertEvent } from '../../../src/testing/model/alert-actions.js';
import { NOW_MS } from './support.js';

const world = createWorld({ seed: 3, incidents: 30, now: NOW_MS / 1000 });
const person = { person_id: 1, person_name: 'Ada', email: 'ada@example.com' };
const info = world.incidents[0]!;

describe('toWebhookIncident', () => {
  it('carries the spec’s Incident fields, the responders’ ids, the integration as the data source', () => {
    const incident = toWebhookIncident(info);
    expect(incident).toMatchObject({
      incident_id: info.incident_id,
      title: info.title,
      progress: info.progress,
      num: info.num,
      data_source_id: info.integration_id,
      responder_ids: info.responders.map((r) => r.person_id),
    });
    expect(incident.responders?.map((r) => Object.keys(r).sort())).toEqual(
      info.responders.map(() => ['acknowledged_at', 'assigned_at', 'email', 'person_id', 'person_name']),
    );
  });

  it('has labels for an incident an alert raised, a creator (and no labels) for one a person made, a closer once closed', () => {
    const raised = { ...structuredClone(info), creator_id: 0, closer_id: 0 };
    expect(toWebhookIncident(raised)).toHaveProperty('labels', info.labels);
    expect(toWebhookIncident(raised)).not.toHaveProperty('creator');
    const made = {
      ...structuredClone(info),
      creator_id: 1,
      creator: person,
      closer_id: 2,
      closer: { ...person, person_id: 2 },
    };
    const incident = toWebhookIncident(made);
    expect(incident).not.toHaveProperty('labels');
    expect(incident.creator).toEqual(person);
    expect(incident.closer).toEqual({ ...person, person_id: 2 });
  });
});

describe('payloads', () => {
  const event = { event_type: 'i_ack', at: NOW_MS, person };

  it('of the incident webhook: the event’s id, time, type, person and incident', () => {
    const incident = toWebhookIncident(info);
    expect(incidentPayload(event, 'e1', incident)).toEqual({
      event_id: 'e1',
      event_time: NOW_MS,
      event_type: 'i_ack',
      person,
      incident,
    });
    expect(incidentPayload({ event_type: 'i_storm', at: NOW_MS }, 'e2', incident)).not.toHaveProperty('person');
  });

  it('of a custom action: the event id inside the incident, the integration in event_detail', () => {
    const incident = toWebhookIncident(info);
    expect(customActionPayload(event, 'e3', incident, { id: 9, name: 'Restart' })).toEqual({
      event_detail: { integration_id: 9, integration_name: 'Restart' },
      event_time: NOW_MS,
      event_type: 'i_custom',
      person,
      incident: { ...incident, event_id: 'e3' },
    });
  });

  it('of the alert webhook: the alert with its progress, close time and incident', () => {
    const alert = [...world.alerts.values()].flat()[0]!;
    const alertEvent: AlertEvent = {
      event_type: 'a_close',
      alert,
      progress: 'Closed',
      close_time: 99,
      at: NOW_MS,
      person,
    };
    const payload = alertPayload(alertEvent, 'e4');
    expect(payload).toMatchObject({ event_id: 'e4', event_type: 'a_close', event_time: NOW_MS, person });
    expect(payload.alert).toEqual(toWebhookAlert(alertEvent));
    expect(payload.alert).toMatchObject({
      alert_id: alert.alert_id,
      progress: 'Closed',
      close_time: 99,
      data_source_id: alert.integration_id,
      incident: { incident_id: alert.incident?.incident_id },
    });
  });
});
