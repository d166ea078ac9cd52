// What makes a delivery of the default payload valid, for each kind the service sends, and the keys
// the receiver takes from a valid one. The rules are written once, as tables (field, check, words):
// the one walk over them answers both "is it valid?" on every delivery and "where is it not?" for
// the 400 that refuses it. Everything a table does not name is optional and kept exactly as it came.
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

type Rule = readonly [field: string, valid: (v: unknown) => boolean, expected: string];

const ID: Rule = ['event_id', isId, ID_EXPECTED];
const COMMON: readonly Rule[] = [
  ['event_type', isNonEmptyString, 'a non-empty string'],
  ['event_time', isInteger, 'an integer (milliseconds)'],
  ['person', isOptionalObject, 'an object'],
];
const IN_MILLISECONDS: Rule = ['event_time', isMilliseconds, 'Unix milliseconds'];
const INCIDENT: readonly Rule[] = [
  ['incident_id', isId, ID_EXPECTED],
  ['title', isString, 'a string'],
  ['incident_severity', isNonEmptyString, 'a non-empty string'],
  ['incident_status', isNonEmptyString, 'a non-empty string'],
  ['progress', isNonEmptyString, 'a non-empty string'],
  ['created_at', isInteger, 'an integer (seconds)'],
  ['updated_at', isInteger, 'an integer (seconds)'],
  ['start_time', isInteger, 'an integer (seconds)'],
  ['detail_url', isString, 'a string'],
];
const ALERT: readonly Rule[] = [
  ['alert_id', isId, ID_EXPECTED],
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
  const idInside =
    kind === 'incident' && body.event_id === undefined && isObject(inner) && inner.event_id !== undefined;
  const problem =
    (idInside ? ruleProblem(inner, ID, 'incident.') : ruleProblem(body, ID, '')) ?? rulesProblem(body, COMMON, '');
  if (problem || kind === 'other') return problem;
  const time = ruleProblem(body, IN_MILLISECONDS, '');
  if (time) return time;
  if (!isObject(inner)) return { path: kind, message: `expected an object, got ${describe(inner)}` };
  return rulesProblem(inner, kind === 'incident' ? INCIDENT : ALERT, `${kind}.`);
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
  if (kind === 'incident') {
    const incident = raw.incident as { incident_id: string; event_id?: string };
    scope = `incident:${incident.incident_id}`;
    if (raw.event_id === undefined) event = { ...raw, event_id: incident.event_id } as WebhookEvent;
  } else if (kind === 'alert') {
    scope = `alert:${(raw.alert as { alert_id: string }).alert_id}`;
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

function rulesProblem(object: Record<string, unknown>, rules: readonly Rule[], prefix: string): Problem | undefined {
  for (const rule of rules) {
    const problem = ruleProblem(object, rule, prefix);
    if (problem) return problem;
  }
  return undefined;
}

function ruleProblem(
  object: Record<string, unknown>,
  [field, valid, expected]: Rule,
  prefix: string,
): Problem | undefined {
  const value = object[field];
  if (valid(value)) return undefined;
  const path = `${prefix}${field}`;
  if (expected === ID_EXPECTED && typeof value === 'string' && value !== '')
    return {
      path,
      message: value.length > MAX_ID_LENGTH ? `longer than ${MAX_ID_LENGTH} characters` : 'not well-formed Unicode',
    };
  return { path, message: `expected ${expected}, got ${describe(value, expected)}` };
}

/** What a value is, in words that quote none of it. */
function describe(v: unknown, expected?: string): string {
  if (expected === IN_MILLISECONDS[2] && isInteger(v)) return 'what reads as seconds';
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  if (typeof v === 'number')
    return !Number.isInteger(v) ? 'a fraction' : Number.isSafeInteger(v) ? 'a number' : 'an unsafe integer';
  return `a ${typeof v}`;
}
