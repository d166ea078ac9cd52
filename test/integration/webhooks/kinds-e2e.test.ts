// Every kind the service sends, end to end over real HTTP: the mock's sender (incident webhook,
// alert webhook, custom action, custom body) posting into each adapter under its real framework.
import { afterAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../src/testing/index.js';
import { CustomBodyEvent, isEventType, type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { NOW_MS } from '../../helpers.js';
import { adapters } from '../support/adapters.js';

const template = {
  id: '{{event_id}}',
  at: '{{event_time}}',
  kind: '{{event_type}}',
  incident: 'inc/{{incident.incident_id}}',
  severity: '{{incident.incident_severity}}',
};
const valueMapping = {
  event_type: { i_new: 'opened', i_ack: 'acked' },
  'incident.incident_severity': { Critical: 'P1' },
};

for (const [name, adapter] of Object.entries(adapters)) {
  describe(`every kind into ${name}`, async () => {
    const receiver = new WebhookReceiver();
    const events: WebhookEvent[] = [];
    receiver.on('event', (event) => void events.push(event));
    const custom = new WebhookReceiver({ customBody: { template, valueMapping } });
    const customEvents: WebhookEvent[] = [];
    custom.on('event', (event) => void customEvents.push(event));
    const [server, customServer] = await Promise.all([adapter.start(receiver), adapter.start(custom)]);
    afterAll(() => Promise.all([server.close(), customServer.close()]));

    it('delivers incident events, custom actions, alert events and custom bodies, each received once with its keys', async () => {
      const service = createMockService({ seed: 5, incidents: 10, now: NOW_MS });
      const channel = service.world.channels[0]!.channel_id;
      const me = service.personId;
      const incidents = service.webhooks.create({ endpoint: server.url, eventTypes: ['i_new', 'i_custom'] });
      const alerts = service.webhooks.create({ kind: 'alert', endpoint: server.url });
      const action = service.webhooks.create({
        kind: 'custom_action',
        name: 'Restart host',
        endpoint: server.url,
        channelIds: [channel],
      });
      const bodies = service.webhooks.create({
        endpoint: customServer.url,
        eventTypes: ['i_new', 'i_ack'],
        customBody: template,
        valueMapping,
      });

      const incident = await service.actions.create({
        title: 'cpu high on web-1',
        incident_severity: 'Critical',
        channel_id: channel,
      });
      await service.actions.ack(incident.incident_id, me);
      await service.actions.customAction(incident.incident_id, me, action.id);
      const alert = await service.alertActions.push({
        title: 'disk 91%',
        event_status: 'Warning',
        channel_id: channel,
        alert_key: 'disk-web-1',
      });
      service.clock.advance(1000);
      await service.alertActions.push({
        title: 'disk 97%',
        event_status: 'Critical',
        channel_id: channel,
        alert_key: 'disk-web-1',
      });
      service.clock.advance(1000);
      await service.alertActions.merge(alert.alert_id, incident.incident_id, me);
      service.clock.advance(1000);
      await service.alertActions.close(alert.alert_id, me);
      await service.webhooks.idle();

      for (const hook of [incidents, alerts, action, bodies]) {
        expect(service.webhooks.history(hook.id).map((r) => [r.status, r.http_status])).toEqual(
          service.webhooks.history(hook.id).map(() => ['success', 200]),
        );
      }
      expect(service.webhooks.history(alerts.id, { alertId: alert.alert_id })).toHaveLength(4);

      // Each integration delivers in order; integrations run side by side.
      expect(events.map((e) => e.event_type).sort()).toEqual([
        'a_close',
        'a_merge',
        'a_new',
        'a_update',
        'i_custom',
        'i_custom',
        'i_new',
      ]);
      expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
      const actions = events.filter((e) => isEventType(e, 'i_custom'));
      // The custom action's payload (event_id inside incident, copied up) and the incident webhook's.
      expect(actions.map((e) => e.event_detail?.integration_name)).toEqual(
        expect.arrayContaining(['Restart host', undefined]),
      );
      expect(
        actions.every((e) => e.incident.incident_id === incident.incident_id && typeof e.event_id === 'string'),
      ).toBe(true);
      const alertEvents = events.flatMap((e) => (e.alert ? [e] : []));
      expect(alertEvents.map((e) => [e.alert?.alert_id, e.alert?.progress, e.alert?.incident?.incident_id])).toEqual([
        [alert.alert_id, 'Triggered', undefined],
        [alert.alert_id, 'Triggered', undefined],
        [alert.alert_id, 'Triggered', incident.incident_id],
        [alert.alert_id, 'Closed', incident.incident_id],
      ]);
      expect(alertEvents[1]?.alert).toMatchObject({ alert_severity: 'Critical', event_cnt: 2, title: 'disk 97%' });

      expect(customEvents.every((e) => e instanceof CustomBodyEvent)).toBe(true);
      expect(
        customEvents.map((e) => [
          e.event_type,
          (e as CustomBodyEvent).incident_id,
          ((e as CustomBodyEvent).body as { kind: string }).kind,
        ]),
      ).toEqual([
        ['i_new', incident.incident_id, 'opened'],
        ['i_ack', incident.incident_id, 'acked'],
      ]);
      const sent = service.webhooks
        .history(bodies.id)
        .map((r) => r.event_id)
        .reverse();
      expect(customEvents.map((e) => e.event_id)).toEqual(sent);
    });
  });
}

describe('the mock sender refuses', () => {
  it('a sixth custom action in a channel, a custom action without channels, an action not offered in the channel', async () => {
    const service = createMockService({ seed: 6, incidents: 1, now: NOW_MS });
    const [first, second] = service.world.channels;
    const make = (channelIds?: number[]) =>
      service.webhooks.create({
        kind: 'custom_action',
        endpoint: 'http://127.0.0.1:9/x',
        ...(channelIds ? { channelIds } : {}),
      });
    for (let i = 0; i < 5; i++) make([first!.channel_id]);
    expect(() => make([first!.channel_id])).toThrow(/already has 5 custom actions/);
    expect(() => make()).toThrow(/needs channelIds/);
    const elsewhere = make([second!.channel_id]);
    const incident = await service.actions.create({
      title: 't',
      incident_severity: 'Info',
      channel_id: first!.channel_id,
    });
    await expect(service.actions.customAction(incident.incident_id, service.personId, elsewhere.id)).rejects.toThrow(
      /not offered in channel/,
    );
    await expect(service.actions.customAction(incident.incident_id, service.personId, 424242)).rejects.toThrow(
      /no custom-action integration/,
    );
    expect(() => service.webhooks.create({ kind: 'pager' as never, endpoint: 'http://127.0.0.1:9/x' })).toThrow(
      /kind must be one of/,
    );
  });

  it('alert actions on what does not exist', async () => {
    const service = createMockService({ seed: 7, incidents: 1, now: NOW_MS });
    await expect(service.alertActions.push({ title: '', event_status: 'Critical' })).rejects.toThrow(
      /title is required/,
    );
    await expect(service.alertActions.push({ title: 'x', event_status: 'Ok' })).rejects.toThrow(/no open alert/);
    await expect(service.alertActions.merge('nope', 'nope', service.personId)).rejects.toThrow(/no alert nope/);
    const alert = await service.alertActions.push({ title: 'x', event_status: 'Info' });
    await service.alertActions.close(alert.alert_id, service.personId);
    await expect(service.alertActions.close(alert.alert_id, service.personId)).rejects.toThrow(/already closed/);
  });
});
