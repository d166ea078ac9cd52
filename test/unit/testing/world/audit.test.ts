// The audit log: every write through the API once past its credential, limits and permission, with
// its outcome (a refusal by the schema or by the world's rules included), never a read; every thing
// done through service.actions as the console would record it, under the operation of the API that
// does the same; nothing the platform did by itself.
import { describe, expect, it } from 'vitest';
import { route } from '../../../../src/testing/router.js';
import { operationName, targetOf } from '../../../../src/testing/world/audit.js';
import { apiRequest, callMock, KEYS, mockState, NOW_MS } from '../support.js';

describe('the audit log', () => {
  it('names an operation by its path’s words, and its target by the id it acts on', () => {
    expect(operationName('/channel/silence/rule/create')).toBe('channel.silence.rule.create');
    expect(operationName('/safari/a2a-agent/enable')).toBe('a2a-agent.enable');
    expect(operationName('/safari/automation/triggers/{trigger_id}/fire')).toBe('automation.triggers.fire');
    expect(targetOf({ team_name: 'x' }, 'team_id', { team_id: 5 })).toBe('5');
    expect(targetOf({ channel_id: 3, rule_id: 'r' }, 'rule_id')).toBe('r');
    expect(targetOf({ schedule_ids: [1, 2] }, 'schedule_id')).toBe('1,2');
    expect(targetOf({ incident_ids: ['a', 'b'] })).toBe('a,b');
    expect(targetOf({ query: 'x' })).toBe('');
  });

  it('records each write through the API with its member, key and outcome; no read, nothing refused before it', async () => {
    const state = mockState();
    const me = state.world.members[0]!.person_id;
    const send = async (path: string, body: object, key: string | null = KEYS.full) =>
      (await route(state, apiRequest(path, body, { key }))) as Response;
    await send('/team/upsert', { team_name: 'Audited' });
    await send('/team/upsert', { team_name: '' }); // the schema refuses it
    await send('/team/upsert', { team_name: 'Ghosts', person_ids: [42] }); // names no member
    await send('/team/list', {}); // a read
    await send('/team/upsert', { team_name: 'Nobody' }, null); // no credential
    await send('/team/upsert', { team_name: 'NoPermission' }, KEYS.noPermission); // no on-call permission
    const team = state.world.teams.find((t) => t.team_name === 'Audited')!;
    expect(state.auditLog.map((e) => [e.operation, e.target, e.result])).toEqual([
      ['team.upsert', String(team.team_id), 'OK'],
      ['team.upsert', '', 'InvalidParameter'],
      ['team.upsert', '', 'ResourceNotFound'],
    ]);
    expect(state.auditLog[0]).toEqual({
      request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      time: NOW_MS,
      operation: 'team.upsert',
      target: String(team.team_id),
      account_id: state.world.account.account_id,
      person_id: me,
      key_name: 'full',
      result: 'OK',
    });
  });

  it('records what a test does through service.actions as the console would, not what the platform does', async () => {
    const state = mockState();
    const [me, other] = state.world.members.map((m) => m.person_id);
    const incident = await state.consoleActions.create({
      title: 'x',
      incident_severity: 'Info',
      person_id: me,
      assign_to: [other!],
    });
    await state.consoleActions.update(incident.incident_id, 'title', 'y', other!);
    await state.consoleActions.storm(incident.incident_id);
    await state.consoleActions.recover(incident.incident_id);
    expect(state.auditLog.map((e) => [e.operation, e.person_id, e.key_name, e.target])).toEqual([
      ['incident.create', me, 'console', incident.incident_id],
      ['incident.assign', me, 'console', incident.incident_id],
      ['incident.reset', other, 'console', incident.incident_id],
    ]);
    expect(new Set(state.auditLog.map((e) => e.request_id)).size).toBe(3);
    // The API's own actions are recorded once, as the API's write.
    await route(state, apiRequest('/incident/comment', { incident_ids: [incident.incident_id], comment: 'c' }));
    expect(state.auditLog.slice(3).map((e) => [e.operation, e.key_name])).toEqual([['incident.comment', 'full']]);
  });
});

describe('POST /audit/search', () => {
  it('reads the audit log: the writes of its window, newest first, by operation, member or request', async () => {
    const state = mockState();
    const [me] = state.world.members;
    await callMock(state, '/team/upsert', { team_name: 'One' });
    state.clock.advance(60_000);
    await callMock(state, '/calendar/create', { cal_name: 'Holidays' });
    const search = async (body: object) =>
      (await callMock<{ total: number; docs: Array<Record<string, unknown>> }>(state, '/audit/search', body)).data;
    const window = { start_time: NOW_MS / 1000 - 60, end_time: NOW_MS / 1000 + 3600 };
    const all = await search(window);
    expect(all.total).toBe(2);
    expect(all.docs.map((doc) => doc.operation)).toEqual(['calendar.create', 'team.upsert']);
    expect(all.docs[1]).toMatchObject({
      created_at: NOW_MS,
      member_id: me!.person_id,
      member_name: me!.person_name,
      request_id: state.auditLog[0]!.request_id,
      is_write: true,
    });
    expect((await search({ ...window, operations: ['team.upsert'] })).total).toBe(1);
    expect((await search({ ...window, is_write: false })).total).toBe(0);
    expect((await search({ ...window, end_time: NOW_MS / 1000 + 30 })).total).toBe(1);
    expect((await search({ ...window, request_id: state.auditLog[1]!.request_id })).docs).toHaveLength(1);
  });
});
