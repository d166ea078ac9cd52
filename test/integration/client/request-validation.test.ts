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

  it('passes unknown params through, for filters the server adds later', async () => {
    await client.listIncidents({ ...ok, future_filter: 'x' } as ListIncidentsParams);
    expect(h.calls.at(-1)?.body).toMatchObject({ future_filter: 'x' });
  });
});
