// The account's members through the API, over the world's people: the list (query, role, order,
// pages) of those not removed; the caller's info; person infos of any id the world has had; an
// invitation (pending until joined; an email or name taken is refused); a removal refused while a
// team, schedule or rule names the member (unless forced, which takes them out of those), and never
// of the owner; a profile reset; roles granted, revoked and set, each role checked.
import { describe, expect, it } from 'vitest';
import type { MockState } from '../../../../src/testing/state.js';
import { callMock, mockState } from '../support.js';

/** An answer's data as these tests read it. */
type Data = Record<string, unknown> & { items: Array<Record<string, unknown>> };
const call = (state: MockState, path: string, body: object) => callMock<Data>(state, path, body);

describe('members', () => {
  it('are listed with a query, a role and pages; the caller’s info is the owner’s', async () => {
    const state = mockState();
    const [owner, other] = state.world.members;
    const all = await call(state, '/member/list', { limit: 100 });
    expect(all.data.total).toBe(state.world.members.length);
    expect(all.data.items[0]).toMatchObject({
      member_id: owner!.person_id,
      member_name: owner!.person_name,
      email: owner!.email,
      status: 'enabled',
    });
    const query = other!.person_name.split(' ')[1]!.toUpperCase();
    const found = await call(state, '/member/list', { query });
    expect(found.data.items.map((m) => m.member_id)).toContain(other!.person_id);
    expect((await call(state, '/member/list', { role_id: 2 })).data.items.map((m) => m.member_id)).toEqual([
      owner!.person_id,
    ]);
    const pages = [1, 2].map((p) => call(state, '/member/list', { limit: 5, p }));
    const [first, second] = await Promise.all(pages);
    expect(first!.data).toMatchObject({ p: 1, limit: 5, total: state.world.members.length });
    expect(second!.data.items[0]!.member_id).toBe(state.world.members[5]!.person_id);
    expect((await call(state, '/member/info', {})).data).toMatchObject({
      member_id: owner!.person_id,
      account_name: 'Demo Co',
    });
    const persons = await call(state, '/person/infos', { person_ids: [other!.person_id, 1] });
    expect(persons.data.items).toEqual([
      expect.objectContaining({ person_id: other!.person_id, person_name: other!.person_name }),
    ]);
  });

  it('are invited (pending), and an email or a name taken is refused', async () => {
    const state = mockState();
    const invited = await call(state, '/member/invite', {
      members: [{ member_name: 'Rin Okada', email: 'rin@example.com' }],
    });
    const id = invited.data.items[0]!.member_id as number;
    expect(invited.data.items).toEqual([{ member_id: id, member_name: 'Rin Okada' }]);
    expect(state.world.members.at(-1)).toMatchObject({ person_id: id, status: 'pending', email: 'rin@example.com' });
    const again = await call(state, '/member/invite', {
      members: [{ member_name: 'Someone', email: 'RIN@example.com' }],
    });
    expect(again).toMatchObject({ code: 'InvalidParameter', message: expect.stringContaining('RIN@example.com') });
    const named = await call(state, '/member/invite', {
      members: [{ member_name: 'Rin Okada', email: 'other@example.com' }],
    });
    expect(named.code).toBe('InvalidParameter');
    expect((await call(state, '/member/invite', { members: [{ email: 'x@example.com', role_ids: [99] }] })).code).toBe(
      'ResourceNotFound',
    );
    // Invited, the member can be named: a team takes them.
    expect((await call(state, '/team/upsert', { team_name: 'Newcomers', person_ids: [id] })).code).toBeUndefined();
  });

  it('are removed only when nothing names them, unless forced; never the owner', async () => {
    const state = mockState();
    const [owner] = state.world.members;
    const inTeam = state.world.teams[0]!.person_ids.find((id) => id !== owner!.person_id)!;
    const refused = await call(state, '/member/delete', { member_id: inTeam });
    expect(refused).toMatchObject({ code: 'ReferenceExist', message: expect.stringContaining('still referenced by') });
    expect((await call(state, '/member/delete', { member_id: inTeam, is_force: true })).code).toBeUndefined();
    expect(state.world.teams.some((t) => t.person_ids.includes(inTeam))).toBe(false);
    const layers = JSON.stringify(state.world.resources.get('/schedule'));
    expect(layers).not.toContain(String(inTeam));
    expect(state.world.members.find((m) => m.person_id === inTeam)?.status).toBe('deleted');
    // Gone: not listed, not found again, not to be named by a write; still known to history.
    const listed = (await call(state, '/member/list', { limit: 100 })).data.items.map((m) => m.member_id);
    expect(listed).not.toContain(inTeam);
    expect((await call(state, '/member/delete', { member_id: inTeam })).code).toBe('ResourceNotFound');
    expect((await call(state, '/team/upsert', { team_name: 'Ghost', person_ids: [inTeam] })).code).toBe(
      'ResourceNotFound',
    );
    expect((await call(state, '/person/infos', { person_ids: [inTeam] })).data.items[0]!.status).toBe('deleted');
    expect((await call(state, '/member/delete', { member_id: owner!.person_id, is_force: true })).code).toBe(
      'InvalidParameter',
    );
    // By email, once nothing names them.
    const invited = await call(state, '/member/invite', { members: [{ email: 'temp@example.com' }] });
    expect((await call(state, '/member/delete', { email: 'temp@example.com' })).code).toBeUndefined();
    expect(state.world.members.find((m) => m.person_id === invited.data.items[0]!.member_id)?.status).toBe('deleted');
  });

  it('change their profile and roles; a role held cannot be deleted', async () => {
    const state = mockState();
    const other = state.world.members[1]!;
    expect(
      (await call(state, '/member/info/reset', { member_id: other.person_id, member_name: 'New Name' })).code,
    ).toBeUndefined();
    expect(other.person_name).toBe('New Name');
    const taken = await call(state, '/member/info/reset', {
      member_id: other.person_id,
      email: state.world.members[0]!.email,
    });
    expect(taken.code).toBe('InvalidParameter');
    expect(
      (await call(state, '/member/role/grant', { member_id: other.person_id, role_ids: [2] })).code,
    ).toBeUndefined();
    expect(other.role_ids).toEqual([6, 2]);
    expect(
      (await call(state, '/member/role/revoke', { member_id: other.person_id, role_ids: [6] })).code,
    ).toBeUndefined();
    expect(other.role_ids).toEqual([2]);
    expect((await call(state, '/member/role/update', { member_id: other.person_id, role_ids: [99] })).code).toBe(
      'ResourceNotFound',
    );
    expect(
      (await call(state, '/role/member/grant', { role_id: 6, member_ids: [other.person_id] })).code,
    ).toBeUndefined();
    expect(other.role_ids).toEqual([2, 6]);
    const held = await call(state, '/role/delete', { role_id: 6 });
    expect(held).toMatchObject({ code: 'ReferenceExist' });
    const { data } = await call(state, '/role/upsert', { role_name: 'Observer' });
    expect((await call(state, '/role/delete', { role_id: data.role_id })).code).toBeUndefined();
  });
});
