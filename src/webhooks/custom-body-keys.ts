// Reading a custom-body delivery's keys: each from the place the template put its variable (found
// at construction, custom-body.ts), with value mapping undone.

import type { Slot, SlotProblem } from './custom-body.js';
import {
  type DeliveryKeys,
  ID_EXPECTED,
  isId,
  isJudgedByTime,
  MIN_EVENT_TIME_MS,
  type PayloadReader,
} from './payload.js';
import { CustomBodyEvent } from './types.js';

/** @internal The variables the receiver reads keys from. */
export const KEY_VARIABLES = [
  'event_id',
  'event_time',
  'event_type',
  'incident.incident_id',
  'alert.alert_id',
] as const;
/** @internal One of {@link KEY_VARIABLES}. */
export type KeyVariable = (typeof KEY_VARIABLES)[number];

/** The keys a delivery holds, by the template's variables. */
export interface FoundKeys {
  event_id?: string;
  event_time?: number;
  event_type?: string;
  incident_id?: string;
  alert_id?: string;
}

/** @internal A dotted place for messages; empty for the whole body. */
export const where = (location: readonly string[]): string => location.join('.');

/** @internal The reader of deliveries whose keys sit in `slots` (from custom-body.ts' `checkCustomBody`). */
export function readerOf(slots: Partial<Record<KeyVariable, Slot>>): PayloadReader<CustomBodyEvent> {
  const keys = KEY_VARIABLES.filter((key) => slots[key]);
  return (body) => {
    const keysRead = readKeys(body, slots, keys);
    if ('problem' in keysRead) return { ok: false, problem: keysRead.problem };
    const found: FoundKeys = keysRead.found;
    const id =
      found.incident_id !== undefined
        ? `incident:${found.incident_id}`
        : found.alert_id !== undefined
          ? `alert:${found.alert_id}`
          : undefined;
    const event = new CustomBodyEvent(
      {
        // Without dedup each delivery is its own: a fresh key never matches another.
        event_id: found.event_id ?? `no-dedup:${crypto.randomUUID()}`,
        event_time: found.event_time ?? Date.now(),
        event_type: found.event_type ?? '',
        incident_id: found.incident_id,
        alert_id: found.alert_id,
      },
      body,
    );
    const deliveryKeys: DeliveryKeys = {
      eventId: event.event_id,
      eventType: event.event_type,
      eventTime: event.event_time,
      scope: found.event_time === undefined || !isJudgedByTime(found.event_type) ? undefined : id,
    };
    return { ok: true, event, keys: deliveryKeys };
  };
}

/** The keys `body` holds at `slots`, or the first one it does not hold readably. */
function readKeys(
  body: unknown,
  slots: Partial<Record<KeyVariable, Slot>>,
  keys: readonly KeyVariable[],
): { found: FoundKeys } | { problem: SlotProblem } {
  const found: FoundKeys = {};
  for (const key of keys) {
    const read = readKey(body, slots, key);
    if ('problem' in read) return read;
    if (read.value === undefined) continue;
    if (key === 'event_time') found.event_time = read.value as number;
    else if (key === 'incident.incident_id') found.incident_id = read.value as string;
    else if (key === 'alert.alert_id') found.alert_id = read.value as string;
    else found[key] = read.value as string;
  }
  return { found };
}

const NOT_FILLED = Symbol('not filled');
type Read = { value: unknown } | { problem: SlotProblem } | typeof NOT_FILLED;

/** The value a slot holds in a delivered body, mapping undone. */
function readSlot(body: unknown, slot: Slot): Read {
  let value = body;
  for (let i = 0; i < slot.location.length; i++) {
    const segment = slot.location[i] as string;
    const next =
      typeof value === 'object' && value !== null && Object.hasOwn(value, segment)
        ? (value as Record<string, unknown>)[segment]
        : undefined;
    if (next === undefined) {
      const at = where(slot.location.slice(0, i + 1));
      return {
        problem: {
          path: at,
          message: `missing: the template puts {{${slot.variable}}} at ${where(slot.location) || 'the top'}`,
        },
      };
    }
    value = next;
  }
  if (slot.whole) {
    if (value === slot.written) return NOT_FILLED;
    return { value: slot.inverse?.get(JSON.stringify(value)) ?? value };
  }
  const [prefix, suffix] = slot.around as [string, string];
  if (
    typeof value !== 'string' ||
    value.length < prefix.length + suffix.length ||
    !value.startsWith(prefix) ||
    !value.endsWith(suffix)
  ) {
    return {
      problem: {
        path: where(slot.location),
        message: `expected the template's text ${JSON.stringify(slot.written)} with {{${slot.variable}}} filled in`,
      },
    };
  }
  const text = value.slice(prefix.length, value.length - suffix.length);
  if (text === slot.token) return NOT_FILLED;
  return { value: slot.inverse?.get(text) ?? text };
}

type Convert = (value: unknown, whole: boolean) => string | number | undefined;
const asId: Convert = (v) => (isId(v) ? v : undefined);
const CONVERT: Record<KeyVariable, [Convert, string]> = {
  event_id: [asId, ID_EXPECTED],
  event_type: [(v) => (typeof v === 'string' && v !== '' ? v : undefined), 'a non-empty string'],
  event_time: [
    (v, whole) => {
      const time = whole ? v : typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : undefined;
      return Number.isSafeInteger(time) && (time as number) >= MIN_EVENT_TIME_MS ? (time as number) : undefined;
    },
    'Unix milliseconds',
  ],
  'incident.incident_id': [asId, ID_EXPECTED],
  'alert.alert_id': [asId, ID_EXPECTED],
};

/** A key's value, `undefined` when the template has no slot for it or (ids only) it came unfilled. */
function readKey(
  body: unknown,
  slots: Partial<Record<KeyVariable, Slot>>,
  key: KeyVariable,
): { value: string | number | undefined } | { problem: SlotProblem } {
  let slot = slots[key];
  if (!slot) return { value: undefined };
  let read = readSlot(body, slot);
  if (read === NOT_FILLED && slot.otherwise) {
    const other = readSlot(body, slot.otherwise);
    if (other !== NOT_FILLED) [slot, read] = [slot.otherwise, other];
  }
  if (read === NOT_FILLED) {
    // An id the payload did not have (an alert event through a template with {{incident.incident_id}}):
    // no staleness for it. The other keys are always in the payload.
    if (key === 'incident.incident_id' || key === 'alert.alert_id') return { value: undefined };
    return { problem: { path: where(slot.location), message: `{{${key}}} came unfilled` } };
  }
  if ('problem' in read) return read;
  const [convert, expected] = CONVERT[key];
  const value = convert(read.value, slot.whole);
  if (value === undefined) {
    // Named by its type only: answers are kept in the sender's delivery history, so none quotes the body.
    return {
      problem: {
        path: where(slot.location),
        message: `expected {{${key}}}: ${expected}, got ${typeOf(read.value, key)}`,
      },
    };
  }
  return { value };
}

/** A delivered value's kind, in words that quote none of it. */
function typeOf(value: unknown, key: KeyVariable): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number')
    return key === 'event_time' && Number.isSafeInteger(value) ? 'an integer out of range' : 'a number';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string of another form';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
