// What integrations and people do to alerts: a pushed event opens an alert (a_new) or updates the
// open one of its key (a_update, `Ok` recovering it); a member merges an alert into an incident
// (a_merge, the incident's count following) or closes it (a_close, once).
import { beforeEach, describe, expect, it } from 'vitest';
import { MockClock } from '../../../../src/testing/clock.js';
import { type AlertEvent, AlertActions } from '../../../../src/testing/model/alert-actions.js';
import { IncidentActions, MockActionError } from '../../../../src/testing/model/incident-actions.js';
import { createWorld, type World } from '../../../../src/testing/model/world.js';
import { NOW_MS } from '../support.js';

let world: World;
let events: AlertEvent[];
let alerts: AlertActions;
let incidents: IncidentActions;
let ada: number;
let channel: number;

beforeEach(() => {
  world = createWorld({ seed: 2, incidents: 5, now: NOW_MS / 1000 });
  const clock = new MockClock(NOW_MS);
  events = [];
  alerts = new AlertActions(world, clock, (event) => events.push(event), 2);
  incidents = new IncidentActions(world, clock, () => {}, 2);
  ada = world.members[0]!.person_id;
  channel = world.channels[0]!.channel_id;
});

const push = (event_status: 'Critical' | 'Warning' | 'Ok', alert_key = 'k1') =>
  alerts.push({ title: 'CPU high', event_status, alert_key, channel_id: channel });

describe('AlertActions', () => {
  it('opens an alert, updates the open one of its key, recovers it with Ok, then opens anew', async () => {
    const opened = await push('Critical');
    const updated = await push('Warning');
    expect(updated).toMatchObject({ alert_id: opened.alert_id, alert_severity: 'Warning', event_cnt: 2 });
    const recovered = await push('Ok');
    expect(recovered).toMatchObject({
      alert_id: opened.alert_id,
      alert_status: 'Ok',
      alert_severity: 'Warning',
      end_time: NOW_MS / 1000,
    });
    const again = await push('Critical');
    expect(again.alert_id).not.toBe(opened.alert_id);
    expect(events.map((event) => event.event_type)).toEqual(['a_new', 'a_update', 'a_update', 'a_new']);
    await expect(push('Ok', 'other')).rejects.toThrow('push: no open alert with key other to recover');
  });

  it('merges an alert into an incident: it leaves the one it was in, the counts follow', async () => {
    const alert = await push('Critical');
    const [a, b] = [
      await incidents.create({ title: 'A', incident_severity: 'Info' }),
      await incidents.create({ title: 'B', incident_severity: 'Info' }),
    ];
    await alerts.merge(alert.alert_id, a.incident_id, ada);
    const merged = await alerts.merge(alert.alert_id, b.incident_id, ada);
    expect(merged.incident).toMatchObject({ incident_id: b.incident_id, title: 'B' });
    const count = (id: string) => world.incidents.find((i) => i.incident_id === id)?.alert_cnt;
    expect([count(a.incident_id), count(b.incident_id)]).toEqual([1, 2]); // each had its own alert
    expect(events.at(-1)).toMatchObject({ event_type: 'a_merge', person: { person_id: ada } });
  });

  it('closes an alert by hand once, Closed in its events but not recovered', async () => {
    const alert = await push('Critical');
    await alerts.close(alert.alert_id, ada);
    expect(events.at(-1)).toMatchObject({ event_type: 'a_close', progress: 'Closed', close_time: NOW_MS / 1000 });
    expect(alerts.get(alert.alert_id)?.end_time).toBe(0);
    await expect(alerts.close(alert.alert_id, ada)).rejects.toThrow(`close: alert ${alert.alert_id} is already closed`);
    // A closed alert takes no more events: its key opens a new one.
    expect((await push('Critical')).alert_id).not.toBe(alert.alert_id);
  });

  it('refuses an event without a title, another status, an unknown channel, alert or member', async () => {
    await expect(alerts.push({ title: '', event_status: 'Critical' })).rejects.toThrow('push: title is required');
    await expect(alerts.push({ title: 'x', event_status: 'Major' as never })).rejects.toThrow(MockActionError);
    await expect(alerts.push({ title: 'x', event_status: 'Info', channel_id: 1 })).rejects.toThrow(
      'push: no channel 1',
    );
    await expect(alerts.close('nope', ada)).rejects.toThrow('no alert nope');
    const alert = await push('Critical');
    await expect(alerts.close(alert.alert_id, 1)).rejects.toThrow('no member 1');
    expect(alerts.get('nope')).toBeUndefined();
  });
});
