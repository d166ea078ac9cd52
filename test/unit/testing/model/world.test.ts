// The seeded world: one account, members, teams and channels, rotations and escalation rules that
// name one another and nothing else, each record as the API answers it; incidents spread over the 30
// days before the clock, responded to by their channel's team, each consistent with the spec's
// progress rules (status from its alerts, a recovered incident closed, the earliest
// acknowledgement); the same seed the same world.
import { describe, expect, it } from 'vitest';
import { SCHEMA_DEFS } from '../../../../src/generated/request-schemas.js';
import { checkSchema } from '../../../../src/internal/schema.js';
import { FAMILIES } from '../../../../src/testing/generated/families.js';
import { RESPONSE_DEFS } from '../../../../src/testing/generated/responses.js';
import { Random } from '../../../../src/testing/model/random.js';
import { exists, referencesIn } from '../../../../src/testing/world/references.js';
import { closeIncident, createWorld, deriveState } from '../../../../src/testing/model/world.js';
import { objectId } from '../../../../src/testing/world/ids.js';
import { NOW_MS } from '../support.js';

const NOW = NOW_MS / 1000;
const world = createWorld({ seed: 11, incidents: 120, now: NOW });

describe('createWorld', () => {
  it('is the same world for the same seed', () => {
    expect(createWorld({ seed: 11, incidents: 120, now: NOW })).toEqual(world);
    expect(createWorld({ seed: 12, incidents: 120, now: NOW }).incidents[0]).not.toEqual(world.incidents[0]);
  });

  it('has members in teams, and channels owned by teams and managed by members', () => {
    const members = new Set(world.members.map((m) => m.person_id));
    expect(world.members.length).toBeGreaterThan(1);
    for (const team of world.teams) expect(team.person_ids.every((id) => members.has(id))).toBe(true);
    const teams = new Set(world.teams.map((t) => t.team_id));
    for (const channel of world.channels) {
      expect(teams.has(channel.team_id)).toBe(true);
      expect((channel.manager_ids ?? []).every((id) => members.has(id))).toBe(true);
    }
  });

  it('seeds roles, a template, a rotation per team and an escalation rule per channel, as the API answers them', () => {
    const defs = { ...SCHEMA_DEFS, ...RESPONSE_DEFS };
    const count = (base: string) => world.resources.get(base)?.length ?? 0;
    expect(count('/role')).toBe(2);
    expect(count('/template')).toBe(1);
    expect(count('/schedule')).toBe(world.teams.length);
    expect(count('/channel/escalate/rule')).toBe(world.channels.length);
    for (const [base, records] of world.resources) {
      const rule = FAMILIES[base]!;
      for (const record of records) {
        expect(checkSchema(record, rule.item, defs), `${base} ${String(record[rule.id])}`).toBeUndefined();
        for (const reference of referencesIn(record, new Set([rule.id])))
          expect(exists(world, reference), `${base}: ${reference.field}`).toBe(true);
      }
    }
    const teamOf = new Map(
      world.channels.map((c) => [c.channel_id, world.teams.find((t) => t.team_id === c.team_id)!]),
    );
    for (const incident of world.incidents.filter((i) => i.channel_id)) {
      const team = teamOf.get(incident.channel_id)!;
      for (const responder of incident.responders) expect(team.person_ids).toContain(responder.person_id);
    }
  });

  it('spreads incidents over the 30 days before the clock, each with its alerts and their events', () => {
    expect(world.incidents).toHaveLength(120);
    for (const incident of world.incidents) {
      expect(incident.start_time).toBeGreaterThan(NOW - 30 * 86_400);
      expect(incident.start_time).toBeLessThan(NOW);
      expect(incident.num).toBe(incident.incident_id.slice(-6).toUpperCase());
      const alerts = world.alerts.get(incident.incident_id) ?? [];
      expect(alerts).toHaveLength(incident.alert_cnt);
      for (const alert of alerts) {
        expect(world.events.get(alert.alert_id)).toHaveLength(alert.event_cnt);
        expect(alert.incident?.incident_id).toBe(incident.incident_id);
      }
    }
    expect(new Set(world.incidents.map((i) => i.incident_id)).size).toBe(120);
    expect(new Set(world.incidents.map((i) => i.progress))).toEqual(new Set(['Triggered', 'Processing', 'Closed']));
  });

  it('keeps each incident’s progress consistent with its alerts and acknowledgements', () => {
    for (const incident of world.incidents) {
      const alerts = world.alerts.get(incident.incident_id) ?? [];
      const acks = incident.responders.map((r) => r.acknowledged_at).filter((t) => t > 0);
      expect(incident.ack_time).toBe(acks.length ? Math.min(...acks) : 0);
      const active = alerts.filter((a) => a.alert_status !== 'Ok');
      expect(incident.active_alert_cnt).toBe(active.length);
      if (active.length === 0) expect(incident.progress).toBe('Closed'); // recovered: closed
      if (incident.progress !== 'Closed')
        expect(incident.progress).toBe(incident.ack_time ? 'Processing' : 'Triggered');
    }
  });
});

describe('the progress rules', () => {
  const base = () => structuredClone(world.incidents.find((i) => i.progress === 'Triggered' && i.alert_cnt > 0)!);

  it('takes the worst status of the active alerts, and closes an incident whose alerts all recovered', () => {
    const incident = base();
    const alerts = structuredClone(world.alerts.get(incident.incident_id)!);
    alerts.forEach((a, i) => Object.assign(a, { alert_status: i === 0 ? 'Warning' : 'Critical' }));
    deriveState(incident, alerts, NOW);
    expect(incident.incident_status).toBe(alerts.length > 1 ? 'Critical' : 'Warning');
    alerts.forEach((a) => Object.assign(a, { alert_status: 'Ok', end_time: NOW - 10 }));
    deriveState(incident, alerts, NOW);
    expect(incident).toMatchObject({
      incident_status: 'Ok',
      progress: 'Closed',
      end_time: NOW - 10,
      close_time: NOW - 10,
    });
  });

  it('is Processing once acknowledged, and an incident made by hand has its severity for status', () => {
    const incident = base();
    incident.responders[0]!.acknowledged_at = NOW - 5;
    deriveState(incident, world.alerts.get(incident.incident_id)!, NOW);
    expect(incident.progress).toBe('Processing');
    expect(incident.ack_time).toBe(NOW - 5);
    const manual = { ...base(), incident_severity: 'Info' as const };
    deriveState(manual, [], NOW);
    expect(manual.incident_status).toBe('Info');
  });

  it('closes without recovering: end_time stays, the closer and time are set', () => {
    const incident = base();
    closeIncident(incident, NOW, 42);
    expect(incident).toMatchObject({ progress: 'Closed', close_time: NOW, closer_id: 42, end_time: 0 });
  });

  it('makes object ids of 24 hex digits that begin with their time', () => {
    const id = objectId(NOW, new Random(1));
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(parseInt(id.slice(0, 8), 16)).toBe(NOW);
  });
});
