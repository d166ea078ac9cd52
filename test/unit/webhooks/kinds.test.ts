// The default-payload reader for every kind the service sends (src/webhooks/payload.ts): incident
// events, custom actions, alert events and kinds added later; the keys each gives, the path at fault
// for each bad payload, and that the path a refusal names is always a field that was spoiled.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import type { CustomActionEvent } from '../../../src/webhooks/index.js';
import { checkPayload, isWebhookEvent, readDefaultPayload } from '../../../src/webhooks/payload.js';
import alertExample from '../../fixtures/alert-webhook.example.json' with { type: 'json' };
import customAction from '../../fixtures/custom-action.example.json' with { type: 'json' };
import incidentExample from '../../fixtures/incident-webhook.example.json' with { type: 'json' };
import { anyFieldValue } from '../../helpers.js';

const clone = <T>(value: T): T & Record<string, unknown> => structuredClone(value) as T & Record<string, unknown>;
/** The custom action with its id inside `incident`, as issue #11 reports the vendor's example. */
function idInside(): Record<string, unknown> {
  const { event_id, ...rest } = clone(customAction);
  return { ...rest, incident: { ...rest.incident, event_id } };
}

describe('readDefaultPayload', () => {
  it('reads an incident event: dedup on event_id, staleness per incident', () => {
    const result = readDefaultPayload(clone(incidentExample));
    expect(result).toEqual({
      ok: true,
      event: incidentExample,
      keys: {
        eventId: incidentExample.event_id,
        eventType: 'i_new',
        eventTime: incidentExample.event_time,
        scope: 'incident:64b1352e376e32c85c56e25b',
      },
    });
  });

  it('hands the body on as it came (no copy) when nothing needs moving', () => {
    const body = clone(incidentExample);
    const result = readDefaultPayload(body);
    expect(result.ok && result.event).toBe(body);
  });

  it('reads an alert event: alert in place of incident, staleness per alert', () => {
    const result = readDefaultPayload(clone(alertExample));
    expect(result).toMatchObject({
      ok: true,
      event: alertExample,
      keys: {
        eventId: 'ffcf1d47a8d853dc800d000c87e5568b',
        eventType: 'a_merge',
        eventTime: 1683890681639,
        scope: 'alert:645c3affd2b92d989a0bd824',
      },
    });
  });

  it.each(['a_new', 'a_update', 'a_close'])('reads %s, with or without a merged incident', (type) => {
    const { alert, ...rest } = clone(alertExample);
    const { incident: _merged, ...loose } = alert;
    const result = readDefaultPayload({ ...rest, event_type: type, alert: loose });
    expect(result.ok && result.keys).toMatchObject({ eventType: type, scope: 'alert:645c3affd2b92d989a0bd824' });
  });

  it('holds a type added later to event_id, event_type and event_time only, judged by the incident or alert it names', () => {
    const summary = { event_id: 'e1', event_type: 's_update', event_time: 1_700_000_000_000 };
    const withIncident = readDefaultPayload({
      ...summary,
      incident: { incident_id: '64b1c3e4f2a1b2c3d4e5f6a7', title: 't' },
    });
    expect(withIncident.ok && withIncident.keys.scope).toBe('incident:64b1c3e4f2a1b2c3d4e5f6a7');
    const withAlert = readDefaultPayload({
      ...summary,
      event_type: 'a_later',
      alert: { alert_id: '645c3affd2b92d989a0bd824' },
    });
    expect(withAlert.ok && withAlert.keys.scope).toBe('alert:645c3affd2b92d989a0bd824');
    const oddId = readDefaultPayload({ ...summary, incident: { incident_id: 7 } });
    expect(oddId.ok && oddId.keys.scope).toBeUndefined(); // accepted, not judged
    // Its time unchecked, it is judged only where the time reads as milliseconds, as watermarks are.
    const seconds = readDefaultPayload({ ...summary, event_time: 1_700_000_000, incident: { incident_id: 'i1' } });
    expect(seconds.ok && seconds.keys.scope).toBeUndefined();
  });

  it('reads a custom action with event_id at the top or inside incident, and always hands it over at the top', () => {
    const top = readDefaultPayload(clone(customAction));
    expect(top.ok && top.keys).toEqual({
      eventId: 'fac0599a2a25529ba2362c0c184b6cfb',
      eventType: 'i_custom',
      eventTime: 1700208013988,
      scope: undefined, // a command, never judged against its incident's newer events
    });
    const body = idInside();
    const inside = readDefaultPayload(body);
    expect(inside.ok && inside.keys).toEqual(top.ok && top.keys);
    expect(inside.ok && inside.event.event_id).toBe('fac0599a2a25529ba2362c0c184b6cfb');
    expect(inside.ok && (inside.event as CustomActionEvent).event_detail).toEqual(customAction.event_detail);
    expect(body.event_id).toBeUndefined(); // the delivered body is not changed
    expect(isWebhookEvent(body)).toBe(false); // as it came, it has no event_id at the top
    expect(checkPayload(body)).toBeUndefined(); // but it is a valid delivery
  });

  it('accepts types and kinds added later: staleness where it carries an incident or alert, none otherwise', () => {
    const incident = readDefaultPayload(buildWebhookEvent('i_future'));
    expect(incident.ok && incident.keys.scope).toMatch(/^incident:/);
    const alert = readDefaultPayload({ ...clone(alertExample), event_type: 'a_future' });
    expect(alert.ok && alert.keys.scope).toBe('alert:645c3affd2b92d989a0bd824');
    const other = { event_id: 'e1', event_type: 'x_change', event_time: 1700000000000, change: { change_id: 'c1' } };
    expect(readDefaultPayload(other)).toEqual({
      ok: true,
      event: other,
      keys: { eventId: 'e1', eventType: 'x_change', eventTime: 1700000000000, scope: undefined },
    });
    // An unknown type that carries `incident: null` is a new kind, not a broken incident event.
    expect(readDefaultPayload({ ...other, incident: null }).ok).toBe(true);
  });

  const long = 'x'.repeat(257);
  it.each([
    ['no object', () => [1], '', /expected a JSON object, got an array/],
    [
      'an incident event without event_id',
      () => ({ ...clone(incidentExample), event_id: undefined }),
      'event_id',
      /missing/,
    ],
    [
      'an event_id over 256 characters',
      () => ({ ...clone(incidentExample), event_id: long }),
      'event_id',
      /^longer than 256 characters$/,
    ],
    [
      'an incident_id over 256 characters',
      () => ({ ...clone(incidentExample), incident: { ...incidentExample.incident, incident_id: long } }),
      'incident.incident_id',
      /longer than 256/,
    ],
    [
      'an incident event carrying alert only',
      () => ({ ...clone(alertExample), event_type: 'i_new' }),
      'incident',
      /expected an object, got missing/,
    ],
    [
      'an alert event without alert',
      () => ({ ...clone(incidentExample), event_type: 'a_new' }),
      'alert',
      /expected an object, got missing/,
    ],
    [
      'an alert event with a fractional start_time',
      () => ({ ...clone(alertExample), alert: { ...alertExample.alert, start_time: 1.5 } }),
      'alert.start_time',
      /a fraction/,
    ],
    [
      'an alert event with an empty alert_id',
      () => ({ ...clone(alertExample), alert: { ...alertExample.alert, alert_id: '' } }),
      'alert.alert_id',
      /an empty string/,
    ],
    [
      'an alert_id over 256 characters',
      () => ({ ...clone(alertExample), alert: { ...alertExample.alert, alert_id: long } }),
      'alert.alert_id',
      /longer than 256/,
    ],
    [
      'an alert event with a string channel_id',
      () => ({ ...clone(alertExample), alert: { ...alertExample.alert, channel_id: '1' } }),
      'alert.channel_id',
      /a string/,
    ],
    [
      'an alert merged into a non-object',
      () => ({ ...clone(alertExample), alert: { ...alertExample.alert, incident: 'x' } }),
      'alert.incident',
      /a string/,
    ],
    ['an alert event without event_id', () => ({ ...clone(alertExample), event_id: 3 }), 'event_id', /a number/],
    [
      'a custom action with an empty id inside incident',
      () => ({ ...idInside(), incident: { ...(idInside().incident as object), event_id: '' } }),
      'incident.event_id',
      /an empty string/,
    ],
    [
      'a custom action with no id anywhere',
      () => ({ ...clone(customAction), event_id: undefined }),
      'event_id',
      /missing/,
    ],
    ['a new kind without event_id', () => ({ event_type: 'x_change', event_time: 1 }), 'event_id', /missing/],
    [
      'a new kind with event_time in seconds as a string',
      () => ({ event_id: 'e', event_type: 'x_change', event_time: '1' }),
      'event_time',
      /a string/,
    ],
    ['a person that is not an object', () => ({ ...clone(alertExample), person: 'zhangsan' }), 'person', /a string/],
  ])('refuses %s, naming the path', (_name, body, path, message) => {
    const result = readDefaultPayload(body());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.path).toBe(path);
    expect(result.problem.message).toMatch(message);
  });
});

describe('payload check (every kind)', () => {
  const topFields = ['event_id', 'event_type', 'event_time', 'incident', 'alert', 'person'] as const;
  const innerFields = [
    'event_id',
    'incident_id',
    'alert_id',
    'title',
    'incident_severity',
    'incident_status',
    'alert_severity',
    'alert_status',
    'progress',
    'channel_id',
    'created_at',
    'updated_at',
    'start_time',
    'last_time',
    'detail_url',
    'incident',
  ] as const;
  const eventType = fc.constantFrom('i_new', 'i_custom', 'a_new', 'a_merge', 'x_future', 'i_future', undefined);
  const base = fc.constantFrom(
    () => clone(incidentExample),
    () => clone(alertExample),
    () => clone(customAction),
    idInside,
    () => ({ event_id: 'e1', event_type: 'x_change', event_time: 1700000000000 }),
  );
  const mutation = fc.record({
    base,
    type: fc.option(eventType, { freq: 2 }),
    top: fc.dictionary(fc.constantFrom(...topFields), anyFieldValue, { maxKeys: 2 }),
    inner: fc.dictionary(fc.constantFrom(...innerFields), anyFieldValue, { maxKeys: 2 }),
    whole: fc.option(anyFieldValue, { freq: 10 }),
  });

  it('names a field that was spoiled (or the whole body), and reads the body exactly when it names none', () => {
    fc.assert(
      fc.property(mutation, ({ base: make, type, top, inner, whole }) => {
        const event = make();
        const kindKey = 'incident' in event && event.incident !== undefined ? 'incident' : 'alert';
        for (const key of ['incident', 'alert'] as const) {
          if (typeof event[key] === 'object' && event[key] !== null) Object.assign(event[key], inner);
        }
        if (type !== null) event.event_type = type;
        Object.assign(event, top);
        const body = whole === null ? event : whole;
        const problem = checkPayload(body);
        const read = readDefaultPayload(body);
        expect(read.ok).toBe(problem === undefined);
        if (!read.ok) expect(read.problem).toEqual(problem);
        if (problem === undefined || whole !== null || type !== null) return; // a new type may ask for another kind's fields
        const spoiled = [
          ...Object.keys(top),
          ...Object.keys(inner).map((field) => `${kindKey}.${field}`),
          'incident.event_id',
          // A custom action's id may be inside `incident`: spoiling it there leaves none at the top.
          ...('incident' in top || 'event_id' in inner ? ['event_id'] : []),
        ];
        expect(
          spoiled.some((path) => problem.path === path || problem.path.startsWith(`${path}.`)),
          problem.path,
        ).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
