// An incident's timeline: a row for each thing done to it, by the actions tests take and by the API's
// writes alike, each with its type's detail and its actor (0 for the platform); war rooms made and
// removed; merges. The feed answers newest first (oldest first with asc), rows of one instant in the
// order they were done, filtered by type, a page at a time; an unknown or merged-away incident is
// ResourceNotFound. A seeded incident's timeline tells its state.
import { describe, expect, it } from 'vitest';
import type { MockState } from '../../../../src/testing/state.js';
import type { TimelineRow } from '../../../../src/testing/world/timeline.js';
import { callMock, mockState, NOW_MS } from '../support.js';

/** The feed's page, or its error's code. */
async function feed(
  state: MockState,
  body: object,
): Promise<{ items: TimelineRow[]; has_next_page: boolean } | string> {
  const answer = await callMock<{ items: TimelineRow[]; has_next_page: boolean }>(state, '/incident/feed', body);
  return answer.code ?? answer.data;
}

/** A write's data; a refusal fails the test. */
async function write(state: MockState, path: string, body: object): Promise<unknown> {
  const answer = await callMock(state, path, body);
  if (answer.code) throw new Error(`${path}: ${answer.message}`);
  return answer.data;
}

describe('an incident’s timeline', () => {
  it('has a row for each action, with its detail and actor, in the service’s order', async () => {
    const state = mockState();
    const me = state.world.members[0]!.person_id;
    const other = state.world.members[1]!.person_id;
    const incident = await state.consoleActions.create({
      title: 'disk full',
      incident_severity: 'Warning',
      person_id: me,
    });
    const id = incident.incident_id;
    await state.consoleActions.assign(id, [other], me);
    await state.consoleActions.snooze(id, 30, other);
    state.clock.advance(5_000);
    await write(state, '/incident/wake', { incident_ids: [id] });
    await write(state, '/incident/reset', {
      incident_id: id,
      title: 'disk full on db-1',
      incident_severity: 'Critical',
    });
    await state.consoleActions.setField(id, 'region', 'eu', other);
    await state.consoleActions.storm(id);
    await write(state, '/incident/resolve', { incident_ids: [id], root_cause: 'logs' });
    await write(state, '/incident/reopen', { incident_ids: [id], reason: 'again' });
    const { items } = (await feed(state, { incident_id: id, asc: true, limit: 100 })) as { items: TimelineRow[] };
    expect(items.map((row) => [row.type, row.creator_id])).toEqual([
      ['i_new', me],
      ['i_assign', me],
      ['i_snooze', other],
      ['i_wake', me],
      ['i_r_title', me],
      ['i_r_severity', me],
      ['i_r_field', other],
      ['i_storm', 0],
      ['i_r_rc', me],
      ['i_rslv', me],
      ['i_reopen', me],
    ]);
    const detail = Object.fromEntries(items.map((row) => [row.type, row.detail]));
    expect(detail).toMatchObject({
      i_new: { severity: 'Warning', title: 'disk full', reporter_email: state.world.members[0]!.email },
      i_assign: { to: [other], person_ids: [other] },
      i_snooze: { minutes: 30 },
      i_wake: { snoozedBefore: NOW_MS / 1000 + 1800 },
      i_r_title: { from: 'disk full', to: 'disk full on db-1' },
      i_r_severity: { from: 'Warning', to: 'Critical' },
      i_r_field: { field_name: 'region', to: 'eu' },
      i_r_rc: { from: '', to: 'logs' },
      i_rslv: { from: 'console' },
      i_reopen: { reason: 'again' },
    });
    expect(items.every((row) => row.ref_id === id && row.account_id === state.world.account.account_id)).toBe(true);
    expect(items[0]!.created_at).toBe(NOW_MS);
    expect(items.at(-1)!.created_at).toBe(NOW_MS + 5_000);
    // Newest first by default: rows of one instant in reverse of the order they were done.
    const newest = (await feed(state, { incident_id: id, limit: 100 })) as { items: TimelineRow[] };
    expect(newest.items.map((row) => row.type)).toEqual(items.map((row) => row.type).reverse());
  });

  it('filters by type, pages with has_next_page, and knows no incident it does not have', async () => {
    const state = mockState();
    const me = state.world.members[0]!.person_id;
    const { incident_id: id } = await state.consoleActions.create({
      title: 't',
      incident_severity: 'Info',
      person_id: me,
    });
    for (let i = 0; i < 5; i++) await state.consoleActions.comment(id, `note ${i}`, me);
    const comments = (await feed(state, { incident_id: id, types: ['i_comm'], limit: 2, p: 1 })) as {
      items: TimelineRow[];
      has_next_page: boolean;
    };
    expect(comments.items.map((row) => row.detail.comment)).toEqual(['note 4', 'note 3']);
    expect(comments.has_next_page).toBe(true);
    const last = (await feed(state, { incident_id: id, types: ['i_comm'], limit: 2, p: 3 })) as {
      has_next_page: boolean;
      items: unknown[];
    };
    expect(last).toEqual({ items: [expect.any(Object)], has_next_page: false });
    expect(state.consoleActions.comments.get(id)?.map((c) => c.text)).toEqual([
      'note 0',
      'note 1',
      'note 2',
      'note 3',
      'note 4',
    ]);
    expect(await feed(state, { incident_id: 'a'.repeat(24) })).toBe('ResourceNotFound');
  });

  it('records war rooms made and removed, and merges on the target; a merged-away incident has none', async () => {
    const state = mockState();
    const me = state.world.members[0]!.person_id;
    const make = (title: string) => state.consoleActions.create({ title, incident_severity: 'Info', person_id: me });
    const [target, source] = [await make('target'), await make('source')];
    const room = (await write(state, '/incident/war-room/create', {
      incident_id: target.incident_id,
      integration_id: 9,
    })) as {
      chat_id: string;
      chat_name: string;
    };
    expect(room.chat_name).toBe(`Incident #${target.num} war room`);
    const rooms = (await write(state, '/incident/war-room/list', { incident_id: target.incident_id })) as {
      items: unknown[];
    };
    expect(rooms.items).toEqual([expect.objectContaining({ chat_id: room.chat_id })]);
    await write(state, '/incident/war-room/delete', { incident_id: target.incident_id, integration_id: 9 });
    await write(state, '/incident/merge', {
      target_incident_id: target.incident_id,
      source_incident_ids: [source.incident_id],
    });
    const { items } = (await feed(state, { incident_id: target.incident_id, asc: true })) as { items: TimelineRow[] };
    expect(items.map((row) => row.type)).toEqual(['i_new', 'i_wr_create', 'i_wr_delete', 'i_merge']);
    expect(items[1]!.detail).toMatchObject({ integration_id: 9, chat_id: room.chat_id });
    expect(items[3]!.detail).toMatchObject({
      source_incidents: [{ incident_id: source.incident_id, title: 'source' }],
      target_incident: { incident_id: target.incident_id },
    });
    expect(await feed(state, { incident_id: source.incident_id })).toBe('ResourceNotFound');
    // A war room of an incident that does not exist: not found.
    const missing = await callMock(state, '/incident/war-room/create', {
      incident_id: 'b'.repeat(24),
      integration_id: 9,
    });
    expect(missing.code).toBe('ResourceNotFound');
  });

  it('has a row for an alert merged into the incident', async () => {
    const state = mockState();
    const me = state.world.members[0]!.person_id;
    const channel = state.world.channels[0]!.channel_id;
    const incident = await state.consoleActions.create({
      title: 'db slow',
      incident_severity: 'Warning',
      person_id: me,
    });
    const alert = await state.alertActions.push({
      title: 'p99 up',
      event_status: 'Warning',
      alert_key: 'p99',
      channel_id: channel,
    });
    await state.alertActions.merge(alert.alert_id, incident.incident_id, me);
    const { items } = (await feed(state, { incident_id: incident.incident_id, types: ['a_merge'] })) as {
      items: TimelineRow[];
    };
    expect(items).toEqual([
      expect.objectContaining({
        type: 'a_merge',
        creator_id: me,
        detail: { alert_id: alert.alert_id, title: 'p99 up' },
      }),
    ]);
  });

  it('of a seeded incident tells its state: created, assigned, each acknowledgement, closed', () => {
    const state = mockState({ incidents: 60 });
    for (const incident of state.world.incidents) {
      const rows = state.world.timelines.get(incident.incident_id)!;
      expect(rows[0]).toMatchObject({
        type: 'i_new',
        created_at: incident.start_time * 1000,
        creator_id: incident.creator_id,
      });
      const acks = rows.filter((row) => row.type === 'i_ack').map((row) => row.creator_id);
      expect(acks.sort()).toEqual(
        incident.responders
          .filter((r) => r.acknowledged_at)
          .map((r) => r.person_id)
          .sort(),
      );
      expect(rows.some((row) => row.type === 'i_rslv')).toBe(incident.progress === 'Closed');
      const times = rows.map((row) => row.created_at);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
  });
});
