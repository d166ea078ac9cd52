// What makes a delivery valid: the spec's required fields with their types. Everything else is
// optional and kept exactly as it came. Hand-written, because it runs on every delivery.

import type { WebhookEvent } from './types.js';

/** Where a delivery breaks the payload contract. */
export interface PayloadProblem {
  /** Where, e.g. `incident.start_time`; empty for the whole body. */
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInteger = (v: unknown) => Number.isSafeInteger(v);
const isNonEmptyString = (v: unknown) => typeof v === 'string' && v !== '';
const isString = (v: unknown) => typeof v === 'string';

const REQUIRED: Array<[string, (v: unknown) => boolean, string]> = [
  ['event_id', isNonEmptyString, 'a non-empty string'],
  ['event_type', isNonEmptyString, 'a non-empty string'],
  ['event_time', isInteger, 'an integer (milliseconds)'],
];
const REQUIRED_INCIDENT: Array<[string, (v: unknown) => boolean, string]> = [
  ['incident_id', isNonEmptyString, 'a non-empty string'],
  ['title', isString, 'a string'],
  ['incident_severity', isNonEmptyString, 'a non-empty string'],
  ['incident_status', isNonEmptyString, 'a non-empty string'],
  ['progress', isNonEmptyString, 'a non-empty string'],
  ['created_at', isInteger, 'an integer (seconds)'],
  ['updated_at', isInteger, 'an integer (seconds)'],
  ['start_time', isInteger, 'an integer (seconds)'],
  ['detail_url', isString, 'a string'],
];

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  if (typeof v === 'number') return !Number.isInteger(v) ? 'a fraction' : Number.isSafeInteger(v) ? 'a number' : 'an unsafe integer';
  return `a ${typeof v}`;
}

/**
 * The same rules as the tables above, written out with plain property names: V8 turns these into
 * fast loads, where `body[field]` over a list of names is a megamorphic lookup each. Runs on every
 * delivery; the tables only explain a failure.
 */
export function isValidFast(body: unknown): boolean {
  if (!isObject(body)) return false;
  const incident = body.incident;
  if (!isObject(incident)) return false;
  const person = body.person;
  return (
    isNonEmptyString(body.event_id) &&
    isNonEmptyString(body.event_type) &&
    isInteger(body.event_time) &&
    isNonEmptyString(incident.incident_id) &&
    isString(incident.title) &&
    isNonEmptyString(incident.incident_severity) &&
    isNonEmptyString(incident.incident_status) &&
    isNonEmptyString(incident.progress) &&
    isInteger(incident.created_at) &&
    isInteger(incident.updated_at) &&
    isInteger(incident.start_time) &&
    isString(incident.detail_url) &&
    (person === undefined || person === null || isObject(person))
  );
}

/** `undefined` when `body` is a valid delivery; otherwise the first field at fault. */
export function checkPayload(body: unknown): PayloadProblem | undefined {
  return isValidFast(body) ? undefined : findProblem(body);
}

/** The first field at fault, by the tables. */
export function findProblem(body: unknown): PayloadProblem | undefined {
  if (!isObject(body)) return { path: '', message: `expected a JSON object, got ${describe(body)}` };
  for (const [field, valid, expected] of REQUIRED) {
    if (!valid(body[field])) return { path: field, message: `expected ${expected}, got ${describe(body[field])}` };
  }
  const incident = body.incident;
  if (!isObject(incident)) return { path: 'incident', message: `expected an object, got ${describe(incident)}` };
  for (const [field, valid, expected] of REQUIRED_INCIDENT) {
    if (!valid(incident[field])) {
      return { path: `incident.${field}`, message: `expected ${expected}, got ${describe(incident[field])}` };
    }
  }
  if (body.person !== undefined && body.person !== null && !isObject(body.person)) {
    return { path: 'person', message: `expected an object, got ${describe(body.person)}` };
  }
  return undefined;
}

/** Whether a parsed body is a valid delivery (the same check the receiver makes). */
export function isWebhookEvent(body: unknown): body is WebhookEvent {
  return checkPayload(body) === undefined;
}
