// Every filter of POST /incident/list in the mock, checked through the client against the world.
import { describe, expect, it } from 'vitest';
import { type IncidentInfo, type ListIncidentsParams, RequestTooFrequentlyError } from '../../../src/index.js';
import { collect, DAY, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 300, rateLimits: false });
const client = h.client();
const range = { start_time: NOW - 30 * DAY, end_time: NOW };
const world = h.service.world;
const me = h.service.personId;
const channelOf = new Map(world.channels.map((c) => [c.channel_id, c]));
const myTeams = new Set(world.teams.filter((t) => t.person_ids.includes(me)).map((t) => t.team_id));

async function ids(params: Partial<ListIncidentsParams>): Promise<string[]> {
  return (await collect(client.listIncidents({ ...range, limit: 100, ...params }))).map((i) => i.incident_id).sort();
}
function expected(predicate: (i: IncidentInfo) => boolean): string[] {
  return world.incidents
    .filter((i) => !i.deleted_at && i.start_time >= range.start_time && i.start_time <= range.end_time && predicate(i))
    .map((i) => i.incident_id)
    .sort();
}

const someMember = world.members[2]!.person_id;
// A member who closed some incident by hand, and one who made one (each filter must match some incidents).
const someCloser = world.incidents.find((i) => i.progress === 'Closed' && i.closer_id)!.closer_id;
const someCreator = world.incidents.find((i) => i.creator_id)!.creator_id;
const someChannel = world.channels[1]!.channel_id;
const someTeam = world.teams[1]!.team_id;
const sample = world.incidents.slice(0, 3);

const cases: Array<[string, Partial<ListIncidentsParams>, (i: IncidentInfo) => boolean]> = [
  ['is_snoozed', { is_snoozed: true }, (i) => i.snoozed_before > NOW],
  ['is_my_team', { is_my_team: true }, (i) => myTeams.has(channelOf.get(i.channel_id)?.team_id ?? -1)],
  ['is_my_channel', { is_my_channel: true }, (i) => channelOf.get(i.channel_id)?.manager_ids?.includes(me) === true],
  ['ever_muted', { ever_muted: true }, (i) => i.ever_muted],
  ['is_rare', { is_rare: true }, (i) => i.frequency === 'rare'],
  ['progress', { progress: 'Triggered,Processing' }, (i) => i.progress === 'Triggered' || i.progress === 'Processing'],
  ['incident_severity', { incident_severity: ['Critical'] }, (i) => i.incident_severity === 'Critical'],
  ['channel_ids with 0', { channel_ids: [0, someChannel] }, (i) => i.channel_id === 0 || i.channel_id === someChannel],
  ['team_ids', { team_ids: [someTeam] }, (i) => channelOf.get(i.channel_id)?.team_id === someTeam],
  ['responder_ids', { responder_ids: [someMember] }, (i) => i.responders.some((r) => r.person_id === someMember)],
  [
    'acker_ids',
    { acker_ids: [someMember] },
    (i) => i.responders.some((r) => r.person_id === someMember && r.acknowledged_at > 0),
  ],
  ['creator_ids with 0', { creator_ids: [0] }, (i) => i.creator_id === 0],
  ['creator_ids', { creator_ids: [someCreator] }, (i) => i.creator_id === someCreator],
  ['closer_ids with 0', { closer_ids: [0] }, (i) => i.progress === 'Closed' && i.closer_id === 0],
  ['closer_ids', { closer_ids: [someCloser] }, (i) => i.progress === 'Closed' && i.closer_id === someCloser],
  ['incident_ids', { incident_ids: sample.map((i) => i.incident_id.toUpperCase()) }, (i) => sample.includes(i)],
  ['nums', { nums: [sample[0]!.num] }, (i) => i.num === sample[0]!.num],
  [
    'query',
    { query: 'DB-PRIMARY' },
    (i) =>
      `${i.title} ${i.description}`.toLowerCase().includes('db-primary') ||
      Object.values(i.labels).includes('db-primary'),
  ],
  [
    'several at once',
    { progress: 'Closed', incident_severity: 'Warning,Info', is_rare: false },
    (i) => i.progress === 'Closed' && i.incident_severity !== 'Critical',
  ],
];

describe('mock: list filters', () => {
  it.each(cases)('%s', async (_name, params, predicate) => {
    const want = expected(predicate);
    expect(await ids(params)).toEqual(want);
  });

  it('the filters are not vacuous: each case above matches some but not all incidents', () => {
    const all = expected(() => true).length;
    for (const [name, , predicate] of cases) {
      const n = expected(predicate).length;
      expect(n, name).toBeGreaterThan(0);
      expect(n, name).toBeLessThan(all);
    }
  });

  it('counts total exactly, capped at 1000, and sends a cursor only when a next page exists', async () => {
    const page = await client.listIncidents({ ...range, limit: 100 });
    expect(page.total).toBe(expected(() => true).length);
    const last = await client.listIncidents({ ...range, limit: 100, p: Math.ceil(page.total / 100) });
    expect(last.hasNextPage).toBe(false);
    expect(last.searchAfterCtx).toBeUndefined();
    const big = await startMock({ incidents: 1200, rateLimits: false });
    expect((await big.client().listIncidents({ ...range, limit: 1 })).total).toBe(1000);
  });

  it('defaults limit to 20', async () => {
    expect((await client.listIncidents(range)).items).toHaveLength(20);
  });
});

describe('mock: rate limits', () => {
  it('count the list per account and the agent operations per app key', async () => {
    const m = await startMock({
      incidents: 5,
      rateLimits: { perSecond: 5, perMinute: 1000 },
      agents: Array.from({ length: 20 }, (_, i) => ({ agent_id: `a${i}` })),
    });
    const full = m.client({ maxRetries: 0, rateLimit: false });
    const other = m.client({ maxRetries: 0, rateLimit: false, appKey: m.service.keys.noPermission });
    const window = { start_time: NOW - DAY, end_time: NOW };
    for (let i = 0; i < 5; i++) await full.listIncidents(window);
    // Another key of the same account is over the account's list limit too (refused before the permission check).
    expect(await rejection(other.listIncidents(window))).toBeInstanceOf(RequestTooFrequentlyError);
    for (let i = 0; i < 5; i++) await full.enableA2AAgent(`a${i}`);
    expect(await rejection(full.enableA2AAgent('a5'))).toBeInstanceOf(RequestTooFrequentlyError);
    await expect(other.enableA2AAgent('a6')).resolves.toBeDefined(); // its own bucket
  });
});
