// Request values the contract lists (an OpenAPI enum; the comma-separated filters, such as
// incident_severity and progress, as a string or an array) are checked before anything is sent,
// naming the field and the allowed values, with the nearest one suggested; client.request leaves them
// to the server. Literal types make a misspelt value a compile error where TypeScript sees it (the
// `@ts-expect-error` lines: `npm run typecheck` fails if one compiles). And every Unix-time field of a
// request, at any depth, takes a Date, converted to the field's unit.
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../src/index.js';
import { DAY, NOW, NOW_MS, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 5 });
const client = h.client();
const ok = { start_time: NOW - DAY, end_time: NOW };

/** The error of a call that must be refused before sending, with its field and message. */
async function refused(call: () => PromiseLike<unknown>): Promise<RequestValidationError> {
  const before = h.calls.length;
  const error = await rejection(call());
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(h.calls.length).toBe(before);
  return error as RequestValidationError;
}

describe('values outside the listed ones', () => {
  it('a comma-separated filter, as a string: names the field and the values, and the nearest', async () => {
    // @ts-expect-error a misspelt severity is a compile error
    const error = await refused(() => client.listIncidents({ ...ok, incident_severity: 'Critcal' }));
    expect(error.field).toBe('incident_severity');
    expect(error.message).toBe(
      'incident_severity: expected one of "Critical", "Warning", "Info", got "Critcal" (did you mean "Critical"?)',
    );
    // @ts-expect-error a string of values is checked by type too: each must be one of the list
    const progress = await refused(() => client.listIncidents({ ...ok, progress: 'Triggered,Open' }));
    expect(progress.field).toBe('progress');
    expect(progress.message).toMatch(/"Triggered", "Processing", "Closed", got "Open"$/);
  });

  it('as an array: names the item', async () => {
    // @ts-expect-error a value outside the list is a compile error in an array too
    const error = await refused(() => client.listIncidents({ ...ok, incident_severity: ['Critical', 'Ok'] }));
    expect(error.field).toBe('incident_severity[1]');
    expect(error.message).toMatch(/expected one of "Critical", "Warning", "Info", got "Ok"/);
  });

  it('the values listed pass, in any order, as a string or an array', async () => {
    await client.listIncidents({ ...ok, incident_severity: 'Warning,Critical', progress: ['Closed', 'Triggered'] });
    expect(h.calls.at(-1)?.body).toMatchObject({ incident_severity: 'Warning,Critical', progress: 'Closed,Triggered' });
  });

  it('a filter whose description lists its values (alerts.list)', async () => {
    const error = await refused(() => client.alerts.list({ ...ok, alert_severity: ['Critical', 'Fatal'] as never }));
    expect(error.field).toBe('alert_severity[1]');
    expect(error.message).toMatch(/"Critical", "Warning", "Info", "Ok"/);
  });

  it('an OpenAPI enum: names the field and the values', async () => {
    const error = await refused(() =>
      // @ts-expect-error an enum value outside the list is a compile error
      client.incidents.create({ incident_severity: 'Critcal', title: 'db down' }),
    );
    expect(error.field).toBe('incident_severity');
    expect(error.message).toMatch(
      /expected one of "Info", "Warning", "Critical", got "Critcal" \(did you mean "Critical"\?\)/,
    );
  });

  it('client.request leaves values to the server, so that one added later can be sent', async () => {
    const before = h.calls.length;
    await client.request('/incident/list', { ...ok, incident_severity: 'Catastrophic' });
    expect(h.calls.length).toBe(before + 1);
    expect(h.calls.at(-1)?.body).toMatchObject({ incident_severity: 'Catastrophic' });
  });

  it('answers stay open: a value the service adds later reaches the caller as it is', async () => {
    const incident = h.service.world.incidents[0]!;
    const was = incident.incident_severity;
    incident.incident_severity = 'Catastrophic';
    try {
      const info = await client.incidents.info({ incident_id: incident.incident_id });
      expect(info?.incident_severity).toBe('Catastrophic');
    } finally {
      incident.incident_severity = was;
    }
  });
});

describe('a Date for every Unix-time field of a request', () => {
  const start = new Date(NOW_MS - DAY * 1000);
  const end = new Date(NOW_MS);

  it('schedules.list: start and end, in seconds', async () => {
    await client.schedules.list({ start, end });
    expect(h.calls.at(-1)?.body).toMatchObject({ start: NOW - DAY, end: NOW });
  });

  it('a field inside an object (a silence rule’s time_filter), in seconds', async () => {
    const channel = h.service.world.channels[0]!.channel_id;
    await client.channels.silenceRules.create({
      channel_id: channel,
      rule_name: 'maintenance',
      time_filter: { start_time: start, end_time: end },
      filters: [[{ key: 'severity', oper: 'IN', vals: ['Info'] }]],
    });
    expect(h.calls.at(-1)?.body).toMatchObject({ time_filter: { start_time: NOW - DAY, end_time: NOW } });
  });

  it('fields inside the items of an array (a status page change’s updates), the params unchanged', async () => {
    const { page_id } = await client.statusPages.create({
      name: 'Status',
      url_name: 'status',
      type: 'public',
      date_view: 'list',
      display_uptime_mode: 'none',
    });
    const params = {
      page_id,
      type: 'incident' as const,
      title: 'db slow',
      status: 'investigating' as const,
      start_at_seconds: start,
      updates: [
        { at_seconds: start, status: 'investigating' as const, description: 'looking' },
        { at_seconds: NOW, status: 'identified' as const, description: 'found' },
      ],
    };
    const given = structuredClone(params);
    await client.statusPages.changes.create(params);
    expect(params).toEqual(given); // the caller's params are never changed
    expect(h.calls.at(-1)?.body).toMatchObject({
      start_at_seconds: NOW - DAY,
      updates: [{ at_seconds: NOW - DAY }, { at_seconds: NOW }],
    });
    const error = await refused(() =>
      client.statusPages.changes.create({
        ...params,
        updates: [{ ...params.updates[0], at_seconds: new Date('nope') }],
      }),
    );
    expect(error.field).toBe('updates[0].at_seconds');
  });

  it('milliseconds where the field counts them (rum.data.query)', async () => {
    const queries = [{ id: 'a', sql: 'SELECT 1', format: 'time_series' as const }];
    await client.rum.data.query({ start_time: start, end_time: end, queries });
    expect(h.calls.at(-1)?.body).toMatchObject({ start_time: NOW_MS - DAY * 1000, end_time: NOW_MS });
    const error = await refused(() => client.rum.data.query({ start_time: NOW, end_time: end, queries }));
    expect(error.field).toBe('start_time');
    expect(error.message).toMatch(/looks like Unix seconds/);
  });
});
