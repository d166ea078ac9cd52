// What makes a delivery of the default payload valid, for each kind the service sends: the
// required fields with their types. Everything else is optional and kept exactly as it came.
//
// The kind follows the event type: alert types (`a_*`) carry `alert`, the spec's incident types
// carry `incident`. A type this SDK does not know is judged by what it carries (`incident`, else
// `alert`, else only the common fields), so a new type or kind is never refused for being new.
// `event_id` sits at the top, or (custom actions) inside `incident`. Ids are at most 256 characters
// of well-formed Unicode: no lone surrogate (it cannot be stored as a key and read back as the same
// id), and no U+FFFD, which marks bytes lost in decoding (ids that differed only in invalid UTF-8
// would read as one; a framework that parsed the body itself decoded them so).
// An incident's or alert's `event_time` is in milliseconds: one plainly in seconds (below 10^11,
// March 1973 in ms, year 5138 in s) is refused, as it would be judged against a watermark in ms.
//
// Hand-written, because it runs on every delivery: a fast check with plain property loads here, and
// tables that only explain a failure in payload-problems.ts (loaded by the receiver with the first
// invalid delivery). A property test keeps the two in agreement.

import { ALERT_EVENT_TYPES, INCIDENT_EVENT_TYPES, type WebhookEvent } from './types.js';
import { isObject } from '../internal/guards.js';

/** Longest id accepted (`event_id`, `incident_id`, `alert_id`): the documented ones are 24 or 32 characters. */
export const MAX_ID_LENGTH = 256;
/** @internal What an id must be, as problems say it. */
// A plain string, not a template: bundlers cannot drop an unused template that interpolates.
export const ID_EXPECTED = 'a non-empty string of at most 256 characters';
/** @internal The smallest `event_time` read as milliseconds: anything below is plainly seconds. */
export const MIN_EVENT_TIME_MS = 100_000_000_000;

/** Which payload a delivery is: what carries its staleness scope. */
export type PayloadKind = 'incident' | 'alert' | 'other';

/** @internal The field checks of the payload contract, shared with payload-problems.ts (and `isId` with custom bodies). */
export const isInteger = (v: unknown) => Number.isSafeInteger(v);
export const isNonEmptyString = (v: unknown) => typeof v === 'string' && v !== '';
export const isString = (v: unknown) => typeof v === 'string';
export const isId = (v: unknown): v is string =>
  typeof v === 'string' && v !== '' && v.length <= MAX_ID_LENGTH && isWellFormed(v) && !v.includes('\uFFFD');
export const isMilliseconds = (v: unknown) => isInteger(v) && (v as number) >= MIN_EVENT_TIME_MS;
export const isOptionalObject = (v: unknown) => v === undefined || v === null || isObject(v);

/** `String#isWellFormed` (ES2024: Node 20, Bun, Deno, workerd and current browsers have it). */
const isWellFormed = (v: string) => (v as string & { isWellFormed(): boolean }).isWellFormed();

const ALERT_TYPES: ReadonlySet<unknown> = new Set(ALERT_EVENT_TYPES);
const INCIDENT_TYPES: ReadonlySet<unknown> = new Set(INCIDENT_EVENT_TYPES);

/** @internal Whether an event type is one of the service's (incident or alert). */
export const isServiceEventType = (type: unknown) => INCIDENT_TYPES.has(type) || ALERT_TYPES.has(type);

/** The kind a body claims by its type, or for an unknown type by what it carries. */
export function kindOf(body: Record<string, unknown>): PayloadKind {
  const type = body.event_type;
  if (ALERT_TYPES.has(type)) return 'alert';
  if (INCIDENT_TYPES.has(type) || isObject(body.incident)) return 'incident';
  return isObject(body.alert) ? 'alert' : 'other';
}

/**
 * The same rules as the tables of payload-problems.ts, written out with plain property names: V8 turns these into
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
      isMilliseconds(body.event_time) &&
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
    isMilliseconds(body.event_time) &&
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

/**
 * Whether a parsed body is a valid delivery exactly as it is (the same check the receiver makes).
 * A custom action with `event_id` inside `incident` is valid for the receiver, which copies the id
 * to the top; as it came it is not yet a `WebhookEvent`, so this says `false` for it.
 */
export function isWebhookEvent(body: unknown): body is WebhookEvent {
  return isValidFast(body) && typeof (body as Record<string, unknown>).event_id === 'string';
}
