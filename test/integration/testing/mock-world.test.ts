// The mock as a world, tried as a new user tries it (issue 41), through the client over HTTP:
// members are people with names and emails of their own, and the mock's own person is one of them;
// teams are made of listed members and channels belong to teams; what a client creates is listed
// and readable with the fields it gave, changed by an update, gone after a delete; an incident's
// feed is its own history; the audit log has every write; the options are checked.
import { describe, expect, it } from 'vitest';
import { ConfigError, type IncidentInfo, ReferenceExistError, ResourceNotFoundError } from '../../../src/index.js';
import { createMockService } from '../../../src/testing/index.js';
import { collect, NOW_MS, rejection, startMock } from '../../helpers.js';

const h = await startMock({ seed: 7, incidents: 60, rateLimits: false });
const client = h.client();
const me = h.service.personId;

describe('members and teams', () => {
  it('are people: distinct names and emails, the mock’s own person among them', async () => {
    const members = await collect(client.members.list({ limit: 100 }));
    expect(members.length).toBeGreaterThanOrEqual(12);
    expect(new Set(members.map((m) => m.member_name)).size).toBe(members.length);
    expect(new Set(members.map((m) => m.email)).size).toBe(members.length);
    expect(members.map((m) => m.member_id)).toContain(me);
    for (const member of members) expect(member.email).toMatch(/^[a-z]+\.[a-z]+@example\.com$/);
    expect(await client.members.info({})).toMatchObject({ member_id: me });
  });

  it('teams are made of listed members, and every member is in one', async () => {
    const members = new Set((await collect(client.members.list({ limit: 100 }))).map((m) => m.member_id));
    const teams = await collect(client.teams.list({ limit: 100 }));
    expect(new Set(teams.map((t) => t.team_name)).size).toBe(teams.length);
    for (const team of teams) {
      expect(team.person_ids.length).toBeGreaterThan(0);
      for (const person of team.person_ids) expect(members.has(person), `${team.team_name}: ${person}`).toBe(true);
    }
    expect(new Set(teams.flatMap((t) => t.person_ids))).toEqual(members);
  });

  it('channels belong to teams, schedules and escalation rules name members that exist', async () => {
    const members = new Set((await collect(client.members.list({ limit: 100 }))).map((m) => m.member_id));
    const teams = new Map((await collect(client.teams.list({ limit: 100 }))).map((t) => [t.team_id, t]));
    const channels = await collect(client.channels.list({ limit: 100 }));
    expect(channels.length).toBeGreaterThanOrEqual(5);
    for (const channel of channels) {
      expect(teams.get(channel.team_id!)?.team_name).toBe(channel.team_name);
      const rules = (await client.channels.escalateRules.list({ channel_id: channel.channel_id! })).items;
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules)
        for (const layer of rule.layers)
          for (const id of layer.target.person_ids ?? []) expect(members.has(id)).toBe(true);
    }
    const schedules = (await client.schedules.list({ limit: 100 })).items;
    expect(schedules).toHaveLength(teams.size);
    for (const schedule of schedules) {
      expect(teams.has(schedule.team_id!)).toBe(true);
      const people = (schedule.layers ?? []).flatMap((l) =>
        l.groups.flatMap((g) => g.members.flatMap((m) => m.person_ids)),
      );
      expect(people.length).toBeGreaterThan(0);
      for (const id of people) expect(members.has(id)).toBe(true);
    }
  });

  it('incidents are responded to by members, notified by their channel’s escalation rule', () => {
    const members = new Set(h.service.world.members.map((m) => m.person_id));
    const rules = new Set((h.service.world.resources.get('/channel/escalate/rule') ?? []).map((r) => r.rule_id));
    for (const incident of h.service.world.incidents) {
      for (const responder of incident.responders) expect(members.has(responder.person_id)).toBe(true);
      if (incident.channel_id) expect(rules.has(incident.assigned_to.escalate_rule_id)).toBe(true);
    }
  });

  it('the same seed is the same world; seeds 7 and 8 are two', () => {
    const names = (seed: number) => createMockService({ seed, now: NOW_MS }).world.members.map((m) => m.person_name);
    expect(names(7)).toEqual(h.service.world.members.map((m) => m.person_name));
    expect(names(8)).not.toEqual(names(7));
    const teams = (seed: number) => createMockService({ seed, now: NOW_MS }).world.teams.map((t) => t.team_name);
    expect(teams(7)).toEqual(teams(7));
  });
});

describe('what a client writes, it reads back', () => {
  it('a channel created is listed and readable with the fields given, changed, then gone', async () => {
    const team = h.service.world.teams[0]!;
    const created = await client.channels.create({
      channel_name: 'w5 payments on-call',
      team_id: team.team_id,
      description: 'made by a test',
    });
    expect(created).toMatchObject({ channel_id: expect.any(Number), channel_name: 'w5 payments on-call' });
    const listed = await collect(client.channels.list({ query: 'w5 payments' }));
    expect(listed).toEqual([
      expect.objectContaining({ channel_id: created.channel_id, team_id: team.team_id, team_name: team.team_name }),
    ]);
    expect(await client.channels.info({ channel_id: created.channel_id })).toMatchObject({
      channel_name: 'w5 payments on-call',
      description: 'made by a test',
      creator_id: me,
    });
    await client.channels.update({ channel_id: created.channel_id, channel_name: 'w5 payments' });
    expect((await client.channels.info({ channel_id: created.channel_id })).channel_name).toBe('w5 payments');
    await client.channels.delete({ channel_id: created.channel_id });
    expect(await rejection(client.channels.info({ channel_id: created.channel_id }))).toBeInstanceOf(
      ResourceNotFoundError,
    );
    // A delete of what is already gone, and an update of an unknown id: the service's not-found error.
    expect(await rejection(client.channels.delete({ channel_id: created.channel_id }))).toBeInstanceOf(
      ResourceNotFoundError,
    );
    expect(await rejection(client.channels.update({ channel_id: 42, channel_name: 'x' }))).toBeInstanceOf(
      ResourceNotFoundError,
    );
  });

  it('a team upserted appears, with members by id or email; one naming no member is refused', async () => {
    const [a, b] = h.service.world.members;
    const made = await client.teams.upsert({
      team_name: 'Night Shift',
      person_ids: [a!.person_id],
      emails: [b!.email],
    });
    expect(made).toMatchObject({ team_id: expect.any(Number), team_name: 'Night Shift' });
    const found = (await collect(client.teams.list({ query: 'night' }))).map((t) => [t.team_name, t.person_ids]);
    expect(found).toEqual([['Night Shift', [a!.person_id, b!.person_id]]]);
    expect(await client.teams.info({ team_name: 'Night Shift' })).toMatchObject({ team_id: made.team_id });
    const missing = await rejection(client.teams.upsert({ team_name: 'Ghosts', person_ids: [80011] }));
    expect(missing).toBeInstanceOf(ResourceNotFoundError);
    expect((missing as Error).message).toBe('Member 80011 named in person_ids was not found.');
    await client.teams.delete({ team_id: made.team_id });
    expect((await collect(client.teams.list({ query: 'night' }))).length).toBe(0);
  });

  it('a team that still owns a channel cannot be deleted (ReferenceExist)', async () => {
    const channel = h.service.world.channels[0]!;
    const error = await rejection(client.teams.delete({ team_id: channel.team_id }));
    expect(error).toBeInstanceOf(ReferenceExistError);
    expect(h.service.world.teams.some((t) => t.team_id === channel.team_id)).toBe(true);
  });
});

describe('an incident’s feed', () => {
  it('is its own history: every action on it, newest first, oldest first with asc', async () => {
    const created = await client.incidents.create({
      title: 'Checkout latency',
      incident_severity: 'Critical',
      channel_id: h.service.world.channels[0]!.channel_id,
    });
    const id = created.incident_id;
    h.service.clock.advance(1000);
    await client.incidents.ack({ incident_ids: [id] });
    h.service.clock.advance(1000);
    await client.incidents.comment({ incident_ids: [id], comment: 'rolling back' });
    const other = h.service.world.members[1]!.person_id;
    h.service.clock.advance(1000);
    await h.service.actions.assign(id, [other], me);
    h.service.clock.advance(1000);
    await h.service.actions.close(id, other);
    const feed = await collect(client.incidents.feed({ incident_id: id }));
    expect(feed.map((row) => row.type)).toEqual(['i_rslv', 'i_assign', 'i_comm', 'i_ack', 'i_new']);
    expect(feed.every((row) => row.ref_id === id)).toBe(true);
    expect(feed.map((row) => row.creator_id)).toEqual([other, me, me, me, me]);
    expect(feed[2]!.detail).toEqual({ comment: 'rolling back' });
    expect(feed[1]!.detail).toMatchObject({ to: [other] });
    const times = feed.map((row) => row.created_at);
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(times[0]).toBe(h.service.clock.now()); // milliseconds
    const oldest = await collect(client.incidents.feed({ incident_id: id, asc: true }));
    expect(oldest.map((row) => row.type)).toEqual(['i_new', 'i_ack', 'i_comm', 'i_assign', 'i_rslv']);
    const comments = await collect(client.incidents.feed({ incident_id: id, types: ['i_comm'] }));
    expect(comments).toHaveLength(1);
    expect(await rejection(collect(client.incidents.feed({ incident_id: 'f'.repeat(24) })))).toBeInstanceOf(
      ResourceNotFoundError,
    );
  });

  it('of a seeded incident tells its state: created, assigned, acknowledged, closed', async () => {
    const incident = h.service.world.incidents.find(
      (i: IncidentInfo) => i.progress === 'Closed' && i.ack_time > 0 && i.closer_id,
    )!;
    const feed = await collect(client.incidents.feed({ incident_id: incident.incident_id, asc: true }));
    expect(feed[0]).toMatchObject({ type: 'i_new', created_at: incident.start_time * 1000 });
    expect(feed.map((row) => row.type)).toContain('i_ack');
    expect(feed.at(-1)).toMatchObject({ type: 'i_rslv', creator_id: incident.closer_id });
  });
});

describe('the audit log', () => {
  it('records every write: its operation, its member, its time, its outcome', async () => {
    const before = h.service.auditLog.length;
    const { cal_id } = await client.calendars.create({ cal_name: 'On-call holidays' });
    await rejection(client.calendars.delete({ cal_id: 'cal.none' }));
    await client.members.list({});
    const incident = h.service.world.incidents.find((i) => i.progress !== 'Closed' && !i.deleted_at)!;
    await h.service.actions.comment(incident.incident_id, 'from the console', me);
    expect(h.service.auditLog.slice(before)).toEqual([
      expect.objectContaining({
        operation: 'calendar.create',
        target: cal_id,
        person_id: me,
        key_name: 'full',
        result: 'OK',
        time: h.service.clock.now(),
      }),
      expect.objectContaining({ operation: 'calendar.delete', target: 'cal.none', result: 'ResourceNotFound' }),
      expect.objectContaining({
        operation: 'incident.comment',
        target: incident.incident_id,
        key_name: 'console',
        result: 'OK',
      }),
    ]);
  });
});

describe('createMockService’s options', () => {
  it('refuses an option it does not know, naming the one meant', () => {
    const misspelt = () => createMockService({ incidnets: 10 } as never);
    expect(misspelt).toThrow(ConfigError);
    expect(misspelt).toThrow(/^incidnets: not an option of createMockService \(did you mean incidents\?\)$/);
  });

  it('refuses values out of their range', () => {
    const cases: Array<[object, string]> = [
      [{ incidents: -1 }, 'incidents: expected a whole number from 0 to 100000, got -1'],
      [{ incidents: 1.5 }, 'incidents: expected a whole number from 0 to 100000, got 1.5'],
      [{ seed: -3 }, 'seed: expected a whole number from 0 to 4294967295, got -3'],
      [{ now: new Date('nope') }, 'now: expected a Date or Unix milliseconds, got Invalid Date'],
      [{ maxBodyBytes: 0 }, 'maxBodyBytes: expected a whole number ≥ 1, got 0'],
      [{ rateLimits: { perSecnd: 5 } }, 'perSecnd: not an option of rateLimits (did you mean perSecond?)'],
      [{ rateLimits: { perMinute: -1 } }, 'rateLimits.perMinute: expected a whole number ≥ 1, got -1'],
      [{ agents: [{ agent_id: '' }] }, 'agents[0].agent_id: expected a non-empty string, got ""'],
      [{ agents: [{ agent_id: 'a' }, { agent_id: 'a' }] }, 'agents[1].agent_id: a is given twice'],
      [{ skills: 'skill_demo' }, 'skills: expected an array, got string'],
    ];
    for (const [options, message] of cases) {
      const create = () => createMockService(options);
      expect(create, message).toThrow(ConfigError);
      expect(create, message).toThrow(message);
    }
    expect(createMockService({ incidents: 0, seed: 0, rateLimits: { perSecond: 5 } }).world.incidents).toEqual([]);
  });
});
