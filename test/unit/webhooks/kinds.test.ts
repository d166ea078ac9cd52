// The default-payload reader for every kind the service sends: incident events, custom actions,
// alert events and kinds added later; the keys each gives, the path at fault for each bad payload,
// and the fast check agreeing with the tables that explain failures.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import type { CustomActionEvent } from '../../../src/webhooks/index.js';
import { loadingReader, readDefaultPayload, readDelivery } from '../../../src/webhooks/kinds.js';
import { isValidFast, isWebhookEvent } from '../../../src/webhooks/payload.js';
import { checkPayload, findProblem } from '../../../src/webhooks/payload-problems.js';
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

  it('reads a custom action with event_id at the top or inside incident, and always hands it over at the top', () => {
    const top = readDefaultPayload(clone(customAction));
    expect(top.ok && top.keys).toEqual({
      eventId: 'fac0599a2a25529ba2362c0c184b6cfb',
      eventType: 'i_custom',
      eventTime: 1700208013988,
      scope: 'incident:6551f3888713372ad1054d57',
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

  it('has a fast path that agrees with the tables it explains failures by, for every kind', () => {
    fc.assert(
      fc.property(mutation, ({ base: make, type, top, inner, whole }) => {
        const event = make();
        for (const key of ['incident', 'alert'] as const) {
          if (typeof event[key] === 'object' && event[key] !== null) Object.assign(event[key], inner);
        }
        if (type !== null) event.event_type = type;
        Object.assign(event, top);
        const body = whole === null ? event : whole;
        const problem = findProblem(body);
        expect(isValidFast(body)).toBe(problem === undefined);
        expect(readDefaultPayload(body).ok).toBe(problem === undefined);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the readers the receiver runs (their code loaded on first use)', () => {
  it('readDelivery: a valid body at once, as readDefaultPayload reads it; an invalid one explained once its code loaded, at once after that', async () => {
    const valid = clone(incidentExample);
    const read = readDelivery(valid);
    expect(read).not.toBeInstanceOf(Promise);
    expect(read).toEqual(readDefaultPayload(valid));
    const invalid = { ...clone(incidentExample), event_time: 'soon' };
    // The first invalid body in this worker waits for the explanations' code; any later one has it at once.
    expect(await readDelivery(invalid)).toEqual(readDefaultPayload(invalid));
    const again = readDelivery(invalid);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ ok: false, problem: { path: 'event_time' } });
  });

  it('loadingReader: deliveries before the load wait for it, later ones are read at once', async () => {
    let loaded!: (reader: typeof readDefaultPayload) => void;
    const reader = loadingReader(() => new Promise((resolve) => (loaded = resolve)));
    const early = reader(clone(incidentExample));
    expect(early).toBeInstanceOf(Promise);
    loaded(readDefaultPayload);
    expect(await early).toMatchObject({ ok: true, keys: { eventId: incidentExample.event_id } });
    const late = reader(clone(incidentExample));
    expect(late).not.toBeInstanceOf(Promise);
    expect(late).toMatchObject({ ok: true });
  });

  it('loadingReader: a load that fails rejects the deliveries that wait on it (the receiver answers them 503), is no unhandled rejection, and is tried again by the next delivery', async () => {
    const failure = new Error('chunk missing');
    let loads = 0;
    const reader = loadingReader(() => (++loads === 1 ? Promise.reject(failure) : Promise.resolve(readDefaultPayload)));
    for (let turn = 0; turn < 5; turn++) await Promise.resolve(); // the first load failed meanwhile, nothing awaiting it
    expect(loads).toBe(1);
    await expect(reader(clone(incidentExample))).resolves.toMatchObject({ ok: true });
    expect(loads).toBe(2);
    expect(reader(clone(incidentExample))).toMatchObject({ ok: true }); // loaded: read at once
    const failing = loadingReader(() => Promise.reject(failure));
    await expect(failing(clone(incidentExample))).rejects.toBe(failure);
  });
});
