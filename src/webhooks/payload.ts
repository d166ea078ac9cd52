// What makes a delivery of the default payload valid, for each kind the service sends: the
// required fields with their types. Everything else is optional and kept exactly as it came.
//
// The kind follows the event type: alert types (`a_*`) carry `alert`, the spec's incident types
// carry `incident`. A type this SDK does not know is judged by what it carries (`incident`, else
// `alert`, else only the common fields), so a new type or kind is never refused for being new.
// `event_id` sits at the top, or (custom actions) inside `incident`. Ids are at most 256 characters.
//
// Hand-written, because it runs on every delivery: a fast check with plain property loads, and
// tables that only explain a failure. A property test keeps the two in agreement.

import type { Problem } from '../core/problem.js';
import { ALERT_EVENT_TYPES, INCIDENT_EVENT_TYPES, type WebhookEvent } from './types.js';
import { isObject } from '../internal/guards.js';

/**
 * Where a delivery breaks the payload contract.
 *
 * @deprecated The same as {@link Problem}; use that name.
 */
export type PayloadProblem = Problem;

/** Longest id accepted (`event_id`, `incident_id`, `alert_id`): the documented ones are 24 or 32 characters. */
export const MAX_ID_LENGTH = 256;

/** Which payload a delivery is: what carries its staleness scope. */
export type PayloadKind = 'incident' | 'alert' | 'other';

type Rule = [field: string, valid: (v: unknown) => boolean, expected: string];

const isInteger = (v: unknown) => Number.isSafeInteger(v);
const isNonEmptyString = (v: unknown) => typeof v === 'string' && v !== '';
const isString = (v: unknown) => typeof v === 'string';
const isId = (v: unknown) => typeof v === 'string' && v !== '' && v.length <= MAX_ID_LENGTH;
const isOptionalObject = (v: unknown) => v === undefined || v === null || isObject(v);

const ID = `a non-empty string of at most ${MAX_ID_LENGTH} characters`;
const COMMON: Rule[] = [
  ['event_type', isNonEmptyString, 'a non-empty string'],
  ['event_time', isInteger, 'an integer (milliseconds)'],
  ['person', isOptionalObject, 'an object'],
];
const INCIDENT: Rule[] = [
  ['incident_id', isId, ID],
  ['title', isString, 'a string'],
  ['incident_severity', isNonEmptyString, 'a non-empty string'],
  ['incident_status', isNonEmptyString, 'a non-empty string'],
  ['progress', isNonEmptyString, 'a non-empty string'],
  ['created_at', isInteger, 'an integer (seconds)'],
  ['updated_at', isInteger, 'an integer (seconds)'],
  ['start_time', isInteger, 'an integer (seconds)'],
  ['detail_url', isString, 'a string'],
];
const ALERT: Rule[] = [
  ['alert_id', isId, ID],
  ['title', isString, 'a string'],
  ['alert_severity', isNonEmptyString, 'a non-empty string'],
  ['alert_status', isNonEmptyString, 'a non-empty string'],
  ['progress', isNonEmptyString, 'a non-empty string'],
  ['channel_id', isInteger, 'an integer'],
  ['created_at', isInteger, 'an integer (seconds)'],
  ['updated_at', isInteger, 'an integer (seconds)'],
  ['start_time', isInteger, 'an integer (seconds)'],
  ['last_time', isInteger, 'an integer (seconds)'],
  ['incident', isOptionalObject, 'an object'],
];

const ALERT_TYPES: ReadonlySet<unknown> = new Set(ALERT_EVENT_TYPES);
const INCIDENT_TYPES: ReadonlySet<unknown> = new Set(INCIDENT_EVENT_TYPES);

/** The kind a body claims by its type, or for an unknown type by what it carries. */
export function kindOf(body: Record<string, unknown>): PayloadKind {
  const type = body.event_type;
  if (ALERT_TYPES.has(type)) return 'alert';
  if (INCIDENT_TYPES.has(type) || isObject(body.incident)) return 'incident';
  return isObject(body.alert) ? 'alert' : 'other';
}

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  if (typeof v === 'number')
    return !Number.isInteger(v) ? 'a fraction' : Number.isSafeInteger(v) ? 'a number' : 'an unsafe integer';
  return `a ${typeof v}`;
}

/**
 * The same rules as the tables above, written out with plain property names: V8 turns these into
 * fast loads, where `body[field]` over a list of names is a megamorphic lookup each. Runs on every
 * delivery; the tables only explain a failure. `undefined`: not valid.
 */
export function validKind(body: unknown): PayloadKind | undefined {
  if (!isObject(body)) return undefined;
  const person = body.person;
  if (
    !isNonEmptyString(body.event_type) ||
    !isInteger(body.event_time) ||
    !(person === undefined || person === null || isObject(person))
  ) {
    return undefined;
  }
  const kind = kindOf(body);
  if (kind === 'incident') {
    const incident = body.incident;
    if (!isObject(incident)) return undefined;
    const id = body.event_id;
    return (id === undefined ? isId(incident.event_id) : isId(id)) &&
      isId(incident.incident_id) &&
      isString(incident.title) &&
      isNonEmptyString(incident.incident_severity) &&
      isNonEmptyString(incident.incident_status) &&
      isNonEmptyString(incident.progress) &&
      isInteger(incident.created_at) &&
      isInteger(incident.updated_at) &&
      isInteger(incident.start_time) &&
      isString(incident.detail_url)
      ? kind
      : undefined;
  }
  if (!isId(body.event_id)) return undefined;
  if (kind === 'other') return kind;
  const alert = body.alert;
  if (!isObject(alert)) return undefined;
  const merged = alert.incident;
  return isId(alert.alert_id) &&
    isString(alert.title) &&
    isNonEmptyString(alert.alert_severity) &&
    isNonEmptyString(alert.alert_status) &&
    isNonEmptyString(alert.progress) &&
    isInteger(alert.channel_id) &&
    isInteger(alert.created_at) &&
    isInteger(alert.updated_at) &&
    isInteger(alert.start_time) &&
    isInteger(alert.last_time) &&
    (merged === undefined || merged === null || isObject(merged))
    ? kind
    : undefined;
}

/** Whether a body is a valid delivery, by the fast check. */
export function isValidFast(body: unknown): boolean {
  return validKind(body) !== undefined;
}

/** `undefined` when `body` is a valid delivery of any kind; otherwise the first field at fault. */
export function checkPayload(body: unknown): Problem | undefined {
  return isValidFast(body) ? undefined : findProblem(body);
}

/** The first field at fault, by the tables. */
export function findProblem(body: unknown): Problem | undefined {
  if (!isObject(body)) return { path: '', message: `expected a JSON object, got ${describe(body)}` };
  const kind = kindOf(body);
  const inner = kind === 'other' ? undefined : kind;
  const object = inner && body[inner];
  // The id may sit inside `incident` (custom actions) only when it is not at the top.
  const idInside =
    kind === 'incident' && body.event_id === undefined && isObject(object) && object.event_id !== undefined;
  const id = idInside
    ? fieldProblem(object, ['event_id', isId, ID], 'incident.')
    : fieldProblem(body, ['event_id', isId, ID], '');
  if (id) return id;
  for (const rule of COMMON) {
    const problem = fieldProblem(body, rule, '');
    if (problem) return problem;
  }
  if (!inner) return undefined;
  if (!isObject(object)) return { path: inner, message: `expected an object, got ${describe(object)}` };
  for (const rule of inner === 'incident' ? INCIDENT : ALERT) {
    const problem = fieldProblem(object, rule, `${inner}.`);
    if (problem) return problem;
  }
  return undefined;
}

function fieldProblem(
  object: Record<string, unknown>,
  [field, valid, expected]: Rule,
  prefix: string,
): Problem | undefined {
  const value = object[field];
  if (valid(value)) return undefined;
  const tooLong = expected === ID && typeof value === 'string' && value.length > MAX_ID_LENGTH;
  return {
    path: `${prefix}${field}`,
    message: tooLong ? `longer than ${MAX_ID_LENGTH} characters` : `expected ${expected}, got ${describe(value)}`,
  };
}

/**
 * Whether a parsed body is a valid delivery exactly as it is (the same check the receiver makes).
 * A custom action with `event_id` inside `incident` is valid for the receiver, which copies the id
 * to the top; as it came it is not yet a `WebhookEvent`, so this says `false` for it.
 */
export function isWebhookEvent(body: unknown): body is WebhookEvent {
  return isValidFast(body) && typeof (body as Record<string, unknown>).event_id === 'string';
}
