import { describe, expect, it } from 'vitest';
import { type ListIncidentsParams, RequestValidationError } from '../../../src/index.js';
import { DAY, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 5 });
const client = h.client();
const ok = { start_time: NOW - DAY, end_time: NOW };

describe('local validation: refused before anything is sent', () => {
  const cases: Array<[string, unknown, string]> = [
    ['missing window', {}, 'start_time'],
    ['missing end', { start_time: NOW }, 'end_time'],
    ['null start', { start_time: null, end_time: NOW }, 'start_time'],
    ['end equal to start', { start_time: NOW, end_time: NOW }, 'end_time'],
    ['end before start', { start_time: NOW, end_time: NOW - 1 }, 'end_time'],
    ['fractional seconds', { ...ok, start_time: NOW - 0.5 }, 'start_time'],
    ['milliseconds by mistake', { start_time: (NOW - DAY) * 1000, end_time: NOW * 1000 }, 'start_time'],
    ['invalid Date', { ...ok, end_time: new Date('nope') }, 'end_time'],
    ['string time', { ...ok, start_time: '1700000000' }, 'start_time'],
    ['limit over 100', { ...ok, limit: 101 }, 'limit'],
    ['negative limit', { ...ok, limit: -1 }, 'limit'],
    ['fractional limit', { ...ok, limit: 2.5 }, 'limit'],
    ['negative p', { ...ok, p: -1 }, 'p'],
    ['p × limit over 10000', { ...ok, p: 101, limit: 100 }, 'p'],
    ['p × default limit over 10000', { ...ok, p: 501 }, 'p'],
    [
      'incident id of the wrong shape',
      { ...ok, incident_ids: ['64b1352e376e32c85c56e25b', 'nope'] },
      'incident_ids[1]',
    ],
    ['empty num', { ...ok, nums: [''] }, 'nums[0]'],
    ['negative channel id', { ...ok, channel_ids: [-1] }, 'channel_ids[0]'],
    ['channel ids not an array', { ...ok, channel_ids: 5 }, 'channel_ids'],
    ['string member id', { ...ok, responder_ids: ['12'] }, 'responder_ids[0]'],
    ['boolean filter as string', { ...ok, asc: 'true' }, 'asc'],
    ['query not a string', { ...ok, query: 5 }, 'query'],
    ['progress with an empty value', { ...ok, progress: 'Triggered,' }, 'progress'],
    ['severity array with a comma inside', { ...ok, incident_severity: ['Critical,Warning'] }, 'incident_severity[0]'],
    ['empty cursor', { ...ok, search_after_ctx: '' }, 'search_after_ctx'],
    ['params not an object', null, 'params'],
  ];

  it.each(cases)('%s', async (_name, params, field) => {
    const before = h.calls.length;
    const error = await rejection(client.listIncidents(params as ListIncidentsParams));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(field);
    expect((error as Error).message.startsWith(`${field}: `)).toBe(true);
    // Iterating fails the same way, also before sending.
    const iterated = await rejection(
      (async () => {
        for await (const _ of client.listIncidents(params as ListIncidentsParams)) break;
      })(),
    );
    expect(iterated).toBeInstanceOf(RequestValidationError);
    expect(h.calls.length).toBe(before);
  });

  it.each([
    ['enableA2AAgent', ''],
    ['enableA2AAgent', '   '],
    ['enableA2AAgent', ' a2a_demo'],
    ['deleteSkill', ''],
    ['deleteSkill', undefined],
    ['deleteSkill', 42],
  ] as const)('%s(%j)', async (method, id) => {
    const before = h.calls.length;
    const error = await rejection(client[method](id as string));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(method === 'deleteSkill' ? 'skillId' : 'agentId');
    expect(h.calls.length).toBe(before);
  });

  it('refuses one request over 31 days, but iterates it in windows', async () => {
    const long = { start_time: NOW - 31 * DAY - 1, end_time: NOW };
    const before = h.calls.length;
    const error = await rejection(client.listIncidents(long));
    expect((error as RequestValidationError).field).toBe('end_time');
    expect(h.calls.length).toBe(before);
    for await (const _ of client.listIncidents(long)) break;
    expect(h.calls.length).toBe(before + 1);
  });

  it('accepts the edges: 31 days exactly, limit 0 and 100, p 0, p × limit = 10000', async () => {
    for (const params of [
      { start_time: NOW - 31 * DAY, end_time: NOW },
      { ...ok, limit: 0 },
      { ...ok, limit: 100, p: 100 },
      { ...ok, p: 0 },
      { ...ok, p: 500 },
    ]) {
      await expect(client.listIncidents(params)).resolves.toBeDefined();
    }
  });
});

describe('a param the request schema does not name', () => {
  const id = '64b1352e376e32c85c56e25b';

  it('is refused with the one meant, nothing sent (a misspelt filter would return every severity)', async () => {
    const params = { ...ok, incident_severty: 'Critical' } as ListIncidentsParams;
    const before = h.calls.length;
    const iterate = async () => {
      for await (const _ of client.listIncidents(params)) break;
    };
    for (const call of [() => client.incidents.list(params), () => client.listIncidents(params), iterate]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('incident_severty');
      expect((error as Error).message).toBe(
        'incident_severty: not a field of this request (did you mean incident_severity?)',
      );
    }
    expect(h.calls.length).toBe(before);
  });

  it('is refused at any depth where the schema lists properties', async () => {
    const before = h.calls.length;
    const misspelt = { incident_ids: [id], assigned_to: { person_id: [1] } };
    const nested = await rejection(client.incidents.assign(misspelt as never));
    expect((nested as RequestValidationError).field).toBe('assigned_to.person_id');
    expect((nested as Error).message).toMatch(/did you mean person_ids\?/);
    const rule = { channel_id: 1, rule_name: 'quiet', filters: [[{ key: 'k', oper: 'IN', vals: ['v'], op: 1 }]] };
    const inArrays = await rejection(client.channels.silenceRules.create(rule as never));
    expect((inArrays as RequestValidationError).field).toBe('filters[0][0].op');
    expect(h.calls.length).toBe(before);
  });

  it('stays accepted where the SDK takes it: Dates, arrays of a comma-separated filter, path parameters', async () => {
    const since = new Date((NOW - DAY) * 1000);
    await client.listIncidents({ start_time: since, end_time: new Date(NOW * 1000), progress: ['Triggered'] });
    expect(h.calls.at(-1)?.body).toMatchObject({ start_time: NOW - DAY, progress: 'Triggered' });
    const window = { start_time: new Date((NOW - 60) * 1000), end_time: new Date(NOW * 1000) };
    const channel = h.service.world.channels[0]!.channel_id; // a rule names a channel that exists
    await client.channels.silenceRules.create({ channel_id: channel, rule_name: 'quiet', time_filter: window });
    expect(h.calls.at(-1)?.body).toMatchObject({ time_filter: { start_time: NOW - 60, end_time: NOW } });
    // The path parameter and the body's fields, listed by two parts of the schema (allOf).
    const trigger = h.service.automations.createTrigger();
    await client.automations.triggers.fire({ trigger_id: trigger.trigger_id, text: 'hi' }, { token: trigger.token });
    expect(h.calls.at(-1)?.body).toEqual({ text: 'hi' });
  });

  it('stays accepted where the contract lists it: an incident’s assigned_to sent back', async () => {
    const [incident] = (await client.listIncidents(ok)).items;
    // Its type is open (answers may carry a type the SDK does not know), the requests' closed: a cast.
    const assignedTo = { ...incident!.assigned_to, person_ids: [h.service.personId] } as { type?: 'assign' };
    await client.incidents.assign({ incident_ids: [incident!.incident_id], assigned_to: assignedTo });
    expect(h.calls.at(-1)?.body).toMatchObject({ assigned_to: { assigned_at: incident!.assigned_to.assigned_at } });
    await client.incidents.create({ incident_severity: 'Info', title: 'follow-up', assigned_to: assignedTo });
    expect(h.calls.at(-1)?.body).toMatchObject({ assigned_to: { assigned_at: incident!.assigned_to.assigned_at } });
  });

  it('is sent by client.request, the way to send a field the SDK does not know yet', async () => {
    await client.request('/incident/list', { ...ok, future_filter: 'x' } as never);
    expect(h.calls.at(-1)?.body).toMatchObject({ future_filter: 'x' });
  });
});
