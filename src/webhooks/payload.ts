// What makes a delivery of the default payload valid, for each kind the service sends, and the keys
// the receiver takes from a valid one. The rules are written once, as the checks of `checkPayload`,
// each of which says where and how a body breaks it: the same code answers "is it valid?" on every
// delivery and "where is it not?" for the 400 that refuses it. Everything no check names is
// optional and kept exactly as it came.
//
// - The kind follows the event type: alert types (`a_*`) carry `alert`, the spec's incident types
//   carry `incident`. A type this SDK does not know is judged by what it carries (`incident`, else
//   `alert`, else only the common fields), so a new type or kind is never refused for being new.
// - `event_id` sits at the top, or (custom actions) inside `incident`; handlers always find it at
//   the top. Ids are at most 256 characters of well-formed Unicode: no lone surrogate (it cannot be
//   stored as a key and read back as the same id), and no U+FFFD, which marks bytes lost in
//   decoding (ids that differed only in invalid UTF-8 would read as one).
// - An incident's or alert's `event_time` is in milliseconds: one plainly in seconds (below 10^11,
//   March 1973 in ms, year 5138 in s) is refused, as it would be judged against a watermark in ms.
// - A problem says what a value is without quoting it: the service keeps answers in its delivery
//   history, which every member of the account can read.
// - Staleness is judged per incident (`incident:<id>`) or per alert (`alert:<id>`); other kinds
//   are never stale.

import type { Problem } from '../core/problem.js';
import { isObject } from '../internal/guards.js';
import { ALERT_EVENT_TYPES, INCIDENT_EVENT_TYPES, type WebhookEvent } from './types.js';

/** What the receiver takes from a valid delivery. */
export interface DeliveryKeys {
  /** The dedup key: deliveries with the same one run the handlers once. */
  eventId: string;
  eventType: string;
  /** Milliseconds since the epoch. */
  eventTime: number;
  /**
   * Where staleness is judged: `incident:<id>` or `alert:<id>`; an older event than one already
   * accepted in the same scope is stale. `undefined`: no staleness check.
   */
  scope: string | undefined;
}

/** A body read as a delivery: its keys and the event handed to handlers, or the first problem. */
export type ReadResult<E = WebhookEvent> = { ok: true; event: E; keys: DeliveryKeys } | { ok: false; problem: Problem };

/** Reads a parsed body as a delivery. Pure and synchronous: it runs on every delivery. */
export type PayloadReader<E = WebhookEvent> = (body: unknown) => ReadResult<E>;

/** Which payload a delivery is: what carries its staleness scope. */
export type PayloadKind = 'incident' | 'alert' | 'other';

/** Longest id accepted (`event_id`, `incident_id`, `alert_id`): the documented ones are 24 or 32 characters. */
export const MAX_ID_LENGTH = 256;
/** @internal What an id must be, as problems say it. */
export const ID_EXPECTED = 'a non-empty string of at most 256 characters';
/** @internal The smallest `event_time` read as milliseconds: anything below is plainly seconds. */
export const MIN_EVENT_TIME_MS = 100_000_000_000;

/** `String#isWellFormed` (ES2024: Node 20, Bun, Deno, workerd and current browsers have it). */
const isWellFormed = (v: string) => (v as string & { isWellFormed(): boolean }).isWellFormed();

const isInteger = (v: unknown) => Number.isSafeInteger(v);
const isNonEmptyString = (v: unknown) => typeof v === 'string' && v !== '';
const isString = (v: unknown) => typeof v === 'string';
const isMilliseconds = (v: unknown) => isInteger(v) && (v as number) >= MIN_EVENT_TIME_MS;
const isOptionalObject = (v: unknown) => v === undefined || v === null || isObject(v);
/** @internal What an id must be (custom bodies read their ids by the same rule). */
export const isId = (v: unknown): v is string =>
  typeof v === 'string' && v !== '' && v.length <= MAX_ID_LENGTH && isWellFormed(v) && !v.includes('\uFFFD');

// How a check says what it expected, in the problem it makes.
const NON_EMPTY_STRING = 'a non-empty string';
const STRING = 'a string';
const INTEGER = 'an integer';
const SECONDS = 'an integer (seconds)';
const OBJECT = 'an object';
const MILLISECONDS = 'Unix milliseconds';

const ALERT_TYPES: ReadonlySet<unknown> = new Set(ALERT_EVENT_TYPES);
const INCIDENT_TYPES: ReadonlySet<unknown> = new Set(INCIDENT_EVENT_TYPES);

/**
 * @internal Whether events of a type are judged against their incident's newer events: not a custom
 * action (`i_custom`), which is a command someone gave, not a state of the incident that a newer one
 * replaces (its button pressed just before an acknowledgement that arrives first is still meant).
 */
export const isJudgedByTime = (type: unknown) => type !== 'i_custom';

/** @internal Whether an event type is one of the service's (incident or alert). */
export const isServiceEventType = (type: unknown) => INCIDENT_TYPES.has(type) || ALERT_TYPES.has(type);

/** The kind a body claims by its type, or for an unknown type by what it carries. */
export function kindOf(body: Record<string, unknown>): PayloadKind {
  const type = body.event_type;
  if (ALERT_TYPES.has(type)) return 'alert';
  if (INCIDENT_TYPES.has(type) || isObject(body.incident)) return 'incident';
  return isObject(body.alert) ? 'alert' : 'other';
}

/** `undefined` when `body` is a valid delivery of any kind; otherwise the first field at fault. */
export function checkPayload(body: unknown): Problem | undefined {
  if (!isObject(body)) return { path: '', message: `expected a JSON object, got ${describe(body)}` };
  const kind = kindOf(body);
  const inner = kind === 'other' ? undefined : body[kind];
  // The id may sit inside `incident` (custom actions) only when it is not at the top.
  if (kind === 'incident' && body.event_id === undefined && isObject(inner) && inner.event_id !== undefined) {
    if (!isId(inner.event_id)) return fault('incident.event_id', inner.event_id, ID_EXPECTED);
  } else if (!isId(body.event_id)) return fault('event_id', body.event_id, ID_EXPECTED);
  if (!isNonEmptyString(body.event_type)) return fault('event_type', body.event_type, NON_EMPTY_STRING);
  if (!isInteger(body.event_time)) return fault('event_time', body.event_time, 'an integer (milliseconds)');
  if (!isOptionalObject(body.person)) return fault('person', body.person, OBJECT);
  // A type added later is held to nothing more: what it carries may differ from today's kinds.
  if (kind === 'other' || !isServiceEventType(body.event_type)) return undefined;
  if (!isMilliseconds(body.event_time)) return fault('event_time', body.event_time, MILLISECONDS);
  if (!isObject(inner)) return fault(kind, inner, OBJECT);
  return kind === 'incident' ? incidentProblem(inner) : alertProblem(inner);
}

function incidentProblem(incident: Record<string, unknown>): Problem | undefined {
  if (!isId(incident.incident_id)) return fault('incident.incident_id', incident.incident_id, ID_EXPECTED);
  if (!isString(incident.title)) return fault('incident.title', incident.title, STRING);
  if (!isNonEmptyString(incident.incident_severity))
    return fault('incident.incident_severity', incident.incident_severity, NON_EMPTY_STRING);
  if (!isNonEmptyString(incident.incident_status))
    return fault('incident.incident_status', incident.incident_status, NON_EMPTY_STRING);
  if (!isNonEmptyString(incident.progress)) return fault('incident.progress', incident.progress, NON_EMPTY_STRING);
  if (!isInteger(incident.created_at)) return fault('incident.created_at', incident.created_at, SECONDS);
  if (!isInteger(incident.updated_at)) return fault('incident.updated_at', incident.updated_at, SECONDS);
  if (!isInteger(incident.start_time)) return fault('incident.start_time', incident.start_time, SECONDS);
  if (!isString(incident.detail_url)) return fault('incident.detail_url', incident.detail_url, STRING);
  return undefined;
}

function alertProblem(alert: Record<string, unknown>): Problem | undefined {
  if (!isId(alert.alert_id)) return fault('alert.alert_id', alert.alert_id, ID_EXPECTED);
  if (!isString(alert.title)) return fault('alert.title', alert.title, STRING);
  if (!isNonEmptyString(alert.alert_severity))
    return fault('alert.alert_severity', alert.alert_severity, NON_EMPTY_STRING);
  if (!isNonEmptyString(alert.alert_status)) return fault('alert.alert_status', alert.alert_status, NON_EMPTY_STRING);
  if (!isNonEmptyString(alert.progress)) return fault('alert.progress', alert.progress, NON_EMPTY_STRING);
  if (!isInteger(alert.channel_id)) return fault('alert.channel_id', alert.channel_id, INTEGER);
  if (!isInteger(alert.created_at)) return fault('alert.created_at', alert.created_at, SECONDS);
  if (!isInteger(alert.updated_at)) return fault('alert.updated_at', alert.updated_at, SECONDS);
  if (!isInteger(alert.start_time)) return fault('alert.start_time', alert.start_time, SECONDS);
  if (!isInteger(alert.last_time)) return fault('alert.last_time', alert.last_time, SECONDS);
  if (!isOptionalObject(alert.incident)) return fault('alert.incident', alert.incident, OBJECT);
  return undefined;
}

/**
 * The default payload of every kind: incident events (the spec's "Events" section), custom actions
 * (`event_id` at the top or inside `incident`), alert events (`alert` in place of `incident`,
 * staleness per alert) and kinds added later (dedup on `event_id`, no staleness).
 */
export const readDefaultPayload: PayloadReader = (body) => {
  const problem = checkPayload(body);
  if (problem) return { ok: false, problem };
  const raw = body as Record<string, unknown> & { event_type: string; event_time: number };
  let event = raw as unknown as WebhookEvent;
  let scope: string | undefined;
  const kind = kindOf(raw);
  // Judged per incident or alert where it has a well-formed id, and (a type added later, whose time
  // is not checked) where its time reads as milliseconds: a watermark compares like with like.
  const judged =
    isJudgedByTime(raw.event_type) && (isServiceEventType(raw.event_type) || isMilliseconds(raw.event_time));
  if (kind === 'incident') {
    const incident = raw.incident as { incident_id: unknown; event_id?: string };
    if (judged && isId(incident.incident_id)) scope = `incident:${incident.incident_id}`;
    if (raw.event_id === undefined) event = { ...raw, event_id: incident.event_id } as WebhookEvent;
  } else if (kind === 'alert') {
    const { alert_id: id } = raw.alert as { alert_id: unknown };
    if (judged && isId(id)) scope = `alert:${id}`;
  }
  return {
    ok: true,
    event,
    keys: { eventId: event.event_id, eventType: raw.event_type, eventTime: raw.event_time, scope },
  };
};

/**
 * Whether a parsed body is a valid delivery exactly as it is (the same check the receiver makes).
 * A custom action with `event_id` inside `incident` is valid for the receiver, which copies the id
 * to the top; as it came it is not yet a `WebhookEvent`, so this says `false` for it.
 */
export function isWebhookEvent(body: unknown): body is WebhookEvent {
  return checkPayload(body) === undefined && typeof (body as Record<string, unknown>).event_id === 'string';
}

/** The problem of `value` at `path`, which was not `expected`: said without quoting the value. */
function fault(path: string, value: unknown, expected: string): Problem {
  if (expected === ID_EXPECTED && typeof value === 'string' && value !== '')
    return {
      path,
      message: value.length > MAX_ID_LENGTH ? `longer than ${MAX_ID_LENGTH} characters` : 'not well-formed Unicode',
    };
  return { path, message: `expected ${expected}, got ${describe(value, expected)}` };
}

/** What a value is, in words that quote none of it. */
function describe(v: unknown, expected?: string): string {
  if (expected === MILLISECONDS && isInteger(v)) return 'what reads as seconds';
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  if (typeof v === 'number')
    return !Number.isInteger(v) ? 'a fraction' : Number.isSafeInteger(v) ? 'a number' : 'an unsafe integer';
  return `a ${typeof v}`;
}
