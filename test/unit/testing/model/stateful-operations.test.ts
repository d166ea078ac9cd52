// The operations the mock answers from its state, past the request schema: unknown ids
// (ResourceNotFound, naming the first; a batch with one unknown changes nothing), states an action
// cannot leave (InvalidParameter with the reason), the incident lifecycle through the same actions
// tests drive, alerts and channels from the world, their pages by number or cursor.
import { describe, expect, it } from 'vitest';
import { STATEFUL_OPERATION_PATHS, statefulHandler } from '../../../../src/testing/model/stateful-operations.js';
import type { OperationResult } from '../../../../src/testing/model/operation-result.js';
import { mockState, NOW_MS } from '../support.js';

const state = mockState({ incidents: 40 });
const personId = state.world.members[0]!.person_id;
const call = (path: string, body: Record<string, unknown>): Promise<OperationResult> => {
  const handler = statefulHandler(path);
  if (!handler) throw new Error(`no handler for ${path}`);
  return handler(state, body, personId);
};
const dataOf = async (result: Promise<OperationResult>) => {
  const answer = await result;
  if (!('data' in answer)) throw new Error(`refused: ${JSON.stringify(answer)}`);
  return answer.data as Record<string, unknown>;
};
const open = () => state.world.incidents.filter((i) => i.progress !== 'Closed' && !i.deleted_at);

describe('stateful operations', () => {
  it('are the incident lifecycle, alerts, members, automation rules, and every family of the engine', () => {
    expect(STATEFUL_OPERATION_PATHS).toEqual(
      expect.arrayContaining([
        '/incident/info',
        '/incident/ack',
        '/alert/list',
        '/channel/list',
        '/safari/automation/rule/create',
        '/incident/feed',
        '/member/list',
        '/status-page/change/list',
      ]),
    );
    expect(statefulHandler('/insight/account')).toBeUndefined();
  });

  it('find an incident by id (any case) or by its number (the latest that has it)', async () => {
    const incident = state.world.incidents[0]!;
    expect(await dataOf(call('/incident/info', { incident_id: incident.incident_id.toUpperCase() }))).toMatchObject({
      incident_id: incident.incident_id,
    });
    expect(await dataOf(call('/incident/info', { num: incident.num.toLowerCase() }))).toMatchObject({
      num: incident.num,
    });
    expect(await call('/incident/info', { incident_id: 'f'.repeat(24) })).toEqual({
      code: 'ResourceNotFound',
      key: 'notFound',
      vars: { id: 'f'.repeat(24) },
    });
    expect(await call('/incident/info', {})).toEqual({
      code: 'InvalidParameter',
      key: 'required',
      vars: { field: 'incident_id' },
    });
  });

  it('act on every incident of a batch, or on none when one is unknown', async () => {
    const [a, b] = open().filter((i) => i.progress === 'Triggered');
    const unknown = 'e'.repeat(24);
    expect(await call('/incident/ack', { incident_ids: [a!.incident_id, unknown] })).toMatchObject({
      code: 'ResourceNotFound',
      vars: { id: unknown },
    });
    expect(state.world.incidents.find((i) => i.incident_id === a!.incident_id)?.progress).toBe('Triggered');
    expect(await call('/incident/ack', { incident_ids: [a!.incident_id, b!.incident_id] })).toEqual({ data: null });
    expect(state.world.incidents.filter((i) => [a, b].includes(i)).map((i) => i.progress)).toEqual([
      'Processing',
      'Processing',
    ]);
  });

  it('refuse what an incident’s state does not allow, with the action’s reason', async () => {
    const incident = open()[0]!;
    expect(await call('/incident/reopen', { incident_ids: [incident.incident_id] })).toEqual({
      code: 'InvalidParameter',
      key: 'action',
      vars: { reason: `reopen: incident ${incident.incident_id} is not closed` },
    });
    expect(await call('/incident/reset', { incident_id: incident.incident_id })).toMatchObject({
      vars: { field: 'title' },
    });
  });

  it('create an incident in a known channel (Untitled without a title), and remove one', async () => {
    const channel = state.world.channels[0]!.channel_id;
    const created = await dataOf(
      call('/incident/create', { incident_severity: 'Info', channel_id: channel, title: ' ' }),
    );
    expect(created).toMatchObject({ title: 'Untitled incident' });
    expect(await call('/incident/create', { incident_severity: 'Info', channel_id: 1 })).toMatchObject({
      code: 'ResourceNotFound',
    });
    await call('/incident/remove', { incident_ids: [created.incident_id] });
    expect(state.world.incidents.find((i) => i.incident_id === created.incident_id)?.deleted_at).toBe(NOW_MS / 1000);
    expect(await call('/incident/info', { incident_id: created.incident_id })).toMatchObject({
      code: 'ResourceNotFound',
    });
  });

  it('list alerts of a window of at most 31 days, by page or cursor, each once', async () => {
    const window = { start_time: NOW_MS / 1000 - 30 * 86_400, end_time: NOW_MS / 1000 };
    expect(await call('/alert/list', { start_time: 10, end_time: 10 })).toEqual({
      code: 'InvalidParameter',
      key: 'endAfterStart',
    });
    expect(await call('/alert/list', { start_time: 0, end_time: 32 * 86_400 })).toEqual({
      code: 'InvalidParameter',
      key: 'window',
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await dataOf(
        call('/alert/list', { ...window, limit: 7, ...(cursor ? { search_after_ctx: cursor } : {}) }),
      );
      seen.push(...(page.items as Array<{ alert_id: string }>).map((a) => a.alert_id));
      cursor = page.search_after_ctx as string | undefined;
    } while (cursor);
    const all = [...state.world.alerts.values()].flat();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(all.filter((a) => a.start_time >= window.start_time).length);
  });

  it('list an alert’s events newest first, channels by name and page', async () => {
    const alert = [...state.world.alerts.values()].flat().find((a) => a.event_cnt > 1)!;
    const events = await dataOf(call('/alert/event/list', { alert_id: alert.alert_id }));
    const times = (events.items as Array<{ event_time: number }>).map((e) => e.event_time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await call('/alert/event/list', { alert_id: 'nope' })).toMatchObject({ code: 'ResourceNotFound' });
    const channels = await dataOf(
      call('/channel/list', { query: state.world.channels[1]!.channel_name.toUpperCase() }),
    );
    expect(channels).toMatchObject({
      total: 1,
      has_next_page: false,
      items: [{ channel_id: state.world.channels[1]!.channel_id }],
    });
    const paged = await dataOf(call('/channel/list', { limit: 2, p: 1 }));
    expect(paged).toMatchObject({ total: state.world.channels.length, has_next_page: true });
  });
});
