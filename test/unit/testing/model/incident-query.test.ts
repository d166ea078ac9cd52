// `/incident/list` over the world: the request table's checks in the service's order, every filter,
// newest first unless `asc`, pages by number or by cursor (search after the last item's sort key,
// so that pages stay right while incidents are added), the total capped at 1000.
import { describe, expect, it } from 'vitest';
import { checkListRequest, queryIncidents } from '../../../../src/testing/model/incident-query.js';
import { createWorld } from '../../../../src/testing/model/world.js';
import type { IncidentListResponse, ListIncidentsRequest } from '../../../../src/schemas/list.js';
import { NOW_MS } from '../support.js';

const NOW = NOW_MS / 1000;
const world = createWorld({ seed: 5, incidents: 150, now: NOW });
const personId = world.members[0]!.person_id;
const WINDOW = { start_time: NOW - 30 * 86_400, end_time: NOW };

function query(request: Partial<ListIncidentsRequest>, w = world): IncidentListResponse {
  const result = queryIncidents({ ...WINDOW, ...request }, { world: w, personId, now: NOW });
  if ('key' in result) throw new Error(`refused: ${result.key}`);
  return result;
}

describe('checkListRequest', () => {
  it('refuses in the service’s order: the window’s fields, types, the window, then paging', () => {
    expect(checkListRequest({})).toEqual({ key: 'required', vars: { field: 'start_time' } });
    expect(checkListRequest({ start_time: 1.5, end_time: 2 })).toEqual({
      key: 'type',
      vars: { field: 'start_time', type: 'integer' },
    });
    expect(checkListRequest({ ...WINDOW, asc: 'yes' })).toEqual({
      key: 'type',
      vars: { field: 'asc', type: 'boolean' },
    });
    expect(checkListRequest({ ...WINDOW, progress: ['Closed'] })).toEqual({
      key: 'type',
      vars: { field: 'progress', type: 'string' },
    });
    expect(checkListRequest({ ...WINDOW, channel_ids: ['1'] })).toMatchObject({ vars: { type: 'array of integers' } });
    expect(checkListRequest({ ...WINDOW, nums: [1] })).toMatchObject({ vars: { type: 'array of strings' } });
    expect(checkListRequest({ start_time: 10, end_time: 10 })).toEqual({ key: 'endAfterStart' });
    expect(checkListRequest({ start_time: 0, end_time: 31 * 86_400 + 1 })).toEqual({ key: 'window' });
    expect(checkListRequest({ ...WINDOW, limit: 101 })).toEqual({
      key: 'range',
      vars: { field: 'limit', min: 0, max: 100 },
    });
    expect(checkListRequest({ ...WINDOW, p: -1 })).toEqual({ key: 'min', vars: { field: 'p', min: 0 } });
    expect(checkListRequest({ ...WINDOW, p: 101, limit: 100 })).toEqual({ key: 'depth' });
    expect(checkListRequest({ ...WINDOW, p: 100, limit: 100 })).toBeUndefined();
  });
});

describe('queryIncidents', () => {
  it('lists the window newest first, 20 a page, with the total', () => {
    const page = query({});
    expect(page.items).toHaveLength(20);
    const starts = page.items.map((i) => i.start_time);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    expect(page.total).toBe(world.incidents.filter((i) => !i.deleted_at).length);
    expect(query({ asc: true }).items[0]?.start_time).toBe(Math.min(...world.incidents.map((i) => i.start_time)));
  });

  it('pages by number and by cursor alike, each incident once', () => {
    const byNumber = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((p) => query({ p, limit: 20 }).items.map((i) => i.incident_id));
    const byCursor: string[] = [];
    let cursor: string | undefined;
    do {
      const page = query({ limit: 20, ...(cursor ? { search_after_ctx: cursor } : {}) });
      byCursor.push(...page.items.map((i) => i.incident_id));
      cursor = page.has_next_page ? page.search_after_ctx : undefined;
    } while (cursor);
    expect(byCursor).toEqual(byNumber);
    expect(new Set(byCursor).size).toBe(150);
  });

  it('keeps a cursor right when incidents are added before it, and refuses one it did not make', () => {
    const w = createWorld({ seed: 5, incidents: 60, now: NOW });
    const first = query({ limit: 10 }, w);
    w.incidents.push({ ...structuredClone(w.incidents[0]!), incident_id: 'f'.repeat(24), start_time: NOW - 1 });
    const next = query({ limit: 10, search_after_ctx: first.search_after_ctx! }, w);
    expect(next.items[0]?.start_time).toBeLessThanOrEqual(first.items.at(-1)!.start_time);
    expect(next.items.map((i) => i.incident_id)).not.toContain('f'.repeat(24));
    expect(queryIncidents({ ...WINDOW, search_after_ctx: 'nope' }, { world, personId, now: NOW })).toEqual({
      key: 'cursor',
    });
  });

  it('filters by progress, severity, channel, team, people, ids, numbers and text', () => {
    const all = query({ limit: 100, p: 1 }).items.concat(query({ limit: 100, p: 2 }).items);
    const some = all[3]!;
    const check = (request: Partial<ListIncidentsRequest>, keep: (i: (typeof all)[number]) => boolean) =>
      expect(
        [1, 2].flatMap((p) => query({ ...request, limit: 100, p }).items.map((i) => i.incident_id)),
        JSON.stringify(request),
      ).toEqual(all.filter(keep).map((i) => i.incident_id));
    check({ progress: 'Triggered,Processing' }, (i) => i.progress !== 'Closed');
    check({ incident_severity: 'Critical' }, (i) => i.incident_severity === 'Critical');
    check({ channel_ids: [some.channel_id] }, (i) => i.channel_id === some.channel_id);
    check({ incident_ids: [some.incident_id.toUpperCase()] }, (i) => i.incident_id === some.incident_id);
    check({ nums: [some.num] }, (i) => i.num === some.num);
    check(
      { query: 'DISK' },
      (i) =>
        `${i.title} ${i.description}`.toLowerCase().includes('disk') ||
        Object.values(i.labels).some((v) => v.includes('disk')),
    );
    check({ responder_ids: [personId] }, (i) => i.responders.some((r) => r.person_id === personId));
    check({ acker_ids: [personId] }, (i) =>
      i.responders.some((r) => r.person_id === personId && r.acknowledged_at > 0),
    );
    check({ is_snoozed: true }, (i) => i.snoozed_before > NOW);
    check({ is_rare: true }, (i) => i.frequency === 'rare');
    const myTeams = new Set(world.teams.filter((t) => t.person_ids.includes(personId)).map((t) => t.team_id));
    const teamOf = new Map(world.channels.map((c) => [c.channel_id, c.team_id]));
    check({ is_my_team: true }, (i) => myTeams.has(teamOf.get(i.channel_id) ?? -1));
  });

  it('caps the total at 1000', () => {
    const big = createWorld({ seed: 1, incidents: 1_001, now: NOW });
    expect(query({}, big).total).toBe(1_000);
  });
});
