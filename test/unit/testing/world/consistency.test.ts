// Nothing a test does leaves the mock's world inconsistent: a few hundred random writes through the
// router (teams, channels and their rules, schedules, escalation rules, members invited and removed,
// roles, incidents created, assigned and acknowledged), each naming what exists or what does not,
// and after them every reference of every record names a member, team, channel or schedule the
// world has, every record fits its item schema, ids are unique per family, live members' emails are
// distinct, the owner is still there, and incidents' responders are members. A refused write changes
// nothing: it is answered with the service's error code (ResourceNotFound, ReferenceExist,
// InvalidParameter), never a 500.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCHEMA_DEFS } from '../../../../src/generated/request-schemas.js';
import { checkSchema } from '../../../../src/internal/schema.js';
import { FAMILIES } from '../../../../src/testing/generated/families.js';
import { RESPONSE_DEFS } from '../../../../src/testing/generated/responses.js';
import type { MockState } from '../../../../src/testing/state.js';
import { exists, referencesIn } from '../../../../src/testing/world/references.js';
import { callMock, mockState } from '../support.js';

const DEFS = { ...SCHEMA_DEFS, ...RESPONSE_DEFS };
const BOGUS = 4_040_404_040_131;

/** A write, its ids chosen when it runs by the numbers drawn (so that they name what the world has then). */
type Write = (state: MockState, pick: (n: number) => number) => [string, Record<string, unknown>];

const members = (state: MockState) => state.world.members.filter((m) => m.status !== 'deleted');
const records = (state: MockState, base: string) => state.world.resources.get(base) ?? [];
/** An id of the world's (or, one time in eight, one it does not have). */
const idOf = (ids: number[], n: number): number => (n % 8 === 7 || ids.length === 0 ? BOGUS : ids[n % ids.length]!);

const writes = (n: number[]): Write[] => {
  const [a = 0, b = 0, c = 0, d = 0] = n;
  const memberIds = (state: MockState) => members(state).map((m) => m.person_id);
  const teamIds = (state: MockState) => state.world.teams.map((t) => t.team_id);
  const channelIds = (state: MockState) => state.world.channels.map((ch) => ch.channel_id);
  const scheduleIds = (state: MockState) => records(state, '/schedule').map((s) => s.schedule_id as number);
  return [
    (state) => [
      '/team/upsert',
      { team_name: `team ${a % 5}`, person_ids: [idOf(memberIds(state), b), idOf(memberIds(state), c)] },
    ],
    (state) => ['/team/delete', { team_id: idOf(teamIds(state), a) }],
    (state) => ['/channel/create', { channel_name: `channel ${a}`, team_id: idOf(teamIds(state), b) }],
    (state) => ['/channel/update', { channel_id: idOf(channelIds(state), a), team_id: idOf(teamIds(state), b) }],
    (state) => ['/channel/delete', { channel_id: idOf(channelIds(state), a) }],
    (state) => [
      '/channel/silence/rule/create',
      { channel_id: idOf(channelIds(state), a), rule_name: `quiet ${b}`, filters: [] },
    ],
    (state) => [
      '/channel/escalate/rule/create',
      {
        channel_id: idOf(channelIds(state), a),
        rule_name: `escalate ${b}`,
        template_id: String(records(state, '/template')[0]?.template_id),
        layers: [
          {
            target: {
              person_ids: [idOf(memberIds(state), c)],
              schedule_to_role_ids: { [String(idOf(scheduleIds(state), d))]: [] },
              by: { follow_preference: true },
            },
          },
        ],
      },
    ],
    (state) => [
      '/schedule/create',
      {
        schedule_name: `rota ${a}`,
        team_id: idOf(teamIds(state), b),
        layers: [{ groups: [{ group_name: 'A', members: [{ role_id: 0, person_ids: [idOf(memberIds(state), c)] }] }] }],
      },
    ],
    (state) => ['/schedule/delete', { schedule_ids: [idOf(scheduleIds(state), a)] }],
    () => ['/member/invite', { members: [{ member_name: `new ${a}`, email: `new${a}@example.com` }] }],
    (state) => ['/member/delete', { member_id: idOf(memberIds(state), a), is_force: b % 2 === 0 }],
    (state) => ['/member/info/reset', { member_id: idOf(memberIds(state), a), member_name: `renamed ${b}` }],
    (state) => ['/role/delete', { role_id: records(state, '/role')[a % 2]?.role_id }],
    (state) => [
      '/incident/create',
      {
        title: `incident ${a}`,
        incident_severity: 'Warning',
        channel_id: idOf(channelIds(state), b),
        assigned_to: { person_ids: [idOf(memberIds(state), c)] },
      },
    ],
    (state) => {
      const open = state.world.incidents.filter((i) => !i.deleted_at && i.progress !== 'Closed');
      const incident = open[a % Math.max(open.length, 1)]?.incident_id ?? 'f'.repeat(24);
      return [
        '/incident/assign',
        { incident_ids: [incident], assigned_to: { person_ids: [idOf(memberIds(state), b)] } },
      ];
    },
  ];
};

const write = fc.tuple(fc.nat(40), fc.array(fc.nat(1000), { minLength: 4, maxLength: 4 }));

/** Every inconsistency of the world: what names nothing, what does not fit its schema, ids given twice. */
function inconsistencies(state: MockState): string[] {
  const found: string[] = [];
  const { world } = state;
  for (const [base, list] of world.resources) {
    const rule = FAMILIES[base];
    if (!rule) continue;
    const ids = list.map((record) => String(record[rule.id]));
    if (new Set(ids).size !== ids.length) found.push(`${base}: an id twice`);
    for (const record of list) {
      const problem = checkSchema(record, rule.item, DEFS);
      if (problem) found.push(`${base} ${String(record[rule.id])}: ${problem.path} ${problem.message}`);
      for (const reference of referencesIn(record, new Set([rule.id])))
        if (!exists(world, reference, false))
          found.push(`${base} ${String(record[rule.id])}: ${reference.field} names ${reference.kind} ${reference.id}`);
    }
  }
  const known = new Set(world.members.map((m) => m.person_id));
  for (const incident of world.incidents) {
    for (const responder of incident.responders)
      if (!known.has(responder.person_id))
        found.push(`incident ${incident.incident_id}: responder ${responder.person_id}`);
  }
  const emails = members(state).map((m) => m.email);
  if (new Set(emails).size !== emails.length) found.push('two live members share an email');
  if (world.members[0]?.status !== 'enabled') found.push('the owner is gone');
  return found;
}

describe('the world after random writes', () => {
  it('stays consistent, each refused write answered with the service’s code', async () => {
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 300, maxLength: 300 }), fc.nat(1000), async (steps, seed) => {
        const state = mockState({ seed, incidents: 10 });
        expect(inconsistencies(state)).toEqual([]);
        for (const [which, numbers] of steps) {
          const all = writes(numbers);
          const [path, body] = all[which % all.length]!(state, (n) => n);
          const answer = await callMock(state, path, body);
          const code = answer.code ?? 'OK';
          codes.set(code, (codes.get(code) ?? 0) + 1);
          expect(
            ['OK', 'ResourceNotFound', 'ReferenceExist', 'InvalidParameter'],
            `${path}: ${answer.message}`,
          ).toContain(code);
        }
        expect(inconsistencies(state)).toEqual([]);
      }),
      { numRuns: 4 },
    );
    // The writes were not all refused, nor all taken.
    for (const code of ['OK', 'ResourceNotFound', 'ReferenceExist']) expect(codes.get(code), code).toBeGreaterThan(10);
  });
});
