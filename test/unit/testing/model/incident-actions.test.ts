// What people and the platform do to incidents: each action changes the incident as the service
// would (on the mock's clock) and announces its event type, with the person who acted; what cannot
// be done is a MockActionError and announces nothing.
import { beforeEach, describe, expect, it } from 'vitest';
import { MockClock } from '../../../../src/testing/clock.js';
import {
  type IncidentEvent,
  IncidentActions,
  MockActionError,
} from '../../../../src/testing/model/incident-actions.js';
import { createWorld, type World } from '../../../../src/testing/model/world.js';
import { NOW_MS } from '../support.js';

let world: World;
let clock: MockClock;
let events: IncidentEvent[];
let actions: IncidentActions;
let ada: number;
let grace: number;

beforeEach(() => {
  world = createWorld({ seed: 2, incidents: 10, now: NOW_MS / 1000 });
  clock = new MockClock(NOW_MS);
  events = [];
  actions = new IncidentActions(world, clock, (event) => events.push(event), 2);
  [ada, grace] = world.members.map((m) => m.person_id) as [number, number];
});

const announced = () => events.map((event) => [event.event_type, event.person?.person_id]);
const create = (params: Partial<Parameters<IncidentActions['create']>[0]> = {}) =>
  actions.create({
    title: 'Disk full',
    incident_severity: 'Critical',
    channel_id: world.channels[0]?.channel_id,
    ...params,
  });

describe('IncidentActions', () => {
  it('creates an incident (i_new): by an alert it has one, by a person none, and it can be assigned at once (i_assign)', async () => {
    const raised = await create();
    expect(raised).toMatchObject({ progress: 'Triggered', start_time: NOW_MS / 1000, alert_cnt: 1, creator_id: 0 });
    expect(world.alerts.get(raised.incident_id)).toHaveLength(1);
    const made = await create({ person_id: ada, assign_to: [grace] });
    expect(made).toMatchObject({ alert_cnt: 0, creator_id: ada, creator: expect.objectContaining({ person_id: ada }) });
    expect(announced()).toEqual([
      ['i_new', undefined],
      ['i_new', ada],
      ['i_assign', ada],
    ]);
    expect(world.incidents.find((i) => i.incident_id === made.incident_id)?.responders.map((r) => r.person_id)).toEqual(
      [grace],
    );
  });

  it('refuses to create without a title, with another severity, in an unknown channel', async () => {
    await expect(create({ title: '' })).rejects.toThrow('create: title is required');
    await expect(create({ incident_severity: 'Major' as never })).rejects.toThrow(MockActionError);
    await expect(create({ channel_id: 1 })).rejects.toThrow('create: no channel 1');
    expect(events).toEqual([]);
  });

  it('acknowledges (Processing, the earliest ack kept) and withdraws it (Triggered)', async () => {
    const { incident_id } = await create();
    const first = await actions.ack(incident_id, ada);
    clock.advance(60_000);
    const second = await actions.ack(incident_id, grace);
    expect(second).toMatchObject({ progress: 'Processing', ack_time: first.ack_time });
    await actions.unack(incident_id, ada);
    const back = await actions.unack(incident_id, grace);
    expect(back.progress).toBe('Triggered');
    expect(announced().map(([type]) => type)).toEqual(['i_new', 'i_ack', 'i_ack', 'i_unack', 'i_unack']);
  });

  it('closes by hand without recovering, recovers (closed, end_time), reopens only what is closed', async () => {
    const a = await create();
    const closed = await actions.close(a.incident_id, ada);
    expect(closed).toMatchObject({ progress: 'Closed', closer_id: ada, end_time: 0 });
    const reopened = await actions.reopen(a.incident_id, ada);
    expect(reopened).toMatchObject({ progress: 'Triggered', close_time: 0, closer_id: 0 });
    await expect(actions.reopen(a.incident_id, ada)).rejects.toThrow(`reopen: incident ${a.incident_id} is not closed`);
    const recovered = await actions.recover(a.incident_id);
    expect(recovered).toMatchObject({ progress: 'Closed', end_time: NOW_MS / 1000, incident_status: 'Ok' });
    expect(events.at(-1)).toMatchObject({ event_type: 'i_rslv' });
    expect(events.at(-1)?.person).toBeUndefined(); // the platform closed it
  });

  it('snoozes and wakes, comments, updates a field (its event type), sets a custom field, storms', async () => {
    const { incident_id } = await create();
    expect((await actions.snooze(incident_id, 30, ada)).snoozed_before).toBe(NOW_MS / 1000 + 1_800);
    expect((await actions.wake(incident_id, ada)).snoozed_before).toBe(0);
    await expect(actions.snooze(incident_id, 0, ada)).rejects.toThrow('snooze: minutes must be positive');
    await actions.comment(incident_id, 'rolling back', ada);
    expect(actions.comments.get(incident_id)).toEqual([{ person_id: ada, text: 'rolling back', at: NOW_MS }]);
    const updated = await actions.update(incident_id, 'incident_severity', 'Warning', ada);
    expect(updated).toMatchObject({ incident_severity: 'Warning', manual_overrides: ['incident_severity'] });
    await actions.update(incident_id, 'root_cause', 'a full disk', ada);
    expect((await actions.setField(incident_id, 'region', 'eu', ada)).fields).toEqual({ region: 'eu' });
    await actions.storm(incident_id);
    expect(
      announced()
        .slice(1)
        .map(([type]) => type),
    ).toEqual(['i_snooze', 'i_wake', 'i_comm', 'i_r_severity', 'i_r_rc', 'i_r_field', 'i_storm']);
    await expect(actions.update(incident_id, 'labels' as never, 'x', ada)).rejects.toThrow(/cannot be updated/);
  });

  it('merges incidents into one (i_merge on the target): their alerts move, the sources close and go', async () => {
    const [target, source] = [await create(), await create()];
    const merged = await actions.merge(target.incident_id, [source.incident_id], ada);
    expect(merged.alert_cnt).toBe(2);
    const gone = world.incidents.find((i) => i.incident_id === source.incident_id);
    expect(gone).toMatchObject({ progress: 'Closed', deleted_at: NOW_MS / 1000 });
    await expect(actions.ack(source.incident_id, ada)).rejects.toThrow(`no incident ${source.incident_id}`);
    await expect(actions.merge(target.incident_id, [target.incident_id], ada)).rejects.toThrow(
      'merge: an incident cannot be merged into itself',
    );
  });

  it('refuses an unknown incident or member, announcing nothing', async () => {
    const { incident_id } = await create();
    events.length = 0;
    await expect(actions.ack('0'.repeat(24), ada)).rejects.toThrow(MockActionError);
    await expect(actions.ack(incident_id, 1)).rejects.toThrow('no member 1');
    await expect(actions.assign(incident_id, [], ada)).rejects.toThrow('assign: 1 to 100 person ids');
    expect(events).toEqual([]);
  });

  it('announces a copy: changing an event does not change the incident', async () => {
    const { incident_id } = await create();
    events[0]!.incident.title = 'changed';
    expect(world.incidents.find((i) => i.incident_id === incident_id)?.title).toBe('Disk full');
  });
});
