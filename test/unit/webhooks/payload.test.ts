// The default payload's rules (src/webhooks/payload.ts): what an id is (non-empty, at most 256
// UTF-16 units, well-formed Unicode, no U+FFFD), what event_time is (an integer in milliseconds,
// MIN_EVENT_TIME_MS and up: a value plainly in seconds is refused), what each field check takes
// (seen through the field it judges), which event types are the service's, the kind a body claims,
// and the verdict on a delivery field by field for each kind. Where each problem points is
// kinds.test.ts'.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import {
  checkPayload,
  ID_EXPECTED,
  isId,
  isServiceEventType,
  isWebhookEvent,
  kindOf,
  MAX_ID_LENGTH,
  MIN_EVENT_TIME_MS,
} from '../../../src/webhooks/payload.js';
import { ALERT_EVENT_TYPES, INCIDENT_EVENT_TYPES } from '../../../src/webhooks/types.js';
import alertExample from '../../fixtures/alert-webhook.example.json' with { type: 'json' };
import customAction from '../../fixtures/custom-action.example.json' with { type: 'json' };
import incidentExample from '../../fixtures/incident-webhook.example.json' with { type: 'json' };

type Body = Record<string, unknown> & { incident?: Record<string, unknown>; alert?: Record<string, unknown> };
const clone = (value: object): Body => structuredClone(value) as Body;
/** The custom action as issue #11 reports the vendor's example: its event_id inside `incident`. */
function idInside(): Body {
  const { event_id, ...rest } = clone(customAction);
  return { ...rest, incident: { ...rest.incident, event_id } };
}
/** A kind the SDK does not know yet: the common fields only. */
const newKind = (): Body => ({ event_id: 'e1', event_type: 'x_change', event_time: 1_700_000_000_000 });
/** The kind of a valid delivery; undefined for an invalid one. */
const validKind = (body: unknown) => (checkPayload(body) === undefined ? kindOf(body as Body) : undefined);
const isValid = (body: unknown) => checkPayload(body) === undefined;
/** The field checks, each seen through a field it judges in an otherwise valid incident event. */
const withIncident = (change: Record<string, unknown>) => {
  const body = clone(incidentExample);
  return isValid({ ...body, incident: { ...body.incident, ...change } });
};
const isMilliseconds = (v: unknown) => isValid({ ...clone(incidentExample), event_time: v });
const isInteger = (v: unknown) => withIncident({ created_at: v });
const isString = (v: unknown) => withIncident({ title: v });
const isNonEmptyString = (v: unknown) => withIncident({ incident_severity: v });
const isOptionalObject = (v: unknown) => isValid({ ...clone(incidentExample), person: v });

describe('the limits', () => {
  it('are the documented ones: ids of at most 256, event_time in ms from 10^11 (March 1973)', () => {
    expect(MAX_ID_LENGTH).toBe(256);
    expect(ID_EXPECTED).toBe(`a non-empty string of at most ${MAX_ID_LENGTH} characters`);
    expect(MIN_EVENT_TIME_MS).toBe(1e11);
    expect(new Date(MIN_EVENT_TIME_MS).toISOString()).toBe('1973-03-03T09:46:40.000Z');
    // The same number read as seconds is far in the future: no real event_time in seconds reaches it.
    expect(new Date(MIN_EVENT_TIME_MS * 1000).getUTCFullYear()).toBe(5138);
  });
});

describe('isId', () => {
  it('takes the documented ids and any non-empty well-formed string up to 256 units', () => {
    for (const id of [
      incidentExample.event_id,
      incidentExample.incident.incident_id,
      alertExample.alert.alert_id,
      'e',
      ' ',
      'x'.repeat(MAX_ID_LENGTH),
      'e\uD83D\uDE00', // a surrogate pair is one well-formed character
      '事件-1',
    ])
      expect(isId(id), JSON.stringify(id)).toBe(true);
  });

  it('counts UTF-16 units: 128 characters outside the BMP are 256, one more is too long', () => {
    expect(isId('\uD83D\uDE00'.repeat(128))).toBe(true);
    expect(isId('\uD83D\uDE00'.repeat(129))).toBe(false);
    expect(isId('x'.repeat(MAX_ID_LENGTH + 1))).toBe(false);
  });

  it('refuses lone surrogates anywhere, a pair in the wrong order, and U+FFFD (bytes lost in decoding)', () => {
    for (const id of ['\uD800', 'e\uD800', '\uDC00e', 'a\uDBFFb', '\uDE00\uD83D', 'e\uFFFD', '\uFFFD'])
      expect(isId(id), JSON.stringify(id)).toBe(false);
  });

  it('refuses what is not a string, and the empty string', () => {
    for (const value of ['', undefined, null, 0, 123, true, ['e'], { id: 'e' }, new String('e'), Symbol('e')])
      expect(isId(value)).toBe(false);
  });

  it('takes every well-formed string of 1 to 256 units without U+FFFD, none with a lone surrogate put in (property)', () => {
    // Whole characters (code points), so that a surrogate put between two of them stays lone.
    const character = fc
      .integer({ min: 0, max: 0x10ffff })
      .filter((code) => (code < 0xd800 || code > 0xdfff) && code !== 0xfffd)
      .map((code) => String.fromCodePoint(code));
    const characters = fc.array(character, { minLength: 1, maxLength: 100 });
    const lone = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(characters, lone, fc.nat(), (chars, surrogate, at) => {
        expect(isId(chars.join(''))).toBe(true);
        const i = at % (chars.length + 1);
        expect(isId([...chars.slice(0, i), surrogate, ...chars.slice(i)].join(''))).toBe(false);
        expect(isId([...chars.slice(0, i), '\uFFFD', ...chars.slice(i)].join(''))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isMilliseconds', () => {
  it('takes integers from MIN_EVENT_TIME_MS on, refuses one below (seconds)', () => {
    expect(isMilliseconds(MIN_EVENT_TIME_MS)).toBe(true);
    expect(isMilliseconds(MIN_EVENT_TIME_MS - 1)).toBe(false);
    expect(isMilliseconds(incidentExample.event_time)).toBe(true);
    expect(isMilliseconds(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('refuses now in seconds, takes now in milliseconds', () => {
    const ms = Date.now();
    expect(isMilliseconds(ms)).toBe(true);
    expect(isMilliseconds(Math.floor(ms / 1000))).toBe(false);
    expect(isMilliseconds(Math.floor(incidentExample.event_time / 1000))).toBe(false);
  });

  it('refuses what is not a safe integer, whatever its size', () => {
    for (const value of [
      1_700_000_000_000.5,
      String(incidentExample.event_time),
      Number.MAX_SAFE_INTEGER + 1,
      Infinity,
      NaN,
      -1_700_000_000_000,
      null,
      undefined,
      BigInt(incidentExample.event_time),
    ])
      expect(isMilliseconds(value), String(value)).toBe(false);
  });
});

describe('the field checks', () => {
  it('isInteger: safe integers only', () => {
    for (const value of [0, -0, -5, 42, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])
      expect(isInteger(value)).toBe(true);
    for (const value of [1.5, '1', 2 ** 53, -(2 ** 53), NaN, Infinity, null, undefined, 1n])
      expect(isInteger(value), String(value)).toBe(false);
  });

  it('isNonEmptyString and isString: the empty string is a string, not a non-empty one', () => {
    expect(isString('')).toBe(true);
    expect(isNonEmptyString('')).toBe(false);
    expect(isString('x') && isNonEmptyString('x')).toBe(true);
    for (const value of [undefined, null, 1, ['x'], { x: 1 }, new String('x')]) {
      expect(isString(value)).toBe(false);
      expect(isNonEmptyString(value)).toBe(false);
    }
  });

  it('isOptionalObject: absent, null or a JSON object; not an array or a scalar', () => {
    for (const value of [undefined, null, {}, { person_id: 1 }]) expect(isOptionalObject(value)).toBe(true);
    for (const value of [[], [{}], 'x', 0, false]) expect(isOptionalObject(value)).toBe(false);
  });
});

describe('isServiceEventType', () => {
  it('knows every incident and alert type of the service', () => {
    for (const type of [...INCIDENT_EVENT_TYPES, ...ALERT_EVENT_TYPES])
      expect(isServiceEventType(type), type).toBe(true);
  });

  it('knows no other value: types added later, near misses, names of the prototype, non-strings', () => {
    for (const value of [
      'i_future',
      'a_future',
      'x_change',
      '',
      'I_NEW',
      ' i_new',
      'i_new ',
      'a_',
      'toString',
      'constructor',
      'has',
      undefined,
      null,
      1,
      ['i_new'],
    ])
      expect(isServiceEventType(value), String(value)).toBe(false);
  });
});

describe('kindOf', () => {
  it('follows the type for the known ones, whatever the body carries', () => {
    expect(kindOf(clone(incidentExample))).toBe('incident');
    expect(kindOf(clone(alertExample))).toBe('alert');
    expect(kindOf({ event_type: 'a_new', incident: {} })).toBe('alert');
    expect(kindOf({ event_type: 'i_ack', alert: {} })).toBe('incident');
    expect(kindOf({ event_type: 'i_custom' })).toBe('incident');
  });

  it('judges an unknown type by what it carries: incident, else alert, else other', () => {
    expect(kindOf({ event_type: 'x_future', incident: {}, alert: {} })).toBe('incident');
    expect(kindOf({ event_type: 'x_future', alert: {} })).toBe('alert');
    expect(kindOf({ event_type: 'x_future', incident: null, alert: {} })).toBe('alert');
    expect(kindOf({ event_type: 'x_future', incident: [], alert: [] })).toBe('other');
    expect(kindOf({ event_type: 'x_future', incident: 'x' })).toBe('other');
    expect(kindOf({ incident: {} })).toBe('incident'); // no type at all: by what it carries too
    expect(kindOf({})).toBe('other');
  });
});

describe('checkPayload: the verdict, kind by kind', () => {
  it('gives the kind of each documented delivery', () => {
    expect(validKind(clone(incidentExample))).toBe('incident');
    expect(validKind(clone(alertExample))).toBe('alert');
    expect(validKind(clone(customAction))).toBe('incident');
    expect(validKind(idInside())).toBe('incident');
    expect(validKind(newKind())).toBe('other');
    expect(validKind({ ...newKind(), incident: null, alert: null })).toBe('other');
  });

  it.each(INCIDENT_EVENT_TYPES)('takes %s as buildWebhookEvent makes it', (type) => {
    expect(validKind(buildWebhookEvent(type))).toBe('incident');
  });

  it('takes an incident type added later, carrying an incident', () => {
    expect(validKind(buildWebhookEvent('i_future'))).toBe('incident');
  });

  it.each([null, undefined, [], [clone(incidentExample)], 'x', 1, true])(
    'refuses %j, which is no JSON object',
    (body) => {
      expect(validKind(body)).toBeUndefined();
    },
  );

  it.each([
    ['event_type missing', { event_type: undefined }],
    ['event_type empty', { event_type: '' }],
    ['event_type not a string', { event_type: 1 }],
    ['event_time missing', { event_time: undefined }],
    ['event_time fractional', { event_time: 1_700_000_000_000.5 }],
    ['event_time a string', { event_time: '1700000000000' }],
    ['person a string', { person: 'zhangsan' }],
    ['person an array', { person: [] }],
    ['event_id missing', { event_id: undefined }],
    ['event_id empty', { event_id: '' }],
    ['event_id not a string', { event_id: 1 }],
    ['event_id with a lone surrogate', { event_id: 'e\uD800' }],
    ['event_id too long', { event_id: 'x'.repeat(257) }],
  ])('refuses every kind with %s', (_name, change) => {
    for (const make of [() => clone(incidentExample), () => clone(alertExample), newKind])
      expect(validKind({ ...make(), ...change })).toBeUndefined();
  });

  it('takes person absent or null, on every kind', () => {
    for (const make of [() => clone(incidentExample), () => clone(alertExample), newKind]) {
      expect(validKind({ ...make(), person: null })).toBeDefined();
      expect(validKind({ ...make(), person: undefined })).toBeDefined();
    }
  });

  it('refuses an incident or alert event_time plainly in seconds, and asks only an integer of a new kind', () => {
    for (const make of [() => clone(incidentExample), () => clone(alertExample), idInside]) {
      expect(validKind({ ...make(), event_time: MIN_EVENT_TIME_MS - 1 })).toBeUndefined();
      expect(validKind({ ...make(), event_time: Math.floor(Date.now() / 1000) })).toBeUndefined();
      expect(validKind({ ...make(), event_time: MIN_EVENT_TIME_MS })).toBeDefined();
    }
    expect(validKind({ ...newKind(), event_time: 1_700_000_000 })).toBe('other');
    expect(validKind({ ...newKind(), event_time: 0 })).toBe('other');
  });

  it('reads event_id inside incident only when there is none at the top', () => {
    const inside = idInside();
    expect(validKind({ ...inside, incident: { ...inside.incident, event_id: 'e\uD800' } })).toBeUndefined();
    expect(validKind({ ...inside, incident: { ...inside.incident, event_id: '' } })).toBeUndefined();
    // With one at the top, that one is judged (and one inside does not save a bad one at the top).
    expect(validKind({ ...inside, event_id: 'top', incident: { ...inside.incident, event_id: 'e\uD800' } })).toBe(
      'incident',
    );
    expect(validKind({ ...inside, event_id: '' })).toBeUndefined();
    expect(validKind({ ...inside, event_id: null })).toBeUndefined();
    // An alert event does not look inside anything for its id.
    const { event_id, ...alert } = clone(alertExample);
    expect(validKind({ ...alert, alert: { ...alert.alert, event_id } })).toBeUndefined();
  });

  const incidentFields: [string, unknown][] = [
    ['incident_id', 'e\uD800'],
    ['incident_id', ''],
    ['incident_id', 'x'.repeat(257)],
    ['title', undefined],
    ['title', 1],
    ['incident_severity', ''],
    ['incident_status', undefined],
    ['progress', ''],
    ['created_at', 1.5],
    ['updated_at', '1'],
    ['start_time', undefined],
    ['detail_url', undefined],
    ['detail_url', null],
  ];
  it.each(incidentFields)('refuses an incident with incident.%s %j', (field, value) => {
    const body = clone(incidentExample);
    expect(validKind({ ...body, incident: { ...body.incident, [field]: value } })).toBeUndefined();
  });

  it('refuses an incident event without an incident object, and takes an empty title and detail_url', () => {
    for (const incident of [undefined, null, [], 'x'])
      expect(validKind({ ...clone(incidentExample), incident })).toBeUndefined();
    const body = clone(incidentExample);
    expect(validKind({ ...body, incident: { ...body.incident, title: '', detail_url: '' } })).toBe('incident');
  });

  const alertFields: [string, unknown][] = [
    ['alert_id', 'e\uFFFD'],
    ['alert_id', undefined],
    ['alert_id', 'x'.repeat(257)],
    ['title', null],
    ['alert_severity', ''],
    ['alert_status', 1],
    ['progress', undefined],
    ['channel_id', '1'],
    ['created_at', undefined],
    ['updated_at', 1.5],
    ['start_time', null],
    ['last_time', undefined],
    ['incident', 'x'],
    ['incident', []],
  ];
  it.each(alertFields)('refuses an alert with alert.%s %j', (field, value) => {
    const body = clone(alertExample);
    expect(validKind({ ...body, alert: { ...body.alert, [field]: value } })).toBeUndefined();
  });

  it('refuses an alert event without an alert object, and takes one merged into no incident', () => {
    for (const alert of [undefined, null, [], 'x'])
      expect(validKind({ ...clone(alertExample), alert })).toBeUndefined();
    const body = clone(alertExample);
    for (const incident of [undefined, null])
      expect(validKind({ ...body, alert: { ...body.alert, incident } })).toBe('alert');
  });

  it('keeps anything else as it came: unknown fields never make a delivery invalid', () => {
    const body = { ...clone(incidentExample), extra: { nested: [1] }, event_detail: 'x' };
    expect(validKind({ ...body, incident: { ...body.incident, labels: 'not an object', future: 1 } })).toBe('incident');
    expect(validKind({ ...newKind(), change: { change_id: 1 } })).toBe('other');
  });
});

describe('isWebhookEvent', () => {
  it('isWebhookEvent: a valid delivery with its event_id at the top, as it came', () => {
    expect(isWebhookEvent(clone(incidentExample))).toBe(true);
    expect(isWebhookEvent(clone(alertExample))).toBe(true);
    expect(isWebhookEvent(clone(customAction))).toBe(true);
    expect(isWebhookEvent(newKind())).toBe(true);
    const inside = idInside();
    expect(isValid(inside)).toBe(true); // valid for the receiver, which moves the id to the top
    expect(isWebhookEvent(inside)).toBe(false);
    expect(isWebhookEvent({ ...clone(incidentExample), event_time: 1_689_335_086 })).toBe(false);
    expect(isWebhookEvent(null)).toBe(false);
  });
});
